/**
 * The fleet report: what one run (or the merge of the runs of every shard) found, stack by stack,
 * and its three renderings. The JSON form is the contract CI scripts read (docs/fleets.md,
 * "Reports"): field names never change within `version` 1, and new fields are only added.
 * JUnit XML gives CI systems one test case per stack, drift as a failure; Markdown is for a job
 * summary. Every rendering lists the stacks in the same order (project, then stack), so the report
 * of a fleet does not depend on which shard or which worker ran a stack.
 */

export type Operation = "preview" | "up" | "drift" | "destroy";

/** `clean`/`drift` for a drift check; `ok` for an operation that ran; `error` when it failed. */
export type StackStatus = "clean" | "drift" | "error" | "ok";

/** One resource the operation would change (drift) or changed (up, destroy). */
export interface ResourceChange {
  urn: string;
  /** The resource type token, e.g. `pulumi-nodejs:dynamic/hosting:OrgMembership`. */
  type: string;
  /** The resource name in the program. */
  name: string;
  /** What the engine does to it: `update`, `create`, `delete`, `replace`, ... */
  op: string;
  /** The inputs that differ, top-level names first then nested paths (`alerting.recipients`). */
  fields: string[];
  /**
   * Each field of `fields` with its value before (the recorded or refreshed state) and after (the
   * program), as display text; absent from reports written before it was added.
   */
  diffs?: FieldDiff[];
}

/**
 * One changed field's values as text: a string as itself (`""` when empty), any other value as its
 * JSON, a secret as `[secret]`, a value not known before the operation runs as `[unknown]`, each
 * at most MAX_VALUE_CHARS characters. A side is absent where the field had no value.
 */
export interface FieldDiff {
  field: string;
  old?: string;
  new?: string;
}

/** The longest value a report shows: values come from servers and programs, so are bounded. */
export const MAX_VALUE_CHARS = 200;

