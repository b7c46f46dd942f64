/**
 * Once per run of the end-to-end suite: build the library, pack it (`npm pack --ignore-scripts`,
 * so packing does not build again) and the plugin's TypeScript SDK (scripts/pack-sdk-nodejs.sh),
 * side by side, and install one template `node_modules` with both packed, the checkout's
 * @pulumi/pulumi and the TypeScript a TypeScript program compiles with.
 * Each program links its `node_modules` to the template instead of installing (the library still
 * loads from under a `node_modules`, as users have it). At the end it prints how many times the
 * suite ran the Pulumi CLI.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

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

export default async function setup(project: Project): Promise<() => void> {
  const work = mkdtempSync(join(tmpdir(), "hosting-e2e-"));
  try {
    return await prepare(project, work);
  } catch (e) {
    // No teardown runs for a setup that failed: the folder goes now.
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
}

const run = promisify(execFile);

async function prepare(project: Project, work: string): Promise<() => void> {
  // scripts/test.sh has just built it (and says so); a direct `npx vitest` run builds here.
  if (process.env.PULUMI_HOSTING_BUILT !== "1") {
    execFileSync("npm", ["run", "--silent", "build"], { cwd: ROOT, stdio: "inherit" });
  }
  const [packed, sdk] = await Promise.all([
    run("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", work], { cwd: ROOT }),
    // The TypeScript SDK of the plugin, packed as docs/languages.md says (for the plugin's JavaScript programs).
    run("bash", [join(ROOT, "scripts/pack-sdk-nodejs.sh"), work]),
  ]);
  const tarball = join(work, packed.stdout.trim().split("\n").at(-1) ?? "");
  const template = join(work, "template");
  mkdirSync(template);
  const registry = {
    "@pulumi/pulumi": version("@pulumi/pulumi"),
    typescript: version("typescript"),
    "@types/node": version("@types/node"),
  };
  writeFileSync(
    join(template, "package.json"),
    JSON.stringify({
      name: "e2e-template",
      private: true,
      dependencies: {
        "pulumi-hosting": `file:${tarball}`,
        "@pulumi-hosting/sdk": `file:${sdk.stdout.trim()}`,
        ...registry,
      },
    }),
  );
  installTemplate(template, registry);
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

/** The two packages this run packed: installed fresh into every template, never cached. */
const PACKED = ["pulumi-hosting", "@pulumi-hosting"];

/**
 * `npm install` in the template, starting from the packages of the last template installed with
 * the same lockfile and versions (kept in the cache, hard-linked in: about 15,000 files, which npm
 * took 13.6 s to write on two cores, 14 of its 20 CPU-s in the kernel; the links take 0.3 s and npm
 * then 4 s). npm then adds the two packages this run packed and whatever the cached tree lacks;
 * without the cache (a first run, another lockfile, a cache on another file system), it installs
 * everything and leaves the cache for the next run.
 */
function installTemplate(template: string, registry: Record<string, string>): void {
  const key = createHash("sha256")
    .update(readFileSync(join(ROOT, "package-lock.json")))
    .update(JSON.stringify(registry))
    .update(process.version)
    .digest("hex")
    .slice(0, 16);
  const cacheRoot =
    process.env.PULUMI_HOSTING_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-hosting");
  const cached = join(cacheRoot, "e2e-template", key, "node_modules");
  const linked = existsSync(cached) && spawnOk("cp", ["-al", cached, join(template, "node_modules")]);
  if (!linked) rmSync(join(template, "node_modules"), { recursive: true, force: true });
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: template,
    stdio: "inherit",
  });
  if (linked) return;
  // Kept for the next run without this run's packages; the folder appears whole or not at all.
  const parent = join(cacheRoot, "e2e-template");
  rmSync(parent, { recursive: true, force: true });
  const staging = `${parent}.partial-${process.pid}`;
  mkdirSync(staging, { recursive: true });
  if (!spawnOk("cp", ["-al", join(template, "node_modules"), join(staging, "node_modules")])) {
    rmSync(staging, { recursive: true, force: true });
    return;
  }
  for (const name of [...PACKED, ".package-lock.json"]) {
    rmSync(join(staging, "node_modules", name), { recursive: true, force: true });
  }
  mkdirSync(parent, { recursive: true });
  renameSync(staging, join(parent, key));
}

function spawnOk(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
