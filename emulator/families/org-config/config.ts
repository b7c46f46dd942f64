/**
 * Rules shared by the organisation configuration routes (blocks, issue types, issue fields): who
 * may read and write them, the organisation they act on, and the checks of their request bodies.
 * The bodies, statuses and enums come from the platform's published description
 * (`@octokit/openapi` ghec.json, operations `orgs/*-issue-type`, `orgs/*-issue-field`,
 * `orgs/*block*`), since the spec shows none (docs/DECISIONS.md).
 */
import type { Context } from "hono";
import { callerOf, orgRole } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord } from "../../core/fixture";
import { ApiFailure, forbidden, notFound } from "../../core/http";
import { findOrg } from "../../core/lookup";
import type { IssueColor, IssueFieldDataType } from "./state";

/** The colours of issue types and of issue field options (description: `issue-type.color`). */
export const ISSUE_COLORS = [
  "gray",
  "blue",
  "green",
  "yellow",
  "orange",
  "red",
  "pink",
  "purple",
] as const satisfies readonly IssueColor[];

export const ISSUE_FIELD_DATA_TYPES = [
  "text",
  "date",
  "single_select",
  "multi_select",
  "number",
] as const satisfies readonly IssueFieldDataType[];

export const ISSUE_FIELD_VISIBILITIES = ["organization_members_only", "all"] as const;

/** The data types whose fields take options. */
export const SELECT_DATA_TYPES: readonly IssueFieldDataType[] = ["single_select", "multi_select"];

/**
 * Sandbox limits where the description states none (docs/DECISIONS.md): issue types per
 * organisation (the platform's documentation on managing issue types gives 25), issue fields per
 * organisation, options per select field (100, the limit the platform's users report), and the
 * length of names and descriptions.
 */
export const MAX_ISSUE_TYPES = 25;
export const MAX_ISSUE_FIELDS = 25;
export const MAX_FIELD_OPTIONS = 100;
export const MAX_NAME_LENGTH = 255;
export const MAX_DESCRIPTION_LENGTH = 1024;

/**
 * The 422 of the issue type and issue field operations: the description gives them
 * `validation-error-simple`, whose `errors` are strings, each naming the field and what it allows.
 */
export class SimpleValidationFailure extends ApiFailure {
  constructor(readonly messages: string[]) {
    super(422, "Validation Failed");
  }

  override body(): Record<string, unknown> {
    return { ...super.body(), errors: this.messages };
  }
}

/** Collects the errors of one body, so a request learns everything wrong with it at once. */
export class Problems {
  readonly messages: string[] = [];

  add(message: string): void {
    this.messages.push(message);
  }

  /** Throws the 422 when anything was wrong; the request then changes nothing. */
  check(): void {
    if (this.messages.length > 0) throw new SimpleValidationFailure(this.messages);
  }
}

/**
 * A required or optional name: a string with something besides spaces, at most
 * `MAX_NAME_LENGTH` characters, kept as sent but trimmed.
 */
export function parseName(problems: Problems, raw: unknown, field: string): string | undefined {
  if (raw === undefined) {
    problems.add(`${field} is missing`);
    return undefined;
  }
  if (typeof raw !== "string" || raw.trim() === "") {
    problems.add(`${field} must be a non-empty string`);
    return undefined;
  }
  const name = raw.trim();
  if (name.length > MAX_NAME_LENGTH) {
    problems.add(`${field} is too long (at most ${MAX_NAME_LENGTH} characters)`);
    return undefined;
  }
  return name;
}

/** An optional description: a string or null (undefined when absent or wrong). */
export function parseDescription(problems: Problems, raw: unknown, field: string): string | null | undefined {
  if (raw === undefined || raw === null) return raw;
  if (typeof raw !== "string") {
    problems.add(`${field} must be a string or null`);
    return undefined;
  }
  if (raw.length > MAX_DESCRIPTION_LENGTH) {
    problems.add(`${field} is too long (at most ${MAX_DESCRIPTION_LENGTH} characters)`);
    return undefined;
  }
  return raw;
}

/** A value of an enum (undefined, with the error, when it is absent or not one). */
export function parseEnum<T extends string>(
  problems: Problems,
  raw: unknown,
  field: string,
  allowed: readonly T[],
): T | undefined {
  if (raw === undefined) {
    problems.add(`${field} is missing (one of ${allowed.join(", ")})`);
    return undefined;
  }
  if (typeof raw === "string" && (allowed as readonly string[]).includes(raw)) return raw as T;
  problems.add(`${field} must be one of ${allowed.join(", ")}`);
  return undefined;
}

/** Whether two names are the same to the platform, which compares them case-insensitively. */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * The organisation of the path, for a caller who may act on its configuration: 404 when unknown,
 * 403 when the caller is not an owner (`owner`) or not a member at all (`member`). An
 * installation token acts for the organisation it is installed on only (`orgRole`).
 */
export function configOrg(c: Context<ServerEnv>, who: "owner" | "member", what: string): OrgRecord {
  const org = findOrg(c.get("store").state, c.req.param("org") ?? "");
  if (!org) throw notFound();
  const role = orgRole(callerOf(c), org);
  if (who === "owner" && role !== "admin") throw forbidden(`Must be an organization owner to ${what}`);
  if (who === "member" && role === undefined) {
    throw forbidden(`Must be a member of the organization to ${what}`);
  }
  return org;
}
