/**
 * The package publishes every kind and function it serves: the public list (`provider/index.ts`)
 * is written by hand, so a kind or function added to a family but not to it fails here.
 */
import { describe, expect, it } from "vitest";
import * as hosting from "../../provider";
import { PROVIDERS } from "../../provider/providers";
import { FUNCTIONS } from "../../provider/registry";

const exported = hosting as unknown as Record<string, unknown>;

describe("the package's exports", () => {
  it("hold every kind's resource class", () => {
    const missing = PROVIDERS.map((p) => p.kind).filter((kind) => typeof exported[kind] !== "function");
    expect(missing).toEqual([]);
  });

  it("hold every function, in both forms", () => {
    const missing = FUNCTIONS.flatMap((f) => [f.name, `${f.name}Output`]).filter(
      (name) => typeof exported[name] !== "function",
    );
    expect(missing).toEqual([]);
  });
});
