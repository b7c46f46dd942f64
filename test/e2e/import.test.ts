/**
 * hosting-import end to end with the real Pulumi CLI: a sandbox filled through its API with objects
 * of every kind in two organisations, the enterprise and the site administration; the command
 * writes a program; `npm install` and `pulumi up` in it adopt every object with no write beyond the
 * secrets set from config; the drift check is clean; a change made outside Pulumi afterwards is
 * drift; a second import writes the same files. Then the same objects through the native plugin, in
 * the same stack (its config holds the secrets): the YAML program (`--language yaml`) adopts them
 * with `import` and writes only the secrets, and `pulumi import --file` with the bulk file
 * (`--format pulumi-import`) adopts them with no write, its code previewing with no change.
 * The secret commands it prints run as printed on a fresh folder, for one program and for
 * `--split`. And a program written from hostile names (quotes, interpolations, control and format
 * characters, YAML words, a 1,200-character name) adopts its objects with no write.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { TRANSPILE_ONLY } from "../../fleet/typecheck";
import { RETAINED } from "../../importer/discover";
import { HOSTILE } from "../importer/hostile-strings";
import { type Api, apiOf, EVERY_PLACE, fill, hostingImport } from "./installation";
import { PulumiProgram, requirePulumi, temporaryFolder } from "./pulumi";

const TOKEN = "svcp_siteadmin";

let emulator: RunningEmulator;
let program: PulumiProgram;
let output = "";
let api: Api;

/** hosting-import over the whole installation into `out`, with further flags. */
function importInto(out: string, ...more: string[]): Promise<string> {
  return hostingImport(emulator, TOKEN, out, [...EVERY_PLACE, ...more]);
}

