/**
 * `npm run release`: writes `release/v<version>/` from the checkout, everything a team installs
 * pulumi-hosting from without Node.js, npm or a registry (docs/DECISIONS.md, 2026-11-27):
 *
 * - `pulumi-resource-hosting-v<version>-<os>-<arch>.tar.gz` per platform: the plugin as a single
 *   executable (scripts/sea/), at the archive's root, as the Pulumi CLI installs it;
 * - `schema.json` with the release's version and `pluginDownloadURL`, and the SDKs generated from
 *   it: `pulumi_hosting-<version>` wheel and sdist, `pulumi-hosting-sdk-<version>.tgz` (the
 *   TypeScript SDK) and `pulumi-hosting-sdk-go-v<version>.zip` (the Go module zip of tag
 *   `sdk/go/v<version>`); every program made with them gets the plugin from that URL by itself;
 * - `pulumi-hosting-<version>.tgz`, the npm package (its schema and SDKs the release's);
 * - `RELEASE-NOTES.md` (the CHANGELOG's section, the install lines, each file's size) and
 *   `SHA256SUMS` (`sha256sum -c SHA256SUMS` checks every other file).
 *
 * `npm run release -- --bump X.Y.Z` sets the version everywhere instead (package.json, the
 * lockfile, schema.json, the SDKs and reference pages regenerated), dates the CHANGELOG's
 * Unreleased section and prints the tags to push. See scripts/release/options.ts for the flags.
 *
 * Needs what a checkout's tests need (`npm ci`, the toolchain of scripts/bootstrap.sh, Python 3.9
 * or later) and GNU tar; the npm registry once for the Node.js binaries, PyPI once for the Python
 * build tools.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { repositoryRoot } from "./reference";
import { bumpChangelog, bumpManifest, publishedManifest, releaseSection } from "./release/changelog";
import { moduleZip } from "./release/go-module";
import {
  type BumpOptions,
  type Options,
  parseOptions,
  type ReleaseOptions,
  releaseTags,
  USAGE,
} from "./release/options";
import { buildPythonPackages } from "./release/python";
import { schemaText } from "./schema";
import { bundlePlugin } from "./sea/bundle";
import { buildExecutable, NODE_VERSION, type Platform } from "./sea/executable";

const execFileAsync = promisify(execFile);
const gzipAsync = promisify(gzip);
const log = (line: string) => process.stderr.write(`release: ${line}\n`);

/** Runs a step, saying how long it took. */
async function step<T>(name: string, work: () => T | Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await work();
  log(`${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return result;
}

/** The plugin archive's name, as the Pulumi CLI asks for it. */
export function archiveName(version: string, platform: Platform): string {
  return `pulumi-resource-hosting-v${version}-${platform}.tar.gz`;
}

/** What each file of a release is, for the notes. */
function describe(file: string): string {
  const platform = /^pulumi-resource-hosting-v.+-(\w+-\w+)\.tar\.gz$/.exec(file)?.[1];
  if (platform !== undefined) return `the plugin for ${platform} (a single executable)`;
  if (file.endsWith(".whl")) return "the Python SDK, wheel";
  if (file.startsWith("pulumi_hosting-") && file.endsWith(".tar.gz")) return "the Python SDK, source";
  if (file.startsWith("pulumi-hosting-sdk-go-")) return "the Go SDK (module zip)";
  if (file.startsWith("pulumi-hosting-sdk-")) return "the TypeScript SDK (npm tarball)";
  if (file.startsWith("pulumi-hosting-"))
    return "the npm package (dynamic resources, hosting-import, hosting-fleet, sandbox)";
  if (file === "schema.json") return "the Pulumi package schema";
  return "";
}

/** The commit the release is built from, and whether the work tree differs from it. */
function source(root: string): { commit: string; time: number; dirty: boolean } {
  try {
    const [commit = "", time = "0"] = execFileSync("git", ["log", "-1", "--format=%H %ct"], {
      cwd: root,
      encoding: "utf8",
    })
      .trim()
      .split(" ");
    const dirty =
      execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
        cwd: root,
        encoding: "utf8",
      }).trim() !== "";
    return { commit, time: Number(time), dirty };
  } catch {
    return { commit: "", time: Math.floor(Date.now() / 1000), dirty: true };
  }
}

/** Runs a command, its output discarded but for errors; fails with its stderr. */
export async function run(command: string, args: string[], cwd?: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 << 20 });
    return stdout;
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed: ${stderr?.trim() || message}`);
  }
}