/** Text cut to `max` characters (code points, so no surrogate pair is split), saying how much was left out. */
export function bounded(text: string, max = MAX_VALUE_CHARS): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join("")}… (${chars.length - max} more characters)`;
}

/** How a side of a diff reads in every format: `(none)` where the field had no value. */
function sideText(value: string | undefined): string {
  return value === undefined ? "(none)" : bounded(value);
}

/** `field: old -> new`, the line every format shows for a changed field. */
export function diffText(d: FieldDiff): string {
  return `${d.field}: ${sideText(d.old)} -> ${sideText(d.new)}`;
}

export interface StackResult {
  project: string;
  stack: string;
  status: StackStatus;
  changes: ResourceChange[];
  /** Why the stack failed (status `error`): the first lines of the CLI's error. */
  error?: string;
  /** The project's folder, relative to the fleet's root. */
  dir: string;
  /** Wall time of the operation, seconds. */
  seconds: number;
}

export interface FleetReport {
  /** The format of this document. */
  version: 1;
  operation: Operation;
  /** The shards that ran (`1/2`), or every shard a merged report covers. */
  shards: string[];
  stacks: StackResult[];
}

/** Exit codes: 0 clean (or done), 1 drift, 2 an error (usage, or a stack that failed). */
export const EXIT = { clean: 0, drift: 1, error: 2 } as const;

/** The exit code a report stands for: an error outranks drift. */
export function exitCodeOf(report: Pick<FleetReport, "stacks">): number {
  if (report.stacks.some((s) => s.status === "error")) return EXIT.error;
  if (report.stacks.some((s) => s.status === "drift")) return EXIT.drift;
  return EXIT.clean;
}

export function compareStacks(a: StackResult, b: StackResult): number {
  return a.project.localeCompare(b.project) || a.stack.localeCompare(b.stack);
}

/** Counts by status, in a fixed order, for summaries. */
export function countsOf(stacks: readonly StackResult[]): Record<StackStatus, number> {
  const counts: Record<StackStatus, number> = { clean: 0, drift: 0, error: 0, ok: 0 };
  for (const s of stacks) counts[s.status]++;
  return counts;
}

// --- JSON --------------------------------------------------------------------------------------

export function toJson(report: FleetReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Reads a JSON report, failing with the file's name and what is wrong in it. */
export function parseReport(text: string, source: string): FleetReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`${source}: not JSON (${(e as Error).message})`);
  }
  const r = value as Partial<FleetReport>;
  if (typeof r !== "object" || r === null || r.version !== 1 || !Array.isArray(r.stacks)) {
    throw new Error(`${source}: not a hosting-fleet JSON report (version 1 with a "stacks" list)`);
  }
  if (!["preview", "up", "drift", "destroy"].includes(String(r.operation))) {
    throw new Error(`${source}: unknown operation ${JSON.stringify(r.operation)}`);
  }
  for (const [i, s] of r.stacks.entries()) {
    if (typeof s?.project !== "string" || typeof s.stack !== "string" || !Array.isArray(s.changes)) {
      throw new Error(`${source}: stacks[${i}] lacks project, stack or changes`);
    }
    if (!["clean", "drift", "error", "ok"].includes(s.status)) {
      throw new Error(`${source}: stacks[${i}] has unknown status ${JSON.stringify(s.status)}`);
    }
    // The renderings read the values as text: a merged file is checked, since any file may be given.
    for (const [j, c] of (s.changes as unknown[]).entries()) {
      const diffs = (c as Partial<ResourceChange> | null)?.diffs;
      if (diffs === undefined) continue;
      if (!Array.isArray(diffs)) throw new Error(`${source}: stacks[${i}].changes[${j}].diffs is not a list`);
      for (const [k, d] of (diffs as unknown[]).entries()) {
        const { field, old, new: after } = (d ?? {}) as Record<string, unknown>;
        const text = (v: unknown) => v === undefined || typeof v === "string";
        if (typeof field !== "string" || !text(old) || !text(after)) {
          throw new Error(
            `${source}: stacks[${i}].changes[${j}].diffs[${k}] is not {field, old?, new?} of strings`,
          );
        }
      }
    }
  }
  return { version: 1, operation: r.operation as Operation, shards: r.shards ?? [], stacks: r.stacks };
}

/**
 * One report from the reports of several shards: every stack once, in the usual order. Reports of
 * different operations, or two reports naming the same stack (two runs of one shard, or shards of
 * two different splits), are refused: the merged result would not say what the fleet is.
 */
export function mergeReports(reports: ReadonlyArray<{ report: FleetReport; source: string }>): FleetReport {
  const first = reports[0];
  if (first === undefined) throw new Error("--merge needs at least one report");
  const seen = new Map<string, string>();
  const stacks: StackResult[] = [];
  for (const { report, source } of reports) {
    if (report.operation !== first.report.operation) {
      throw new Error(
        `${source} is a report of ${report.operation}, ${first.source} of ${first.report.operation}: merge reports of one operation`,
      );
    }
    for (const s of report.stacks) {
      const key = `${s.project}/${s.stack}`;
      const other = seen.get(key);
      if (other !== undefined) throw new Error(`${key} is in both ${other} and ${source}`);
      seen.set(key, source);
      stacks.push(s);
    }
  }
  const shards = [...new Set(reports.flatMap(({ report }) => report.shards))].sort(compareShards);
  return { version: 1, operation: first.report.operation, shards, stacks: stacks.sort(compareStacks) };
}

function compareShards(a: string, b: string): number {
  return Number.parseInt(a, 10) - Number.parseInt(b, 10) || a.localeCompare(b);
}

// --- JUnit XML ---------------------------------------------------------------------------------

/**
 * Text for XML 1.0: the five special characters escaped, and the characters XML 1.0 cannot carry
 * at all (most control characters, lone surrogates, U+FFFE/U+FFFF) replaced by U+FFFD, since a
 * CLI's error may hold terminal escapes that would make the whole file unreadable.
 */
export function xmlEscape(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      code >= 0x10000;
    if (!allowed) {
      out += "\uFFFD";
      continue;
    }
    out +=
      ch === "&"
        ? "&amp;"
        : ch === "<"
          ? "&lt;"
          : ch === ">"
            ? "&gt;"
            : ch === '"'
              ? "&quot;"
              : ch === "'"
                ? "&apos;"
                : ch;
  }
  return out;
}

/**
 * A line per changed resource (`update type name: field, field`), then, indented under it, a line
 * per field with its values (`  role: admin -> member`).
 */
function changeLines(changes: readonly ResourceChange[]): string[] {
  return changes.flatMap((c) => [
    `${c.op} ${c.type} ${c.name}${c.fields.length > 0 ? `: ${c.fields.join(", ")}` : ""}`,
    ...(c.diffs ?? []).map((d) => `  ${diffText(d)}`),
  ]);
}

export function toJunit(report: FleetReport): string {
  const stacks = [...report.stacks].sort(compareStacks);
  const counts = countsOf(stacks);
  const time = stacks.reduce((t, s) => t + s.seconds, 0).toFixed(3);
  const suite = `hosting-fleet ${report.operation}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(suite)}" tests="${stacks.length}" failures="${counts.drift}" errors="${counts.error}" time="${time}">`,
    `  <testsuite name="${xmlEscape(suite)}" tests="${stacks.length}" failures="${counts.drift}" errors="${counts.error}" skipped="0" time="${time}">`,
  ];
  for (const s of stacks) {
    const open = `    <testcase classname="${xmlEscape(s.project)}" name="${xmlEscape(`${s.project}/${s.stack}`)}" time="${s.seconds.toFixed(3)}"`;
    if (s.status === "drift") {
      const message = `${s.changes.length} resource${s.changes.length === 1 ? "" : "s"} drifted`;
      lines.push(
        `${open}>`,
        `      <failure type="drift" message="${xmlEscape(message)}">${xmlEscape(changeLines(s.changes).join("\n"))}</failure>`,
        "    </testcase>",
      );
    } else if (s.status === "error") {
      const error = s.error ?? "failed";
      lines.push(
        `${open}>`,
        `      <error type="error" message="${xmlEscape(error.split("\n")[0] ?? "")}">${xmlEscape(error)}</error>`,
        "    </testcase>",
      );
    } else if (s.changes.length > 0) {
      lines.push(
        `${open}>`,
        `      <system-out>${xmlEscape(changeLines(s.changes).join("\n"))}</system-out>`,
        "    </testcase>",
      );
    } else {
      lines.push(`${open} />`);
    }
  }
  lines.push("  </testsuite>", "</testsuites>", "");
  return lines.join("\n");
}

