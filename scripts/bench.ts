/**
 * `npm run bench`: the library as users feel it, through the real Pulumi CLI. For each count N and
 * injected latency it times `pulumi up`, `preview`, `preview --refresh` and `destroy` of N resources
 * of mixed families against the sandbox server, and the same for the floor (N no-op dynamic
 * resources with the same inputs, same CLI, same SDK, same machine, same run); then the same N
 * resources through the native plugin `pulumi-resource-hosting` (against a second sandbox server,
 * so the two real programs never share objects) and the native floor (N resources of a no-op
 * provider plugin served the same way). The four programs run operation by operation in turn.
 * Prints seconds, the ratios to the floors against the targets, API requests per resource, state
 * size and CPU time.
 *
 * Environment: BENCH_N (default 300; a list such as 300,1000), BENCH_LATENCY_MS (default 0,25),
 * BENCH_PARALLEL (e.g. 4,8,16,32,64: also run up and destroy with --parallel P at 25 ms),
 * BENCH_REPEAT (default 1: samples per figure, the median kept), BENCH_MIX (`hooks`: every resource a
 * webhook of one repository, where refresh reads share the repository's list; default a mix of families). Needs the Pulumi CLI on PATH; everything else lives in a temporary folder
 * removed at the end.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startEmulator } from "../emulator/index";
import { BenchProgram, gnuTimeAvailable, packLibrary, requirePulumi } from "./bench/cli";
import {
  customResourceJs,
  FLOOR_JS,
  HOOKS_DESCRIPTION,
  HOOKS_ONLY,
  MIX_DESCRIPTION,
  MIX_JS,
  mixCounts,
  NATIVE_FLOOR_PACKAGE,
  NATIVE_FLOOR_PLUGIN_JS,
  OURS_JS,
  PLUGIN_PACKAGE,
} from "./bench/programs";
import {
  BOUND_EXPLANATION,
  type Cell,
  cellReport,
  OPERATIONS,
  type ParallelRow,
  PLUGIN_RATIO_TARGET,
  parallelReport,
  pluginReport,
  REFRESH_REQUESTS_TARGET,
  routesReport,
} from "./bench/report";
import { type Figures, figure, log, numbers, pairedCycles, programFigures, Sandbox } from "./bench/run";

const ROOT = resolve(__dirname, "../..");
const PARALLEL_LATENCY_MS = 25;

async function main(): Promise<void> {
  const pulumiVersion = requirePulumi();
  const counts = numbers("BENCH_N", "300");
  const latencies = numbers("BENCH_LATENCY_MS", "0,25");
  const parallels = process.env.BENCH_PARALLEL?.trim() ? numbers("BENCH_PARALLEL", "") : [];
  const repeat = numbers("BENCH_REPEAT", "1")[0] || 1;
  const defaultParallelism = 4 * availableParallelism();
  const loadAtStart = loadavg();
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
  // The plugin's program gets a server of its own: the same fixture, no objects of ours in its
  // lists (a repository refuses a second hook with the same URL; runner group names are unique).
  const pluginEmulator = await startEmulator({ port: 0 });
  const pluginSandbox = new Sandbox(pluginEmulator);
  try {
    log(`packing the library and installing four programs in ${work}`);
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
    // The plugin as the README installs it per project: the packed package in the program's
    // node_modules, its bin folder named in Pulumi.yaml. The native floor's executable sits in the
    // program's own folder, found the same way.
    const plugin = new BenchProgram(
      work,
      "plugin-bench",
      { "index.js": customResourceJs(PLUGIN_PACKAGE), "mix.js": MIX_JS },
      { "pulumi-hosting": `file:${tarball}`, "@pulumi/pulumi": sdkVersion },
      home,
      { pluginPaths: { [PLUGIN_PACKAGE]: "./node_modules/.bin" } },
    );
    const nativeFloor = new BenchProgram(
      work,
      "native-floor-bench",
      { "index.js": customResourceJs(NATIVE_FLOOR_PACKAGE), "mix.js": MIX_JS },
      { "@pulumi/pulumi": sdkVersion },
      home,
      {
        pluginPaths: { [NATIVE_FLOOR_PACKAGE]: "./plugin" },
        executables: { [`plugin/pulumi-resource-${NATIVE_FLOOR_PACKAGE}`]: NATIVE_FLOOR_PLUGIN_JS },
      },
    );
    for (const program of [ours, floor, plugin, nativeFloor]) program.install();
    // Warm the disk cache and the CLI's plugin lookup before anything is timed.
    const contenders = {
      ours: { program: ours, sandbox },
      floor: { program: floor, sandbox },
      plugin: { program: plugin, sandbox: pluginSandbox },
      nativeFloor: { program: nativeFloor, sandbox: pluginSandbox },
    };
    for (const { program, sandbox: server } of Object.values(contenders)) {
      await program.initStack("warmup", server.emulator.origin, 10);
      await program.run("preview", "--stack", "warmup");
    }

    const cells: Cell[] = [];
    const parallelRows: ParallelRow[][] = [];
    for (const n of counts) {
      for (const latencyMs of latencies) {
        log(`N=${n}, ${latencyMs} ms`);
        const run = await pairedCycles(contenders, `n${n}-l${latencyMs}`, n, latencyMs, OPERATIONS, repeat);
        cells.push({
          n,
          latencyMs,
          parallelism: defaultParallelism,
          ours: programFigures(run.figures.ours, run.state.ours),
          floor: programFigures(run.figures.floor, run.state.floor),
          plugin: programFigures(run.figures.plugin, run.state.plugin),
          nativeFloor: programFigures(run.figures.nativeFloor, run.state.nativeFloor),
          ...(HOOKS_ONLY ? { refreshRequestsTarget: REFRESH_REQUESTS_TARGET } : {}),
        });
      }
      const latencyMs = PARALLEL_LATENCY_MS;
      const rows: ParallelRow[] = [];
      for (const p of parallels) {
        log(`N=${n}, ${latencyMs} ms, --parallel ${p}`);
        const stack = `n${n}-l${latencyMs}-p${p}`;
        const { ours: o, floor: f } = contenders;
        const run = await pairedCycles(
          { ours: o, floor: f },
          stack,
          n,
          latencyMs,
          ["up", "destroy"],
          repeat,
          ["--parallel", String(p)],
        );
        const pick = (x: Figures) => ({ up: figure(x, "up"), destroy: figure(x, "destroy") });
        rows.push({
          n,
          latencyMs,
          parallelism: p,
          ours: pick(run.figures.ours),
          floor: pick(run.figures.floor),
        });
      }
      if (rows.length) parallelRows.push(rows);
    }
    const loadAtEnd = loadavg();

    const engineEnv = ["PULUMI_PARALLEL", "PULUMI_SKIP_CHECKPOINTS", "PULUMI_PARALLEL_DIFF"]
      .filter((k) => process.env[k] !== undefined)
      .map((k) => `${k}=${process.env[k]}`);
    const out = [
      "# pulumi-hosting bench: the real Pulumi CLI, file backend, sandbox server in the bench process",
      "",
      `machine: ${availableParallelism()} CPUs (${cpus()[0]?.model ?? "unknown"}), node ${process.version}, ` +
        `pulumi ${pulumiVersion}, @pulumi/pulumi ${sdkVersion}, engine default parallelism ${defaultParallelism} (4 x CPUs)`,
      `N: ${counts.join(", ")}; latency per API request: ${latencies.join(", ")} ms; ` +
        (repeat > 1
          ? `median of ${repeat} samples per figure`
          : "one sample per figure (BENCH_REPEAT=3 for medians)") +
        (engineEnv.length ? `; engine environment: ${engineEnv.join(" ")}` : ""),
      `load average (1 min) at start ${loadAtStart[0]?.toFixed(1)}, at end ${loadAtEnd[0]?.toFixed(1)}: ` +
        "other work on the machine skews the figures; the programs take turns operation by operation",
      "",
      `ours: ${HOOKS_ONLY ? HOOKS_DESCRIPTION : MIX_DESCRIPTION}`,
      ...counts.map(
        (n) =>
          `  N=${n}: ${Object.entries(mixCounts(n))
            .map(([family, c]) => `${c} ${family}`)
            .join(", ")}`,
      ),
      "floor: the same N resources and inputs as pulumi.dynamic.Resource with an inline no-op provider",
      "  (create returns the inputs, diff no change, read the state, delete nothing); no API requests.",
      `plugin: the same N resources as pulumi.CustomResource("${PLUGIN_PACKAGE}:index:<Kind>") through the native plugin`,
      "  pulumi-resource-hosting (the packed package, found through plugins.providers), against a second",
      "  sandbox server with the same fixture.",
      `native floor: the same inputs as pulumi.CustomResource("${NATIVE_FLOOR_PACKAGE}:index:<Kind>") through a no-op`,
      "  provider plugin served as the real one is (the SDK's gRPC service: check returns the news, diff no",
      "  change, create the inputs with an id, read the state, delete nothing); no API requests.",
      "",
      "Columns: seconds are wall time of the CLI command (program start to exit). API req/resource and",
      "writes (POST/PATCH/PUT/DELETE) come from the sandbox's request log; '1 write/s policy' is the time a",
      "client allowed one write per second would need for those writes alone. CLI CPU is user+system",
      "seconds of the pulumi process tree (GNU time); sandbox CPU is this process serving the API.",
      gnuTimeAvailable() ? "" : "(GNU time not found at /usr/bin/time: CLI CPU not measured)",
      "Targets: at 0 ms, every operation <= 1.0x the floor, and the plugin's every operation <= " +
        `${PLUGIN_RATIO_TARGET}x the native floor; with BENCH_MIX=hooks, a refresh sends at most ` +
        `${REFRESH_REQUESTS_TARGET} API requests per resource.`,
      BOUND_EXPLANATION,
      "",
      ...cells.flatMap((cell) => [cellReport(cell), "", pluginReport(cell), ""]),
      ...cells.slice(0, 1).flatMap((cell) => [routesReport(cell), ""]),
      ...parallelRows.flatMap((rows) => [parallelReport(rows), ""]),
    ];
    console.log(out.join("\n"));
  } finally {
    await emulator.close();
    await pluginEmulator.close();
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
