/**
 * Writes what derives from the kinds' and functions' declarations: `schema.json` (the Pulumi package
 * schema), the reference pages under `docs/reference/`, and the registries (`provider/registry.ts`,
 * `provider/kinds/`). `npm run generate -- --check` fails when
 * one is stale, missing or left over; the unit suite runs the same check.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { REFERENCE_DIR, referencePages, repositoryRoot } from "./reference";
import { leftOverKinds, registryFiles } from "./registry";
import { packageSchema } from "./schema";

/** Every generated file, by path below the repository root. */
export function generatedFiles(root: string): Map<string, string> {
  const schema = packageSchema(root);
  const files = new Map<string, string>([["schema.json", `${JSON.stringify(schema, null, 2)}\n`]]);
  for (const [path, text] of registryFiles(root)) files.set(path, text);
  for (const [path, text] of referencePages(root, schema)) files.set(path, text);
  return files;
}

/** Generated pages that no declaration makes any more (a kind renamed or removed). */
export function leftOver(root: string, files: Map<string, string>): string[] {
  const dir = join(root, REFERENCE_DIR);
  const pages = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".md"))
        .map((f) => join(REFERENCE_DIR, f))
        .filter((path) => !files.has(path))
    : [];
  return [...pages, ...leftOverKinds(root, files)];
}

/** The generated files that differ from what is on disk. */
export function staleFiles(root: string, files = generatedFiles(root)): string[] {
  const stale = [...files]
    .filter(
      ([path, text]) => !existsSync(join(root, path)) || readFileSync(join(root, path), "utf8") !== text,
    )
    .map(([path]) => path);
  return [...stale, ...leftOver(root, files)];
}

function main(): void {
  const root = repositoryRoot();
  const files = generatedFiles(root);
  if (process.argv.includes("--check")) {
    const stale = staleFiles(root, files);
    if (stale.length > 0) {
      console.error(`out of date (run npm run generate): ${stale.join(", ")}`);
      process.exit(1);
    }
    console.log(`${files.size} generated files are current`);
    return;
  }
  for (const path of leftOver(root, files)) rmSync(join(root, path));
  let written = 0;
  for (const [path, text] of files) {
    const target = join(root, path);
    if (existsSync(target) && readFileSync(target, "utf8") === text) continue;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    written++;
  }
  console.log(`${written} of ${files.size} generated files written`);
}

if (require.main === module) main();
