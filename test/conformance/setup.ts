/**
 * Set-up file of the suites that run the sandbox server in-process: every API response of the
 * test file is observed and, after its tests, checked against the platform's published API
 * description (`check.ts`). Differences not listed in `allowlist.ts` fail the file with a list
 * (method, route, status, where in the body, what the schema says, the part of the body); the
 * counts go to `.conformance/<project>/`, for the totals the run prints at its end.
 *
 * Checking after the tests, not as each response comes, keeps the description's loading (the
 * first check of a worker) out of the tests' timings.
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { type ObservedResponse, observeResponses } from "../../emulator/core/observe";
import { pathPattern } from "./allowlist";
import { check, type Violation } from "./check";
import type { FileCounts } from "./totals";

const observed: ObservedResponse[] = [];
let stop: (() => void) | undefined;

beforeAll(() => {
  stop = observeResponses((r) => observed.push(r));
});

afterAll(() => {
  stop?.();
  const testPath = expect.getState().testPath ?? "unknown";
  const counts: FileCounts = {
    file: relative(join(__dirname, "../.."), testPath),
    responses: observed.length,
    validated: 0,
    operations: [],
    withoutSchema: {},
    violations: 0,
  };
  const operations = new Set<string>();
  const violations: Violation[] = [];
  for (const r of observed) {
    const outcome = check(r);
    if (outcome.kind === "validated") {
      counts.validated++;
      operations.add(outcome.operation);
    } else if (outcome.kind === "no schema") {
      counts.withoutSchema[outcome.reason] = (counts.withoutSchema[outcome.reason] ?? 0) + 1;
    } else if (outcome.violations.length > 0) {
      counts.violations++;
      violations.push(...outcome.violations);
    }
  }
  counts.operations = [...operations].sort();
  const dir = inject("conformanceDir");
  if (dir) writeFileSync(join(dir, `${randomUUID()}.counts.json`), `${JSON.stringify(counts)}\n`);
  if (violations.length > 0) throw new Error(report(violations));
});

/**
 * The differences, one entry per route, status, kind and place in the body (array indices as `*`),
 * with how many responses met it, what the schema says (missing required fields in one line) and
 * one body.
 */
export function report(violations: readonly Violation[]): string {
  const groups = new Map<
    string,
    { v: Violation; responses: Set<string>; messages: Set<string>; missing: Set<string> }
  >();
  for (const v of violations) {
    const place = v.instancePath === undefined ? "(response)" : pathPattern(v.instancePath) || "(body)";
    const key = `${v.method} ${v.route} ${v.status} ${v.kind} ${place}`;
    let g = groups.get(key);
    if (!g) {
      g = { v, responses: new Set(), messages: new Set(), missing: new Set() };
      groups.set(key, g);
    }
    g.responses.add(`${v.path} ${v.snippet}`);
    if (v.missing !== undefined) g.missing.add(v.missing);
    else g.messages.add(v.message);
  }
  const lines = [...groups.values()].map(({ v, responses, messages, missing }) => {
    const place = v.instancePath === undefined ? "(response)" : pathPattern(v.instancePath) || "(body)";
    return [
      `- ${v.method} ${v.route} -> ${v.status}: ${v.kind} at ${place} (${responses.size} responses)`,
      v.operation ? `    operation: ${v.operation}` : undefined,
      missing.size > 0 ? `    missing required: ${[...missing].join(", ")}` : undefined,
      ...[...messages].slice(0, 5).map((m) => `    ${m}`),
      `    e.g. ${v.path}: ${v.snippet}`,
    ]
      .filter((l) => l !== undefined)
      .join("\n");
  });
  return [
    `${groups.size} differences from the published API description (list deliberate ones in test/conformance/allowlist.ts):`,
    ...lines,
  ].join("\n");
}
