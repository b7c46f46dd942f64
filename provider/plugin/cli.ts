#!/usr/bin/env node
/**
 * `pulumi-resource-hosting`: the resource provider plugin the Pulumi engine starts (one process per
 * provider, default or explicit), with the engine's address as its argument (where the kinds'
 * notices are logged). The first line on stdout must be the port the server listens on: the
 * engine reads it to connect, so nothing else may be written to stdout before it.
 */
// First: the compile cache covers only the modules loaded after it is enabled.
import { flushCompileCache } from "../internal/compile-cache";
import { startPlugin } from "./server";

// A stray rejection must not end the process in the middle of a deployment (the engine would lose
// every call in flight); it is written to stderr, which `--debug` shows, and the process goes on.
process.on("unhandledRejection", (reason: unknown) => {
  process.stderr.write(
    `pulumi-resource-hosting: unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}\n`,
  );
});

// The engine passes its own address; a plugin started by hand (a test, a debugger) may have none.
const engine = process.argv[2];
startPlugin(engine ? { engine } : {}).then(
  ({ port }) => {
    process.stdout.write(`${port}\n`);
    flushCompileCache();
  },
  (error: unknown) => {
    process.stderr.write(
      `pulumi-resource-hosting: cannot start: ${(error as Error)?.message ?? String(error)}\n`,
    );
    process.exit(1);
  },
);
