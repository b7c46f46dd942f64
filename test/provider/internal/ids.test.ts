import { describe, expect, it } from "vitest";
import { idCodec, joinId, numericPart, splitId } from "../../../provider/internal/ids";

describe("composite ids", () => {
  it("round-trips parts holding the separator and other reserved characters", () => {
    const id = joinId("acme-eng", "api", "prod/eu:1", 42);
    expect(id).toBe("acme-eng/api/prod%2Feu%3A1/42");
    expect(splitId(id, ["owner", "repository", "environment", "ruleId"], "Rule")).toEqual([
      "acme-eng",
      "api",
      "prod/eu:1",
      "42",
    ]);
  });

  it.each(["a/b", "a/b/c/d", "a//c", ""])("refuses %j for a three-part id, naming the form", (id) => {
    expect(() => splitId(id, ["owner", "repository", "hookId"], "RepositoryWebhook")).toThrow(
      /RepositoryWebhook id .* is not of the form owner\/repository\/hookId/,
    );
  });

  it("reads a server-assigned integer part, and refuses anything else naming the part", () => {
    expect(numericPart("42", "runnerGroupId", "RunnerGroupRunners")).toBe(42);
    for (const bad of ["0", "042", "4.2", "0x2", " 4", "four", ""]) {
      expect(() => numericPart(bad, "runnerGroupId", "RunnerGroupRunners")).toThrow(
        /RunnerGroupRunners id part runnerGroupId must be a positive integer/,
      );
    }
  });
});

describe("idCodec", () => {
  const codec = idCodec("RepositoryWebhook", ["owner", "repository", "hookId"] as const, new Set(["hookId"]));

  it("parses an id into its named parts, the integer parts as numbers, and builds it back", () => {
    const parts = codec.parseId("acme-eng/prod%2Feu/42");
    expect(parts).toEqual({ owner: "acme-eng", repository: "prod/eu", hookId: 42 });
    expect(codec.formatId({ ...parts, events: ["push"] } as typeof parts)).toBe("acme-eng/prod%2Feu/42");
  });

  it("refuses an id of another form, naming the kind and the form", () => {
    expect(() => codec.parseId("acme-eng/42")).toThrow(
      /RepositoryWebhook id "acme-eng\/42" is not of the form owner\/repository\/hookId/,
    );
  });

  it("refuses an integer part that is not one, naming it", () => {
    expect(() => codec.parseId("acme-eng/api/hook")).toThrow(
      /RepositoryWebhook id part hookId must be a positive integer; got "hook"/,
    );
  });
});
