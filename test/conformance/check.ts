/**
 * One observed sandbox response checked against the published API description: the operation of
 * its route, the schema of its status and media type, the body renamed to the description's field
 * names and validated. The answer says what was validated, why nothing was (a reason the totals
 * count), or what differs; a listed deliberate difference (`allowlist.ts`) is reported as such.
 */
import type { ObservedResponse } from "../../emulator/core/observe";
import { allowed, type Difference, type ViolationKind } from "./allowlist";
import { findOperation, isJson, mediaType, renameFields } from "./description";

/**
 * Statuses any operation may answer whether or not its description lists them: the platform's
 * documentation gives these for every endpoint (bad JSON, authentication, permissions and rate
 * limits, missing objects, validation, server trouble). Not listed, they are counted, not failed.
 */
export const ANY_OPERATION_STATUSES: ReadonlySet<number> = new Set([
  400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504,
]);

export interface Violation {
  method: string;
  route: string;
  path: string;
  status: number;
  kind: ViolationKind;
  /** The description's operation, when there is one (`GET /repos/{owner}/{repo}/hooks`, ghes-3.19). */
  operation?: string;
  instancePath?: string;
  keyword?: string;
  /** For a missing required field: its name. */
  missing?: string;
  message: string;
  /** The part of the body the message is about, shortened. */
  snippet: string;
}

export type Outcome =
  | { kind: "validated"; operation: string }
  | { kind: "no schema"; reason: string; operation?: string }
  | { kind: "differs"; violations: Violation[]; allowed: Difference[]; operation?: string };

const SNIPPET = 300;

export function snippet(value: unknown): string {
  const text = value === undefined ? "(absent)" : JSON.stringify(value);
  return text.length > SNIPPET ? `${text.slice(0, SNIPPET)}...` : text;
}

/** The value at a JSON pointer (`/0/config/url`). */
function at(value: unknown, pointer: string): unknown {
  let v = value;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

export function check(r: ObservedResponse): Outcome {
  if (r.route === "(unmatched)")
    return { kind: "no schema", reason: "no route (a path the API does not have)" };
  const hit = findOperation(r.method, r.route);
  const violations: Violation[] = [];
  const fromBody = (kind: ViolationKind, message: string, extra: Partial<Violation> = {}): Violation => ({
    method: r.method,
    route: r.route,
    path: r.path,
    status: r.status,
    kind,
    message,
    snippet: snippet(r.body === "" ? undefined : r.body),
    ...(hit ? { operation: `${hit.found.key} (${hit.found.description})` } : {}),
    ...extra,
  });
  const settle = (): Outcome => {
    const listed: Difference[] = [];
    const left = violations.filter((v) => {
      const d = allowed(v);
      if (d) listed.push(d);
      return !d;
    });
    const operation = hit ? hit.found.key : undefined;
    if (left.length === 0 && listed.length > 0) {
      return {
        kind: "no schema",
        reason: `deliberate difference: ${listed[0]?.what}`,
        ...(operation ? { operation } : {}),
      };
    }
    return { kind: "differs", violations: left, allowed: listed, ...(operation ? { operation } : {}) };
  };
  if (!hit) {
    violations.push(fromBody("no operation", "no description has an operation for this route"));
    return settle();
  }
  const { found, from } = hit;
  const type = mediaType(r.contentType);
  const expected = from.expected(found, r.status, r.contentType);
  switch (expected.kind) {
    case "status not described":
      if (ANY_OPERATION_STATUSES.has(r.status)) {
        return { kind: "no schema", reason: `status ${r.status} not described`, operation: found.key };
      }
      violations.push(fromBody("status not described", `the operation does not give status ${r.status}`));
      return settle();
    case "empty":
      if (r.body === "") return { kind: "validated", operation: found.key };
      // Error statuses described without a body: the description says nothing of the body.
      if (r.status >= 400)
        return {
          kind: "no schema",
          reason: `status ${r.status} described without a body`,
          operation: found.key,
        };
      violations.push(fromBody("unexpected body", `status ${r.status} has no body in the description`));
      return settle();
    case "media type not described":
      if (!isJson(type))
        return { kind: "no schema", reason: `non-JSON (${type || "no content type"})`, operation: found.key };
      return {
        kind: "no schema",
        reason: `non-JSON in the description (${expected.described.join(", ")})`,
        operation: found.key,
      };
  }
  if (r.body === "") {
    violations.push(
      fromBody("body missing", `the description gives a ${expected.mediaType} body for status ${r.status}`),
    );
    return settle();
  }
  if (!isJson(type)) {
    violations.push(
      fromBody(
        "media type",
        `answered ${type || "no content type"} where the description gives ${expected.mediaType}`,
      ),
    );
    return settle();
  }
  let body: unknown;
  try {
    body = renameFields(JSON.parse(r.body));
  } catch (e) {
    violations.push(fromBody("media type", `the body is not JSON: ${(e as Error).message}`));
    return settle();
  }
  if (expected.validate(body)) return { kind: "validated", operation: found.key };
  for (const e of expected.validate.errors ?? []) {
    const missing =
      e.keyword === "required"
        ? String((e.params as { missingProperty?: unknown }).missingProperty)
        : undefined;
    violations.push(
      fromBody("schema", `${e.message ?? e.keyword} [schema ${e.schemaPath}]`, {
        instancePath: e.instancePath,
        keyword: e.keyword,
        snippet: snippet(at(body, e.instancePath)),
        ...(missing === undefined ? {} : { missing }),
      }),
    );
  }
  return settle();
}
