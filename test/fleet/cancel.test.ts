/** A stack's cancellation: the first reason wins, interrupts are sent again on demand, nothing outlives it. */
import { describe, expect, it } from "vitest";
import { Cancellation } from "../../fleet/cancel";

const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

describe("Cancellation", () => {
  it("keeps the first reason and runs the signal's listeners once per interrupt, twice at most", async () => {
    const interrupt = new AbortController();
    const force = new AbortController();
    const cancel = new Cancellation({
      timeoutMs: 60_000,
      interrupt: interrupt.signal,
      force: force.signal,
      graceMs: 60_000,
    });
    let heard = 0;
    cancel.signal.addEventListener("abort", () => heard++);
    interrupt.abort("SIGINT");
    await cancel.stopped;
    expect(cancel.reason).toBe("interrupted by SIGINT: the operation was cancelled");
    expect(heard).toBe(1);
    force.abort("SIGTERM");
    expect(cancel.reason).toBe("interrupted by SIGINT: the operation was cancelled");
    expect(heard).toBe(2);
    cancel.stop("timed out");
    expect(heard).toBe(2);
    cancel.dispose();
  });

  it("leaves no timer behind once disposed: a 30-minute limit does not keep the process alive", () => {
    const before = timers();
    const cancel = new Cancellation({ timeoutMs: 30 * 60_000 });
    expect(timers()).toBe(before + 1);
    cancel.dispose();
    expect(timers()).toBe(before);
    expect(cancel.reason).toBeUndefined();
  });

  it("names the limit in the reason, in the unit --timeout was given in", async () => {
    const cancel = new Cancellation({ timeoutMs: 30 });
    await cancel.stopped;
    expect(cancel.reason).toBe("timed out after 30ms (--timeout 30ms): the operation was cancelled");
    expect(cancel.signal.aborted).toBe(true);
    cancel.dispose();
  });
});
