/**
 * Python and Go programs through the real Pulumi CLI, the native plugin and the SDKs under sdk/, as
 * users install them (the packed package in the program's `node_modules`: its bin folder named in
 * Pulumi.yaml, the Python SDK pip-installed from it, the Go SDK replaced by its path), against
 * sandbox servers. For each language:
 *
 * - the example program (examples/plugin-<language>: a repository webhook with a secret, a runner
 *   group with its runners, a membership, a budget) creates its objects, writing the secret and
 *   keeping it out of state; a change made outside Pulumi is drift, named by field; destroy removes
 *   what it made;
 * - `hosting-import --language <language>` over an installation with objects of every kind writes a
 *   program whose first `up` adopts them with no write beyond the secrets, and whose drift check is
 *   clean.
 *
 * A fleet of Python projects (`hosting-import --split --language python`, one per organisation,
 * sharing the root's node_modules and virtualenv) adopts with `hosting-fleet up` and no write, and
 * `hosting-fleet drift` names a change made outside Pulumi.
 *
 * A reference page's YAML example (docs/reference/, written by npm run generate) runs as it is
 * written there (a Python one runs in test/e2e/release.test.ts, with the released wheel).
 *
 * And a JavaScript program of the plugin's TypeScript SDK (`@pulumi-hosting/sdk`, packed by
 * scripts/pack-sdk-nodejs.sh) creates and destroys through the plugin.
 *
 * The toolchains come from scripts/languages.sh (a virtualenv with `pulumi` from PyPI; the Go SDK
 * compiled once), which scripts/test.sh runs first; missing, the test fails and says so.
 */
import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import type { FleetReport } from "../../fleet/report";
import { GO_PREPARED_ENV } from "../go-env";
import { type Api, apiOf, EVERY_PLACE, fill, hostingImport } from "./installation";
import { PACKAGE_VERSION, PulumiProgram, ROOT, requirePulumi, temporaryFolder } from "./pulumi";
import { referenceExample } from "./reference-examples";

const TOKEN = "svcp_siteadmin";
const HOOK_SECRET = "languages-e2e-s3cret";
const PLUGIN_PATH = "plugins:\n  providers:\n    - name: hosting\n      path: ./node_modules/.bin\n";
/** A YAML program's: with the package's version (docs/install.md, way B). */
const YAML_PLUGIN_PATH = `${PLUGIN_PATH}      version: ${PACKAGE_VERSION}\n`;

type Language = "python" | "go";

/** What scripts/languages.sh exported, or why the language cannot run. */
function toolchain(language: Language): Record<string, string> {
  const needed = language === "python" ? "PULUMI_HOSTING_PYTHON_VENV" : "PULUMI_HOSTING_GO_TEMPLATE";
  const value = process.env[needed];
  if (!value) {
    throw new Error(
      `${needed} is not set: run the tests with \`bash scripts/test.sh\`, which prepares the ${language} toolchain (scripts/languages.sh)`,
    );
  }
  if (language === "go") {
    // As scripts/languages.sh compiled the SDK (test/go-env.ts): every program's packages come from
    // the build cache whatever its folder (without it, each program folder compiles the plugin's SDK
    // and its own copy of what it shares: about 20 s of CPU instead of 2.5). `-ldflags=-w`: no
    // debugging information, which nothing here reads; the language host links the program again at
    // every run, and each link takes 0.7 CPU-s less (2.6 -> 1.9 s for the example).
    return { ...GO_PREPARED_ENV, GOFLAGS: `${GO_PREPARED_ENV.GOFLAGS} -ldflags=-w` };
  }
  // As a user runs it: the virtualenv named in Pulumi.yaml (`virtualenv: venv`), not first on PATH.
  const venvBin = join(value, "bin");
  const path = (process.env.PATH ?? "").split(delimiter).filter((dir) => dir !== venvBin);
  return { PATH: path.join(delimiter), VIRTUAL_ENV: "" };
}

/**
 * A program folder of the harness (file backend, `node_modules` linked to the packed package) with
 * the given files in place of its JavaScript program, and the language's SDK installed as the
 * README says.
 */
