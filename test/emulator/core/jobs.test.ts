import { describe, expect, it } from "vitest";
import { Controls } from "../../../emulator/core/controls";
import { pendingJobs, registerJob, scheduleJob, settleJobs } from "../../../emulator/core/jobs";
import { Store } from "../../../emulator/core/store";
import { defaultFixture, SANDBOX_MODEL } from "../../../emulator/families";
import { call, control, runJobs, useSandbox } from "../helpers";

/** A job kind of these tests only: it records the order jobs ran in. */
const ran: string[] = [];
registerJob("test:record", (_store, data) => {
  ran.push(String(data.name));
});
registerJob("test:fail", () => {
  throw new Error("the job failed");
});

function fresh(delayMs: number): { store: Store; controls: Controls } {
  const controls = new Controls();
  controls.jobDelayMs = delayMs;
  return { store: new Store(SANDBOX_MODEL, defaultFixture(), undefined), controls };
}

describe("background jobs", () => {
  it("runs a job once it is due, oldest first, and drops it from the queue", async () => {
    ran.length = 0;
    const { store, controls } = fresh(1_000);
    await store.transaction(async () => {
      scheduleJob(store, controls, "test:record", { name: "first" });
      scheduleJob(store, controls, "test:record", { name: "second" });
    });
    expect(pendingJobs(store, "test:record")).toHaveLength(2);
    expect(pendingJobs(store, "test:record", { name: "second" })).toHaveLength(1);

    await store.transaction(async () => settleJobs(store));
    expect(ran).toEqual([]); // not due yet

    await store.transaction(async () => settleJobs(store, Date.now() + 1_001));
    expect(ran).toEqual(["first", "second"]);
    expect(store.raw.jobs).toEqual([]);
  });

  it("leaves a failed job queued and undone with its transaction", async () => {
    const { store, controls } = fresh(0);
    await store.transaction(async () => {
      scheduleJob(store, controls, "test:fail", {});
    });
    await expect(store.transaction(async () => settleJobs(store))).rejects.toThrow("the job failed");
    expect(store.raw.jobs).toHaveLength(1);
  });

  it("refuses a kind no family registered, and a kind registered twice", () => {
    const { store, controls } = fresh(0);
    expect(() => scheduleJob(store, controls, "test:unknown", {})).toThrow(/not registered/);
    expect(() => registerJob("test:record", () => undefined)).toThrow(/registered twice/);
  });
});

describe("the jobs control", () => {
  const sandbox = useSandbox();

  it("sets how long a job takes, and a reset restores the default", async () => {
    expect((await control(sandbox.emulator, "GET", "/jobs")).body).toEqual({ delayMs: 1_000, pending: [] });
    expect((await control(sandbox.emulator, "PUT", "/jobs", { delayMs: 0 })).body).toEqual({ delayMs: 0 });
    expect((await control(sandbox.emulator, "GET", "/jobs")).body.delayMs).toBe(0);
    await control(sandbox.emulator, "POST", "/reset");
    expect((await control(sandbox.emulator, "GET", "/jobs")).body.delayMs).toBe(1_000);
  });

  it("answers a delay out of range with a 422 naming the field", async () => {
    for (const delayMs of [-1, 1.5, "0", 3_600_001]) {
      const response = await control(sandbox.emulator, "PUT", "/jobs", { delayMs });
      expect(response.status).toBe(422);
      expect(JSON.stringify(response.body)).toContain("delayMs");
    }
  });

  it("settles due jobs before each API request", async () => {
    ran.length = 0;
    const store = sandbox.emulator.store;
    await store.transaction(async () => {
      const controls = new Controls();
      controls.jobDelayMs = 0;
      scheduleJob(store, controls, "test:record", { name: "before the request" });
    });
    await call(sandbox.emulator, "GET", "/user");
    expect(ran).toEqual(["before the request"]);
    expect(store.raw.jobs).toEqual([]);
  });

  it("runs every queued job at once through POST /jobs/run, whatever its delay, oldest first", async () => {
    ran.length = 0;
    const store = sandbox.emulator.store;
    expect((await control(sandbox.emulator, "PUT", "/jobs", { delayMs: 3_600_000 })).status).toBe(200);
    await store.transaction(async () => {
      const controls = new Controls();
      controls.jobDelayMs = 3_600_000;
      scheduleJob(store, controls, "test:record", { name: "in an hour" });
      scheduleJob(store, controls, "test:record", { name: "after it" });
    });
    await call(sandbox.emulator, "GET", "/user");
    expect(ran).toEqual([]);
    const ranJobs = await runJobs(sandbox.emulator);
    expect(ranJobs.map((j) => j.data.name)).toEqual(["in an hour", "after it"]);
    expect(ran).toEqual(["in an hour", "after it"]);
    expect((await control(sandbox.emulator, "GET", "/jobs")).body.pending).toEqual([]);
    expect(await runJobs(sandbox.emulator)).toEqual([]);
  });
});