function writes(): string[] {
  return emulator.controls.log.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route}`);
}

beforeAll(async () => {
  requirePulumi();
  emulator = await startEmulator({ port: 0 });
  api = apiOf(emulator, TOKEN);
  await fill(api);
  // A program folder of the harness (file backend, no network); the import writes into it.
  program = new PulumiProgram("import", "");
  rmSync(join(program.dir, "index.js"));
  output = await importInto(program.dir);
  // The written package.json asks for what the template holds (the packed library, @pulumi/pulumi,
  // TypeScript), so the program's node_modules stays the template's link.
  await program.initStackFromEnvironment(emulator.origin, TOKEN);
});

afterAll(async () => {
  await emulator?.close();
});

describe("hosting-import end to end", () => {
  it("writes one module per organisation, the enterprise and the site administration", () => {
    const files = readdirSync(program.dir)
      .filter((f) => f.endsWith(".ts"))
      .sort();
    expect(files).toEqual([
      "acme-eng.ts",
      "acme-ops.ts",
      "enterprise-acme.ts",
      "index.ts",
      "site-admin.ts",
      "user-keys.ts",
    ]);
    const keys = readFileSync(join(program.dir, "user-keys.ts"), "utf8");
    // Each adopted object says what destroy does to it, and keeps it (retainOnDelete).
    expect(keys).toContain(`// ${RETAINED}\nnew hosting.UserGpgKey(\n  "gpg-key-work",\n  {`);
    expect(keys).toContain("  { retainOnDelete: true },\n);");
    expect(keys).toContain("-----BEGIN PGP PUBLIC KEY BLOCK-----");
    expect(keys).toContain('new hosting.UserSshKey(\n  "ssh-key-laptop",');
    expect(keys).toContain('new hosting.UserSshSigningKey(\n  "ssh-signing-key-signing",');
    expect(keys).not.toContain("admin@laptop"); // the comment is not part of the key
    // Each secret the API never returns, with the command that sets it.
    expect(output).toContain(
      `pulumi config set --secret acmeEngApiHookCiExampleComHookSecret --stack dev --cwd ${program.dir}\n`,
    );
    expect(output).toContain(
      `pulumi config set --secret hookAuditExampleComSecret --stack dev --cwd ${program.dir}\n`,
    );
    // The fixture's Actions secrets, whose values the API never returns either.
    expect(output).toContain(
      `pulumi config set --secret acmeEngSecretNpmTokenValue --stack dev --cwd ${program.dir}\n`,
    );
    expect(output).toContain(
      `pulumi config set --secret acmeEngApiSecretDeployKeyValue --stack dev --cwd ${program.dir}\n`,
    );
    expect(output).toContain(
      `pulumi config set --secret acmeEngHookOrgExampleComSecret --stack dev --cwd ${program.dir}\n`,
    );
    const eng = readFileSync(join(program.dir, "acme-eng.ts"), "utf8");
    expect(eng).toContain("runnerGroupId: acmeEngRunnersBuildFleet.runnerGroupId,");
    // Sets are written sorted, whatever order the server lists them in.
    expect(eng).toContain('events: ["pull_request", "push"],');
    expect(eng).toContain('value: ["eu", "us"],');
    // Defaults are left out: the second hook writes only what differs from them.
    expect(eng).toMatch(
      /RepositoryWebhook\(\n {2}"acme-eng-api-hook-ci-example-com-other",\n {2}\{\n {4}owner: "acme-eng",\n {4}repository: "api",\n {4}url: "https:\/\/ci\.example\.com\/other",\n {4}insecureSsl: true,\n {4}active: false,\n {4}importId: \d+,\n {2}\},\n {2}\{ retainOnDelete: true \},\n\);/,
    );
  });

  it("writes the environments with their reviewers and patterns, and a rule naming its environment", () => {
    const eng = readFileSync(join(program.dir, "acme-eng.ts"), "utf8");
    expect(eng).toContain(
      [
        "new hosting.RepositoryEnvironment(",
        '  "acme-eng-api-canary-eu",',
        "  {",
        '    owner: "acme-eng",',
        '    repository: "api",',
        '    environment: "canary/eu",',
        "    waitTimer: 5,",
        "    reviewers: [",
        "      {",
        '        type: "Team",',
        "        id: 1,",
        "      },",
        "    ],",
        "    deploymentBranchPolicy: {",
        "      protectedBranches: false,",
        "      customBranchPolicies: true,",
        "    },",
        "    branchPolicies: [",
        "      {",
        '        name: "v*",',
        '        type: "tag",',
        "      },",
        "    ],",
        "  },",
        "  { retainOnDelete: true },",
        ");",
      ].join("\n"),
    );
    expect(eng).toContain('new hosting.RepositoryEnvironment(\n  "acme-eng-api-staging",');
    expect(eng).toMatch(/environment: acmeEngApiReleaseEu\.environment,\n {4}integrationId: 101,/);
    expect(eng).toMatch(/OrgWebhook\(\n {2}"acme-eng-hook-org-example-com",/);
  });

  it("writes issue types, fields and blocks per organisation, and the organisations for --site-admin", () => {
    const eng = readFileSync(join(program.dir, "acme-eng.ts"), "utf8");
    expect(eng).toMatch(
      /IssueType\(\n {2}"acme-eng-issue-type-bug",\n {2}\{\n {4}org: "acme-eng",\n {4}name: "Bug",\n {4}color: "red",\n {4}importId: \d+,\n {2}\},\n {2}\{ retainOnDelete: true \},\n\);/,
    );
    expect(eng).toContain('IssueField(\n  "acme-eng-issue-field-priority"');
    expect(eng).toMatch(
      /name: "High",\s+color: "red",[\s\S]*name: "Low",\s+color: "gray",\s+description: "Some day"/,
    );
    const ops = readFileSync(join(program.dir, "acme-ops.ts"), "utf8");
    expect(ops).toMatch(
      /OrgBlock\(\n {2}"acme-ops-block-mona",\n {2}\{\n {4}org: "acme-ops",\n {4}username: "mona",\n {2}\},\n {2}\{ retainOnDelete: true \},\n\);/,
    );
    const admin = readFileSync(join(program.dir, "site-admin.ts"), "utf8");
    expect(admin).toMatch(
      /Organization\(\n {2}"org-acme-eng",\n {2}\{\n {4}login: "acme-eng",\n {4}importId: "acme-eng",\n {2}\},\n {2}\{ retainOnDelete: true \},\n\);/,
    );
    expect(admin).toContain('Organization(\n  "org-acme-ops"');
  });

  it("fails at preview naming a secret that is not set, writing nothing", async () => {
    emulator.controls.clearLog();
    const missing = await program.run("preview");
    expect(missing.code).not.toBe(0);
    // The first of the secrets the module reads (an organisation or repository hook's, or an Actions secret's value).
    expect(missing.output).toMatch(
      /Missing required configuration variable 'hosting:(acmeEngHookOrgExampleComSecret|acmeEngApiHookCiExampleComHookSecret|acmeEngSecretNpmTokenValue|acmeEngApiSecretDeployKeyValue)'/,
    );
    expect(writes()).toEqual([]);
  });

  it("adopts every object with no write beyond the secrets, and the drift check is clean", async () => {
    await program.ok(
      "config",
      "set-all",
      "--secret",
      "acmeEngApiHookCiExampleComHookSecret=hook-secret",
      "--secret",
      "hookAuditExampleComSecret=audit-secret",
      "--secret",
      "acmeEngSecretNpmTokenValue=npm-token",
      "--secret",
      "acmeEngApiSecretDeployKeyValue=deploy-key",
      "--secret",
      "acmeEngHookOrgExampleComSecret=org-secret",
    );
    emulator.controls.clearLog();
    const up = await program.ok("up", "--yes", "--skip-preview");
    // ts-node type-checked every module of the program in that run; the runs below compile the
    // same files without checking them again (about 2.5 CPU-s a run), as hosting-fleet runs them.
    program.setEnv({ ...TRANSPILE_ONLY });
    const declared = readdirSync(program.dir)
      .filter((f) => f.endsWith(".ts"))
      .map((f) => readFileSync(join(program.dir, f), "utf8").split("new hosting.").length - 1)
      .reduce((a, b) => a + b, 0);
    expect(declared).toBeGreaterThanOrEqual(19);
    expect(up.output).toContain(`+ ${declared + 1} created`); // and the stack
    expect(writes().sort()).toEqual([
      "PATCH /admin/hooks/{hook_id}",
      "PATCH /orgs/{org}/hooks/{hook_id}",
      "PATCH /repos/{owner}/{repo}/hooks/{hook_id}",
      "PUT /orgs/{org}/actions/secrets/{secret_name}",
      "PUT /repos/{owner}/{repo}/actions/secrets/{secret_name}",
    ]);
    const secretOf = (name: string) =>
      emulator.store.state.actionsSecrets.find((x) => x.name === name)?.value;
    expect([secretOf("NPM_TOKEN"), secretOf("DEPLOY_KEY")]).toEqual(["npm-token", "deploy-key"]);
    emulator.controls.clearLog();
    const drift = await program.run("preview", "--refresh", "--run-program", "--expect-no-changes");
    expect(drift.code, drift.output).toBe(0);
    expect(drift.output, drift.output).not.toMatch(/\[diff:/);
    expect(writes()).toEqual([]);
  });

  it("reports a change made outside Pulumi afterwards as drift", async () => {
    await api("PUT", "/orgs/acme-eng/memberships/mona", { role: "admin" });
    const drift = await program.run("preview", "--refresh", "--run-program", "--expect-no-changes", "--diff");
    expect(drift.code).not.toBe(0);
    expect(drift.output).toMatch(/role\s*:\s*"member"\s*=>\s*"admin"/);
  });

  it("writes the same files on a second import", async () => {
    const first = new Map(
      readdirSync(program.dir)
        .filter((f) => /\.(ts|json|yaml)$/.test(f) && f !== "package-lock.json")
        .map((f) => [f, readFileSync(join(program.dir, f), "utf8")]),
    );
    // The membership changed above: put it back, so the installation is the one imported first.
    await api("PUT", "/orgs/acme-eng/memberships/mona", { role: "member" });
    await importInto(program.dir);
    for (const [file, text] of first) expect(readFileSync(join(program.dir, file), "utf8"), file).toBe(text);
  });

  it("destroys the stack leaving everything that existed before it: owners, the token's user, every object", async () => {
    const before = JSON.stringify(emulator.store.state);
    emulator.controls.clearLog();
    const destroy = await program.ok("destroy", "--yes", "--skip-preview");
    expect(writes()).toEqual([]);
    expect(JSON.stringify(emulator.store.state)).toBe(before);
    // Every organisation keeps its owners, the token's own user (admin) included.
    const orgs = emulator.store.state.fixture.orgs;
    expect(orgs.find((o) => o.login === "acme-eng")?.members).toMatchObject({
      admin: { role: "admin" },
      olivia: { role: "admin" },
    });
    expect(orgs.find((o) => o.login === "acme-ops")?.members).toMatchObject({ admin: { role: "admin" } });
    // No error, and no line printed twice.
    expect(destroy.output).not.toMatch(/error:/i);
    expect(program.resources()).toEqual([]);
  });

  it("writes a YAML program for the plugin whose first up adopts every object with import, writing only the secrets", async () => {
    const yamlHost = spawnSync("sh", ["-c", "command -v pulumi-language-yaml"], { encoding: "utf8" });
    expect(yamlHost.status, "pulumi-language-yaml is not on PATH: run bash scripts/test.sh").toBe(0);
    // The destroy above left every object on the server; the stack's config still holds the secrets.
    const printed = await importInto(program.dir, "--language", "yaml");
    expect(printed).toContain("pulumi config set --secret acmeEngApiHookCiExampleComHookSecret --stack dev");
    const text = readFileSync(join(program.dir, "Pulumi.yaml"), "utf8");
    expect(text).toContain("runtime: yaml");
    expect(text).toContain(`secret: \${acmeEngApiHookCiExampleComHookSecret}`);
    expect(text).toContain(`runnerGroupId: \${acme-eng-runners-build-fleet.runnerGroupId}`);
    const declared = text.split("type: hosting:index:").length - 1;
    expect(declared).toBeGreaterThanOrEqual(19);
    emulator.controls.clearLog();
    const up = await program.ok("up", "--yes", "--skip-preview");
    expect(up.output).toContain(`= ${declared} imported`);
    expect(writes().sort()).toEqual([
      "PATCH /admin/hooks/{hook_id}",
      "PATCH /orgs/{org}/hooks/{hook_id}",
      "PATCH /repos/{owner}/{repo}/hooks/{hook_id}",
      "PUT /orgs/{org}/actions/secrets/{secret_name}",
      "PUT /repos/{owner}/{repo}/actions/secrets/{secret_name}",
    ]);
    emulator.controls.clearLog();
    const drift = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(drift.code, drift.output).toBe(0);
    expect(writes()).toEqual([]);
  });

  it("writes the pulumi import --file file: the import adopts every object with no write, its code shows no change", async () => {
    // The stack forgets the objects (as `pulumi state delete` would); the server keeps them.
    program.editState((resources) => resources.splice(0));
    const file = await importInto(program.dir, "--format", "pulumi-import");
    writeFileSync(join(program.dir, "import.json"), file);
    const listed = (JSON.parse(file) as { resources: Array<{ type: string }> }).resources;
    expect(new Set(listed.map((r) => r.type)).size).toBeGreaterThanOrEqual(17);
    emulator.controls.clearLog();
    // The code goes to another file: pulumi import creates the --out file before it reads the program.
    const imported = await program.ok("import", "--file", "import.json", "--yes", "--out", "imported.yaml");
    expect(imported.output).toContain(`= ${listed.length} imported`);
    expect(writes()).toEqual([]);
    // Webhook secrets: the API never returns them, so state and the code hold a placeholder, which
    // the provider never sends; declaring them from config makes the next up write them.
    const code = readFileSync(join(program.dir, "imported.yaml"), "utf8");
    expect(code).toContain("secret: (set outside Pulumi)");
    // So do the Actions secrets' values.
    expect(code.match(/value: \(set outside Pulumi\)/g)).toHaveLength(2);
    // A YAML program reads Main.yaml before Pulumi.yaml: the imported code is the program now.
    renameSync(join(program.dir, "imported.yaml"), join(program.dir, "Main.yaml"));
    const preview = await program.run("preview", "--expect-no-changes");
    expect(preview.code, preview.output).toBe(0);
    expect(writes()).toEqual([]);
  });
});

