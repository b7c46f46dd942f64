/**
 * The bench's figures and how they are printed: markdown-ish tables, the targets with pass or fail
 * beside them, and the formula of the latency bound.
 */

export const OPERATIONS = ["up", "preview", "refresh", "destroy"] as const;
export type Operation = (typeof OPERATIONS)[number];

export const OPERATION_LABELS: Record<Operation, string> = {
  up: "up --yes --skip-preview",
  preview: "preview",
  refresh: "preview --refresh",
  destroy: "destroy --yes --skip-preview",
};

export interface OperationFigures {
  seconds: number;
  /** CPU seconds of the CLI's process tree (CLI, language host, program, provider process). */
  cpuSeconds?: number;
  /** CPU seconds of this process, which serves the sandbox API, during the operation. */
  sandboxCpuSeconds: number;
  requests: number;
  writes: number;
  byRoute: Record<string, number>;
  /** Whether a preview planned changes (it should not after an up). */
  plannedChanges: boolean;
}

export interface ProgramFigures {
  operations: Record<Operation, OperationFigures>;
  stateBytes: number;
  providerBytes: number;
}

export interface Cell {
  n: number;
  latencyMs: number;
  parallelism: number;
  ours: ProgramFigures;
  floor: ProgramFigures;
  /** The same resources through the native plugin `pulumi-resource-hosting`. */
  plugin: ProgramFigures;
  /** The same inputs through a no-op native provider plugin. */
  nativeFloor: ProgramFigures;
  /** The most API requests per resource a refresh may send, where the mix sets one. */
  refreshRequestsTarget?: number;
}

export interface ParallelRow {
  n: number;
  latencyMs: number;
  parallelism: number;
  ours: { up: OperationFigures; destroy: OperationFigures };
  floor: { up: OperationFigures; destroy: OperationFigures };
}

/** Targets at 0 ms: the most ours may take as a multiple of the floor. */
const RATIO_TARGETS: Record<Operation, number> = { up: 1, preview: 1, refresh: 1, destroy: 1 };

/** Target at 0 ms: the most the plugin may take as a multiple of the native floor, every operation. */
export const PLUGIN_RATIO_TARGET = 1.1;

/** The most API requests per resource a refresh may send when every resource is a webhook of one repository. */
export const REFRESH_REQUESTS_TARGET = 0.05;

export const BOUND_EXPLANATION = [
  "Latency bound (targets at latency L > 0): up <= floor_up + 1.5 x (R x L / P), where R is the API",
  "requests of that up, L the injected latency per request and P the engine's parallelism (--parallel,",
  "default 4 x CPUs). R x L / P is the time R requests take when P run at once and each waits L: the",
  "least any provider making those requests can add to the floor; 1.5x of it is the allowance.",
].join("\n");

/** The latency bound of an up, in seconds. */
export function upBound(floorUp: number, requests: number, latencyMs: number, parallelism: number): number {
  return floorUp + (1.5 * requests * latencyMs) / 1000 / parallelism;
}

const s = (x: number) => x.toFixed(1);
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : "-");
const pass = (ok: boolean) => (ok ? "pass" : "FAIL");
const cpu = (f: OperationFigures) => (f.cpuSeconds === undefined ? "-" : s(f.cpuSeconds));
export const bytes = (b: number) => b.toLocaleString("en-US");

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

export function cellReport(cell: Cell): string {
  const { n, latencyMs, parallelism, ours, floor, refreshRequestsTarget } = cell;
  const rows = OPERATIONS.map((op) => {
    const o = ours.operations[op];
    const f = floor.operations[op];
    let target = "-";
    let result = "";
    if (latencyMs === 0) {
      target = `<= ${RATIO_TARGETS[op]}x`;
      result = pass(o.seconds <= RATIO_TARGETS[op] * f.seconds);
    } else if (op === "up") {
      const bound = upBound(f.seconds, o.requests, latencyMs, parallelism);
      target = `<= ${s(bound)} s`;
      result = pass(o.seconds <= bound);
    }
    const perResource = o.requests / n;
    let requests = perResource.toFixed(3);
    if (op === "refresh" && refreshRequestsTarget !== undefined) {
      requests += ` (<= ${refreshRequestsTarget}: ${pass(perResource <= refreshRequestsTarget)})`;
    }
    const changes = o.plannedChanges || f.plannedChanges ? " (planned changes!)" : "";
    return [
      `${OPERATION_LABELS[op]}${changes}`,
      s(o.seconds),
      s(f.seconds),
      ratio(o.seconds, f.seconds),
      target,
      result,
      requests,
      String(o.writes),
      `${o.writes} s`,
      `${cpu(o)} / ${cpu(f)}`,
      s(o.sandboxCpuSeconds),
    ];
  });
  const perResource = (p: ProgramFigures) =>
    `${bytes(p.stateBytes)} B (${bytes(Math.round(p.stateBytes / n))} B/resource)`;
  return [
    `### N=${n}, ${latencyMs} ms per API request, engine parallelism ${parallelism}`,
    "",
    table(
      [
        "operation",
        "ours s",
        "floor s",
        "ours/floor",
        "target",
        "",
        "API req/resource",
        "writes",
        "1 write/s policy",
        "CLI CPU s ours / floor",
        "sandbox CPU s",
      ],
      rows,
    ),
    "",
    `state after up: ours ${perResource(ours)}, floor ${perResource(floor)}`,
    `__provider of one resource (stored in inputs and outputs): ours ${bytes(ours.providerBytes)} B (RepositoryWebhook), floor ${bytes(floor.providerBytes)} B`,
  ].join("\n");
}

