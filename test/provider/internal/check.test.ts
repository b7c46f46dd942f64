import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkInputs, containsUnknown, fields, UNKNOWN } from "../../../provider/internal/check";

const schema = z.object({
  name: fields.name("name"),
  url: fields.httpUrl("url"),
  ids: fields.idList("ids").optional(),
  mode: z.enum(["a", "b"]).default("a"),
});

describe("checkInputs", () => {
  it("applies defaults and drops the provider key from validation", () => {
    expect(checkInputs(schema, { name: "x", url: "https://h", __provider: "code" })).toEqual({
      inputs: { name: "x", url: "https://h", mode: "a" },
    });
  });

  it("names the top-level argument of every failure, and the element and its value in the reason", () => {
    const result = checkInputs(schema, { name: "bad name", url: "ftp://h", ids: [1, -2], mode: "c" });
    // The engine prints the value it holds at `property`: a nested path would print `{<nil>}`.
    expect(result.failures?.map((f) => f.property).sort()).toEqual(["ids", "mode", "name", "url"]);
    expect(result.failures?.find((f) => f.property === "ids")?.reason).toBe(
      "ids must hold positive ids (ids[1] is -2)",
    );
    expect(result.failures?.find((f) => f.property === "mode")?.reason).toBe('mode must be one of "a", "b"');
    expect(result.failures?.find((f) => f.property === "url")?.reason).toContain('got "ftp://h"');
  });

  it("passes unknown values through and runs cross-field rules with the pending keys", () => {
    const seen: string[] = [];
    const result = checkInputs(schema, { name: "x", url: UNKNOWN, ids: [UNKNOWN] }, (_inputs, pending) => {
      seen.push(...pending);
      return [];
    });
    expect(result.failures).toBeUndefined();
    expect(result.inputs).toMatchObject({ url: UNKNOWN, ids: [UNKNOWN], mode: "a" });
    expect(seen.sort()).toEqual(["ids", "url"]);
  });

  it("returns the failures of cross-field rules", () => {
    const result = checkInputs(schema, { name: "x", url: "https://h" }, () => [
      { property: "ids", reason: "no" },
    ]);
    expect(result.failures).toEqual([{ property: "ids", reason: "no" }]);
  });

  it("finds unknowns nested in lists and objects", () => {
    expect(containsUnknown({ a: [1, { b: UNKNOWN }] })).toBe(true);
    expect(containsUnknown({ a: [1, { b: "x" }] })).toBe(false);
  });
});
