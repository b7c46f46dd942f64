/**
 * Once per run of the end-to-end suite: build the library, pack it (`npm pack --ignore-scripts`,
 * so packing does not build again) and the plugin's TypeScript SDK (scripts/pack-sdk-nodejs.sh),
 * side by side, or take the tarballs a run packed from the same files (cachedPack), and install
 * one template `node_modules` with both packed, the checkout's @pulumi/pulumi and the TypeScript a
 * TypeScript program compiles with.
 * Each program links its `node_modules` to the template instead of installing (the library still
 * loads from under a `node_modules`, as users have it). At the end it prints how many times the
 * suite's programs ran the Pulumi CLI, and the slowest of those runs.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { promisify } from "node:util";
import { cacheRoot } from "../../scripts/sea/executable";
import { filesUnder, hashFiles } from "./files";

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
  // Both end before either's failure is thrown: the folder they write to goes with a failure.
  const [packing, sdkPacking] = await Promise.allSettled([
    cachedPack("library", work, libraryFiles(), async () => {
      const { stdout } = await run(
        "npm",
        ["pack", "--silent", "--ignore-scripts", "--pack-destination", work],
        {
          cwd: ROOT,
        },
      );
      return join(work, stdout.trim().split("\n").at(-1) ?? "");
    }),
    // The TypeScript SDK of the plugin, packed as docs/languages.md says (for the plugin's JavaScript
    // programs), compiled against this checkout's TypeScript and @pulumi/pulumi.
    cachedPack(
      "sdk-nodejs",
      work,
      [...filesUnder(join(ROOT, "sdk/nodejs")), join(ROOT, "scripts/pack-sdk-nodejs.sh")],
      async () => (await run("bash", [join(ROOT, "scripts/pack-sdk-nodejs.sh"), work])).stdout.trim(),
      [version("typescript"), version("@pulumi/pulumi")],
    ),
  ]);
  if (packing.status === "rejected") throw packing.reason;
  if (sdkPacking.status === "rejected") throw sdkPacking.reason;
  const [tarball, sdkTarball] = [packing.value, sdkPacking.value];
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
        "@pulumi-hosting/sdk": `file:${sdkTarball}`,
        ...registry,
      },
    }),
  );
  installTemplate(template, registry, [tarball, sdkTarball]);
  const invocations = join(work, "invocations.log");
  writeFileSync(invocations, "");
  project.provide("e2e", { tarball, template, invocations });
  return () => {
    const lines = existsSync(invocations)
      ? readFileSync(invocations, "utf8").split("\n").filter(Boolean)
      : [];
    // The slowest runs, for whoever keeps the suite under five minutes: a run that waits (the
    // machine's load aside) shows here first.
    const slowest = lines
      .map((line) => line.split("\t"))
      .sort((a, b) => Number(b[0]) - Number(a[0]))
      .slice(0, 5)
      .map(([seconds, dir, command]) => `${command} (${dir?.replace(/-[A-Za-z0-9]{6}$/, "")}) ${seconds} s`);
    console.log(`e2e: ${lines.length} Pulumi CLI invocations; the slowest: ${slowest.join(", ")}`);
    rmSync(work, { recursive: true, force: true });
  };
}

/**
 * A tarball packed into `work` by `pack`, or the one a run packed from the same files: packing the
 * library (`npm pack`, 2.4 CPU-s) and the SDK (tsc, then `npm pack`, about 4 CPU-s) took most of
 * the setup every end-to-end file waits for. Keyed by the bytes of `files` (what is packed, and how)
 * and `extra` (what else the result depends on), with Node.js's version; `npm pack` writes the same
 * bytes for the same files, so the template's cache (installTemplate) still recognises them.
 */
