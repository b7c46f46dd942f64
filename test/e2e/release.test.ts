/**
 * The release as a YAML or Python team installs it (issue 41): `npm run release` for linux-amd64
 * (scripts/release.ts), its folder served as the release site, and programs run by the real CLI
 * with a PATH that has no Node.js:
 *
 * - the release site is a local HTTP server reached as `http://releases.pulumi-hosting.test/...`
 *   through HTTP_PROXY, so the CLI asks for exactly the URL the release wrote
 *   (`<pluginDownloadURL>/pulumi-resource-hosting-v<version>-linux-amd64.tar.gz`), and that is
 *   the only file it gets;
 * - a YAML program names the release (`version`, `pluginDownloadURL`) on its default provider,
 *   and the CLI downloads the plugin by itself: up, a clean drift check, destroy;
 * - a Python program with the wheel pip-installed from the release folder (`--no-index`), whose
 *   pulumi-plugin.json carries the URL: the same, the program being the RunnerGroupRunners
 *   reference page's Python example as written there;
 * - SHA256SUMS names every other file with its digest; the archive's executable, started alone,
 *   answers GetSchema with the release's schema (version and URL); the Go module zip is one
 *   `go mod download` accepts from a module proxy folder.
 *
 * The release is built once and kept in the cache under a digest of everything it is made from
 * (the built code, the manifests, the CHANGELOG, the scripts, the generator): a later run with the
 * same inputs reuses it.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { cacheRoot } from "../../scripts/sea/executable";
import { filesUnder, hashFiles } from "./files";
import { PulumiProgram, ROOT, requirePulumi } from "./pulumi";
import { referenceExample } from "./reference-examples";

/** A version no real release has, so nothing but this release can answer for it. */
const VERSION = "0.99.0-rc.1";
const PYTHON_VERSION = "0.99.0rc1";
const SITE = "releases.pulumi-hosting.test";
const DOWNLOAD_URL = `http://${SITE}/v${VERSION}`;
const ARCHIVE = `pulumi-resource-hosting-v${VERSION}-linux-amd64.tar.gz`;
const TOKEN = "svcp_siteadmin";

const CACHE = cacheRoot();

// ---------------------------------------------------------------------------------------------
// The release, built once per set of inputs
// ---------------------------------------------------------------------------------------------

/** A file's SHA-256, read as a stream (the archives are large). */
async function sha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** A digest of everything `npm run release` reads. */
function releaseKey(): string {
  const hash = createHash("sha256").update(`${VERSION} ${DOWNLOAD_URL} linux-amd64\n`);
  const files = [
    ...["api", "provider", "emulator", "importer", "fleet", "scripts"].flatMap((d) =>
      filesUnder(join(ROOT, "dist", d)),
    ),
    ...["package.json", "package-lock.json", "README.md", "CHANGELOG.md"].map((f) => join(ROOT, f)),
    ...["build-sdks.sh", "pack-sdk-nodejs.sh", "sea/package.ts"].map((f) => join(ROOT, "scripts", f)),
  ];
  hashFiles(hash, ROOT, files);
  // The SDK generator, by where it is and when it was built (it is large).
  const codegen = spawnSync("sh", ["-c", "command -v pulumi-hosting-codegen"], {
    encoding: "utf8",
  }).stdout.trim();
  if (codegen) hash.update(`${codegen} ${statSync(codegen).size} ${statSync(codegen).mtimeMs}\n`);
  return hash.digest("hex").slice(0, 16);
}

/** The release folder: from the cache, or built (into a folder of its own, then moved in place). */
async function buildRelease(): Promise<{ dir: string; built: boolean }> {
  const cache = join(CACHE, "release-e2e");
  const dir = join(cache, releaseKey());
  if (existsSync(join(dir, "SHA256SUMS"))) return { dir, built: false };
  mkdirSync(cache, { recursive: true });
  // Older releases of this test, unused for a day, are removed (another checkout may be using a
  // recent one at this moment).
  for (const old of readdirSync(cache)) {
    const path = join(cache, old);
    if (Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { recursive: true, force: true });
  }
  const building = `${dir}.${process.pid}`;
  await promisify(execFile)(
    process.execPath,
    [
      join(ROOT, "dist/scripts/release.js"),
      "--version",
      VERSION,
      "--platforms",
      "linux-amd64",
      "--download-url",
      DOWNLOAD_URL,
      "--out",
      building,
    ],
    { cwd: ROOT, maxBuffer: 16 << 20 },
  );
  try {
    renameSync(building, dir);
  } catch {
    // Built at the same time elsewhere: that one is as good.
    rmSync(building, { recursive: true, force: true });
  }
  return { dir, built: true };
}

