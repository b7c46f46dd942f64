/**
 * Measuring: the sandbox server's control routes (reset, latency, request log), one timed CLI
 * operation with its API requests, and interleaved cycles of the programs (ours, the floors, the
 * plugin).
 */
import type { RunningEmulator } from "../../emulator/index";
import type { BenchProgram, StateFigures } from "./cli";
import { plansChanges, usedAmbientPlugin } from "./cli";
import { OPERATIONS, type Operation, type OperationFigures, type ProgramFigures } from "./report";

const WRITE_METHODS = ["POST", "PATCH", "PUT", "DELETE"];

export function numbers(name: string, fallback: string): number[] {
  const raw = process.env[name]?.trim() || fallback;
  const list = raw.split(",").map((x) => Number(x.trim()));
  if (list.some((x) => !Number.isInteger(x) || x < 0)) {
    throw new Error(`${name} must be a comma-separated list of whole numbers, got ${JSON.stringify(raw)}`);
  }
  return list;
}

export const log = (line: string) => process.stderr.write(`${line}\n`);

export class Sandbox {
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
    // The sandbox takes at most 1,000,000 matches per fault: far more requests than a run sends.
    if (latencyMs > 0) await this.control("POST", "/faults", { path: "/*", latencyMs, count: 1_000_000 });
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
  if (usedAmbientPlugin(timed.output)) {
    throw new Error(
      `${program.project}: the CLI took a provider plugin from PATH, not from plugins.providers`,
    );
  }
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

/** A program in a cycle and the sandbox server it talks to (whose request log is its count). */
export interface Contender {
  program: BenchProgram;
  sandbox: Sandbox;
}

export type Figures = Partial<Record<Operation, OperationFigures>>;

/** The sample of median wall time (the lower one of an even count). */
function median(samples: OperationFigures[]): OperationFigures {
  const sorted = [...samples].sort((a, b) => a.seconds - b.seconds);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!middle) throw new Error("no samples");
  return middle;
}

export function figure(figures: Figures, op: Operation): OperationFigures {
  const found = figures[op];
  if (!found) throw new Error(`no figures for ${op}`);
  return found;
}

const EMPTY_STATE: StateFigures = { bytes: 0, resources: 0, providerBytes: 0 };

/**
 * Runs `ops` on one stack of n resources per program, `repeat` times, the programs operation by
 * operation in turn (in the order given, then reversed on every other repeat, so no program always
 * runs right after the same one) so all see the same machine; keeps the median sample of each.
 * Every sandbox server is reset before each repeat. Checks after every up that the state holds all
 * n resources.
 */
export async function pairedCycles<K extends string>(
  contenders: Record<K, Contender>,
  stack: string,
  n: number,
  latencyMs: number,
  ops: readonly Operation[],
  repeat: number,
  extra: string[] = [],
): Promise<{ figures: Record<K, Figures>; state: Record<K, StateFigures> }> {
  const names = Object.keys(contenders) as K[];
  const samples = new Map<K, Map<Operation, OperationFigures[]>>(names.map((k) => [k, new Map()]));
  const state = Object.fromEntries(names.map((k) => [k, EMPTY_STATE])) as Record<K, StateFigures>;
  const sandboxes = [...new Set(names.map((k) => contenders[k].sandbox))];
  for (const k of names)
    await contenders[k].program.initStack(stack, contenders[k].sandbox.emulator.origin, n);
  for (let r = 0; r < repeat; r++) {
    for (const sandbox of sandboxes) await sandbox.reset(latencyMs);
    const order = r % 2 === 0 ? names : [...names].reverse();
    for (const op of ops) {
      for (const k of order) {
        const { program, sandbox } = contenders[k];
        const perOp = samples.get(k) ?? new Map<Operation, OperationFigures[]>();
        const list = perOp.get(op) ?? [];
        list.push(await measure(sandbox, program, stack, op, extra));
        perOp.set(op, list);
        if (op !== "up") continue;
        state[k] = program.state(stack, ":RepositoryWebhook");
        if (state[k].resources !== n) {
          throw new Error(
            `${program.project} ${stack}: state holds ${state[k].resources} resources, expected ${n}`,
          );
        }
      }
    }
  }
  const medians = (m: Map<Operation, OperationFigures[]> | undefined): Figures =>
    Object.fromEntries([...(m ?? [])].map(([op, list]) => [op, median(list)]));
  const figures = Object.fromEntries(names.map((k) => [k, medians(samples.get(k))])) as Record<K, Figures>;
  return { figures, state };
}

/** All four operations' figures with the state after up, as the report takes them. */
export function programFigures(figures: Figures, state: StateFigures): ProgramFigures {
  const operations = Object.fromEntries(OPERATIONS.map((op) => [op, figure(figures, op)]));
  return {
    operations: operations as Record<Operation, OperationFigures>,
    stateBytes: state.bytes,
    providerBytes: state.providerBytes,
  };
}