function programOf(language: Language, name: string, files: (dir: string) => void): PulumiProgram {
  const program = new PulumiProgram(name, "", { env: toolchain(language) });
  rmSync(join(program.dir, "index.js"));
  files(program.dir);
  if (language === "python") {
    symlinkSync(process.env.PULUMI_HOSTING_PYTHON_VENV ?? "", join(program.dir, "venv"), "dir");
    program.setEnv({ PYTHONPATH: pythonSdk() });
  } else {
    // The complete go.sum of the prepared template: the build needs no checksum database.
    cpSync(join(process.env.PULUMI_HOSTING_GO_TEMPLATE ?? "", "go.sum"), join(program.dir, "go.sum"));
  }
  return program;
}

let pythonSite: string | undefined;

/**
 * What `pip install -r requirements.txt` does in a program's virtualenv, without writing to the
 * shared one: the Python SDK from the packed package (the template's, which every program's
 * `node_modules` links to), beside the virtualenv's own `pulumi`. Installed once for the file's
 * programs; the programs only read it. Built with the virtualenv's setuptools and wheel
 * (scripts/languages.sh puts them there): in an isolated build environment pip fetched them each
 * time (3.6 s and 2.9 CPU-s, against 0.6 s and 0.6 CPU-s).
 */
function pythonSdk(): string {
  if (pythonSite !== undefined) return pythonSite;
  const site = join(temporaryFolder("hosting-e2e-python-sdk-"), "site");
  const sdk = join(inject("e2e").template, "node_modules/pulumi-hosting/sdk/python");
  execFileSync(
    "python",
    ["-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--target", site, sdk],
    {
      env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" },
      stdio: "pipe",
    },
  );
  pythonSite = site;
  return site;
}

/** The example program of a language, its SDK reached through the package as users have it. */
function exampleOf(language: Language): PulumiProgram {
  return programOf(language, `example-${language}`, (dir) => {
    const example = join(ROOT, "examples", `plugin-${language}`);
    for (const file of readdirSync(example)) cpSync(join(example, file), join(dir, file));
    writeFileSync(
      join(dir, "Pulumi.yaml"),
      `${readFileSync(join(dir, "Pulumi.yaml"), "utf8")}${PLUGIN_PATH}`,
    );
    if (language === "go") {
      const mod = readFileSync(join(dir, "go.mod"), "utf8");
      writeFileSync(
        join(dir, "go.mod"),
        mod.replace("=> ../../sdk/go", "=> ./node_modules/pulumi-hosting/sdk/go"),
      );
    }
  });
}

/** Runs the packed package's hosting-fleet; resolves with its exit code and output. */
function hostingFleet(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; output: string }> {
  const cli = join(inject("e2e").template, "node_modules/pulumi-hosting/dist/fleet/cli.js");
  return new Promise((resolvePromise) => {
    execFile(process.execPath, [cli, ...args], { env, encoding: "utf8" }, (error, stdout, stderr) =>
      resolvePromise({
        code: error ? (typeof error.code === "number" ? error.code : 1) : 0,
        output: `${stdout}\n${stderr}`,
      }),
    );
  });
}