/**
 * A gzipped tar of one file at the archive's root, the same bytes for the same file and date.
 * gzip's level 6: level 9 takes five times as long for 0.4% less.
 */
async function archive(file: string, into: string, mtime: number): Promise<void> {
  const owner = ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", `--mtime=@${mtime}`];
  const tar = await execFileAsync("tar", [...owner, "-C", dirname(file), "-cf", "-", basename(file)], {
    encoding: "buffer",
    maxBuffer: 1 << 30,
  });
  writeFileSync(into, await gzipAsync(tar.stdout, { level: 6 }));
}

/** The npm package as `npm pack` makes it, with the release's version, schema and SDKs. */
async function packNpm(
  root: string,
  files: string[],
  stage: string,
  version: string,
  out: string,
): Promise<void> {
  const npm = join(stage, "npm");
  mkdirSync(npm);
  for (const entry of [...files, "package.json"]) {
    if (entry === "schema.json" || entry.startsWith("sdk/")) continue;
    cpSync(join(root, entry), join(npm, entry), { recursive: true });
  }
  cpSync(join(stage, "schema.json"), join(npm, "schema.json"));
  for (const language of ["python", "go"]) {
    cpSync(join(stage, "sdk", language), join(npm, "sdk", language), { recursive: true });
  }
  const manifest = join(npm, "package.json");
  writeFileSync(manifest, publishedManifest(readFileSync(manifest, "utf8"), version));
  await run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", out], npm);
}

/**
 * Makes `out` an empty folder for the release. A folder already there is emptied only when it is
 * empty or an earlier release (it has SHA256SUMS), and never when it holds the checkout: `--out`
 * given by mistake must not delete anything else.
 */
export function emptyReleaseFolder(out: string, root: string): void {
  const target = resolve(out);
  const checkout = resolve(root);
  if (checkout === target || checkout.startsWith(`${target}/`)) {
    throw new Error(
      `--out: ${target} holds the checkout; give a folder of its own (default: release/v<version>)`,
    );
  }
  if (existsSync(target)) {
    if (!statSync(target).isDirectory()) throw new Error(`--out: ${target} is a file, not a folder`);
    if (readdirSync(target).length > 0 && !existsSync(join(target, "SHA256SUMS"))) {
      throw new Error(
        `--out: ${target} is not empty and is not an earlier release (no SHA256SUMS): give an empty or new folder`,
      );
    }
    rmSync(target, { recursive: true, force: true });
  }
  mkdirSync(target, { recursive: true });
}

/** Whether two folders hold the same files with the same bytes. */
export function sameFiles(a: string, b: string): boolean {
  if (!existsSync(a) || !existsSync(b)) return false;
  const files = filesBelow(a);
  if (files.join("\n") !== filesBelow(b).join("\n")) return false;
  return files.every((f) => readFileSync(join(a, f)).equals(readFileSync(join(b, f))));
}

