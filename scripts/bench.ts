/**
 * `npm run bench`: the library as users feel it, through the real Pulumi CLI. For each count N and
 * injected latency it times `pulumi up`, `preview`, `preview --refresh` and `destroy` of N resources
 * of mixed families against the sandbox server, and the same for the floor (N no-op dynamic
 * resources with the same inputs, same CLI, same SDK, same machine, same run). Prints seconds, the
 * ratio to the floor against the targets, API requests per resource, state size and CPU time.
 *
 * Environment: BENCH_N (default 300; a list such as 300,1000), BENCH_LATENCY_MS (default 0,25),
 * BENCH_PARALLEL (e.g. 4,8,16,32,64: also run up and destroy with --parallel P at 25 ms). One
 * sample per figure. Needs the Pulumi CLI on PATH; everything else lives in a temporary folder
 * removed at the end.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type RunningEmulator, startEmulator } from "../emulator/index";
import { BenchProgram, gnuTimeAvailable, packLibrary, plansChanges, requirePulumi } from "./bench/cli";
import { FLOOR_JS, MIX_DESCRIPTION, MIX_JS, mixCounts, OURS_JS } from "./bench/programs";
import {
  BOUND_EXPLANATION,
  type Cell,
  cellReport,
  OPERATIONS,
  type Operation,
  type OperationFigures,
  type ParallelRow,
  type ProgramFigures,
  parallelReport,
  routesReport,
} from "./bench/report";

const ROOT = resolve(__dirname, "../..");
const PARALLEL_LATENCY_MS = 25;
const WRITE_METHODS = ["POST", "PATCH", "PUT", "DELETE"];

function numbers(name: string, fallback: string): number[] {
  const raw = process.env[name]?.trim() || fallback;
  const list = raw.split(",").map((x) => Number(x.trim()));
  if (list.some((x) => !Number.isInteger(x) || x < 0)) {
    throw new Error(`${name} must be a comma-separated list of whole numbers, got ${JSON.stringify(raw)}`);
  }
  return list;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

class Sandbox {
  constructor(readonly emulator: RunningEmulator) {}

  private async control(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.emulator.origin}/_emulator${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok)
      throw new Error(`${method} /_emulator${path}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : response.json();
  }

  /** Fresh fixture, empty log, and `latencyMs` on every API path. */
  async reset(latencyMs: number): Promise<void> {
    await this.control("POST", "/reset");
    if (latencyMs > 0) await this.control("POST", "/faults", { path: "/*", latencyMs, count: 1_000_000_000 });
  }

  clearLog(): Promise<unknown> {
    return this.control("DELETE", "/requests");
  }

  async counts(): Promise<{
    total: number;
    byMethod: Record<string, number>;
    byRoute: Record<string, number>;
  }> {
    const body = (await this.control("GET", "/requests")) as {
      counts: { total: number; byMethod: Record<string, number>; byRoute: Record<string, number> };
    };
    return body.counts;
  }
}