const writes = (emulator: RunningEmulator) =>
  emulator.controls.log.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route}`);

beforeAll(() => {
  requirePulumi();
});

describe.each<Language>(["python", "go"])("a %s program", (language) => {
  let emulator: RunningEmulator;
  let api: Api;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    api = apiOf(emulator, TOKEN);
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("creates the example's objects, catches drift by field, and destroys them", async () => {
    const program = exampleOf(language);
    await program.initStack(emulator.origin, TOKEN, { hookSecret: HOOK_SECRET });
    const up = await program.ok("up", "--yes", "--skip-preview");
    expect(up.output).toContain("+ 6 created"); // five objects and the stack
    expect(writes(emulator).sort()).toEqual([
      "POST /enterprises/{enterprise}/settings/billing/budgets",
      "POST /orgs/{org}/actions/runner-groups",
      "POST /repos/{owner}/{repo}/hooks",
      "PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/runners",
      "PUT /orgs/{org}/memberships/{username}",
    ]);
    expect(program.stateFile()).not.toContain(HOOK_SECRET);
    const [hook] = program.resources().filter((r) => r.type === "hosting:index:RepositoryWebhook");
    expect(hook?.id).toMatch(/^acme-eng\/api\/\d+$/);

    // A change made in the web interface: the drift check names the field and fails.
    await api("PATCH", `/repos/acme-eng/api/hooks/${hook?.id?.split("/")[2]}`, {
      config: { url: "https://elsewhere.example.com/hook" },
    });
    const drift = await program.run("preview", "--refresh", "--run-program", "--expect-no-changes", "--diff");
    expect(drift.code).not.toBe(0);
    expect(drift.output).toMatch(
      /url\s*:\s*"https:\/\/elsewhere\.example\.com\/hook"\s*=>\s*"https:\/\/ci\.example\.com\//,
    );

    emulator.controls.clearLog();
    const destroyed = await program.ok("destroy", "--yes", "--skip-preview");
    expect(destroyed.output).toContain("- 6 deleted");
    expect(writes(emulator).sort()).toEqual([
      "DELETE /enterprises/{enterprise}/settings/billing/budgets/{budget_id}",
      "DELETE /orgs/{org}/actions/runner-groups/{runner_group_id}",
      "DELETE /orgs/{org}/memberships/{username}",
      "DELETE /repos/{owner}/{repo}/hooks/{hook_id}",
      "PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/runners",
    ]);
  });

  it("adopts an installation written by hosting-import, writing only the secrets; the drift check is clean", async () => {
    const installation = await startEmulator({ port: 0 });
    try {
      await fill(apiOf(installation, TOKEN));
      const program = programOf(language, `import-${language}`, () => undefined);
      const output = await hostingImport(installation, TOKEN, program.dir, [
        ...EVERY_PLACE,
        "--language",
        language,
      ]);
      const secrets = [...output.matchAll(/pulumi config set --secret (\S+) --stack/g)].map(
        (m) => m[1] ?? "",
      );
      expect(secrets.sort()).toEqual([
        "acmeEngApiHookCiExampleComHookSecret",
        "acmeEngApiSecretDeployKeyValue",
        "acmeEngHookOrgExampleComSecret",
        "acmeEngSecretNpmTokenValue",
        "hookAuditExampleComSecret",
      ]);
      await program.initStack(
        installation.origin,
        TOKEN,
        Object.fromEntries(secrets.map((key) => [key, `secret-of-${key}`])),
      );
      installation.controls.clearLog();
      const up = await program.ok("up", "--yes", "--skip-preview");
      expect(up.output).toMatch(/\+ \d+ created/);
      expect(
        program.resources().filter((r) => r.type.startsWith("hosting:index:")).length,
      ).toBeGreaterThanOrEqual(19);
      expect(writes(installation).sort()).toEqual([
        "PATCH /admin/hooks/{hook_id}",
        "PATCH /orgs/{org}/hooks/{hook_id}",
        "PATCH /repos/{owner}/{repo}/hooks/{hook_id}",
        "PUT /orgs/{org}/actions/secrets/{secret_name}",
        "PUT /repos/{owner}/{repo}/actions/secrets/{secret_name}",
      ]);
      installation.controls.clearLog();
      const drift = await program.run("preview", "--refresh", "--run-program", "--expect-no-changes");
      expect(drift.code, drift.output).toBe(0);
      expect(writes(installation)).toEqual([]);
    } finally {
      await installation.close();
    }
  });
});

describe("a reference page's YAML example, as written there", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("YAML: RepositoryWebhook's creates the hook, its secret from stack config and out of state", async () => {
    const program = new PulumiProgram("reference-yaml", "");
    rmSync(join(program.dir, "index.js"));
    writeFileSync(
      join(program.dir, "Pulumi.yaml"),
      `${referenceExample("RepositoryWebhook", "yaml")}${YAML_PLUGIN_PATH}`,
    );
    await program.initStack(emulator.origin, TOKEN, { ciSecret: HOOK_SECRET });
    emulator.controls.clearLog();
    const up = await program.ok("up", "--yes", "--skip-preview");
    expect(up.output).toContain("+ 2 created");
    expect(writes(emulator)).toEqual(["POST /repos/{owner}/{repo}/hooks"]);
    expect(program.stateFile()).not.toContain(HOOK_SECRET);
    const destroyed = await program.ok("destroy", "--yes", "--skip-preview");
    expect(destroyed.output).toContain("- 2 deleted");
  });
});

describe("a JavaScript program of the plugin's TypeScript SDK", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("creates through the plugin, keeps the secret out of state, and destroys", async () => {
    const program = new PulumiProgram(
      "sdk-nodejs",
      [
        'const pulumi = require("@pulumi/pulumi");',
        'const hosting = require("@pulumi-hosting/sdk");',
        "const config = new pulumi.Config();",
        'const hook = new hosting.RepositoryWebhook("hook", {',
        '  owner: "acme-eng",',
        '  repository: "api",',
        '  url: "https://ci.example.com/sdk",',
        '  secret: config.requireSecret("hookSecret"),',
        "});",
        'const group = new hosting.OrgRunnerGroup("group", { org: "acme-eng", name: "sdk-builders" });',
        "exports.hookId = hook.hookId;",
        "exports.runnerGroupId = group.runnerGroupId;",
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(program.dir, "Pulumi.yaml"),
      `name: sdk-nodejs\nruntime: nodejs\nmain: index.js\n${PLUGIN_PATH}`,
    );
    await program.initStack(emulator.origin, TOKEN, { hookSecret: HOOK_SECRET });
    const up = await program.ok("up", "--yes", "--skip-preview");
    expect(up.output).toContain("+ 3 created");
    expect(program.resources().map((r) => r.type)).toEqual(
      expect.arrayContaining(["hosting:index:RepositoryWebhook", "hosting:index:OrgRunnerGroup"]),
    );
    expect(program.stateFile()).not.toContain(HOOK_SECRET);
    expect(writes(emulator).sort()).toEqual([
      "POST /orgs/{org}/actions/runner-groups",
      "POST /repos/{owner}/{repo}/hooks",
    ]);
    const destroyed = await program.ok("destroy", "--yes", "--skip-preview");
    expect(destroyed.output).toContain("- 3 deleted");
  });
});

describe("a fleet of Python projects", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("hosting-import --split --language python, then hosting-fleet up adopts with no write and drift names a change", async () => {
    toolchain("python");
    const api = apiOf(emulator, TOKEN);
    await api("POST", "/repos/acme-eng/api/hooks", { config: { url: "https://ci.example.com/eng" } });
    await api("POST", "/repos/acme-ops/infra/hooks", { config: { url: "https://ci.example.com/ops" } });
    const work = temporaryFolder("hosting-e2e-python-fleet-");
    const fleet = join(work, "fleet");
    await hostingImport(emulator, TOKEN, fleet, [
      "--language",
      "python",
      "--split",
      "--org",
      "acme-eng",
      "--org",
      "acme-ops",
      "--kinds",
      "RepositoryWebhook",
    ]);
    expect(readdirSync(fleet).sort()).toEqual(["acme-eng", "acme-ops", "package.json"]);
    // What `npm install` and `pip install -r acme-eng/requirements.txt` in the root give: the
    // packed package in node_modules, the SDK beside the virtualenv's pulumi.
    symlinkSync(join(inject("e2e").template, "node_modules"), join(fleet, "node_modules"), "dir");
    symlinkSync(process.env.PULUMI_HOSTING_PYTHON_VENV ?? "", join(fleet, "venv"), "dir");
    const site = pythonSdk();
    mkdirSync(join(work, "state"));
    mkdirSync(join(work, "tmp"));
    const env = {
      ...process.env,
      TMPDIR: join(work, "tmp"), // what the CLI and the programs leave there goes with `work`
      PYTHONPATH: site,
      HOSTING_BASE_URL: emulator.origin,
      HOSTING_TOKEN: TOKEN,
      PULUMI_HOME: join(work, "home"),
      PULUMI_BACKEND_URL: `file://${join(work, "state")}`,
      PULUMI_CONFIG_PASSPHRASE: "",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    };

    emulator.controls.clearLog();
    const up = await hostingFleet(env, "up", "--root", fleet, "--concurrency", "2");
    expect(up.code, up.output).toBe(0);
    expect(writes(emulator)).toEqual([]);

    const hooks = emulator.store.state.repoHooks;
    const eng = hooks.find((h) => h.config.url === "https://ci.example.com/eng");
    await api("PATCH", `/repos/acme-eng/api/hooks/${eng?.id}`, {
      config: { url: "https://elsewhere.example.com/" },
    });
    const report = join(work, "drift.json");
    const drift = await hostingFleet(env, "drift", "--root", fleet, "--report", report);
    expect(drift.code, drift.output).toBe(1);
    const stacks = (JSON.parse(readFileSync(report, "utf8")) as FleetReport).stacks;
    expect(stacks.map((s) => [s.project, s.status]).sort()).toEqual([
      ["acme-eng", "drift"],
      ["acme-ops", "clean"],
    ]);
    expect(stacks.find((s) => s.project === "acme-eng")?.changes[0]?.fields).toContain("url");
  });
});