// ---------------------------------------------------------------------------------------------
// The release site, the environment without Node.js
// ---------------------------------------------------------------------------------------------

interface Site {
  server: Server;
  /** The address to give as HTTP_PROXY. */
  proxy: string;
  /** Every request received, as `METHOD URL`. */
  requests: string[];
}

/** Serves the release folder as `http://releases.pulumi-hosting.test/v<version>/`, as a proxy does. */
function releaseSite(dir: string): Promise<Site> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    const name = url.pathname.slice(`/v${VERSION}/`.length);
    const file = join(dir, name);
    if (
      url.host !== SITE ||
      !url.pathname.startsWith(`/v${VERSION}/`) ||
      name.includes("/") ||
      !existsSync(file)
    ) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-length": statSync(file).size, "content-type": "application/gzip" });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      resolve({ server, proxy: `http://127.0.0.1:${port}`, requests });
    }),
  );
}

/** Node.js and what comes with it: what the programs' PATH must not have. */
const NODE_TOOLS = new Set(["node", "nodejs", "npm", "npx", "corepack"]);

/**
 * The programs' whole PATH, with no Node.js on it: the folder of the CLI and the language hosts
 * (scripts/bootstrap.sh's, which has no `node`; a host may be a script beside the binary it
 * runs), the Python virtualenv's bin, and a folder of links to the system's commands (a host's
 * script needs bash, sed, ...) but Node.js's.
 */
function pathWithoutNode(work: string): string {
  const pulumi = spawnSync("sh", ["-c", "command -v pulumi"], { encoding: "utf8" }).stdout.trim();
  if (!pulumi) throw new Error("pulumi is not on PATH: run the tests with `bash scripts/test.sh`");
  const hosts = dirname(realpathSync(pulumi));
  for (const tool of ["pulumi-language-yaml", "pulumi-language-python"]) {
    if (!existsSync(join(hosts, tool))) {
      throw new Error(`${tool} is not beside ${pulumi}: run the tests with \`bash scripts/test.sh\``);
    }
  }
  const venv = process.env.PULUMI_HOSTING_PYTHON_VENV;
  if (!venv) {
    throw new Error(
      "PULUMI_HOSTING_PYTHON_VENV is not set: run the tests with `bash scripts/test.sh`, which prepares it (scripts/languages.sh)",
    );
  }
  const system = join(work, "system");
  mkdirSync(system);
  for (const dir of ["/usr/local/bin", "/usr/bin", "/bin"]) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (NODE_TOOLS.has(name) || existsSync(join(system, name))) continue;
      symlinkSync(join(dir, name), join(system, name));
    }
  }
  const path = [hosts, join(venv, "bin"), system];
  for (const dir of path) {
    for (const tool of NODE_TOOLS) {
      if (existsSync(join(dir, tool)))
        throw new Error(`${join(dir, tool)} would put Node.js on the programs' PATH`);
    }
  }
  return path.join(":");
}

let release: string;
let emulator: RunningEmulator;
let work: string;
/** The PATH of the programs, without Node.js. */
let path: string;
const sites: Site[] = [];

beforeAll(async () => {
  requirePulumi();
  const started = Date.now();
  const [built] = await Promise.all([buildRelease(), startEmulator({ port: 0 }).then((e) => (emulator = e))]);
  release = built.dir;
  console.log(
    `release: ${built.built ? "built" : "from the cache"} in ${((Date.now() - started) / 1000).toFixed(1)} s (${release})`,
  );
  work = mkdtempSync(join(tmpdir(), "hosting-e2e-release-"));
  path = pathWithoutNode(work);
  expect(spawnSync("node", ["--version"], { env: { PATH: path } }).error).toMatchObject({ code: "ENOENT" });
});