/** Every file below `dir`, relative, sorted. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

export function sha256sums(dir: string): string {
  return filesBelow(dir)
    .filter((f) => f !== "SHA256SUMS")
    .map(
      (f) =>
        `${createHash("sha256")
          .update(readFileSync(join(dir, f)))
          .digest("hex")}  ${f}\n`,
    )
    .join("");
}

const MIB = 1024 * 1024;
const size = (bytes: number) =>
  bytes >= MIB ? `${(bytes / MIB).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;

function notes(args: {
  version: string;
  downloadUrl: string;
  root: string;
  out: string;
  from: { commit: string; dirty: boolean };
  /** Whether the checkout's sdk/go is the release's Go module (what the tag serves). */
  goModuleCommitted: boolean;
}): string {
  const { version, downloadUrl, out } = args;
  const section = releaseSection(readFileSync(join(args.root, "CHANGELOG.md"), "utf8"), version);
  const tags = releaseTags(version);
  const files = filesBelow(out).filter((f) => f !== "RELEASE-NOTES.md" && f !== "SHA256SUMS");
  const rows = files.map((f) => `| \`${f}\` | ${size(statSync(join(out, f)).size)} | ${describe(f)} |`);
  return `# pulumi-hosting ${version}

Tags \`${tags.release}\` (this release) and \`${tags.goModule}\` (the Go module). Built from commit
\`${args.from.commit || "unknown"}\`${args.from.dirty ? " with uncommitted changes (not a release to publish)" : ""}.
The schema and every SDK name the plugin's download location, \`pluginDownloadURL\`:
\`${downloadUrl}\`, so the Pulumi CLI installs the plugin by itself for a program in any language.
${
  args.goModuleCommitted
    ? ""
    : `
**Before tagging:** the checkout's \`sdk/go\` is not this release's Go module (another version or
download URL), so \`go get\` of the tag \`${tags.goModule}\` would give the checkout's. Tag a commit
whose \`sdk/go\` is the release's (\`npm run release -- --bump ${version}\` writes it for the
default download URL), or have Go users take the module zip.
`
}
## Changes

${section.unreleased ? `_From the Unreleased section of CHANGELOG.md: ${version} has no section of its own yet (\`npm run release -- --bump ${version}\` writes it)._\n\n` : ""}${section.body}

## Install

- YAML: a \`pulumi:providers:hosting\` resource with \`defaultProvider: true\` and the options
  \`version: ${version}\` and \`pluginDownloadURL: ${downloadUrl}\`.
- Python: \`pip install pulumi_hosting-${version}-py3-none-any.whl\` (or \`pulumi_hosting==${version}\`).
- Go: \`go get github.com/pulumi-hosting/pulumi-hosting/sdk/go@v${version}\` (the \`${tags.goModule}\` tag).
- TypeScript: \`npm install ./pulumi-hosting-sdk-${version}.tgz\`.
- The plugin by hand: \`pulumi plugin install resource hosting ${version} --file pulumi-resource-hosting-v${version}-<os>-<arch>.tar.gz\`.
- \`sha256sum -c SHA256SUMS\` checks every file.

## The plugin executables

Each archive holds \`pulumi-resource-hosting\` (\`.exe\` on Windows): the plugin and Node.js
${NODE_VERSION} in one file (a Node.js single executable application), so nothing else is needed
where it runs.

- **macOS**: the executables are not signed (injecting the plugin removes Node.js's signature).
  Apple silicon (darwin-arm64) runs no unsigned executable: before publishing, sign it ad hoc on a
  Mac (\`codesign --sign - pulumi-resource-hosting\`, then archive it again and update
  \`SHA256SUMS\`), or, once the CLI has installed it, run
  \`codesign --sign - ~/.pulumi/plugins/resource-hosting-v${version}/pulumi-resource-hosting\`.
  Intel Macs (darwin-amd64) run it unsigned.
- **Windows**: \`pulumi-resource-hosting.exe\` carries no valid Authenticode signature (Node.js's
  no longer matches); sign it with the publisher's certificate where one is required.

## Files

| file | size | what |
| --- | --- | --- |
${rows.join("\n")}
`;
}

