/** Sharding: stable per stack, a partition of the fleet, and the flag's errors. */
import { describe, expect, it } from "vitest";
import { inShard, parseShard, shardOf } from "../../fleet/shard";

const projects = Array.from({ length: 200 }, (_, i) => ({ project: `org-${i}` }));

describe("shards", () => {
  it("cover every stack exactly once for any count", () => {
    for (const count of [1, 2, 3, 7, 16]) {
      const seen = new Map<string, number>();
      for (let index = 1; index <= count; index++) {
        for (const p of inShard(projects, "prod", { index, count }))
          seen.set(p.project, (seen.get(p.project) ?? 0) + 1);
      }
      expect(seen.size).toBe(projects.length);
      expect([...seen.values()].every((n) => n === 1)).toBe(true);
    }
  });

  it("put a stack in the same shard whatever the other stacks are", () => {
    const alone = inShard([{ project: "org-7" }], "prod", { index: shardOf("org-7", "prod", 4), count: 4 });
    expect(alone).toEqual([{ project: "org-7" }]);
    const before = shardOf("org-7", "prod", 4);
    const more = [...projects, ...Array.from({ length: 50 }, (_, i) => ({ project: `new-${i}` }))];
    const again = [1, 2, 3, 4].find((index) =>
      inShard(more, "prod", { index, count: 4 }).some((p) => p.project === "org-7"),
    );
    expect(again).toBe(before);
    // A fixed value, so a change of the hash (which would move every stack) fails here.
    expect(shardOf("acme-eng", "ci", 2)).toBe(1);
    expect(shardOf("acme-ops", "ci", 2)).toBe(2);
  });

  it("share the stacks about evenly", () => {
    const sizes = [1, 2, 3, 4].map((index) => inShard(projects, "prod", { index, count: 4 }).length);
    for (const size of sizes) expect(size).toBeGreaterThan(30);
  });

  it("refuse a shard that is not I/N with 1 <= I <= N, naming the flag", () => {
    expect(parseShard("2/3")).toEqual({ index: 2, count: 3 });
    for (const bad of ["0/2", "3/2", "1/0", "1", "a/b", "-1/2", "1/2/3", ""]) {
      expect(() => parseShard(bad), bad).toThrow(
        /^--shard must be I\/N with 1 <= I <= N \(e\.g\. 1\/4\); got/,
      );
    }
  });
});
