/**
 * Every kind's provider is listed once (providers.ts) and has its `kinds/<kind>` module whose whole
 * export is that provider, as Pulumi's serialiser needs (checked on the built package, which is
 * what programs load).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { kindModule } from "../../provider/internal/resource";
import { PROVIDERS } from "../../provider/providers";
import { provider as runtimeProvider } from "../../provider/runtime";

const DIST = join(__dirname, "../../dist/provider");

describe("the kinds", () => {
  it("are unique, and the runtime finds each by kind", () => {
    const kinds = PROVIDERS.map((p) => p.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const p of PROVIDERS) expect(runtimeProvider(p.kind)).toBe(p);
    expect(() => runtimeProvider("Nope")).toThrow(/has no resource Nope/);
  });

  it("names modules in kebab case", () => {
    expect(kindModule("RunnerGroupRunners")).toBe("runner-group-runners");
    expect(kindModule("OrgMembership")).toBe("org-membership");
  });

  it("each has a kinds/<kind> module exporting exactly its provider", () => {
    const { PROVIDERS: built } = require(
      join(DIST, "providers.js"),
    ) as typeof import("../../provider/providers");
    for (const p of built) {
      const exported: unknown = require(join(DIST, "kinds", `${kindModule(p.kind)}.js`));
      expect(exported, p.kind).toBe(p);
    }
  });
});
