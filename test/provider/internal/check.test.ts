import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  checkInputs,
  containsUnknown,
  fields,
  safeFailures,
  UNKNOWN,
  unknownArguments,
} from "../../../provider/internal/check";

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

describe("safeFailures", () => {
  const secrets = new Set(["value", "token"]);

  it("names a secret field in the reason, not as the property whose value the engine prints", () => {
    const [failure] = safeFailures(
      [{ property: "value", reason: 'value is not allowed with authType "oidc_azure"' }],
      secrets,
      { value: "SUPERSECRET-1" },
    );
    expect(failure).toEqual({ property: "", reason: 'value is not allowed with authType "oidc_azure"' });
  });

  it("carries no secret's value and no URL password in any reason", () => {
    const failures = safeFailures(
      [
        { property: "url", reason: 'url must be an absolute http(s) URL, got "not a url SUPERSECRET-2"' },
        { property: "baseUrl", reason: "baseUrl https://ci:hunter22@hosting.example.com is not allowed" },
        { property: "token", reason: 'token: got SUPERSECRET-3 (token is "SUPERSECRET-3")' },
      ],
      new Set(["url", "token"]),
      { url: "not a url SUPERSECRET-2", token: "SUPERSECRET-3" },
    );
    const text = JSON.stringify(failures);
    expect(text).not.toMatch(/SUPERSECRET|hunter22/);
    expect(failures.map((f) => f.property)).toEqual(["", "baseUrl", ""]);
    expect(failures[1]?.reason).toBe("baseUrl https://ci:[secret]@hosting.example.com is not allowed");
    expect(failures[0]?.reason).toBe('url must be an absolute http(s) URL, got "[secret]"');
  });

  it("leaves other failures as they were", () => {
    const failure = { property: "events", reason: 'events[0] "nope" is not an event' };
    expect(safeFailures([failure], secrets, { value: "abc" })).toEqual([failure]);
  });
});

describe("unknown arguments", () => {
  const schema = z.object({ org: z.string(), role: z.string().optional() });

  it("fail, naming each and the arguments there are, without printing their values", () => {
    expect(unknownArguments(schema, { org: "acme", bogusField: 1, rolle: "admin" })).toEqual([
      { property: "", reason: "unknown argument bogusField: the arguments are org, role" },
      { property: "", reason: "unknown argument rolle: the arguments are org, role" },
    ]);
  });

  it("leave the serialised provider alone", () => {
    expect(unknownArguments(schema, { org: "acme", __provider: "x", role: undefined })).toEqual([]);
  });
});
