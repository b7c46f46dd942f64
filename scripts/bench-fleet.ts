/**
 * `npm run bench:fleet`: what splitting an installation into a fleet buys, through the real CLI.
 * A sandbox server gets ORGS organisations with PER_ORG objects each (runner groups and
 * memberships); `hosting-import --split` writes the fleet and `hosting-import` the same objects as
 * one program; one `npm install` at the fleet's root serves every project. After adopting both
 * (`hosting-fleet up`), it times a drift check of the single stack and of the fleet at each
 * concurrency, each as a CI job would run it (an empty temporary folder, no type check remembered),
 * and prints: wall time, peak memory of the processes of the run (the CLI, language
 * hosts, programs and provider processes) and per stack at once, API requests per resource, and
 * the wall time N shards would take, each shard on a machine of its own running its stacks one
 * after another (from the per-stack times of the run at concurrency 1).
 *
 * Environment: BENCH_FLEET_ORGS (default 40), BENCH_FLEET_PER_ORG (default 50),
 * BENCH_FLEET_CONCURRENCY (default 1,2,4), BENCH_FLEET_SHARDS (default 2,4,8),
 * BENCH_FLEET_SINGLE (default 1: 0 skips the single stack), BENCH_FLEET_LANGUAGE (the programs'
 * language, `hosting-import --language`: typescript, the default, or yaml, python, go),
 * BENCH_FLEET_DRIFT (default program,refresh-only: the drift checks timed, `hosting-fleet drift`
 * and `hosting-fleet drift --refresh-only`). Needs the Pulumi CLI on PATH.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startEmulator } from "../emulator/index";
import type { FleetReport } from "../fleet/report";
import { assignShards } from "../fleet/shard";
import { stackParts } from "./bench/fleet-parts";
import { log, numbers } from "./bench/run";

const ROOT = resolve(__dirname, "../..");
const TOKEN = "svcp_siteadmin";
const STACK = "bench";
/** The users the fixture has beside `admin`, who owns every organisation it creates. */
const MEMBERS = ["olivia", "octocat", "mona", "hubot"];

interface Timed {
  seconds: number;
  code: number;
  stderr: string;
  stdout: string;
  /** Peak resident memory of the command and every process under it, MB. */
  peakMb: number;
}

