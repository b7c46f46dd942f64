/**
 * The command line of `hosting-fleet`. Every refusal names the flag and what it allows, since the
 * command runs mostly in CI, where the message is all the user sees.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { FORMATS, type Format, type Operation } from "./report";
import { parseShard, type Shard } from "./shard";

export const OPERATIONS: readonly Operation[] = ["preview", "up", "drift", "destroy"];

export const USAGE = `usage: hosting-fleet preview|up|drift|destroy --root DIR [--stack NAME] [--concurrency K]
                     [--shard I/N] [--timeout DURATION] [--report FILE] [--format json|junit|markdown]
       hosting-fleet drift --refresh-only ...
       hosting-fleet report --merge FILE... [--report FILE] [--format json|junit|markdown]
Runs the operation on the stack NAME (default dev) of every Pulumi project under DIR, K at once
(default 2), or on shard I of N (1 <= I <= N <= 1000): the stacks sorted by the SHA-256 of
"project/stack" and dealt round-robin, so each shard holds at most ceil(stacks/N) and every
machine of a CI run given the same checkout computes the same split. A stack still running after
DURATION (seconds, or a number with s, m or h: 90s, 10m; default 30m) is cancelled and reported
as an error; SIGINT or SIGTERM cancels the running stacks the same way and writes the report.
drift runs each program against the refreshed state (pulumi preview --refresh --run-program
--expect-no-changes); with --refresh-only it compares the platform with the state alone (pulumi
refresh --preview-only --expect-no-changes): no program runs, so it takes less time and does not
report program changes not yet applied, and it uses the provider configuration recorded at the last
up (a token given by HOSTING_TOKEN is read as it is now).
The backend and the passphrase come from the environment as the pulumi CLI reads them
(PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE), the platform's address and token from
HOSTING_BASE_URL/HOSTING_TOKEN or each stack's config. The report goes to FILE (checked before any
stack runs; its folder must exist), or to stdout; its format defaults to FILE's extension (.xml
junit, .md markdown), else json.
Exit: 0 clean, 1 drift, 2 an error (a stack that failed or timed out, an interruption, or bad usage).`;

export type Command =
  | {
      kind: "run";
      operation: Operation;
      root: string;
      stack: string;
      concurrency: number;
      shard: Shard | undefined;
      /** How long one stack's operation may run before it is cancelled, milliseconds. */
      timeoutMs: number;
      /** drift only: compare the platform with the state alone, running no program. */
      refreshOnly: boolean;
      report: string | undefined;
      format: Format;
    }
  | { kind: "merge"; files: string[]; report: string | undefined; format: Format }
  | { kind: "help" };

/** The most stacks run at once: each costs a CLI, a language host and a provider process. */
export const MAX_CONCURRENCY = 64;
export const DEFAULT_CONCURRENCY = 2;
export const DEFAULT_STACK = "dev";
/**
 * A stack's time limit unless `--timeout` says: far above any stack measured (a drift check of
 * 2,000 resources in one stack takes about 35 s, docs/performance.md), and half of GitLab's default
 * job timeout (60 min), so a stuck stack is cancelled and reported while the job still runs (a
 * killed job writes no report). docs/DECISIONS.md, 2026-11-27.
 */
export const DEFAULT_TIMEOUT_MS = 30 * 60_000;
/** The longest `--timeout`: a day, beyond any CI job's limit. */
export const MAX_TIMEOUT_MS = 24 * 3_600_000;

export function parseCommand(argv: readonly string[]): Command {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      root: { type: "string" },
      stack: { type: "string" },
      concurrency: { type: "string" },
      shard: { type: "string" },
      timeout: { type: "string" },
      report: { type: "string" },
      format: { type: "string" },
      merge: { type: "boolean" },
      "refresh-only": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) return { kind: "help" };
  const [verb, ...rest] = positionals;
  if (verb === undefined) {
    throw new Error(`an operation is needed: ${[...OPERATIONS, "report"].join(", ")}`);
  }
  const format = formatOf(values.format, values.report);
  if (verb === "report") {
    if (!values.merge) throw new Error("report needs --merge FILE...: the JSON reports to merge");
    if (rest.length === 0) throw new Error("--merge needs at least one JSON report file");
    for (const flag of ["root", "stack", "concurrency", "shard", "timeout", "refresh-only"] as const) {
      if (values[flag] !== undefined)
        throw new Error(`--${flag} is for an operation, not for report --merge`);
    }
    return { kind: "merge", files: rest, report: values.report, format };
  }
  if (!(OPERATIONS as readonly string[]).includes(verb)) {
    throw new Error(
      `unknown operation "${verb}": the operations are ${[...OPERATIONS, "report"].join(", ")}`,
    );
  }
  if (rest.length > 0) throw new Error(`unexpected argument "${rest[0]}" after ${verb}`);
  if (values.merge) throw new Error("--merge is for report (hosting-fleet report --merge FILE...)");
  if (values["refresh-only"] && verb !== "drift") {
    throw new Error(`--refresh-only is for drift (hosting-fleet drift --refresh-only), not for ${verb}`);
  }
  if (values.root === undefined) throw new Error("--root DIR is needed: the folder holding the projects");
  const stack = values.stack ?? DEFAULT_STACK;
  if (!/^[A-Za-z0-9_.-]+$/.test(stack)) {
    throw new Error(`--stack must be a stack name (letters, digits, _ . -); got "${stack}"`);
  }
  return {
    kind: "run",
    operation: verb as Operation,
    root: resolve(values.root),
    stack,
    concurrency: concurrencyOf(values.concurrency),
    shard: values.shard === undefined ? undefined : parseShard(values.shard),
    timeoutMs: values.timeout === undefined ? DEFAULT_TIMEOUT_MS : parseDuration(values.timeout),
    refreshOnly: values["refresh-only"] === true,
    report: values.report,
    format,
  };
}

function concurrencyOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_CONCURRENCY;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_CONCURRENCY) {
    throw new Error(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}; got "${text}"`);
  }
  return n;
}

const UNIT_MS: Readonly<Record<string, number>> = { "": 1_000, s: 1_000, m: 60_000, h: 3_600_000 };

/** `--timeout`: whole seconds (`90`), or a whole number with a unit (`90s`, `10m`, `2h`), 1 s to 24 h. */
export function parseDuration(text: string): number {
  const match = /^0*(\d{1,6})(s|m|h)?$/.exec(text.trim());
  const ms = match ? Number(match[1]) * (UNIT_MS[match[2] ?? ""] ?? 0) : Number.NaN;
  if (!(ms >= 1_000 && ms <= MAX_TIMEOUT_MS)) {
    throw new Error(
      `--timeout must be a duration from 1s to 24h: whole seconds (90) or a whole number with s, m or h (90s, 10m, 2h); got "${text}"`,
    );
  }
  return ms;
}

/** A duration as `--timeout` takes it, in the largest unit that is whole: `30m`, `90s` (`250ms` below a second). */
export function durationText(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1_000 === 0) return `${ms / 1_000}s`;
  return `${ms}ms`;
}

function formatOf(format: string | undefined, report: string | undefined): Format {
  if (format !== undefined) {
    if (!(FORMATS as readonly string[]).includes(format)) {
      throw new Error(`--format must be ${FORMATS.join(", ")}; got "${format}"`);
    }
    return format as Format;
  }
  if (report?.endsWith(".xml")) return "junit";
  if (report?.endsWith(".md")) return "markdown";
  return "json";
}
