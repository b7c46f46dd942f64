import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { cacheRoot } from "./scripts/sea/executable.js";

/**
 * The in-process suites share one module graph per worker (`isolate: false`): loading the library,
 * the sandbox server and zod's schemas again for each of 145 files cost about 95 of their 210
 * CPU-seconds, and the whole suite must stay under five minutes on two cores. test/in-process.ts
 * puts back what a file changes of the process (environment, stack-trace limit, spies).
 */
const IN_PROCESS = { isolate: false, setupFiles: ["test/in-process.ts"] };

/**
 * In process too, the suites that run the sandbox server check every response it gives against the
 * platform's published API description (test/conformance/).
 */
const CONFORMANCE = {
  ...IN_PROCESS,
  globalSetup: ["test/conformance/global-setup.ts"],
  setupFiles: [...IN_PROCESS.setupFiles, "test/conformance/setup.ts"],
};

/**
 * Vitest's cache (each file's last duration, which orders the files) is kept with the toolchain's,
 * not under node_modules: a fresh clone on the same machine, as CI has, orders its files as the last
 * run here did instead of by size.
 */
const CACHE = join(cacheRoot(), "vitest");

// Four suites, run together by `npm test`; each can be run alone with `--project NAME`.
export default defineConfig({
  cacheDir: CACHE,
  resolve: {
    alias: {
      "pulumi-hosting/emulator": new URL("./emulator/index.ts", import.meta.url).pathname,
    },
  },
  test: {
    // Two files at once even on two cores: the end-to-end files wait on the CLI's processes most of
    // the time, and the other suites fill that time (one worker ran the files one after another).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          ...IN_PROCESS,
          include: [
            "test/api/**/*.test.ts",
            "test/*.test.ts",
            "test/provider/client/**/*.test.ts",
            "test/provider/internal/**/*.test.ts",
            "test/importer/**/*.test.ts",
            "test/fleet/**/*.test.ts",
            "test/scripts/**/*.test.ts",
            "test/conformance/**/*.test.ts",
          ],
        },
      },
      {
        extends: true,
        test: { name: "emulator", include: ["test/emulator/**/*.test.ts"], ...CONFORMANCE },
      },
      {
        extends: true,
        test: {
          name: "lifecycle",
          include: [
            "test/provider/resources/**/*.test.ts",
            "test/provider/functions/**/*.test.ts",
            "test/provider/*.test.ts",
            "test/provider/plugin/**/*.test.ts",
          ],
          ...CONFORMANCE,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          // Two files at once, like the other suites: a file spends most of its time waiting on the
          // CLI's processes (each program has its own backend, PULUMI_HOME and sandbox on port 0).
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/e2e/global-setup.ts"],
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
