import { describe, expect, it } from "vitest";
import { joinId, splitId } from "../../../provider/internal/ids";

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
});