async function cachedPack(
  name: string,
  work: string,
  files: readonly string[],
  pack: () => Promise<string>,
  extra: readonly string[] = [],
): Promise<string> {
  const hash = hashFiles(createHash("sha256"), ROOT, [...files].sort());
  hash.update([...extra, process.version].join("\0"));
  const parent = join(cacheRoot(), "e2e-packed", name);
  const entry = join(parent, hash.digest("hex").slice(0, 16));
  const kept = existsSync(entry) ? readdirSync(entry).find((f) => f.endsWith(".tgz")) : undefined;
  if (kept !== undefined) {
    copyFileSync(join(entry, kept), join(work, kept));
    return join(work, kept);
  }
  const packed = await pack();
  // Kept whole or not at all (staged, then renamed), as the only entry.
  const staging = join(parent, `${STAGING}${process.pid}`);
  try {
    mkdirSync(staging, { recursive: true });
    copyFileSync(packed, join(staging, basename(packed)));
    for (const other of readdirSync(parent)) {
      if (join(parent, other) !== staging) rmSync(join(parent, other), { recursive: true, force: true });
    }
    renameSync(staging, entry);
  } catch {
    // Another run kept its own first, or the cache cannot be written: the next run packs again.
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return packed;
}

/**
 * What `npm pack` puts in the library's tarball: the package.json's `files`, the package.json, and
 * the files npm always adds from the root (README, LICENSE, CHANGELOG and NOTICE, in any case).
 */
function libraryFiles(): string[] {
  const manifest = join(ROOT, "package.json");
  const listed = (JSON.parse(readFileSync(manifest, "utf8")) as { files: string[] }).files.map((f) =>
    join(ROOT, f),
  );
  const always = readdirSync(ROOT).filter((f) => /^(readme|licen[cs]e|changelog|notice)/i.test(f));
  const files = listed.flatMap((path) => (statSync(path).isDirectory() ? filesUnder(path) : [path]));
  return [...new Set([manifest, ...files, ...always.map((f) => join(ROOT, f))])];
}

/**
 * The two packages this run packed: never in the lockfile's cached tree (only a whole template,
 * kept for tarballs byte for byte the same, holds them).
 */
const PACKED = ["pulumi-hosting", "@pulumi-hosting"];

/**
 * `npm install` in the template, starting from the packages of the last template installed with
 * the same lockfile and versions (kept in the cache, hard-linked in: about 15,000 files, which npm
 * took 13.6 s to write on two cores, 14 of its 20 CPU-s in the kernel; the links take 0.3 s and npm
 * then 3 to 4 s). npm then adds the two packages this run packed and whatever the cached tree lacks.
 * Without a cache (a first run, another lockfile), or when npm fails on the cached tree, it installs
 * everything and keeps that tree for the next run; where the cache cannot be linked (another file
 * system), every run installs everything.
 *
 * A run whose two packed tarballs are byte for byte the last run's (the same sources: `npm pack`
 * writes the same tarball for the same files) links the last template whole, its two packages
 * included, and runs no npm at all.
 */
function installTemplate(
  template: string,
  registry: Record<string, string>,
  packed: readonly string[],
): void {
  const key = createHash("sha256")
    .update(readFileSync(join(ROOT, "package-lock.json")))
    .update(JSON.stringify(registry))
    .update(process.version)
    .digest("hex")
    .slice(0, 16);
  const parent = join(cacheRoot(), "e2e-template");
  const entry = join(parent, key);
  const cached = join(entry, "node_modules");
  const packedDigest = createHash("sha256");
  for (const file of packed) packedDigest.update(readFileSync(file));
  const whole = `${WHOLE}${packedDigest.digest("hex").slice(0, 16)}`;
  const modules = join(template, "node_modules");
  const wholeModules = join(entry, whole, "node_modules");
  if (existsSync(wholeModules) && spawnOk("cp", ["-al", wholeModules, modules])) return;
  rmSync(modules, { recursive: true, force: true });
  const npmInstall = () =>
    execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: template,
      stdio: "inherit",
    });
  let installed = false;
  if (existsSync(cached) && spawnOk("cp", ["-al", cached, modules])) {
    try {
      npmInstall();
      installed = true;
    } catch {
      // A cached tree npm cannot complete is dropped, and the template installed whole.
      rmSync(entry, { recursive: true, force: true });
    }
  }
  if (!installed) {
    rmSync(modules, { recursive: true, force: true });
    npmInstall();
    // The lockfile's tree, but this run's two packages, as the cache's only entry.
    keepLinked(modules, parent, key, () => true, [...PACKED, ".package-lock.json"]);
  }
  // The template as it is, this run's packages included, as the entry's only whole template.
  if (existsSync(entry)) keepLinked(modules, entry, whole, (name) => name.startsWith(WHOLE));
}

/** The prefix of a cache entry's whole template (`whole-<digest of the packed tarballs>`). */
const WHOLE = "whole-";

/** The prefix of the folder a run stages an entry in (`.partial-<pid>`). */
const STAGING = ".partial-";

/**
 * Keeps `modules` (hard-linked, but the names in `drop`) as `folder/name/node_modules`, and removes
 * the entries of `folder` it `replaces`. The entry appears whole or not at all: it is linked into a
 * folder of this process's inside `folder`, then renamed in place; a run that loses a race with
 * another, or cannot link, leaves the cache as it was. Staging folders of runs killed before their
 * rename go too.
 */
function keepLinked(
  modules: string,
  folder: string,
  name: string,
  replaces: (entry: string) => boolean,
  drop: readonly string[] = [],
): void {
  const staging = `${STAGING}${process.pid}`;
  mkdirSync(join(folder, staging), { recursive: true });
  try {
    if (!spawnOk("cp", ["-al", modules, join(folder, staging, "node_modules")])) return;
    for (const dropped of drop) {
      rmSync(join(folder, staging, "node_modules", dropped), { recursive: true, force: true });
    }
    for (const other of readdirSync(folder)) {
      if (other !== staging && (replaces(other) || other.startsWith(STAGING))) {
        rmSync(join(folder, other), { recursive: true, force: true });
      }
    }
    renameSync(join(folder, staging), join(folder, name));
  } catch {
    // Another run kept its own first: that one serves.
  } finally {
    rmSync(join(folder, staging), { recursive: true, force: true });
  }
}

function spawnOk(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