/**
 * The native plugin against both floors: seconds of the four programs, plugin / native floor
 * against its target, plugin / dynamic floor, the plugin's API requests per resource, the CLI's
 * CPU, the CPU of the sandbox server serving the plugin (on the same cores: the part of the gap that
 * is the server's; the native floor sends no request), and the state each program leaves after up,
 * per resource.
 */
export function pluginReport(cell: Cell): string {
  const { n, latencyMs, parallelism, ours, floor, plugin, nativeFloor } = cell;
  const rows = OPERATIONS.map((op) => {
    const p = plugin.operations[op];
    const nf = nativeFloor.operations[op];
    const f = floor.operations[op];
    let target = "-";
    let result = "";
    if (latencyMs === 0) {
      target = `<= ${PLUGIN_RATIO_TARGET}x`;
      result = pass(p.seconds <= PLUGIN_RATIO_TARGET * nf.seconds);
    } else if (op === "up") {
      const bound = upBound(nf.seconds, p.requests, latencyMs, parallelism);
      target = `<= ${s(bound)} s`;
      result = pass(p.seconds <= bound);
    }
    const changes = p.plannedChanges || nf.plannedChanges ? " (planned changes!)" : "";
    return [
      `${OPERATION_LABELS[op]}${changes}`,
      s(ours.operations[op].seconds),
      s(f.seconds),
      s(p.seconds),
      s(nf.seconds),
      ratio(p.seconds, nf.seconds),
      target,
      result,
      ratio(p.seconds, f.seconds),
      (p.requests / n).toFixed(3),
      `${cpu(p)} / ${cpu(nf)}`,
      s(p.sandboxCpuSeconds),
    ];
  });
  const perResource = (x: ProgramFigures) => bytes(Math.round(x.stateBytes / n));
  rows.push([
    "state after up, B/resource",
    perResource(ours),
    perResource(floor),
    perResource(plugin),
    perResource(nativeFloor),
    ratio(plugin.stateBytes, nativeFloor.stateBytes),
    "",
    "",
    ratio(plugin.stateBytes, floor.stateBytes),
    "",
    "",
    "",
  ]);
  return [
    `### Native plugin, N=${n}, ${latencyMs} ms per API request, engine parallelism ${parallelism}`,
    "",
    table(
      [
        "operation",
        "ours s",
        "floor s",
        "plugin s",
        "native floor s",
        "plugin/native floor",
        "target",
        "",
        "plugin/floor",
        "plugin API req/resource",
        "CLI CPU s plugin / native floor",
        "plugin's sandbox CPU s",
      ],
      rows,
    ),
  ].join("\n");
}

export function routesReport(cell: Cell): string {
  const lines = [`API requests of ours by route (N=${cell.n}, ${cell.latencyMs} ms):`];
  for (const op of OPERATIONS) {
    const routes = Object.entries(cell.ours.operations[op].byRoute).sort((a, b) => b[1] - a[1]);
    const text = routes.length ? routes.map(([route, count]) => `${count} ${route}`).join(", ") : "none";
    lines.push(`- ${OPERATION_LABELS[op]}: ${text}`);
  }
  return lines.join("\n");
}

export function parallelReport(rows: ParallelRow[]): string {
  const first = rows[0];
  if (!first) return "";
  return [
    `### Engine parallelism, N=${first.n}, ${first.latencyMs} ms per API request`,
    "",
    table(
      [
        "--parallel",
        "ours up s",
        "floor up s",
        "ours/floor",
        "bound s",
        "",
        "up requests",
        "up CLI CPU s ours / floor",
        "ours destroy s",
        "floor destroy s",
      ],
      rows.map((r) => {
        const bound = upBound(r.floor.up.seconds, r.ours.up.requests, r.latencyMs, r.parallelism);
        return [
          String(r.parallelism),
          s(r.ours.up.seconds),
          s(r.floor.up.seconds),
          ratio(r.ours.up.seconds, r.floor.up.seconds),
          s(bound),
          pass(r.ours.up.seconds <= bound),
          String(r.ours.up.requests),
          `${cpu(r.ours.up)} / ${cpu(r.floor.up)}`,
          s(r.ours.destroy.seconds),
          s(r.floor.destroy.seconds),
        ];
      }),
    ),
  ].join("\n");
}
