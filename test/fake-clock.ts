/**
 * Waits that the code under test makes in real time (a backoff, a poll of the sandbox's job), taken
 * on a fake clock instead: at the end of a run both test workers sat idle through them (about 11 s
 * of the statistics, rename, rate-limit and retry tests), the in-process suites running side by side.
 */
import { vi } from "vitest";

/**
 * Runs `work` with `setTimeout`, `clearTimeout` and `Date` faked, the clock moving `stepMs` at each
 * turn of the real event loop until `work` settles: what `work` waits for passes in virtual time,
 * while the sandbox server's sockets, on the real event loop, answer as they do. `Date.now()`
 * inside measures virtual time (each turn of a request counts `stepMs`). The real clock is back
 * afterwards, whatever happened.
 */
export async function onFakeClock<T>(work: () => Promise<T>, stepMs = 10): Promise<T> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    let settled = false;
    const result = work().finally(() => {
      settled = true;
    });
    // Awaited below; until then its rejection is not an unhandled one.
    result.catch(() => undefined);
    while (!settled) {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(stepMs);
    }
    return await result;
  } finally {
    vi.useRealTimers();
  }
}

/** `onFakeClock`, with how long `work` took on the fake clock (in milliseconds). */
export function timedOnFakeClock<T>(work: () => Promise<T>): Promise<{ result: T; waited: number }> {
  return onFakeClock(async () => {
    const started = Date.now();
    const result = await work();
    return { result, waited: Date.now() - started };
  });
}
