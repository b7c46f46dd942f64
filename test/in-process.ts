/**
 * Set-up file of the in-process suites (unit, emulator, lifecycle), which run their files one after
 * another in the same module graph (`isolate: false` in vitest.config.mts): what a file changes of
 * the process (environment variables, `Error.stackTraceLimit`, spies) is put back when it ends, so
 * no file sees another's. Set-up files run again for every file, so these hooks are each file's.
 */
import { afterAll, beforeAll, vi } from "vitest";

let environment: NodeJS.ProcessEnv = {};
let stackTraceLimit = Error.stackTraceLimit;

beforeAll(() => {
  environment = { ...process.env };
  stackTraceLimit = Error.stackTraceLimit;
});

afterAll(() => {
  for (const key of Object.keys(process.env)) {
    if (!(key in environment)) delete process.env[key];
  }
  Object.assign(process.env, environment);
  Error.stackTraceLimit = stackTraceLimit;
  vi.restoreAllMocks();
});
