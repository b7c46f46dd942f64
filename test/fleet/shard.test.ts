/** Sharding: balanced, a partition of the fleet, independent of discovery's order, and the flag's errors. */
import { describe, expect, it } from "vitest";
import { assignShards, inShard, MAX_SHARDS, parseShard } from "../../fleet/shard";

const fleetOf = (n: number) => Array.from({ length: n }, (_, i) => ({ project: `org-${i}` }));

/** The projects of every shard of `count`, shard 1 first. */
const split = (items: readonly { project: string }[], count: number, stack = "prod") =>
  Array.from({ length: count }, (_, i) =>
    inShard(items, stack, { index: i + 1, count }).map((p) => p.project),
  );

describe("shards", () => {
  it("give each shard at most ceil(M/N) stacks and cover every stack exactly once", () => {
    for (const m of [0, 1, 2, 3, 5, 17, 200]) {
      for (const count of [1, 2, 3, 7, 16]) {
        const shards = split(fleetOf(m), count);
        const sizes = shards.map((s) => s.length);
        expect(Math.max(...sizes), `${m} over ${count}`).toBeLessThanOrEqual(Math.ceil(m / count));
        expect(Math.min(...sizes), `${m} over ${count}`).toBeGreaterThanOrEqual(Math.floor(m / count));
        const all = shards.flat();
        expect(new Set(all).size).toBe(m);
        expect(all).toHaveLength(m);
      }
    }
  });

  it("split two stacks one per shard of two, and three stacks two and one", () => {
    const two = [{ project: "acme-eng" }, { project: "acme-ops" }];
    for (const stack of ["prod", "ci", "dev"]) {
      expect(split(two, 2, stack).map((s) => s.length)).toEqual([1, 1]);
    }
    const three = [...two, { project: "site-admin" }];
    expect(split(three, 2).map((s) => s.length)).toEqual([2, 1]);
  });

  it("do not depend on the order discovery returns the projects in", () => {
    const items = fleetOf(40);
    const reversed = [...items].reverse();
    const shuffled = [...items].sort(
      (a, b) => (a.project.length % 3) - (b.project.length % 3) || (a.project < b.project ? 1 : -1),
    );
    for (const count of [2, 3, 7]) {
      const sorted = (shards: string[][]) => shards.map((s) => [...s].sort());
      expect(sorted(split(reversed, count))).toEqual(sorted(split(items, count)));
      expect(sorted(split(shuffled, count))).toEqual(sorted(split(items, count)));
    }
  });

  it("follow the documented rule: sorted by SHA-256 of project/stack, dealt round-robin", () => {
    // Fixed values, so a change of the rule (which moves stacks between a CI run's jobs) fails here.
    // sha256("acme-eng/ci") < sha256("acme-ops/ci"); for "prod" it is the other way round.
    expect(assignShards(["acme-ops", "acme-eng"], "ci", 2)).toEqual(
      new Map([
        ["acme-eng", 1],
        ["acme-ops", 2],
      ]),
    );
    expect(assignShards(["acme-eng", "acme-ops"], "prod", 2)).toEqual(
      new Map([
        ["acme-ops", 1],
        ["acme-eng", 2],
      ]),
    );
    // More shards than stacks: the last shards hold none.
    expect(split([{ project: "acme-eng" }], 3, "ci")).toEqual([["acme-eng"], [], []]);
  });

  it("refuse a shard that is not I/N with 1 <= I <= N <= the maximum, naming the flag", () => {
    expect(parseShard("2/3")).toEqual({ index: 2, count: 3 });
    expect(parseShard(` 1/${MAX_SHARDS} `)).toEqual({ index: 1, count: MAX_SHARDS });
    expect(parseShard("01/02")).toEqual({ index: 1, count: 2 });
    for (const bad of [
      "0/2",
      "3/2",
      "1/0",
      "1",
      "a/b",
      "-1/2",
      "1/2/3",
      "",
      "1.5/2",
      "1e1/20",
      "0x1/2",
      `1/${MAX_SHARDS + 1}`,
      "99999999999999999999/99999999999999999999",
      "9007199254740993/9007199254740993",
    ]) {
      expect(() => parseShard(bad), bad).toThrow(
        /^--shard must be I\/N with I and N whole numbers, 1 <= I <= N <= 1000 \(e\.g\. 1\/4\); got "/,
      );
    }
  });
});