/** Runs node with a script, sampling the memory of its process tree every 250 ms. */
function timed(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Timed> {
  return new Promise((resolvePromise) => {
    const started = process.hrtime.bigint();
    let peakKb = 0;
    const child = execFile(
      process.execPath,
      args,
      { env, cwd, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 },
      (error, stdout, stderr) => {
        clearInterval(sampler);
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        resolvePromise({ seconds, code, stdout, stderr, peakMb: peakKb / 1024 });
      },
    );
    const sampler = setInterval(() => {
      if (child.pid !== undefined) peakKb = Math.max(peakKb, treeRssKb(child.pid));
    }, 250);
  });
}

/** The resident memory of a process and all its descendants, kB (from ps). */
function treeRssKb(root: number): number {
  let text: string;
  try {
    text = execFileSync("ps", ["-A", "-o", "pid=,ppid=,rss="], { encoding: "utf8" });
  } catch {
    return 0;
  }
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const line of text.trim().split("\n")) {
    const [pid, ppid, kb] = line.trim().split(/\s+/).map(Number);
    if (pid === undefined || ppid === undefined || kb === undefined) continue;
    rss.set(pid, kb);
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  let total = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

async function main(): Promise<void> {
  const orgs = numbers("BENCH_FLEET_ORGS", "40")[0] ?? 40;
  const perOrg = numbers("BENCH_FLEET_PER_ORG", "50")[0] ?? 50;
  const concurrencies = numbers("BENCH_FLEET_CONCURRENCY", "1,2,4");
  const shardCounts = numbers("BENCH_FLEET_SHARDS", "2,4,8");
  const single = (numbers("BENCH_FLEET_SINGLE", "1")[0] ?? 1) > 0;
  const language = process.env.BENCH_FLEET_LANGUAGE?.trim() || "typescript";
  const drifts = (process.env.BENCH_FLEET_DRIFT?.trim() || "program,refresh-only").split(",");
  for (const d of drifts) {
    if (d !== "program" && d !== "refresh-only")
      throw new Error(`BENCH_FLEET_DRIFT: "${d}" is not program or refresh-only`);
  }
  const work = mkdtempSync(join(tmpdir(), "hosting-bench-fleet-"));
  const emulator = await startEmulator({ port: 0, logSize: 1_000_000 });
  try {
    const logins = Array.from({ length: orgs }, (_, i) => `org-${String(i + 1).padStart(2, "0")}`);
    log(`filling ${orgs} organisations with ${perOrg} objects each`);
    await fill(emulator.url, logins, perOrg);

    const packed = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", work], {
      cwd: ROOT,
      encoding: "utf8",
    });
    const library = `file:${join(work, packed.trim().split("\n").at(-1) ?? "")}`;
    const importEnv = { ...process.env, HOSTING_BASE_URL: emulator.origin, HOSTING_TOKEN: TOKEN };
    const orgArgs = logins.flatMap((l) => ["--org", l]);
    const fleetDir = join(work, "fleet");
    const oneDir = join(work, "single");
    const imported = await timed(
      [
        join(ROOT, "dist/importer/cli.js"),
        ...orgArgs,
        "--split",
        "--out",
        fleetDir,
        "--library",
        library,
        "--language",
        language,
      ],
      importEnv,
      work,
    );
    if (imported.code !== 0) throw new Error(`hosting-import --split: ${imported.stderr}`);
    log(`hosting-import --split: ${imported.seconds.toFixed(1)} s`);
    const installed = Date.now();
    execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: fleetDir,
      stdio: "inherit",
    });
    log(`one npm install for ${orgs} projects: ${((Date.now() - installed) / 1000).toFixed(1)} s`);

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PULUMI_HOME: join(work, "home"),
      PULUMI_BACKEND_URL: `file://${join(work, "state")}`,
      PULUMI_CONFIG_PASSPHRASE: "",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
      HOSTING_BASE_URL: emulator.origin,
      HOSTING_TOKEN: TOKEN,
    };
    mkdirSync(join(work, "state"));
    const fleetCli = join(fleetDir, "node_modules/pulumi-hosting/dist/fleet/cli.js");
    const fleet = (root: string, ...args: string[]) =>
      timed([fleetCli, ...args, "--root", root, "--stack", STACK], env, work);
    const resources = orgs * perOrg;

    const rows: string[] = [];
    const measure = async (
      label: string,
      stacks: number,
      concurrency: number,
      root: string,
      drift: string,
    ) => {
      emulator.controls.clearLog();
      // As a CI job starts: an empty temporary folder (where ts-node keeps what it compiled) and no
      // remembered type check (hosting-fleet's, in node_modules/.cache).
      rmSync(join(fleetDir, "node_modules", ".cache", "hosting-fleet"), { recursive: true, force: true });
      const run = await timed(
        [
          fleetCli,
          "drift",
          ...(drift === "refresh-only" ? ["--refresh-only"] : []),
          ...["--concurrency", String(concurrency), "--root", root, "--stack", STACK],
        ],
        { ...env, TMPDIR: mkdtempSync(join(work, "job-tmp-")) },
        work,
      );
      if (run.code !== 0) throw new Error(`${label}: drift exited ${run.code}\n${run.stderr.slice(-3000)}`);
      const report = JSON.parse(run.stdout) as FleetReport;
      const requests = emulator.controls.log.length;
      const atOnce = Math.min(concurrency, stacks);
      rows.push(
        [
          label,
          drift,
          stacks,
          concurrency,
          run.seconds.toFixed(1),
          run.peakMb.toFixed(0),
          (run.peakMb / atOnce).toFixed(0),
          (requests / resources).toFixed(2),
        ].join("\t"),
      );
      log(`${label}, ${drift}, at ${concurrency}: ${run.seconds.toFixed(1)} s`);
      return report;
    };

    if (single) {
      const one = await timed(
        [
          join(ROOT, "dist/importer/cli.js"),
          ...orgArgs,
          "--out",
          oneDir,
          "--library",
          library,
          "--project",
          "hosting-all",
          "--language",
          language,
        ],
        importEnv,
        work,
      );
      if (one.code !== 0) throw new Error(`hosting-import: ${one.stderr}`);
      symlinkSync(join(fleetDir, "node_modules"), join(oneDir, "node_modules"), "dir");
      // The adoption is setup, not a figure: skipping checkpoints keeps a 2,000-resource up short.
      const up = await timed(
        [fleetCli, "up", "--root", oneDir, "--stack", STACK],
        { ...env, PULUMI_SKIP_CHECKPOINTS: "true" },
        work,
      );
      if (up.code !== 0) throw new Error(`single up: ${up.stderr.slice(-3000)}`);
      log(`single stack adopted in ${up.seconds.toFixed(1)} s`);
      for (const drift of drifts) await measure(`one stack of ${resources}`, 1, 1, oneDir, drift);
    }
    const adopt = await fleet(fleetDir, "up", "--concurrency", "4");
    if (adopt.code !== 0) throw new Error(`fleet up: ${adopt.stderr.slice(-3000)}`);
    log(`fleet adopted in ${adopt.seconds.toFixed(1)} s`);
    const workspaces = JSON.parse(readFileSync(join(fleetDir, "package.json"), "utf8"))
      .workspaces as string[];
    const firstProject = join(fleetDir, workspaces[0] ?? "");
    const parts = await stackParts(firstProject, STACK, env);
    let perStack: FleetReport | undefined;
    for (const k of concurrencies) {
      for (const drift of drifts) {
        const report = await measure(`${orgs} stacks of ${perOrg}`, orgs, k, fleetDir, drift);
        if (k === 1 && drift === drifts[0]) perStack = report;
      }
    }

    console.log(
      "\nhosting-fleet drift (program: preview --refresh --run-program --expect-no-changes; refresh-only: " +
        `refresh --preview-only --expect-no-changes), ${resources} resources, ` +
        `${availableParallelism()} CPUs, load average at the end ${loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}`,
    );
    console.log(
      `\nthe parts of one stack's drift check (${firstProject.slice(fleetDir.length + 1)}), medians of 3:`,
    );
    console.log("part\tseconds");
    for (const part of parts) console.log(`${part.label}\t${part.seconds.toFixed(2)}`);
    console.log("");
    console.log("run\tdrift\tstacks\tconcurrency\tseconds\tpeak MB\tMB per stack at once\trequests/resource");
    for (const row of rows) console.log(row);
    if (perStack) {
      console.log(
        `\nN shards, each on a machine of its own at concurrency 1 (from the per-stack times of the ${drifts[0]} drift above):`,
      );
      console.log("shards\tstacks in the largest\tseconds (slowest shard)");
      for (const n of shardCounts) {
        const sums = new Map<number, { stacks: number; seconds: number }>();
        const shards = assignShards(
          perStack.stacks.map((s) => s.project),
          STACK,
          n,
        );
        for (const s of perStack.stacks) {
          const shard = shards.get(s.project) ?? 0;
          const at = sums.get(shard) ?? { stacks: 0, seconds: 0 };
          sums.set(shard, { stacks: at.stacks + 1, seconds: at.seconds + s.seconds });
        }
        const slowest = [...sums.values()].sort((a, b) => b.seconds - a.seconds)[0];
        const largest = Math.max(...[...sums.values()].map((v) => v.stacks));
        console.log([n, largest, slowest?.seconds.toFixed(1)].join("\t"));
      }
    }
  } finally {
    await emulator.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Creates the organisations (owner admin) and in each `perOrg` objects: members, then runner groups. */
async function fill(url: string, logins: string[], perOrg: number): Promise<void> {
  const call = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  };
  for (const login of logins) await call("POST", "/admin/organizations", { login, admin: "admin" });
  const writes: Array<() => Promise<void>> = [];
  for (const login of logins) {
    // admin's own membership is one object; the other members and the groups make up the rest.
    const members = MEMBERS.slice(0, Math.max(0, Math.min(MEMBERS.length, perOrg - 1)));
    for (const user of members)
      writes.push(() => call("PUT", `/orgs/${login}/memberships/${user}`, { role: "member" }));
    for (let i = 0; i < perOrg - 1 - members.length; i++) {
      writes.push(() =>
        call("POST", `/orgs/${login}/actions/runner-groups`, { name: `group ${i + 1}`, visibility: "all" }),
      );
    }
  }
  for (let i = 0; i < writes.length; i += 32) await Promise.all(writes.slice(i, i + 32).map((w) => w()));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exitCode = 1;
});
