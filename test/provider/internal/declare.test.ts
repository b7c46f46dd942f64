/** What a declaration derives: here, the id codec from `idFormat` and the fields it names. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { declareKind, field, output } from "../../../provider/internal/declare";

const hookKind = declareKind({
  kind: "Hook",
  description: "A hook.",
  idFormat: ["owner", "hookId"],
  inputs: z.object({ owner: field(z.string(), { description: "The owner.", replace: true }) }),
  outputs: z.object({ hookId: output(z.number().int().optional(), "The hook's id.") }),
});

describe("declareKind's id codec", () => {
  it("reads the id parts whose field is a number as integers, the others as text", () => {
    const parts = hookKind.parseId("acme%2Feng/7");
    expect(parts).toEqual({ owner: "acme/eng", hookId: 7 });
    // The types follow the fields: a number part is a number.
    const hookId: number = parts.hookId;
    expect(hookId).toBe(7);
    expect(hookKind.formatId({ owner: "acme/eng", hookId: 7 })).toBe("acme%2Feng/7");
  });

  it("refuses a malformed id naming the kind and its form, and a non-integer part naming it", () => {
    expect(() => hookKind.parseId("acme")).toThrow(/Hook id "acme" is not of the form owner\/hookId/);
    expect(() => hookKind.parseId("acme/x7")).toThrow(
      /Hook id part hookId must be a positive integer; got "x7"/,
    );
  });
});
