#!/usr/bin/env node
/** `hosting-fleet`: see run.ts and docs/fleets.md. */
import { requireNode } from "../api/node-version";

requireNode("hosting-fleet");
// Loaded after the check: the Automation API needs a recent Node.js.
const { run } = require("./run") as typeof import("./run");

// On a terminal the statuses are coloured; in CI logs (not a TTY) the lines stay plain text.
const COLOURS: Record<string, string> = { clean: "32", ok: "32", drift: "33", error: "31" };
const paint = (line: string) =>
  process.stderr.isTTY
    ? line.replace(
        /: (clean|ok|drift|error)\b/,
        (_m, word: string) => `: \u001b[${COLOURS[word]}m${word}\u001b[0m`,
      )
    : line;

// SIGINT or SIGTERM (Ctrl-C, a CI job cancelled) cancels the running stacks, each releasing its
// lock, and the report is still written; a second one tells their CLIs to stop at once.
const interrupt = new AbortController();
const force = new AbortController();
const onSignal = (signal: NodeJS.Signals) => {
  if (!interrupt.signal.aborted) interrupt.abort(signal);
  else force.abort(signal);
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

/**
 * Exits once the output is flushed: a CLI that ignored two interrupts (given up on, cancel.ts)
 * would otherwise keep this process alive; exiting ends it (the Automation API's processes are
 * killed when their parent exits).
 */
function exit(code: number): void {
  process.exitCode = code;
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}

run(
  process.argv.slice(2),
  {
    out: (text) => process.stdout.write(text),
    err: (line) => process.stderr.write(`${paint(line)}\n`),
  },
  { interrupt: interrupt.signal, force: force.signal },
).then(exit, (e: unknown) => {
  process.stderr.write(`hosting-fleet: ${e instanceof Error ? e.message : String(e)}\n`);
  exit(2);
});
