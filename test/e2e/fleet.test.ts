/**
 * A fleet end to end with the real Pulumi CLI: `hosting-import --split` writes one project per
 * organisation of a two-organisation installation, and the CI examples' commands run here against
 * the sandbox server. The GitLab CI file, with the file backend: its `up` job (`hosting-fleet up`)
 * adopts both organisations with no write; after a change made outside Pulumi its two drift jobs
 * (`--shard 1/2` and `2/2`, at once as on two machines) cover each stack once and exit 1 and 0;
 * its report job's merged report names the change with its field and exits 1. The GitHub Actions
 * workflow does the same runs with state in a real PostgreSQL server (the CLI's `postgres://`
 * backend). Last, with PostgreSQL: two ups of one stack at once, one runs and the other fails with
 * the lock message and loses nothing; a killed run leaves a lock that `pulumi cancel` clears.
 *
 * PostgreSQL comes from HOSTING_TEST_POSTGRES_URL (`.ci/run` evals scripts/postgres.sh); outside
 * CI the test runs that script itself, and skips the PostgreSQL parts, saying why, only where it
 * cannot start a server. In CI a missing URL fails the test. The tests run in order: each starts
 * from the state the one before left.
 */
import { execFile, execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import type { FleetReport } from "../../fleet/report";
import { shellWord } from "../../importer/run";
import { processesWith } from "../../scripts/leftovers";
import {
  type GithubWorkflow,
  type GitlabFile,
  gitlabJobOf,
  readYaml,
  runGithubJob,
  runGitlabJob,
} from "./ci-examples";
import { packLibrary, ROOT, requirePulumi, temporaryFolder } from "./pulumi";

const TOKEN = "svcp_siteadmin";
/**
 * The stack name: two projects always fall in different shards of two (fleet/shard.ts deals them
 * round-robin); with `ci`, acme-eng is dealt first (shard 1).
 */
const STACK = "ci";

let emulator: RunningEmulator;
let work: string;
let fleetDir: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking: the sandbox server answers from this same process. */
function exec(file: string, args: string[], env: NodeJS.ProcessEnv, cwd = work): Promise<Run> {
  return new Promise((resolvePromise) => {
    execFile(file, args, { env, cwd, encoding: "utf8", timeout: 300_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** The hosting-fleet of the installed package (the packed library in the template's node_modules). */
function fleetCli(): string {
  return join(inject("e2e").template, "node_modules/pulumi-hosting/dist/fleet/cli.js");
}

async function api(method: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
}

function writes(): string[] {
  return emulator.controls.log.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route}`);
}

/** The PostgreSQL URL to test with, or why there is none. */
function postgres(): { url: string } | { missing: string } {
  const given = process.env.HOSTING_TEST_POSTGRES_URL;
  if (given) return { url: given };
  if (process.env.CI) {
    throw new Error(
      "HOSTING_TEST_POSTGRES_URL is not set: .ci/run starts PostgreSQL with scripts/postgres.sh",
    );
  }
  const started = spawnSync("bash", [join(ROOT, "scripts/postgres.sh")], { encoding: "utf8" });
  const url = /HOSTING_TEST_POSTGRES_URL='([^']+)'/.exec(started.stdout ?? "")?.[1];
  return url ? { url } : { missing: `scripts/postgres.sh could not start PostgreSQL:\n${started.stderr}` };
}

const pg = postgres();
if ("missing" in pg) console.warn(`fleet e2e: skipping the PostgreSQL backend. ${pg.missing}`);
const pgUrl = "url" in pg ? pg.url : "";

/** Kills every process whose environment holds `variable=value`, until none is left. */
async function killAll(variable: string, value: string): Promise<void> {
  for (let round = 0; round < 100; round++) {
    const left = processesWith(variable, value);
    if (left.length === 0) return;
    for (const p of left) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // Ended meanwhile.
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`processes with ${variable}=${value} still running after 5 s`);
}

/** psql against the test server (its URL without the CLI-only `table` parameter). */
function psql(url: string, sql: string): string {
  const u = new URL(url);
  u.searchParams.delete("table");
  const r = spawnSync("psql", [u.toString(), "-Atc", sql], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`psql: ${r.stderr}`);
  return r.stdout.trim();
}

beforeAll(async () => {
  requirePulumi();
  emulator = await startEmulator({ port: 0 });
  // The installation as an administrator left it: a member, a runner group, a hook (no secret).
  await api("PUT", "/orgs/acme-eng/memberships/mona", { role: "member" });
  await api("POST", "/repos/acme-eng/api/hooks", { config: { url: "https://ci.example.com/hook" } });
  await api("POST", "/orgs/acme-ops/actions/runner-groups", { name: "Deployers", runners: [5] });
  // No secret the import would ask for: the fixture's Actions secrets go, so every stack adopts
  // with no write and needs no stack config.
  await api("DELETE", "/orgs/acme-eng/actions/secrets/NPM_TOKEN", undefined);
  await api("DELETE", "/repos/acme-eng/api/actions/secrets/DEPLOY_KEY", undefined);
  work = temporaryFolder("hosting-e2e-fleet-");
  fleetDir = join(work, "fleet");
  const imported = await exec(
    process.execPath,
    [
      join(ROOT, "dist/importer/cli.js"),
      ...["--org", "acme-eng", "--org", "acme-ops", "--split", "--out", fleetDir],
      ...["--library", `file:${packLibrary()}`],
    ],
    { ...process.env, HOSTING_BASE_URL: emulator.origin, HOSTING_TOKEN: TOKEN },
  );
  expect(imported.code, imported.stderr).toBe(0);
  // The root package.json's `npm install` would hoist every project's dependencies here; the
  // template holds exactly those (the packed library, @pulumi/pulumi, TypeScript).
  symlinkSync(join(inject("e2e").template, "node_modules"), join(fleetDir, "node_modules"), "dir");
});

/**
 * A mark every CLI run of the CI examples and of the stack that never settles inherits (with its
 * plugins), to find what outlived them.
 */
const RUN_MARK = `${process.pid}-${Date.now()}`;

afterAll(async () => {
  await emulator?.close();
  // In most runs of this file, one CLI run of the CI examples leaves its Node.js language host
  // running, orphaned (the cause is not known: a direct `pulumi up` of a stack that does not exist,
  // or a failed `--expect-no-changes` preview, leaves none); so does, in some runs, the CLI
  // cancelled with the stack that never settles. They are stopped here and named; anything else
  // left still fails scripts/test.sh's check.
  const hosts = processesWith("HOSTING_E2E_FLEET_RUN", RUN_MARK).filter((p) =>
    /\/pulumi-language-nodejs /.test(`${p.command} `),
  );
  for (const p of hosts) {
    console.warn(`fleet e2e: stopping a language host the Pulumi CLI left running: ${p.pid} ${p.command}`);
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // Ended meanwhile.
    }
  }
});

describe("hosting-import --split", () => {
  it("writes one project per organisation under a package.json whose workspaces are the projects", () => {
    const root = JSON.parse(readFileSync(join(fleetDir, "package.json"), "utf8"));
    expect(root.workspaces).toEqual(["acme-eng", "acme-ops"]);
    expect(readFileSync(join(fleetDir, "acme-eng/Pulumi.yaml"), "utf8")).toMatch(/^name: acme-eng$/m);
    expect(readFileSync(join(fleetDir, "acme-eng/acme-eng.ts"), "utf8")).toContain('username: "mona"');
    expect(readFileSync(join(fleetDir, "acme-ops/acme-ops.ts"), "utf8")).toContain('name: "Deployers"');
  });
});

interface Backend {
  name: "file" | "postgres";
  /** The CLI's backend URL (PULUMI_BACKEND_URL). */
  url: string;
  env: NodeJS.ProcessEnv;
}

const fileBackend: Backend = { name: "file", url: "", env: {} };
const postgresBackend: Backend = { name: "postgres", url: "", env: {} };

/** A backend's state location and the environment every command of the fleet gets. */
function prepare(backend: Backend): void {
  const dir = join(work, backend.name);
  mkdirSync(join(dir, "state"), { recursive: true });
  if (backend.name === "postgres") {
    // A table of its own per run: the database outlives the test, and runs must not meet.
    const url = new URL(pgUrl);
    url.searchParams.set("table", `fleet_${process.pid}_${Date.now()}`);
    backend.url = url.toString();
  } else {
    backend.url = `file://${join(dir, "state")}`;
  }
  // What the CLI and the programs write to the temporary folder (ts-node's cache) stays here.
  mkdirSync(join(dir, "tmp"));
  backend.env = {
    ...process.env,
    TMPDIR: join(dir, "tmp"),
    PULUMI_HOME: join(dir, "home"),
    PULUMI_BACKEND_URL: backend.url,
    PULUMI_CONFIG_PASSPHRASE: "",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    HOSTING_E2E_FLEET_RUN: RUN_MARK,
    HOSTING_BASE_URL: emulator.origin,
    HOSTING_TOKEN: TOKEN,
  };
}

/**
 * A `pulumi` first on PATH that appends each command's arguments to a log, a line each, and runs
 * the CLI in its place (same process): what hosting-fleet runs, seen from outside.
 */
function recordingCli(dir: string): { env: NodeJS.ProcessEnv; commands: () => string[] } {
  const real = execFileSync("sh", ["-c", "command -v pulumi"], { encoding: "utf8" }).trim();
  const log = join(dir, "commands.log");
  mkdirSync(dir, { recursive: true });
  writeFileSync(log, "");
  writeFileSync(
    join(dir, "pulumi"),
    `#!/bin/sh\nprintf '%s\\n' "$*" >> ${shellWord(log)}\nexec ${shellWord(real)} "$@"\n`,
    { mode: 0o755 },
  );
  return {
    env: { PATH: `${dir}${delimiter}${process.env.PATH ?? ""}` },
    commands: () => readFileSync(log, "utf8").split("\n").filter(Boolean),
  };
}

/** A report's changes of a stack: mona's membership in acme-eng, its role from `old` to `now`. */
function monaRoleChanged(old: string, now: string): unknown[] {
  return [
    expect.objectContaining({
      name: "acme-eng-member-mona",
      op: "update",
      fields: ["role"],
      diffs: [{ field: "role", old, new: now }],
    }),
  ];
}

/** Runs the installed hosting-fleet with a backend's environment. */
function fleetWith(backend: Backend, ...args: string[]): Promise<Run> {
  return exec(process.execPath, [fleetCli(), ...args], backend.env);
}

/** The examples as they are, but for the stack name (`ci` for `prod`: acme-eng in shard 1). */
const EXAMPLE_STACK = { STACK };

describe("the CI examples, run here", () => {
  const summary = () => join(work, "step-summary.md");

  it("GitLab CI, file backend: up on the default branch adopts with no write; the scheduled drift jobs, a shard each, cover each stack once; the merged report names the change and its field", async () => {
    prepare(fileBackend);
    const pipeline = readYaml<GitlabFile>(join(ROOT, "examples/ci/gitlab-ci.yml"));
    expect(gitlabJobOf(pipeline, "drift").parallel).toBe(2);
    expect(gitlabJobOf(pipeline, "up").rules?.[0]?.if).toContain("$CI_DEFAULT_BRANCH");
    const cli = recordingCli(join(work, "recording-cli"));
    const env = { ...fileBackend.env, ...cli.env, CI_NODE_TOTAL: "2" };

    emulator.controls.clearLog();
    const up = await runGitlabJob(pipeline, "up", work, env, EXAMPLE_STACK);
    expect(up.code, JSON.stringify(up.commands, null, 2)).toBe(0);
    expect(up.replaced).toEqual([
      'curl -fsSL https://get.pulumi.com | sh && export PATH="$HOME/.pulumi/bin:$PATH"',
      "npm ci --no-audit --no-fund",
    ]);
    expect(writes()).toEqual([]);
    // One progress line per stack at its start and one at its end.
    const lines = (up.commands.at(-1)?.output ?? "").split("\n");
    for (const project of ["acme-eng", "acme-ops"]) {
      expect(lines.filter((l) => l.includes(`${project}/${STACK}: up started`))).toHaveLength(1);
      expect(
        lines.filter((l) => new RegExp(`${project}/${STACK}: ok, .* in [\\d.]+ s$`).test(l)),
      ).toHaveLength(1);
    }
    expect(readFileSync(join(fleetDir, "up.md"), "utf8")).toContain(`| acme-ops/${STACK} | ✅ ok |`);
    // Each stack's up, twice (the first answers that the stack does not exist yet, running
    // nothing; the stack is created, with no `stack select` first, and the up runs again), and
    // nothing read back after it (the Automation API would run `stack output` twice and
    // `stack history` for each).
    expect(cli.commands().filter((c) => c.startsWith("up ")).length).toBe(4);
    expect(cli.commands().filter((c) => c.startsWith("stack init")).length).toBe(2);
    expect(cli.commands().filter((c) => c.startsWith("stack select"))).toEqual([]);
    expect(cli.commands().filter((c) => /^stack (output|history)\b/.test(c))).toEqual([]);

    await api("PUT", "/orgs/acme-eng/memberships/mona", { role: "admin" });
    emulator.controls.clearLog();
    // At once, as two machines would.
    const shards = await Promise.all(
      [1, 2].map((index) =>
        runGitlabJob(pipeline, "drift", work, { ...env, CI_NODE_INDEX: String(index) }, EXAMPLE_STACK),
      ),
    );
    expect(writes()).toEqual([]);
    // acme-eng falls in shard 1 and drifted; acme-ops in shard 2 and is clean.
    expect(shards.map((s) => s.code)).toEqual([1, 0]);
    const perShard = [1, 2].map(
      (i) => JSON.parse(readFileSync(join(fleetDir, `drift-${i}.json`), "utf8")) as FleetReport,
    );
    expect(perShard.map((r) => r.stacks.map((s) => s.project))).toEqual([["acme-eng"], ["acme-ops"]]);

    const report = await runGitlabJob(pipeline, "report", work, env, EXAMPLE_STACK);
    expect(report.code).toBe(1);
    expect(report.commands.map((c) => c.code)).toEqual([0, 0, 0, 1]);
    const merged = JSON.parse(readFileSync(join(fleetDir, "drift.json"), "utf8")) as FleetReport;
    expect(merged.shards).toEqual(["1/2", "2/2"]);
    expect(merged.stacks.map((s) => [s.project, s.stack, s.status])).toEqual([
      ["acme-eng", STACK, "drift"],
      ["acme-ops", STACK, "clean"],
    ]);
    expect(merged.stacks[0]?.changes).toEqual(monaRoleChanged("admin", "member"));
    expect(readFileSync(join(fleetDir, "drift.xml"), "utf8")).toMatch(
      /<failure type="drift" message="1 resource drifted">update [^<]*acme-eng-member-mona: role\n {2}role: admin -&gt; member</,
    );
    expect(readFileSync(join(fleetDir, "drift.md"), "utf8")).toMatch(
      /acme-eng-member-mona \|[^\n]*\| update \| role: admin -> member \|/,
    );

    // `drift --refresh-only` finds the same change with no program run, read from the state to the
    // platform; the other stack is clean.
    const refreshOnly = join(work, "refresh-only.json");
    const refreshed = await fleetWith(
      fileBackend,
      ...["drift", "--refresh-only", "--root", fleetDir, "--stack", STACK, "--report", refreshOnly],
    );
    expect(refreshed.code, refreshed.stderr).toBe(1);
    expect(refreshed.stderr).toContain("hosting-fleet: drift (refresh only) of 2 of 2 stacks");
    const found = JSON.parse(readFileSync(refreshOnly, "utf8")) as FleetReport;
    expect(found.stacks.map((s) => [s.project, s.status])).toEqual([
      ["acme-eng", "drift"],
      ["acme-ops", "clean"],
    ]);
    expect(found.stacks[0]?.changes).toEqual(monaRoleChanged("member", "admin"));
    expect(writes()).toEqual([]);
    // Back as imported, for the next example's adoption.
    await api("PUT", "/orgs/acme-eng/memberships/mona", { role: "member" });
  });

  it("GitHub Actions, state in PostgreSQL: up on a push adopts with no write, then the nightly drift matrix and the merged report in the job summary", async () => {
    // The same runs as the GitLab example's, with state in PostgreSQL (outside CI, where no
    // server could be started, in the file backend).
    const backend = "missing" in pg ? fileBackend : postgresBackend;
    if (backend === postgresBackend) prepare(postgresBackend);
    const workflow = readYaml<GithubWorkflow>(join(ROOT, "examples/ci/github-actions.yml"));
    expect(Object.keys(workflow.on).sort()).toEqual(["push", "schedule", "workflow_dispatch"]);
    expect(workflow.jobs.up?.if).toContain("github.event_name == 'push'");
    expect(workflow.jobs.drift?.strategy?.matrix?.shard).toEqual([1, 2]);
    writeFileSync(summary(), "");
    const values = {
      "secrets.PULUMI_BACKEND_URL": backend.url,
      "secrets.PULUMI_CONFIG_PASSPHRASE": "",
      "vars.HOSTING_BASE_URL": emulator.origin,
      "secrets.HOSTING_TOKEN": TOKEN,
    };
    const env = { ...backend.env, GITHUB_STEP_SUMMARY: summary() };

    emulator.controls.clearLog();
    const up = await runGithubJob(workflow, "up", work, values, env, EXAMPLE_STACK);
    expect(up.code, JSON.stringify(up.commands, null, 2)).toBe(0);
    expect(up.replaced).toEqual([
      "uses: actions/checkout@v4",
      "uses: actions/setup-node@v4",
      "uses: pulumi/actions@v6",
      "npm ci --no-audit --no-fund",
    ]);
    expect(up.commands.map((c) => c.command)).toEqual([
      'npx hosting-fleet up --root . --stack "$STACK" --concurrency 4 --report up.md',
      'cat up.md >> "$GITHUB_STEP_SUMMARY"',
    ]);
    expect(writes()).toEqual([]);
    expect(readFileSync(summary(), "utf8")).toContain(`| acme-eng/${STACK} | ✅ ok |`);

    await api("PUT", "/orgs/acme-eng/memberships/mona", { role: "admin" });
    const shards = await Promise.all(
      [1, 2].map((shard) =>
        runGithubJob(
          workflow,
          "drift",
          work,
          { ...values, "matrix.shard": String(shard) },
          env,
          EXAMPLE_STACK,
        ),
      ),
    );
    expect(shards.map((s) => s.code)).toEqual([1, 0]);
    const report = await runGithubJob(workflow, "report", work, values, env, EXAMPLE_STACK);
    expect(report.commands.map((c) => c.code)).toEqual([0, 0, 1]);
    expect(report.code).toBe(1);
    const text = readFileSync(summary(), "utf8");
    expect(text).toContain("## hosting-fleet drift (shards 1/2, 2/2)");
    expect(text).toContain(`| acme-ops/${STACK} | ✅ clean | 0 |`);
    expect(text).toContain(
      "| acme-eng-member-mona | pulumi-nodejs:dynamic/hosting:OrgMembership | update | role: admin -> member |",
    );
    expect(readFileSync(join(fleetDir, "drift.xml"), "utf8")).toContain('<failure type="drift"');
  });
});

describe.skipIf("missing" in pg)("a fleet's locks in PostgreSQL", () => {
  const project = () => join(fleetDir, "acme-ops");
  const fleet = (...args: string[]) => fleetWith(postgresBackend, ...args);
  const table = () => new URL(postgresBackend.url).searchParams.get("table") ?? "pulumi_state";

  afterAll(() => {
    if (postgresBackend.url) psql(pgUrl, `DROP TABLE IF EXISTS ${table()}`);
  });

  /** How many locks of the stack the backend holds (a row per lock, under `.pulumi/locks/`). */
  const locks = () =>
    psql(pgUrl, `SELECT count(*) FROM ${table()} WHERE key LIKE '%/.pulumi/locks/%/acme-ops/${STACK}/%'`);

  /** The resources in the stack's checkpoint, as the backend stores it. */
  const resources = () =>
    psql(
      pgUrl,
      `SELECT json_array_length(convert_from(decode(data->>'data', 'base64'), 'UTF8')::json->'checkpoint'->'latest'->'resources') FROM ${table()} WHERE key LIKE '%/.pulumi/stacks/acme-ops/${STACK}.json'`,
    );

  async function lockAppears(): Promise<void> {
    for (let i = 0; i < 600; i++) {
      if (locks() !== "0") return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("no lock appeared within 30 s");
  }

  it("runs one of two ups of a stack at once; the other fails on the lock and loses nothing", async () => {
    const before = resources();
    expect(Number(before)).toBeGreaterThan(2);
    // Slow reads keep the first up, and its lock, going while the second starts.
    emulator.controls.addFault({
      method: "GET",
      path: "/orgs/acme-ops/*",
      latencyMs: 1_000,
      when: "before",
      remaining: 6,
    });
    const first = fleet("up", "--root", project(), "--stack", STACK);
    await lockAppears();
    const second = await fleet("up", "--root", project(), "--stack", STACK, "--format", "markdown");
    const done = await first;
    emulator.controls.faults = [];
    expect(done.code, done.stderr).toBe(0);
    expect(second.code).toBe(2);
    expect(second.stdout).toContain("| acme-ops/ci | ❌ error |");
    expect(second.stdout).toMatch(/the stack is currently locked by 1 lock\(s\)[^\n]*`pulumi cancel`/);
    expect(locks()).toBe("0");
    expect(resources()).toBe(before);
  });

  it("leaves a lock when killed, which pulumi cancel clears", async () => {
    // The CLI in a process group of its own, and a mark its plugins inherit: the CLI starts each
    // plugin in a process group of its own (setpgid), so killing the CLI's group leaves them
    // running, orphaned, as a crash of the CLI would; the mark finds them afterwards.
    const mark = `${process.pid}-${Date.now()}`;
    const child = spawn("pulumi", ["up", "--yes", "--stack", STACK, "--non-interactive"], {
      cwd: project(),
      env: { ...postgresBackend.env, HOSTING_E2E_KILLED_RUN: mark },
      detached: true,
      stdio: "ignore",
    });
    const exited = new Promise((r) => child.on("exit", r));
    await lockAppears();
    process.kill(-(child.pid ?? 0), "SIGKILL");
    await exited;
    await killAll("HOSTING_E2E_KILLED_RUN", mark);
    expect(locks()).toBe("1");
    const blocked = await fleet("up", "--root", project(), "--stack", STACK);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/acme-ops\/ci: error: the stack is currently locked by 1 lock\(s\)/);
    // The documented command (docs/fleets.md, "Large installations").
    const cancel = await exec(
      "pulumi",
      ["cancel", "--yes", "--stack", STACK, "--non-interactive"],
      postgresBackend.env,
      project(),
    );
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(locks()).toBe("0");
    const up = await fleet("up", "--root", project(), "--stack", STACK);
    expect(up.code, up.stderr).toBe(0);
  });
});

describe("a stack that never settles, with the real CLI", () => {
  // A program that registers nothing and never ends (an interval keeps its process alive), on the
  // file backend: its `up` holds the stack's lock until it is cancelled.
  const dir = () => join(work, "stuck");
  const state = () => join(dir(), "state");
  let env: NodeJS.ProcessEnv;

  beforeAll(() => {
    mkdirSync(join(dir(), "root", "never"), { recursive: true });
    mkdirSync(state());
    mkdirSync(join(dir(), "tmp"));
    writeFileSync(
      join(dir(), "root", "never", "Pulumi.yaml"),
      "name: never\nruntime: nodejs\nmain: index.js\n",
    );
    writeFileSync(join(dir(), "root", "never", "package.json"), "{}\n");
    writeFileSync(
      join(dir(), "root", "never", "index.js"),
      'require("@pulumi/pulumi");\nsetInterval(() => {}, 1000);\n',
    );
    symlinkSync(join(inject("e2e").template, "node_modules"), join(dir(), "root", "node_modules"), "dir");
    env = {
      ...process.env,
      PULUMI_HOME: join(dir(), "home"),
      PULUMI_BACKEND_URL: `file://${state()}`,
      PULUMI_CONFIG_PASSPHRASE: "",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
      // A cancelled program leaves the Node.js host's `pulumi-node-pipes*` and ts-node's cache in
      // the temporary folder: this one goes with `work`.
      TMPDIR: join(dir(), "tmp"),
      HOSTING_E2E_FLEET_RUN: RUN_MARK,
    };
  });

  /** The lock files of the stack (the file backend keeps one per running operation). */
  const locks = (): string[] => {
    const at = join(state(), ".pulumi", "locks");
    try {
      return readdirSync(at, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".json"));
    } catch {
      return [];
    }
  };

  it("is cancelled at --timeout: its lock released, the report naming the limit, exit 2", async () => {
    const started = Date.now();
    const report = join(dir(), "timeout.json");
    const run = await exec(
      process.execPath,
      [fleetCli(), "up", "--root", join(dir(), "root"), "--timeout", "8s", "--report", report],
      env,
    );
    expect(run.code, run.stderr).toBe(2);
    // The limit, the CLI's start and its cancel: far from the 30 minutes of the default.
    expect(Date.now() - started).toBeLessThan(60_000);
    const stacks = (JSON.parse(readFileSync(report, "utf8")) as FleetReport).stacks;
    expect(stacks.map((s) => [s.project, s.status])).toEqual([["never", "error"]]);
    expect(stacks[0]?.error).toMatch(/^timed out after 8s \(--timeout 8s\): the operation was cancelled/);
    expect(run.stderr).toMatch(/\[1\/1\] never\/dev: error: timed out after 8s \(--timeout 8s\)/);
    expect(locks()).toEqual([]);
  });

  it("is cancelled at SIGINT: its lock released with no `pulumi cancel`, the report written, exit 2", async () => {
    const report = join(dir(), "interrupted.md");
    const child = spawn(
      process.execPath,
      [fleetCli(), "up", "--root", join(dir(), "root"), "--report", report],
      {
        env,
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    for (let i = 0; i < 1_200 && locks().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(locks(), stderr).toHaveLength(1);
    const interrupted = Date.now();
    child.kill("SIGINT");
    expect(await exited, stderr).toBe(2);
    // The CLI cancels a program that never settles at once.
    expect(Date.now() - interrupted).toBeLessThan(20_000);
    expect(locks()).toEqual([]);
    expect(stderr).toContain("hosting-fleet: SIGINT: cancelling the running stacks");
    const md = readFileSync(report, "utf8");
    expect(md).toContain("| never/dev | ❌ error |");
    expect(md).toContain("```text\ninterrupted by SIGINT: the operation was cancelled\n```");
  });
});
