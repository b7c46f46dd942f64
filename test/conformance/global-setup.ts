/**
 * Once per run of a project whose tests run the sandbox server in-process: empties the project's
 * folder of conformance counts (`.conformance/<project>/`, one file per test file, written by
 * `setup.ts`), and at the end prints the project's totals and writes them to `totals.json`.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { totals, totalsText } from "./totals";

const ROOT = resolve(__dirname, "../..");

declare module "vitest" {
  export interface ProvidedContext {
    conformanceDir: string;
  }
}

/** What vitest hands a global setup (its `TestProject`), as far as this one uses it. */
interface Project {
  name: string;
  provide(key: "conformanceDir", value: string): void;
}

export default function setup(project: Project): () => void {
  const dir = join(ROOT, ".conformance", project.name || "default");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  project.provide("conformanceDir", dir);
  return () => {
    const sum = totals(dir);
    if (sum.files > 0) console.log(totalsText(project.name, sum));
  };
}
