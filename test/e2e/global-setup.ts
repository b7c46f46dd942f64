/**
 * Once per run of the end-to-end suite: build the library, pack it (`npm pack --ignore-scripts`,
 * so packing does not build again) and the plugin's TypeScript SDK (scripts/pack-sdk-nodejs.sh),
 * and install one template `node_modules` with both packed, the checkout's @pulumi/pulumi and the
 * TypeScript a TypeScript program compiles with.
 * Each program links its `node_modules` to the template instead of installing (the library still
 * loads from under a `node_modules`, as users have it). At the end it prints how many times the
 * suite ran the Pulumi CLI.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

export interface E2eContext {
  /** The `npm pack` tarball of the built library. */
  tarball: string;
  /** A folder whose `node_modules` programs link to. */
  template: string;
  /** A file each CLI invocation appends a line to. */
  invocations: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    e2e: E2eContext;
  }
}

const version = (pkg: string) =>
  JSON.parse(readFileSync(join(ROOT, "node_modules", pkg, "package.json"), "utf8")).version as string;

/** What vitest hands a global setup (its `TestProject`), as far as this one uses it. */
interface Project {
  provide(key: "e2e", value: E2eContext): void;
}

export default function setup(project: Project): () => void {
  const work = mkdtempSync(join(tmpdir(), "hosting-e2e-"));
  try {
    return prepare(project, work);
  } catch (e) {
    // No teardown runs for a setup that failed: the folder goes now.
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
}

function prepare(project: Project, work: string): () => void {
  // scripts/test.sh has just built it (and says so); a direct `npx vitest` run builds here.
  if (process.env.PULUMI_HOSTING_BUILT !== "1") {
    execFileSync("npm", ["run", "--silent", "build"], { cwd: ROOT, stdio: "inherit" });
  }
  const packed = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", work], {
    cwd: ROOT,
    encoding: "utf8",
  });
  const tarball = join(work, packed.trim().split("\n").at(-1) ?? "");
  // The TypeScript SDK of the plugin, packed as docs/languages.md says (for the plugin's JavaScript programs).
  const sdk = execFileSync("bash", [join(ROOT, "scripts/pack-sdk-nodejs.sh"), work], {
    encoding: "utf8",
  }).trim();
  const template = join(work, "template");
  mkdirSync(template);
  writeFileSync(
    join(template, "package.json"),
    JSON.stringify({
      name: "e2e-template",
      private: true,
      dependencies: {
        "pulumi-hosting": `file:${tarball}`,
        "@pulumi-hosting/sdk": `file:${sdk}`,
        "@pulumi/pulumi": version("@pulumi/pulumi"),
        typescript: version("typescript"),
        "@types/node": version("@types/node"),
      },
    }),
  );
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: template,
    stdio: "inherit",
  });
  const invocations = join(work, "invocations.log");
  writeFileSync(invocations, "");
  project.provide("e2e", { tarball, template, invocations });
  return () => {
    const lines = existsSync(invocations)
      ? readFileSync(invocations, "utf8").split("\n").filter(Boolean)
      : [];
    console.log(`e2e: ${lines.length} Pulumi CLI invocations`);
    rmSync(work, { recursive: true, force: true });
  };
}
