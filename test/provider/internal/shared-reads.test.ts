/**
 * SharedReads: reads of one key share the GET in flight or a recent answer; writes, failures, the
 * freshness window and another client each make the next read ask again.
 */
import { describe, expect, it } from "vitest";
import { ROUTES } from "../../../api";
import { startEmulator } from "../../../emulator/index";
import { HostingClient } from "../../../provider/client/http";
import { SharedReads } from "../../../provider/internal/shared-reads";

const settings = { apiRoot: "http://127.0.0.1:9/api/v3", token: "t", apiVersion: undefined };

/** A load whose answers are numbered, settled by hand, so the tests decide the interleaving. */
function loader() {
  let calls = 0;
  const pending: Array<{ resolve: (v: number) => void; reject: (e: Error) => void }> = [];
  const load = () => {
    calls++;
    return new Promise<number>((resolve, reject) => {
      pending.push({ resolve, reject });
    });
  };
  return {
    load,
    get calls() {
      return calls;
    },
    settle(value: number) {
      pending.shift()?.resolve(value);
    },
    fail() {
      pending.shift()?.reject(new Error("boom"));
    },
  };
}

function setUp(freshMs = 1000) {
  let clock = 0;
  const reads = new SharedReads<number>(freshMs, () => clock);
  return {
    reads,
    client: new HostingClient(settings),
    tick(ms: number) {
      clock += ms;
    },
  };
}

describe("SharedReads", () => {
  it("joins the read in flight and reuses a recent answer", async () => {
    const { reads, client, tick } = setUp();
    const l = loader();
    const first = reads.read(client, "k", l.load);
    const second = reads.read(client, "k", l.load);
    l.settle(1);
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    tick(999);
    expect(await reads.read(client, "k", l.load)).toBe(1);
    expect(l.calls).toBe(1);
  });

  it("asks again once the answer is older than the window, counted from when it was sent", async () => {
    const { reads, client, tick } = setUp();
    const l = loader();
    const first = reads.read(client, "k", l.load);
    tick(1500);
    // Still in flight: joined whatever its age.
    const joined = reads.read(client, "k", l.load);
    l.settle(1);
    expect(await joined).toBe(1);
    await first;
    const next = reads.read(client, "k", l.load);
    l.settle(2);
    expect(await next).toBe(2);
    expect(l.calls).toBe(2);
  });

  it("never reuses an answer across a write, even one in flight when the write began", async () => {
    const { reads, client } = setUp();
    const l = loader();
    const before = reads.read(client, "k", l.load);
    let finishWrite: () => void = () => undefined;
    const write = reads.write(client, "k", () => new Promise<void>((r) => (finishWrite = r)));
    const during = reads.read(client, "k", l.load);
    l.settle(1);
    l.settle(2);
    finishWrite();
    await write;
    const after = reads.read(client, "k", l.load);
    l.settle(3);
    expect([await before, await during, await after]).toEqual([1, 2, 3]);
    expect(l.calls).toBe(3);
  });

  it("does not keep a failed read", async () => {
    const { reads, client } = setUp();
    const l = loader();
    const failed = reads.read(client, "k", l.load);
    const joined = reads.read(client, "k", l.load);
    l.fail();
    await expect(failed).rejects.toThrow("boom");
    await expect(joined).rejects.toThrow("boom");
    const retry = reads.read(client, "k", l.load);
    l.settle(7);
    expect(await retry).toBe(7);
    expect(l.calls).toBe(2);
  });

  it("keeps keys, clients and cleared caches apart", async () => {
    const { reads, client } = setUp();
    const other = new HostingClient(settings);
    const l = loader();
    const a = reads.read(client, "a", l.load);
    const b = reads.read(client, "b", l.load);
    const c = reads.read(other, "a", l.load);
    l.settle(1);
    l.settle(2);
    l.settle(3);
    expect([await a, await b, await c]).toEqual([1, 2, 3]);
    reads.clear();
    const d = reads.read(client, "a", l.load);
    l.settle(4);
    expect(await d).toBe(4);
    expect(l.calls).toBe(4);
  });

  it("says a refused token in full to the read that sent the request, and in one line to those that joined it", async () => {
    const emulator = await startEmulator({ port: 0 });
    try {
      const client = new HostingClient({
        apiRoot: emulator.url,
        token: "svcp_revoked",
        apiVersion: undefined,
      });
      const reads = new SharedReads<unknown>(1000);
      const load = async () => (await client.get(ROUTES.meta.user, {})).data;
      const outcomes = await Promise.allSettled([
        reads.read(client, "me", load),
        reads.read(client, "me", load),
        reads.read(client, "me", load),
      ]);
      const messages = outcomes.map((o) => (o.status === "rejected" ? String(o.reason) : "answered"));
      expect(messages[0]).toMatch(/is unknown, expired or revoked/);
      for (const joined of messages.slice(1)) {
        expect(joined).toMatch(/was refused earlier in this run; see the first error \(GET \/user\)/);
        expect(joined).not.toMatch(/is unknown, expired or revoked/);
      }
      expect(emulator.controls.log.map((r) => `${r.method} ${r.route} ${r.status}`)).toEqual([
        "GET /user 401",
      ]);
    } finally {
      await emulator.close();
    }
  });
});