const ARGS: Record<Operation, string[]> = {
  up: ["up", "--yes", "--skip-preview"],
  preview: ["preview"],
  refresh: ["preview", "--refresh"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};

async function measure(
  sandbox: Sandbox,
  program: BenchProgram,
  stack: string,
  op: Operation,
  extra: string[] = [],
): Promise<OperationFigures> {
  await sandbox.clearLog();
  const cpuBefore = process.cpuUsage();
  const timed = await program.run(...ARGS[op], "--stack", stack, ...extra);
  const cpu = process.cpuUsage(cpuBefore);
  const counts = await sandbox.counts();
  const writes = WRITE_METHODS.reduce((sum, m) => sum + (counts.byMethod[m] ?? 0), 0);
  log(`  ${program.project} ${stack} ${op}: ${timed.seconds.toFixed(1)} s, ${counts.total} requests`);
  return {
    seconds: timed.seconds,
    ...(timed.cpuSeconds === undefined ? {} : { cpuSeconds: timed.cpuSeconds }),
    sandboxCpuSeconds: (cpu.user + cpu.system) / 1e6,
    requests: counts.total,
    writes,
    byRoute: counts.byRoute,
    plannedChanges: (op === "preview" || op === "refresh") && plansChanges(timed.output),
  };
}

/** A fresh stack of n resources through every operation; checks the state holds all n. */
async function cycle(
  sandbox: Sandbox,
  program: BenchProgram,
  stack: string,
  n: number,
  latencyMs: number,
  typeSuffix: string,
): Promise<ProgramFigures> {
  await sandbox.reset(latencyMs);
  await program.initStack(stack, sandbox.emulator.origin, n);
  const operations = {} as Record<Operation, OperationFigures>;
  let state = { bytes: 0, dynamicResources: 0, providerBytes: 0 };
  for (const op of OPERATIONS) {
    operations[op] = await measure(sandbox, program, stack, op);
    if (op === "up") {
      state = program.state(stack, typeSuffix);
      if (state.dynamicResources !== n) {
        throw new Error(
          `${program.project} ${stack}: state holds ${state.dynamicResources} resources, expected ${n}`,
        );
      }
    }
  }
  return { operations, stateBytes: state.bytes, providerBytes: state.providerBytes };
}

async function main(): Promise<void> {
  const pulumiVersion = requirePulumi();
  const counts = numbers("BENCH_N", "300");
  const latencies = numbers("BENCH_LATENCY_MS", "0,25");
  const parallels = process.env.BENCH_PARALLEL?.trim() ? numbers("BENCH_PARALLEL", "") : [];
  const defaultParallelism = 4 * availableParallelism();
  const sdkVersion: string = JSON.parse(
    readFileSync(join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8"),
  ).version;

  const work = mkdtempSync(join(tmpdir(), "hosting-bench-"));
  const cleanup = () => rmSync(work, { recursive: true, force: true });
  process.once("SIGINT", () => {
    cleanup();
    process.exit(130);
  });
  const emulator = await startEmulator({ port: 0 });
  const sandbox = new Sandbox(emulator);
  try {
    log(`packing the library and installing two programs in ${work}`);
    const tarball = packLibrary(ROOT, work);
    const home = join(work, ".pulumi-home");
    const ours = new BenchProgram(
      work,
      "hosting-bench",
      { "index.js": OURS_JS, "mix.js": MIX_JS },
      { "pulumi-hosting": `file:${tarball}`, "@pulumi/pulumi": sdkVersion },
      home,
    );
    const floor = new BenchProgram(
      work,
      "floor-bench",
      { "index.js": FLOOR_JS, "mix.js": MIX_JS },
      { "@pulumi/pulumi": sdkVersion },
      home,
    );
    ours.install();
    floor.install();
    // Warm the disk cache and the CLI's plugin lookup before anything is timed.
    for (const program of [ours, floor]) {
      await program.initStack("warmup", emulator.origin, 10);
      await program.run("preview", "--stack", "warmup");
    }

    const cells: Cell[] = [];
    const parallelRows: ParallelRow[][] = [];
    for (const n of counts) {
      for (const latencyMs of latencies) {
        const stack = `n${n}-l${latencyMs}`;
        log(`N=${n}, ${latencyMs} ms`);
        const o = await cycle(sandbox, ours, stack, n, latencyMs, ":RepositoryWebhook");
        const f = await cycle(sandbox, floor, stack, n, latencyMs, ":RepositoryWebhook");
        cells.push({ n, latencyMs, parallelism: defaultParallelism, ours: o, floor: f });
      }
      const latencyMs = PARALLEL_LATENCY_MS;
      const rows: ParallelRow[] = [];
      for (const p of parallels) {
        const stack = `n${n}-l${latencyMs}-p${p}`;
        log(`N=${n}, ${latencyMs} ms, --parallel ${p}`);
        const pair = async (program: BenchProgram) => {
          await sandbox.reset(latencyMs);
          await program.initStack(stack, emulator.origin, n);
          const up = await measure(sandbox, program, stack, "up", ["--parallel", String(p)]);
          const destroy = await measure(sandbox, program, stack, "destroy", ["--parallel", String(p)]);
          return { up, destroy };
        };
        rows.push({ n, latencyMs, parallelism: p, ours: await pair(ours), floor: await pair(floor) });
      }
      if (rows.length) parallelRows.push(rows);
    }

    const engineEnv = ["PULUMI_PARALLEL", "PULUMI_SKIP_CHECKPOINTS", "PULUMI_PARALLEL_DIFF"]
      .filter((k) => process.env[k] !== undefined)
      .map((k) => `${k}=${process.env[k]}`);
    const out = [
      "# pulumi-hosting bench: the real Pulumi CLI, file backend, sandbox server in the bench process",
      "",
      `machine: ${availableParallelism()} CPUs (${cpus()[0]?.model ?? "unknown"}), node ${process.version}, ` +
        `pulumi ${pulumiVersion}, @pulumi/pulumi ${sdkVersion}, engine default parallelism ${defaultParallelism} (4 x CPUs)`,
      `N: ${counts.join(", ")}; latency per API request: ${latencies.join(", ")} ms; one sample per figure` +
        (engineEnv.length ? `; engine environment: ${engineEnv.join(" ")}` : ""),
      "",
      `ours: ${MIX_DESCRIPTION}`,
      ...counts.map(
        (n) =>
          `  N=${n}: ${Object.entries(mixCounts(n))
            .map(([family, c]) => `${c} ${family}`)
            .join(", ")}`,
      ),
      "floor: the same N resources and inputs as pulumi.dynamic.Resource with an inline no-op provider",
      "  (create returns the inputs, diff no change, read the state, delete nothing); no API requests.",
      "",
      "Columns: seconds are wall time of the CLI command (program start to exit). API req/resource and",
      "writes (POST/PATCH/PUT/DELETE) come from the sandbox's request log; '1 write/s policy' is the time a",
      "client allowed one write per second would need for those writes alone. CLI CPU is user+system",
      "seconds of the pulumi process tree (GNU time); sandbox CPU is this process serving the API.",
      gnuTimeAvailable() ? "" : "(GNU time not found at /usr/bin/time: CLI CPU not measured)",
      "Targets: at 0 ms, up and destroy <= 1.1x the floor, both previews <= 1.25x.",
      BOUND_EXPLANATION,
      "",
      ...cells.flatMap((cell) => [cellReport(cell), ""]),
      ...cells.slice(0, 1).flatMap((cell) => [routesReport(cell), ""]),
      ...parallelRows.flatMap((rows) => [parallelReport(rows), ""]),
    ];
    console.log(out.join("\n"));
  } finally {
    await emulator.close();
    cleanup();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