// --- Markdown ----------------------------------------------------------------------------------

/**
 * The characters no Markdown report carries, each replaced by U+FFFD as in the JUnit rendering: C0
 * controls but tab and line breaks (ESC would drive a terminal that prints the file, NUL ends
 * strings in some readers), DEL, the C1 controls, and lone surrogates (not encodable as UTF-8).
 */
export function visibleText(text: string): string {
  let out = "";
  // By code point: a surrogate alone in the string comes out of the iteration alone.
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    const hidden =
      (code < 0x20 && ch !== "\t" && ch !== "\n" && ch !== "\r") ||
      (code >= 0x7f && code <= 0x9f) ||
      (code >= 0xd800 && code <= 0xdfff);
    out += hidden ? "\uFFFD" : ch;
  }
  return out;
}

/**
 * Text that renders as itself in a Markdown table cell, whatever it holds (names and values come
 * from servers and programs): no HTML, link, image, autolink or emphasis, no cell or row break.
 * The backslash is escaped first, so the escapes added after it stay escapes; `[` and `]` escaped
 * leave no link or image (`![i](http://...)`, `[l](javascript:...)`); the `:` of `://` and the dot
 * of `www.` become character references, so no bare URL is linked (GFM's autolinks match those
 * characters as written); pipes and backticks escaped; line breaks as `<br>`.
 */
export function mdCell(text: string): string {
  return visibleText(text)
    .replace(/\\/g, "\\\\")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[|`[\]*_~]/g, (c) => `\\${c}`)
    .replace(/:\/\//g, "&#58;//")
    .replace(/(www)\./gi, "$1&#46;")
    .replace(/\r\n|\r|\n/g, "<br>");
}

/** Text for a fenced code block: no control character, no fence that would close the block early. */
function mdCode(text: string): string {
  return visibleText(text).replace(/```/g, "'''");
}

/** A changed field in a cell, `role: admin -> member`: each part escaped, the arrow as written. */
function mdDiff(d: FieldDiff): string {
  return `${mdCell(d.field)}: ${mdCell(sideText(d.old))} -> ${mdCell(sideText(d.new))}`;
}

const ICON: Record<StackStatus, string> = { clean: "✅", ok: "✅", drift: "⚠️", error: "❌" };

export function toMarkdown(report: FleetReport): string {
  const stacks = [...report.stacks].sort(compareStacks);
  const counts = countsOf(stacks);
  const parts = (Object.keys(counts) as StackStatus[])
    .filter((k) => counts[k] > 0)
    .map((k) => `${counts[k]} ${k}`);
  const shards = report.shards.length > 0 ? ` (shards ${report.shards.join(", ")})` : "";
  const lines = [
    `## hosting-fleet ${report.operation}${shards}`,
    "",
    `${stacks.length} stack${stacks.length === 1 ? "" : "s"}: ${parts.length > 0 ? parts.join(", ") : "none"}.`,
    "",
    "| Stack | Status | Changes | Time |",
    "|---|---|---|---|",
    ...stacks.map(
      (s) =>
        `| ${mdCell(`${s.project}/${s.stack}`)} | ${ICON[s.status]} ${s.status} | ${s.changes.length} | ${s.seconds.toFixed(1)} s |`,
    ),
  ];
  for (const s of stacks.filter((x) => x.changes.length > 0 || x.status === "error")) {
    lines.push("", `### ${mdCell(`${s.project}/${s.stack}`)}`, "");
    if (s.error !== undefined) lines.push("```text", mdCode(s.error), "```");
    if (s.changes.length > 0) {
      lines.push("| Resource | Type | Operation | Fields |", "|---|---|---|---|");
      for (const c of s.changes) {
        // Each field with its values where the report has them, one per line; else the names.
        const fields =
          c.diffs !== undefined && c.diffs.length > 0
            ? c.diffs.map(mdDiff).join("<br>")
            : mdCell(c.fields.join(", "));
        lines.push(`| ${mdCell(c.name)} | ${mdCell(c.type)} | ${mdCell(c.op)} | ${fields} |`);
      }
    }
  }
  return `${lines.join("\n")}\n`;
}

export type Format = "json" | "junit" | "markdown";
export const FORMATS: readonly Format[] = ["json", "junit", "markdown"];

export function render(report: FleetReport, format: Format): string {
  if (format === "junit") return toJunit(report);
  if (format === "markdown") return toMarkdown(report);
  return toJson(report);
}