afterAll(async () => {
  await Promise.all([
    emulator?.close(),
    ...sites.map(
      (site) =>
        new Promise((resolve) => {
          site.server.closeAllConnections();
          site.server.close(resolve);
        }),
    ),
  ]);
  if (work) {
    if (existsSync(join(work, "gomodcache"))) execFileSync("chmod", ["-R", "u+w", join(work, "gomodcache")]);
    rmSync(work, { recursive: true, force: true });
  }
});

/**
 * A program folder of the harness (its own backend and PULUMI_HOME) with only the given files, run
 * with the PATH without Node.js, automatic plugin installation on, and a release site of its own
 * (so what it downloaded is its own).
 */
async function program(
  name: string,
  files: Record<string, string>,
): Promise<{ program: PulumiProgram; site: Site }> {
  const site = await releaseSite(release);
  sites.push(site);
  const made = new PulumiProgram(name, "", {
    env: {
      PATH: path,
      // Only the release site goes through the proxy: the sandbox, the engine and the plugin are
      // on the loopback address.
      HTTP_PROXY: site.proxy,
      http_proxy: site.proxy,
      NO_PROXY: "127.0.0.1,localhost",
      no_proxy: "127.0.0.1,localhost",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
      VIRTUAL_ENV: "",
    },
  });
  rmSync(join(made.dir, "index.js"));
  rmSync(join(made.dir, "node_modules"), { force: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(made.dir, file), text);
  return { program: made, site };
}

/** The plugin the CLI installed in a program's PULUMI_HOME. */
const installedPlugin = (p: PulumiProgram) =>
  join(p.dir, ".pulumi-home", "plugins", `resource-hosting-v${VERSION}`, "pulumi-resource-hosting");

const hooks = () => emulator.store.state.repoHooks.map((h) => h.config.url);
/** The group the RunnerGroupRunners reference example makes, and the runners of a group. */
const builders = () =>
  emulator.store.state.runnerGroups.find((g) => g.owner === "acme-eng" && g.name === "builders");
const runnersOf = (id: number | undefined) =>
  Object.entries(emulator.store.state.runnerGroupOf)
    .filter(([, group]) => group === id)
    .map(([runner]) => Number(runner))
    .sort((a, b) => a - b);

// The two programs run side by side: each waits on the CLI's processes most of the time.
describe.concurrent("programs that get the plugin from pluginDownloadURL by themselves", () => {
  it("YAML: up downloads the plugin from the release site; a clean drift check; destroy", async () => {
    const { program: yaml, site } = await program("release-yaml", {
      "Pulumi.yaml": `name: release-yaml
runtime: yaml
config:
  token:
    type: string
    secret: true
resources:
  hosting:
    type: pulumi:providers:hosting
    defaultProvider: true
    properties:
      baseUrl: ${emulator.origin}
      token: \${token}
    options:
      version: ${VERSION}
      pluginDownloadURL: ${DOWNLOAD_URL}
  hook:
    type: hosting:index:RepositoryWebhook
    properties:
      owner: acme-eng
      repository: api
      url: https://ci.example.com/release-yaml
      events: [push]
  bug:
    type: hosting:index:IssueType
    properties:
      org: acme-eng
      name: Release
      color: red
`,
    });
    await yaml.ok("stack", "init", "dev");
    await yaml.ok("config", "set", "--secret", "token", TOKEN);
    await yaml.ok("up", "--yes", "--skip-preview");
    expect(site.requests).toEqual([`GET ${DOWNLOAD_URL}/${ARCHIVE}`]);
    expect(existsSync(installedPlugin(yaml))).toBe(true);
    expect(hooks()).toContain("https://ci.example.com/release-yaml");
    expect(emulator.store.state.issueTypes.map((t) => t.name)).toContain("Release");
    expect(yaml.stateFile()).not.toContain(TOKEN);

    await yaml.ok("preview", "--refresh", "--expect-no-changes");
    await yaml.ok("destroy", "--yes", "--skip-preview");
    expect(hooks()).not.toContain("https://ci.example.com/release-yaml");
    expect(emulator.store.state.issueTypes.map((t) => t.name)).not.toContain("Release");
    expect(site.requests).toHaveLength(1);
  });

  it("Python: the wheel pip-installed from the release folder; up gets the plugin from the URL it carries and runs the RunnerGroupRunners reference page's example as written there; a clean drift check; destroy", async () => {
    // The page's Python example is a whole program (docs/reference/, written by npm run generate):
    // a group made with an enum constant, and its runners by a reference to the group's id.
    const { program: python, site } = await program("release-python", {
      "Pulumi.yaml": "name: release-python\nruntime: python\n",
      "__main__.py": referenceExample("RunnerGroupRunners", "python"),
    });
    const packages = join(python.dir, ".site");
    // What \`pip install pulumi_hosting==<version>\` does with the release folder as the only
    // source, beside the virtualenv's own \`pulumi\` (scripts/languages.sh).
    await promisify(execFile)(
      "python",
      [
        ...["-m", "pip", "install", "--quiet", "--no-index", "--find-links", release, "--no-deps"],
        ...["--target", packages, `pulumi_hosting==${PYTHON_VERSION}`],
      ],
      { env: { PATH: path, HOME: process.env.HOME ?? homedir(), PIP_DISABLE_PIP_VERSION_CHECK: "1" } },
    );
    expect(readdirSync(packages)).toContain(`pulumi_hosting-${PYTHON_VERSION}.dist-info`);
    python.setEnv({ PYTHONPATH: packages });
    await python.ok("stack", "init", "dev");
    await python.ok(
      "config",
      "set-all",
      "--plaintext",
      `hosting:baseUrl=${emulator.origin}`,
      "--secret",
      `hosting:token=${TOKEN}`,
    );
    const up = await python.ok("up", "--yes", "--skip-preview");
    expect(site.requests).toEqual([`GET ${DOWNLOAD_URL}/${ARCHIVE}`]);
    expect(existsSync(installedPlugin(python))).toBe(true);
    expect(up.output).toContain("+ 3 created"); // the group, its runners and the stack
    const group = builders();
    expect(group).toMatchObject({
      owner: "acme-eng",
      visibility: "selected",
      selectedRepositoryIds: [1000, 1001],
    });
    expect(runnersOf(group?.id)).toEqual([1, 2]);
    // The enum constant is recorded as the string it stands for.
    const recorded = python.resources().find((r) => r.type === "hosting:index:OrgRunnerGroup");
    expect(recorded?.outputs?.visibility).toBe("selected");

    await python.ok("preview", "--refresh", "--expect-no-changes");
    const destroyed = await python.ok("destroy", "--yes", "--skip-preview");
    expect(destroyed.output).toContain("- 3 deleted");
    expect(builders()).toBeUndefined();
    expect(site.requests).toHaveLength(1);
  });
});

describe("the release folder", () => {
  it("SHA256SUMS names every other file with its digest", async () => {
    const sums = readFileSync(join(release, "SHA256SUMS"), "utf8");
    const listed = sums
      .trimEnd()
      .split("\n")
      .map((line) => {
        const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
        expect(match, line).not.toBeNull();
        return [match?.[2] ?? "", match?.[1] ?? ""] as const;
      });
    const files = filesUnder(release)
      .map((f) => f.slice(release.length + 1))
      .filter((f) => f !== "SHA256SUMS");
    expect(listed.map(([name]) => name)).toEqual(files);
    for (const [name, digest] of listed) expect(await sha256(join(release, name)), name).toBe(digest);
    expect(files).toEqual(
      expect.arrayContaining([
        ARCHIVE,
        "schema.json",
        "RELEASE-NOTES.md",
        `pulumi-hosting-${VERSION}.tgz`,
        `pulumi-hosting-sdk-${VERSION}.tgz`,
        `pulumi-hosting-sdk-go-v${VERSION}.zip`,
        `pulumi_hosting-${PYTHON_VERSION}-py3-none-any.whl`,
        `pulumi_hosting-${PYTHON_VERSION}.tar.gz`,
      ]),
    );
    expect(readFileSync(join(release, "RELEASE-NOTES.md"), "utf8")).toMatch(
      new RegExp(`\\| \`${ARCHIVE.replace(/\./g, "\\.")}\` \\| \\d+\\.\\d MiB \\|`),
    );
    // The npm package of a release runs nothing when installed: no `prepare`, which npm 11 would
    // name in its install-scripts notice.
    const manifest = JSON.parse(
      execFileSync("tar", ["-xzOf", join(release, `pulumi-hosting-${VERSION}.tgz`), "package/package.json"], {
        encoding: "utf8",
      }),
    ) as { version: string; scripts: Record<string, string> };
    expect(manifest.version).toBe(VERSION);
    expect(Object.keys(manifest.scripts)).not.toContain("prepare");
  });

  it("the linux archive holds the executable alone, which answers GetSchema with the release's version", async () => {
    const into = join(work, "archive");
    mkdirSync(into);
    execFileSync("tar", ["-xzf", join(release, ARCHIVE), "-C", into]);
    expect(readdirSync(into)).toEqual(["pulumi-resource-hosting"]);
    // The CLI starts it as the engine does and asks for its schema (GetSchema), with a PATH
    // without Node.js.
    const { stdout } = await promisify(execFile)(
      "pulumi",
      ["package", "get-schema", join(into, "pulumi-resource-hosting")],
      {
        env: {
          PATH: path,
          PULUMI_HOME: join(work, ".pulumi-home"),
          PULUMI_SKIP_UPDATE_CHECK: "true",
          // A developer's Node.js options are not the executable's (it would not start).
          NODE_OPTIONS: "--require ./a-loader-that-is-not-here.js",
        },
        maxBuffer: 16 << 20,
      },
    );
    const schema = JSON.parse(stdout) as {
      name: string;
      version: string;
      pluginDownloadURL: string;
      resources: Record<string, unknown>;
    };
    expect({ name: schema.name, version: schema.version, url: schema.pluginDownloadURL }).toEqual({
      name: "hosting",
      version: VERSION,
      url: DOWNLOAD_URL,
    });
    // The CLI prints the schema as it reads it (normalised), so the resources are compared by name.
    const written = JSON.parse(readFileSync(join(release, "schema.json"), "utf8")) as typeof schema;
    expect(Object.keys(schema.resources).sort()).toEqual(Object.keys(written.resources).sort());
  });

  it("the Go SDK's module zip is one `go mod download` takes from a module proxy", () => {
    const module = "github.com/pulumi-hosting/pulumi-hosting/sdk/go";
    const proxy = join(work, "goproxy", module, "@v");
    mkdirSync(proxy, { recursive: true });
    cpSync(join(release, `pulumi-hosting-sdk-go-v${VERSION}.zip`), join(proxy, `v${VERSION}.zip`));
    // The go.mod a proxy serves beside the zip: the zip's own (read with Python's zipfile).
    const goMod = execFileSync(
      "python3",
      [
        "-c",
        "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())",
        join(proxy, `v${VERSION}.zip`),
        `${module}@v${VERSION}/go.mod`,
      ],
      { encoding: "utf8" },
    );
    writeFileSync(join(proxy, `v${VERSION}.mod`), goMod);
    writeFileSync(join(proxy, `v${VERSION}.info`), JSON.stringify({ Version: `v${VERSION}` }));
    writeFileSync(join(proxy, "list"), `v${VERSION}\n`);
    const downloaded = JSON.parse(
      execFileSync("go", ["mod", "download", "-json", `${module}@v${VERSION}`], {
        cwd: work,
        encoding: "utf8",
        env: {
          ...process.env,
          GOPROXY: `file://${join(work, "goproxy")}`,
          GOSUMDB: "off",
          GOFLAGS: "-mod=mod",
          GOMODCACHE: join(work, "gomodcache"),
          GOTOOLCHAIN: "local",
        },
      }),
    ) as { Dir: string; Version: string };
    expect(downloaded.Version).toBe(`v${VERSION}`);
    const plugin = JSON.parse(readFileSync(join(downloaded.Dir, "hosting", "pulumi-plugin.json"), "utf8"));
    expect(plugin).toEqual({ resource: true, name: "hosting", version: VERSION, server: DOWNLOAD_URL });
    // Go leaves its module cache read-only.
    execFileSync("chmod", ["-R", "u+w", join(work, "gomodcache")]);
  });
});