/**
 * Runs each line of `printed` that is not a shell comment with `sh -c`, in order, as a user pasting
 * them would, in an environment of its own (a file backend, no stack yet); each command that reads
 * a value reads `value <n>` from stdin. Resolves with the backend's environment, for checks.
 */
async function runPrinted(printed: string): Promise<NodeJS.ProcessEnv> {
  const home = temporaryFolder("hosting-e2e-printed-");
  mkdirSync(join(home, "state"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PULUMI_HOME: join(home, "home"),
    PULUMI_BACKEND_URL: `file://${join(home, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: "",
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  const lines = printed.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("#"));
  expect(lines.length).toBeGreaterThan(1);
  for (const [n, line] of lines.entries()) {
    const result = await shell(line, env, `value ${n}\n`);
    expect(result.code, `${line}\n${result.output}`).toBe(0);
  }
  return env;
}

/** `sh -c line` with `input` on stdin, without blocking the sandbox server in this process. */
function shell(line: string, env: NodeJS.ProcessEnv, input = ""): Promise<{ code: number; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("sh", ["-c", line], { env, stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code: code ?? -1, output }));
    child.stdin.end(input);
  });
}

/** The secret config of stack dev in `dir`, in clear. */
async function secretsOf(dir: string, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const result = await shell(`pulumi config --show-secrets --json --stack dev --cwd '${dir}'`, env);
  expect(result.code, result.output).toBe(0);
  const config = JSON.parse(result.output) as Record<string, { value: string; secret: boolean }>;
  return Object.fromEntries(
    Object.entries(config)
      .filter(([, v]) => v.secret)
      .map(([k, v]) => [k.split(":")[1] ?? k, v.value]),
  );
}

describe("the secret commands hosting-import prints", () => {
  it("run as printed, in order, on a fresh folder: one program", async () => {
    const out = temporaryFolder("hosting-e2e-fresh-");
    const printed = await importInto(out, "--language", "yaml");
    const env = await runPrinted(printed);
    expect(await secretsOf(out, env)).toEqual({
      acmeEngSecretNpmTokenValue: "value 1",
      acmeEngHookOrgExampleComSecret: "value 2",
      acmeEngApiSecretDeployKeyValue: "value 3",
      acmeEngApiHookCiExampleComHookSecret: "value 4",
      hookAuditExampleComSecret: "value 5",
    });
  });

  it("run as printed, in order, on a fresh folder: --split, in the stack hosting-fleet runs", async () => {
    const out = temporaryFolder("hosting-e2e-fresh-split-");
    const printed = await importInto(out, "--language", "yaml", "--split");
    const env = await runPrinted(printed);
    expect(await secretsOf(join(out, "acme-eng"), env)).toEqual({
      acmeEngSecretNpmTokenValue: "value 1",
      acmeEngHookOrgExampleComSecret: "value 2",
      acmeEngApiSecretDeployKeyValue: "value 3",
      acmeEngApiHookCiExampleComHookSecret: "value 4",
    });
    expect(await secretsOf(join(out, "site-admin"), env)).toEqual({ hookAuditExampleComSecret: "value 6" });
  });
});

describe("a program written from hostile names", () => {
  let hostile: RunningEmulator;
  let target: PulumiProgram;

  beforeAll(async () => {
    hostile = await startEmulator({ port: 0 });
    const call = apiOf(hostile, TOKEN);
    for (const name of HOSTILE.filter((h) => h !== "")) {
      await call("POST", "/orgs/acme-eng/actions/runner-groups", { name, visibility: "all" });
    }
    for (const [i, description] of HOSTILE.slice(0, 12).entries()) {
      await call("POST", "/orgs/acme-eng/issue-types", {
        name: `hostile ${i}`,
        is_enabled: true,
        description,
      });
    }
    // No program carries this one: it is left out, and nothing else is.
    await call("POST", "/orgs/acme-eng/actions/runner-groups", {
      name: "surrogate\ud800group",
      visibility: "all",
    });
    target = new PulumiProgram("hostile", "");
    rmSync(join(target.dir, "index.js"));
    await hostingImport(hostile, TOKEN, target.dir, [
      ...["--org", "acme-eng", "--kinds", "OrgRunnerGroup,IssueType", "--language", "yaml"],
    ]);
    await target.initStackFromEnvironment(hostile.origin, TOKEN);
  });

  afterAll(async () => {
    await hostile?.close();
  });

  const hostileWrites = () =>
    hostile.controls.log.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route}`);

  it("previews and adopts every object with no write, and then shows no change", async () => {
    const text = readFileSync(join(target.dir, "Pulumi.yaml"), "utf8");
    const declared = text.split("type: hosting:index:").length - 1;
    // Left out (hosting-import warns): the surrogate, and names the provider trims (its first up
    // would rename them), as test/importer/run.test.ts checks.
    const kept = HOSTILE.filter((h) => h !== "" && h === h.trim());
    expect(declared).toBeGreaterThanOrEqual(kept.length);
    expect(text).not.toMatch(/surrogate/);
    hostile.controls.clearLog();
    const preview = await target.run("preview");
    expect(preview.code, preview.output).toBe(0);
    expect(hostileWrites()).toEqual([]);
    const up = await target.ok("up", "--yes", "--skip-preview");
    expect(up.output).toContain(`= ${declared} imported`);
    expect(hostileWrites()).toEqual([]);
    const drift = await target.run("preview", "--refresh", "--expect-no-changes");
    expect(drift.code, drift.output).toBe(0);
    expect(hostileWrites()).toEqual([]);
  });
});
