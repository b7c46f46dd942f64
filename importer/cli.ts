#!/usr/bin/env node
/** `hosting-import`: see run.ts and docs/adoption.md. */
import { requireNode } from "../api/node-version";

requireNode("hosting-import");
// Loaded after the check: the SDK and the client need a recent Node.js.
const { run } = require("./run") as typeof import("./run");

run(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (line) => process.stderr.write(`${line}\n`),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`hosting-import: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
