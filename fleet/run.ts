/**
 * `hosting-fleet`: one operation over every stack of a fleet, or the merge of the reports of its
 * shards. See args.ts for the command line and report.ts for what it prints.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { type Command, parseCommand, USAGE } from "./args";
import { findProjects } from "./discover";
import { countsOf, EXIT, exitCodeOf, type FleetReport, mergeReports, parseReport, render } from "./report";
import { runFleet } from "./runner";
import { inShard } from "./shard";

export interface Io {
  out: (text: string) => void;
  err: (line: string) => void;
}

export async function run(argv: readonly string[], io: Io): Promise<number> {
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
      `hosting-fleet: ${command.operation} of ${chosen.length} of ${projects.length} stack${projects.length === 1 ? "" : "s"}` +
        `${shardText ? ` (shard ${shardText})` : ""}, ${command.concurrency} at once`,
    );
    const stacks = await runFleet(chosen, {
      operation: command.operation,
      stack: command.stack,
      concurrency: command.concurrency,
      progress: io.err,
    });
    report = { version: 1, operation: command.operation, shards: shardText ? [shardText] : [], stacks };
  }
  const text = render(report, command.format);
  if (command.report === undefined) {
    io.out(text);
  } else {
    mkdirSync(dirname(command.report), { recursive: true });
    writeFileSync(command.report, text);
  }
  const counts = countsOf(report.stacks);
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`);
  const n = report.stacks.length;
  io.err(`hosting-fleet: ${n} stack${n === 1 ? "" : "s"}: ${parts.join(", ") || "none"}`);
  return exitCodeOf(report);
}