async function release(options: ReleaseOptions): Promise<string> {
  const root = repositoryRoot();
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    version: string;
    files: string[];
  };
  const version = options.version ?? pkg.version;
  const out = resolve(options.out ?? join(root, "release", `v${version}`));
  const from = source(root);
  if (from.dirty) log("the work tree has uncommitted changes: the notes say so");
  emptyReleaseFolder(out, root);
  const stage = mkdtempSync(join(tmpdir(), "pulumi-hosting-release-"));
  try {
    const schema = schemaText(root, { version, pluginDownloadURL: options.downloadUrl });
    writeFileSync(join(stage, "schema.json"), schema);
    writeFileSync(join(out, "schema.json"), schema);

    await step("SDKs generated from the release's schema", () =>
      run("bash", [join(root, "scripts/build-sdks.sh"), join(stage, "schema.json"), join(stage, "sdk")]),
    );
    const bundle = await step("plugin bundled", () =>
      bundlePlugin({ root, outfile: join(stage, "plugin.js"), version, schema }),
    );
    // The executables (Node.js's builder, then gzip in zlib's threads) and the packages (npm, tsc,
    // Python) each keep about one core busy: the two go side by side.
    const executables = async () => {
      for (const platform of options.platforms) {
        await step(`plugin executable for ${platform}`, async () => {
          const executable = await buildExecutable({
            platform,
            bundle: bundle.outfile,
            outDir: join(stage, "exe", platform),
            log,
          });
          await archive(executable, join(out, archiveName(version, platform)), from.time);
        });
      }
    };
    const packages = async () => {
      await step("npm package packed", () => packNpm(root, pkg.files, stage, version, out));
      await step("TypeScript SDK packed", () =>
        run("bash", [join(root, "scripts/pack-sdk-nodejs.sh"), out, join(stage, "sdk", "nodejs")]),
      );
      await step("Python SDK built", () => buildPythonPackages(join(stage, "sdk", "python"), out, log));
      await step("Go module zipped", () => {
        const { zip } = moduleZip(join(stage, "sdk", "go"), `v${version}`);
        writeFileSync(join(out, `pulumi-hosting-sdk-go-v${version}.zip`), zip);
      });
    };
    await Promise.all([executables(), packages()]);

    writeFileSync(
      join(out, "RELEASE-NOTES.md"),
      notes({
        version,
        downloadUrl: options.downloadUrl,
        root,
        out,
        from,
        goModuleCommitted: sameFiles(join(stage, "sdk", "go"), join(root, "sdk", "go")),
      }),
    );
    writeFileSync(join(out, "SHA256SUMS"), sha256sums(out));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  return out;
}

async function bump(options: BumpOptions): Promise<void> {
  const root = repositoryRoot();
  const date = new Date().toISOString().slice(0, 10);
  const changelog = join(root, "CHANGELOG.md");
  // Everything checked before anything is written.
  const updated = bumpChangelog(readFileSync(changelog, "utf8"), options.version, date);
  const manifests = ["package.json", "package-lock.json"].map((file) => {
    const path = join(root, file);
    return { path, text: bumpManifest(readFileSync(path, "utf8"), options.version, file) };
  });
  for (const { path, text } of manifests) writeFileSync(path, text);
  writeFileSync(changelog, updated);
  await step("schema.json and reference pages regenerated", () =>
    execFileSync(process.execPath, [join(root, "dist/scripts/generate.js")], { cwd: root, stdio: "inherit" }),
  );
  await step("SDKs regenerated", () =>
    execFileSync("bash", [join(root, "scripts/build-sdks.sh")], { cwd: root, stdio: "inherit" }),
  );
  const tags = releaseTags(options.version);
  process.stdout.write(
    `Version ${options.version} set; CHANGELOG.md has its section (${date}). Review, then:\n` +
      `  git commit -am "Release ${options.version}"\n` +
      `  git tag ${tags.release} && git tag ${tags.goModule}\n` +
      `  git push origin HEAD ${tags.release} ${tags.goModule}\n` +
      `  npm run release   # then publish release/v${options.version}/ as release ${tags.release}\n`,
  );
}

async function main(): Promise<void> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`release: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (options.mode === "help") {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (options.mode === "bump") return bump(options);
  const out = await release(options);
  process.stdout.write(`${out}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`release: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
