/**
 * `hosting-fleet`: one operation over every stack of a fleet, or the merge of the reports of its
 * shards. See args.ts for the command line and report.ts for what it prints.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type Command, parseCommand, USAGE } from "./args";
import { findProjects } from "./discover";
import { countsOf, EXIT, exitCodeOf, type FleetReport, mergeReports, parseReport, render } from "./report";
import { runFleet } from "./runner";
import { inShard } from "./shard";

export interface Io {
  out: (text: string) => void;
  err: (line: string) => void;
}

/** The process's signals, as cli.ts hears them. */
export interface Interrupts {
  /** Aborted at the first SIGINT or SIGTERM, its reason the signal's name. */
  interrupt: AbortSignal;
  /** Aborted at a second one. */
  force: AbortSignal;
}

/**
 * Fails, naming the flag, when the report cannot be written where `--report` says: checked before
 * any stack runs, since a run (an `up` that applied changes) whose report is then lost cannot be
 * run again to get it. The file is opened for appending (which changes nothing in one that exists)
 * and removed again when it did not exist.
 */
export function checkReportPath(file: string): void {
  const path = resolve(file);
  const fail = (why: string) => new Error(`--report ${file}: ${why}`);
  const kindOf = (p: string) => {
    try {
      return statSync(p).isDirectory() ? "folder" : "file";
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return "missing";
      if ((e as NodeJS.ErrnoException).code === "ENOTDIR") return "under a file";
      throw fail(`cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  };
  const kind = kindOf(path);
  if (kind === "folder") throw fail("is a folder; name a file in it (e.g. report.json)");
  const parent = kindOf(dirname(path));
  if (parent === "missing") throw fail(`its folder ${dirname(path)} does not exist`);
  if (parent !== "folder") throw fail(`${dirname(path)} is not a folder`);
  try {
    closeSync(openSync(path, "a"));
  } catch (e) {
    throw fail(`cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (kind === "missing") unlinkSync(path);
}

export async function run(argv: readonly string[], io: Io, interrupts?: Interrupts): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (e) {
    io.err(`hosting-fleet: ${(e as Error).message}\n${USAGE}`);
    return EXIT.error;
  }
  if (command.kind === "help") {
    io.out(`${USAGE}\n`);
    return 0;
  }
  if (command.report !== undefined) {
    try {
      checkReportPath(command.report);
    } catch (e) {
      io.err(`hosting-fleet: ${(e as Error).message}`);
      return EXIT.error;
    }
  }
  let report: FleetReport;
  if (command.kind === "merge") {
    try {
      report = mergeReports(
        command.files.map((file) => ({
          report: parseReport(readFileSync(file, "utf8"), file),
          source: file,
        })),
      );
    } catch (e) {
      io.err(`hosting-fleet: ${(e as Error).message}`);
      return EXIT.error;
    }
  } else {
    let projects: ReturnType<typeof findProjects>;
    try {
      projects = findProjects(command.root);
    } catch (e) {
      io.err(`hosting-fleet: ${(e as Error).message}`);
      return EXIT.error;
    }
    if (projects.length === 0) {
      io.err(`hosting-fleet: no Pulumi project (a folder with Pulumi.yaml) under ${command.root}`);
      return EXIT.error;
    }
    const chosen = command.shard ? inShard(projects, command.stack, command.shard) : projects;
    const shardText = command.shard ? `${command.shard.index}/${command.shard.count}` : undefined;
    io.err(
      `hosting-fleet: ${command.operation}${command.refreshOnly ? " (refresh only)" : ""} of ${chosen.length} of ${projects.length} stack${projects.length === 1 ? "" : "s"}` +
        `${shardText ? ` (shard ${shardText})` : ""}, ${command.concurrency} at once`,
    );
    const onInterrupt = () =>
      io.err(
        `hosting-fleet: ${String(interrupts?.interrupt.reason)}: cancelling the running stacks (each releases its lock) and starting no other; send it again to stop them at once`,
      );
    interrupts?.interrupt.addEventListener("abort", onInterrupt, { once: true });
    let stacks: Awaited<ReturnType<typeof runFleet>>;
    try {
      stacks = await runFleet(chosen, {
        operation: command.operation,
        stack: command.stack,
        concurrency: command.concurrency,
        timeoutMs: command.timeoutMs,
        refreshOnly: command.refreshOnly,
        progress: io.err,
        interrupt: interrupts?.interrupt,
        force: interrupts?.force,
      });
    } finally {
      interrupts?.interrupt.removeEventListener("abort", onInterrupt);
    }
    report = { version: 1, operation: command.operation, shards: shardText ? [shardText] : [], stacks };
  }
  const text = render(report, command.format);
  if (command.report === undefined) {
    io.out(text);
  } else {
    try {
      writeFileSync(command.report, text);
    } catch (e) {
      // Checked before the run, yet failed (a full disk, a folder removed meanwhile): the report
      // goes to stdout rather than being lost.
      io.err(
        `hosting-fleet: --report ${command.report}: ${(e as Error).message}; the report follows on stdout`,
      );
      io.out(text);
      return EXIT.error;
    }
  }
  const counts = countsOf(report.stacks);
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`);
  const n = report.stacks.length;
  io.err(`hosting-fleet: ${n} stack${n === 1 ? "" : "s"}: ${parts.join(", ") || "none"}`);
  // An interrupted run is an error whatever its stacks managed: it did not do what was asked.
  if (command.kind === "run" && interrupts?.interrupt.aborted) return EXIT.error;
  return exitCodeOf(report);
}
