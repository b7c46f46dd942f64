/**
 * `npm run release -- [flags]`: what a release is made with, checked before anything is built.
 * Every error names the flag and what it takes.
 */
import { DEFAULT_PLUGIN_DOWNLOAD_URL } from "../schema";
import { ALL_PLATFORMS, isPlatform, type Platform } from "../sea/executable";

/** Where the CLI downloads the plugin from when a release names no other place (scripts/schema.ts). */
export const DEFAULT_DOWNLOAD_URL = DEFAULT_PLUGIN_DOWNLOAD_URL;

export const USAGE = `usage: npm run release -- [--version X.Y.Z] [--download-url URL] [--platforms LIST] [--out DIR]
       npm run release -- --bump X.Y.Z

  --version       the release's version (default: package.json's)
  --download-url  where the Pulumi CLI downloads the plugin (pluginDownloadURL): github://<host>/<owner>[/<repo>],
                  gitlab://<host>/<project>, or http(s)://... (the CLI fetches
                  <url>/pulumi-resource-hosting-v<version>-<os>-<arch>.tar.gz; \${VERSION}, \${OS}, \${ARCH} are
                  replaced) (default: ${DEFAULT_DOWNLOAD_URL})
  --platforms     a comma-separated subset of ${ALL_PLATFORMS.join(",")} (default: all)
  --out           the release folder (default: release/v<version>)
  --bump          sets the version everywhere, dates its CHANGELOG section and prints the tags to push`;

export interface ReleaseOptions {
  mode: "release";
  version?: string;
  downloadUrl: string;
  platforms: Platform[];
  out?: string;
}

export interface BumpOptions {
  mode: "bump";
  version: string;
}

export type Options = ReleaseOptions | BumpOptions | { mode: "help" };

/**
 * MAJOR.MINOR.PATCH with an optional pre-release `-alpha.N`, `-beta.N` or `-rc.N`: the forms npm,
 * Go and PyPI all take (the Python SDK's generator writes them as `0.3.0a1`, `0.3.0b1`, `0.3.0rc1`;
 * another pre-release would give no valid Python version).
 */
const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-(alpha|beta|rc)\.(0|[1-9]\d*))?$/;

export function checkVersion(flag: string, value: string): string {
  if (!VERSION.test(value)) {
    throw new Error(
      `${flag}: ${JSON.stringify(value)} is not a version: MAJOR.MINOR.PATCH with an optional -alpha.N, -beta.N or -rc.N (e.g. 0.3.0, 0.3.0-rc.1), without a leading v`,
    );
  }
  return value;
}

/** The forms of `pluginDownloadURL` the Pulumi CLI takes (sdk/go/common/workspace/plugins.go). */
export function checkDownloadUrl(value: string): string {
  const allowed =
    "github://<host>/<owner>[/<repo>] (e.g. github://api.github.com/acme/pulumi-hosting), gitlab://<host>/<project id> or http(s)://<host>/<path>";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--download-url: ${JSON.stringify(value)} is not a URL; allowed: ${allowed}`);
  }
  const parts = url.pathname.replace(/^\/+|\/+$/g, "").split("/");
  switch (url.protocol) {
    case "github:":
      if (url.host !== "" && (parts.length === 1 || parts.length === 2) && parts.every((p) => p !== ""))
        return value;
      break;
    case "gitlab:":
      if (url.host !== "" && parts.length === 1 && parts[0] !== "") return value;
      break;
    case "http:":
    case "https:":
      if (url.host !== "") return value;
      break;
  }
  throw new Error(
    `--download-url: ${JSON.stringify(value)} is not a form the Pulumi CLI takes; allowed: ${allowed}`,
  );
}

function checkPlatforms(value: string): Platform[] {
  const names = value.split(",").map((p) => p.trim());
  const unknown = names.filter((p) => !isPlatform(p));
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(
      `--platforms: ${unknown.map((p) => JSON.stringify(p)).join(", ") || "nothing"} is not a platform; allowed: ${ALL_PLATFORMS.join(", ")}`,
    );
  }
  return ALL_PLATFORMS.filter((p) => names.includes(p));
}

export function parseOptions(argv: readonly string[]): Options {
  const values = new Map<string, string>();
  const flags = ["--version", "--download-url", "--platforms", "--out", "--bump"];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--help" || arg === "-h") return { mode: "help" };
    const [name, inline] = arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s) : [arg, undefined];
    if (name === undefined || !flags.includes(name)) {
      throw new Error(
        `${JSON.stringify(arg)} is not a flag of the release; allowed: ${flags.join(", ")}, --help`,
      );
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value === "") throw new Error(`${name} needs a value`);
    if (values.has(name)) throw new Error(`${name} is given twice`);
    values.set(name, value);
  }
  const bump = values.get("--bump");
  if (bump !== undefined) {
    const others = [...values.keys()].filter((k) => k !== "--bump");
    if (others.length > 0)
      throw new Error(`--bump is used alone (it builds nothing); remove ${others.join(", ")}`);
    return { mode: "bump", version: checkVersion("--bump", bump) };
  }
  const version = values.get("--version");
  const out = values.get("--out");
  return {
    mode: "release",
    ...(version === undefined ? {} : { version: checkVersion("--version", version) }),
    downloadUrl: checkDownloadUrl(values.get("--download-url") ?? DEFAULT_DOWNLOAD_URL),
    platforms: checkPlatforms(values.get("--platforms") ?? ALL_PLATFORMS.join(",")),
    ...(out === undefined ? {} : { out }),
  };
}

/** The git tags of a release: the plugin's and packages' (`v0.3.0`) and the Go module's (`sdk/go/v0.3.0`). */
export function releaseTags(version: string): { release: string; goModule: string } {
  return { release: `v${version}`, goModule: `sdk/go/v${version}` };
}
