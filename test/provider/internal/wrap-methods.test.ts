import { describe, expect, it } from "vitest";
import { wrapMethods } from "../../../provider/internal/wrap-methods";

/** A provider as the kinds make them: an object of its own methods, which read its other members. */
function counter() {
  return {
    count: 0,
    label: "counter",
    async add(n: number): Promise<number> {
      this.count += n;
      return this.count;
    },
    async twice(n: number): Promise<number> {
      return 2 * n;
    },
  };
}

describe("wrapMethods", () => {
  it("wraps the listed methods, each called on the original provider, and leaves the others as they are", async () => {
    const provider = counter();
    const seen: string[] = [];
    const wrapped = wrapMethods(provider, ["add"], (call) => async (...args) => {
      seen.push(`add(${args.join(", ")})`);
      return call(...args);
    });
    expect(await wrapped.add(3)).toBe(3);
    expect(provider.count).toBe(3); // `this` was the original
    expect(seen).toEqual(["add(3)"]);
    expect(wrapped.label).toBe("counter");
    expect(wrapped.twice).toBe(provider.twice);
    expect(await wrapped.twice(4)).toBe(8);
    expect(seen).toEqual(["add(3)"]);
  });

  it("returns a copy: the original's methods are not replaced", () => {
    const provider = { check: async () => "original" };
    const wrapped = wrapMethods(provider, ["check"], () => async () => "wrapped");
    expect(wrapped).not.toBe(provider);
    return Promise.all([
      expect(provider.check()).resolves.toBe("original"),
      expect(wrapped.check()).resolves.toBe("wrapped"),
    ]);
  });
});
