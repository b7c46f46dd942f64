/**
 * The conformance counts of a run: each test file writes its own (`FileCounts`, by `setup.ts`);
 * the totals add them up, printed at the end of the run and kept in `.conformance/<project>/totals.json`.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface FileCounts {
  file: string;
  /** Responses observed. */
  responses: number;
  /** Responses whose body the description's schema validated (or whose empty body it gives). */
  validated: number;
  /** Operations (`METHOD /description/path`) with at least one validated response. */
  operations: string[];
  /** Responses left without a schema, by reason. */
  withoutSchema: Record<string, number>;
  /** Responses that differ, unlisted: each fails its file. */
  violations: number;
}

export interface Totals {
  files: number;
  responses: number;
  validated: number;
  operations: number;
  withoutSchema: Record<string, number>;
  violations: number;
}

export function totals(dir: string): Totals {
  const sum: Totals = {
    files: 0,
    responses: 0,
    validated: 0,
    operations: 0,
    withoutSchema: {},
    violations: 0,
  };
  const operations = new Set<string>();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".counts.json")) continue;
    const counts = JSON.parse(readFileSync(join(dir, name), "utf8")) as FileCounts;
    sum.files++;
    sum.responses += counts.responses;
    sum.validated += counts.validated;
    sum.violations += counts.violations;
    for (const op of counts.operations) operations.add(op);
    for (const [reason, n] of Object.entries(counts.withoutSchema)) {
      sum.withoutSchema[reason] = (sum.withoutSchema[reason] ?? 0) + n;
    }
  }
  sum.operations = operations.size;
  writeFileSync(
    join(dir, "totals.json"),
    `${JSON.stringify({ ...sum, operationList: [...operations].sort() }, null, 2)}\n`,
  );
  return sum;
}

export function totalsText(project: string, sum: Totals): string {
  const lines = [
    `conformance (${project}): ${sum.files} test files, ${sum.responses} responses`,
    `  validated against the published description: ${sum.validated} responses of ${sum.operations} operations`,
    `  without a schema: ${Object.values(sum.withoutSchema).reduce((a, b) => a + b, 0)}`,
    ...Object.entries(sum.withoutSchema)
      .sort((a, b) => b[1] - a[1])
      .map(([reason, n]) => `    ${String(n).padStart(6)}  ${reason}`),
    `  differences not listed in test/conformance/allowlist.ts: ${sum.violations}`,
  ];
  return lines.join("\n");
}
