/**
 * The state model (emulator/core/state.ts): the state of a family list is the core's keys and each
 * family's slices, made fresh from a fixture and then seeded; a key two families declare is refused.
 */
import { describe, expect, it } from "vitest";
import type { Family } from "../../../emulator/core/family";
import { baseFixture } from "../../../emulator/core/fixture";
import { document, isState, map, rows, StateModel } from "../../../emulator/core/state";
import { FAMILIES, SANDBOX_MODEL } from "../../../emulator/families";

describe("a state model", () => {
  it("holds the core's keys and every family's, each with its layout", () => {
    const seeded: string[] = [];
    const family: Family = {
      name: "test",
      state: { testRows: rows(), testMap: map(() => ({ a: 1 })), testDoc: document((f) => f.users.length) },
      seed: (state) => {
        seeded.push(`seeded after ${Object.keys(state).length} keys`);
      },
    };
    const model = new StateModel([family], baseFixture);
    expect(model.layout).toEqual({
      schema: "document",
      nextId: "document",
      fixture: "document",
      jobs: "rows",
      testRows: "rows",
      testMap: "map",
      testDoc: "document",
    });
    const state = model.fresh();
    expect(Reflect.get(state, "testMap")).toEqual({ a: 1 });
    expect(Reflect.get(state, "testDoc")).toBe(baseFixture().users.length);
    expect(seeded).toEqual(["seeded after 7 keys"]);
    expect(isState(state, model)).toBe(true);
    const lacking = Object.fromEntries(Object.entries(state).filter(([key]) => key !== "testRows"));
    expect(isState(lacking, model)).toBe(false);
  });

  it("refuses a key declared by two families, naming it and the second family", () => {
    const one: Family = { name: "one", state: { shared: rows() } };
    const two: Family = { name: "two", state: { shared: rows() } };
    expect(() => new StateModel([one, two], baseFixture)).toThrow(
      "state key shared of family two is declared twice",
    );
    expect(() => new StateModel([{ name: "core", state: { jobs: rows() } }], baseFixture)).toThrow(
      "state key jobs of family core is declared twice",
    );
  });

  it("of the sandbox's families gives every key one family, and a fresh state holds them all", () => {
    const families: readonly Family[] = FAMILIES;
    const owners = families.flatMap((family) => Object.keys(family.state ?? {}));
    expect(new Set(owners).size).toBe(owners.length);
    expect([...SANDBOX_MODEL.slices.keys()].sort()).toEqual(
      ["schema", "nextId", "fixture", "jobs", ...owners].sort(),
    );
    expect(Object.keys(SANDBOX_MODEL.fresh()).sort()).toEqual([...SANDBOX_MODEL.slices.keys()].sort());
  });
});
