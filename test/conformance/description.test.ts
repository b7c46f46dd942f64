/**
 * The descriptions' cache (`description.ts`): what one test file built (the index of operations,
 * each validator it compiled) the next reads from disk, without loading the description, and
 * finds the same operations, the same outcomes and the same verdicts, errors included.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Expected, type FoundOperation, LoadedDescription } from "./description";

const folder = mkdtempSync(join(tmpdir(), "hosting-conformance-cache-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** An outcome with its validator's verdicts (and errors) on `bodies` in place of the function. */
function verdicts(expected: Expected, bodies: unknown[]): unknown {
  if (expected.kind !== "schema") return expected;
  return {
    mediaType: expected.mediaType,
    verdicts: bodies.map((body) => [expected.validate(body), expected.validate.errors ?? null]),
  };
}

describe("the descriptions' cache", () => {
  it("gives the next file the index and the validators a file made, without the description", () => {
    const HOOKS: Array<[string, string, number, string]> = [
      ["GET", "/repos/{owner}/{repo}/hooks", 200, "application/json; charset=utf-8"],
      ["GET", "/repos/{owner}/{repo}/hooks", 404, "application/json"],
      ["GET", "/repos/{owner}/{repo}/hooks", 418, "application/json"],
      ["POST", "/repos/{owner}/{repo}/hooks", 201, "application/json"],
      ["DELETE", "/repos/{owner}/{repo}/hooks/{hook_id}", 204, ""],
    ];
    // Valid (an empty list), and wrong in several ways: missing fields, wrong types.
    const bodies = [[], [{}], [{ id: "x", name: 1 }], {}, { id: 1 }, null];
    const first = new LoadedDescription("ghes-3.19", folder);
    expect(first.documentLoaded).toBe(true);
    const outcomes = (d: LoadedDescription) =>
      HOOKS.map(([method, route, status, type]) => {
        const found = d.find(method, route) as FoundOperation;
        expect(found, `${method} ${route}`).toBeDefined();
        return [found, verdicts(d.expected(found, status, type), bodies)];
      });
    const made = outcomes(first);
    expect(made.map(([, outcome]) => (outcome as { kind?: string }).kind ?? "schema")).toEqual([
      "schema",
      "schema",
      "status not described",
      "schema",
      "empty",
    ]);
    expect(readdirSync(folder).filter((f) => f.endsWith(".cjs"))).toHaveLength(3);

    const next = new LoadedDescription("ghes-3.19", folder);
    expect(outcomes(next)).toEqual(made);
    expect(next.find("GET", "/no/such/route")).toBeUndefined();
    expect(next.documentLoaded).toBe(false);
  });
});
