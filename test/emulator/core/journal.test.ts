/**
 * The journal (emulator/core/journal.ts) undoes every write of a failed request in memory: what the
 * state holds afterwards is what it held before, holes and lengths of arrays included (an undone
 * append once left a `null` in the job list that failed every later request reading it).
 */
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { Controls } from "../../../emulator/core/controls";
import { registerJob, scheduleJob } from "../../../emulator/core/jobs";
import { Journal } from "../../../emulator/core/journal";
import { Store } from "../../../emulator/core/store";
import { defaultFixture, SANDBOX_MODEL } from "../../../emulator/families";

interface Shape {
  list: Array<{ n: number; tags: string[] }>;
  map: Record<string, { n: number }>;
  doc: { items: number[] };
}

function journal(): { root: Shape; j: Journal<Shape> } {
  const root: Shape = {
    list: [
      { n: 1, tags: ["a"] },
      { n: 2, tags: [] },
    ],
    map: { one: { n: 1 } },
    doc: { items: [1, 2, 3] },
  };
  return { root, j: new Journal(root, { list: "rows", map: "map", doc: "document" }) };
}

/** Runs `write` on the journal's view, undoes it and expects the state exactly as it was. */
function expectUndone(write: (view: Shape) => void): void {
  const { root, j } = journal();
  const before = structuredClone(root);
  write(j.view);
  expect(j.pending).toBe(true);
  j.undo();
  // isDeepStrictEqual tells a hole from `undefined` and compares lengths: toEqual does neither.
  expect(isDeepStrictEqual(root, before), JSON.stringify(root)).toBe(true);
  expect(root.list.length).toBe(before.list.length);
}

describe("Journal.undo", () => {
  it.each<[string, (view: Shape) => void]>([
    ["an append", (v) => v.list.push({ n: 3, tags: [] })],
    ["appends of several records", (v) => v.list.push({ n: 3, tags: [] }, { n: 4, tags: [] })],
    ["an append to a nested array", (v) => v.list[0]?.tags.push("b", "c")],
    ["an append to a document's array", (v) => v.doc.items.push(4)],
    [
      "a write past the end",
      (v) => {
        v.doc.items[6] = 7;
      },
    ],
    ["unshift", (v) => v.list.unshift({ n: 0, tags: [] })],
    ["splice that removes and inserts", (v) => v.list.splice(0, 1, { n: 9, tags: [] }, { n: 8, tags: [] })],
    [
      "pop and shift",
      (v) => {
        v.doc.items.pop();
        v.doc.items.shift();
      },
    ],
    ["sort and reverse", (v) => v.doc.items.reverse().sort((a, b) => a - b)],
    [
      "a shorter length",
      (v) => {
        v.doc.items.length = 1;
      },
    ],
    [
      "a longer length",
      (v) => {
        v.doc.items.length = 5;
      },
    ],
    [
      "a replaced collection",
      (v) => {
        v.list = v.list.filter((r) => r.n > 1);
      },
    ],
    [
      "a deleted and re-added entry",
      (v) => {
        delete v.map.one;
        v.map.two = { n: 2 };
      },
    ],
    [
      "a changed field of a record",
      (v) => {
        const record = v.list[1];
        if (record) record.n = 5;
      },
    ],
  ])("puts back %s", (_, write) => expectUndone(write));
});

registerJob("test:journal", () => undefined);

describe("a failed transaction", () => {
  it("leaves the job list as it was, with no hole where the job it queued was", async () => {
    const store = new Store(SANDBOX_MODEL, defaultFixture(), undefined);
    const controls = new Controls();
    const before = structuredClone(store.raw.jobs);
    await expect(
      store.transaction(async () => {
        scheduleJob(store, controls, "test:journal", {});
        throw new Error("the request failed after queueing its job");
      }),
    ).rejects.toThrow(/failed after queueing/);
    expect(isDeepStrictEqual(store.raw.jobs, before)).toBe(true);
    // The next job is queued where the undone one was, and is all the list holds.
    await store.transaction(async () => {
      scheduleJob(store, controls, "test:journal", {});
    });
    expect(store.raw.jobs.map((j) => j.kind)).toEqual(["test:journal"]);
    store.close();
  });
});
