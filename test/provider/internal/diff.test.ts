import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../provider/internal/check";
import { canonical, diffFields, lowerCased, sameValue } from "../../../provider/internal/diff";

describe("sameValue", () => {
  it("compares sets ignoring order and repeats, lists in order", () => {
    expect(sameValue(["a", "b"], ["b", "a", "a"], true)).toBe(true);
    expect(sameValue(["a", "b"], ["b", "a"])).toBe(false);
    expect(sameValue([1, 2], [2, 3], true)).toBe(false);
  });

  it("treats null and undefined alike, and unknown as different", () => {
    expect(sameValue(null, undefined)).toBe(true);
    expect(sameValue("x", UNKNOWN)).toBe(false);
    expect(sameValue(["x"], [UNKNOWN], true)).toBe(false);
  });

  it("compares objects by content whatever the key order", () => {
    expect(canonical({ b: 1, a: { d: 2, c: 3 } })).toBe(canonical({ a: { c: 3, d: 2 }, b: 1 }));
    expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(true);
  });
});

describe("diffFields", () => {
  const rules = { owner: { replace: true }, events: { set: true }, url: {}, importId: { createOnly: true } };

  it("always sets changes, and sets it whenever something replaces", () => {
    expect(
      diffFields(rules, { owner: "a", events: ["x"], url: "u" }, { owner: "a", events: ["x"], url: "u" }),
    ).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(diffFields(rules, { owner: "a" }, { owner: "b" })).toMatchObject({
      changes: true,
      replaces: ["owner"],
    });
    expect(diffFields(rules, { url: "u" }, { url: "v" })).toMatchObject({ changes: true, replaces: [] });
  });

  it("ignores create-only fields and fields without a rule", () => {
    expect(diffFields(rules, { importId: "1", hookId: 1 }, { importId: "2", hookId: 2 }).changes).toBe(false);
  });
});

describe("lowerCased", () => {
  it("lower-cases only the named string fields", () => {
    const comparable = lowerCased<{ owner: string; environment: string; integrationId: number }>(
      "owner",
      "environment",
    );
    expect(
      comparable({ owner: "Acme", environment: "Release/EU", integrationId: 7, url: "HTTP://X" }),
    ).toEqual({
      owner: "acme",
      environment: "release/eu",
      integrationId: 7,
      url: "HTTP://X",
    });
    expect(comparable({ owner: UNKNOWN })).toEqual({ owner: UNKNOWN });
  });
});
