#!/usr/bin/env node
/** `hosting-fleet`: see run.ts and docs/fleets.md. */
import { requireNode } from "../provider/internal/node-version";

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

run(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (line) => process.stderr.write(`${paint(line)}\n`),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`hosting-fleet: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  },
);
