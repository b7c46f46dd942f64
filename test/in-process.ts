/**
 * Set-up file of the in-process suites (unit, emulator, lifecycle), which run their files one after
 * another in the same module graph (`isolate: false` in vitest.config.mts): what a file changes of
 * the process (environment variables, `Error.stackTraceLimit`, spies) is put back when it ends, so
 * no file sees another's. Set-up files run again for every file, so these hooks are each file's.
 */
import { afterAll, beforeAll, vi } from "vitest";
import { useDigestCost } from "../provider/internal/secret-digest";

let environment: NodeJS.ProcessEnv = {};
let stackTraceLimit = Error.stackTraceLimit;

/**
 * Secret digests at a thirty-second of their cost (scrypt with N = 2^10, 1 MiB): the suites make
 * about 130, which at the default took some 13 CPU-seconds. test/provider/internal/secret-digest.test.ts
 * checks the default cost, the one every provider process uses.
 */
const TEST_DIGEST_COST = { N: 2 ** 10, r: 8, p: 1 };

beforeAll(() => {
  environment = { ...process.env };
  stackTraceLimit = Error.stackTraceLimit;
  useDigestCost(TEST_DIGEST_COST);
});

afterAll(() => {
  for (const key of Object.keys(process.env)) {
    if (!(key in environment)) delete process.env[key];
  }
  Object.assign(process.env, environment);
  Error.stackTraceLimit = stackTraceLimit;
  vi.restoreAllMocks();
});
