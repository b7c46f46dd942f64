/**
 * `check`: validates the program's inputs with a zod schema and applies defaults. Failures name the
 * field and what is allowed; nothing invalid reaches the API. Values still unknown during preview
 * (outputs of resources not yet created) pass through untouched and are checked at `up`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";

/** The engine's placeholder for a value not known during preview (`rpc.unknownValue`). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
}

const PROVIDER_KEY = "__provider";

/**
 * Rules across fields, run after the schema passed. They may fill defaults that depend on other
 * fields (by mutating `inputs`) and return failures. `pending` holds the keys still unknown.
 */
export type CrossFieldRules<T> = (inputs: T, pending: ReadonlySet<string>) => pulumi.dynamic.CheckFailure[];

export function checkInputs<S extends z.ZodObject>(
  schema: S,
  news: Record<string, unknown>,
  crossField?: CrossFieldRules<z.infer<S>>,
): pulumi.dynamic.CheckResult<z.infer<S>> {
  const pending = Object.keys(news).filter((k) => k !== PROVIDER_KEY && containsUnknown(news[k]));
  const known = Object.fromEntries(
    Object.entries(news).filter(
      ([k, v]) => k !== PROVIDER_KEY && v !== undefined && v !== null && !pending.includes(k),
    ),
  );
  const mask = Object.fromEntries(pending.filter((k) => k in schema.shape).map((k) => [k, true as const]));
  const partial = pending.length > 0 ? schema.omit(mask as never) : schema;
  const result = partial.safeParse(known);
  if (!result.success) {
    return {
      inputs: news as z.infer<S>,
      failures: result.error.issues.map((issue) => failureOf(issue, known)),
    };
  }
  const pendingValues = Object.fromEntries(pending.map((k) => [k, news[k]]));
  const inputs = { ...(result.data as object), ...pendingValues } as z.infer<S>;
  const failures = crossField?.(inputs, new Set(pending)) ?? [];
  return failures.length > 0 ? { inputs, failures } : { inputs };
}

/**
 * Arguments the schema does not know. zod drops them, so an argument misspelt or meant for another
 * kind would be ignored without a word: check fails on each, naming it and the arguments there
 * are (the property is not named: the engine would print its value, which may be a secret).
 */
export function unknownArguments(
  schema: z.ZodObject,
  news: Record<string, unknown>,
): pulumi.dynamic.CheckFailure[] {
  const known = Object.keys(schema.shape);
  return Object.keys(news)
    .filter((k) => k !== PROVIDER_KEY && news[k] !== undefined && !known.includes(k))
    .map((k) => ({ property: "", reason: `unknown argument ${k}: the arguments are ${known.join(", ")}` }));
}

/**
 * A failure names the top-level argument: the engine prints the value it holds at `property`, and a
 * nested path (`events.0`) does not resolve there (it prints `{<nil>}`). The reason names the exact
 * element and the value it had, so `events[0] "push"` reads as what it is.
 */
function failureOf(issue: z.core.$ZodIssue, given: Record<string, unknown>): pulumi.dynamic.CheckFailure {
  const [top, ...rest] = issue.path.map(String);
  if (top === undefined) return { property: "(inputs)", reason: describeIssue(issue, "inputs") };
  if (rest.length === 0) return { property: top, reason: describeIssue(issue, top) };
  let value: unknown = given[top];
  for (const key of rest) value = (value as Record<string, unknown> | undefined)?.[key];
  const where = `${top}${rest.map((k) => (/^\d+$/.test(k) ? `[${k}]` : `.${k}`)).join("")}`;
  const shown = value === undefined ? "" : ` (${where} is ${JSON.stringify(value)})`;
  return { property: top, reason: `${describeIssue(issue, top)}${shown}` };
}

function describeIssue(issue: z.core.$ZodIssue, field: string): string {
  if (issue.code === "unrecognized_keys") return `unknown argument(s): ${issue.keys.join(", ")}`;
  if (issue.code === "invalid_value") {
    return `${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  return issue.message.startsWith(field) ? issue.message : `${field}: ${issue.message}`;
}

/**
 * A list of ids that applies only with visibility "selected" (runner groups, private registries):
 * there it defaults to []; with another visibility a non-empty list is a failure naming the field
 * and an empty one is dropped. Skipped while the visibility or the list is unknown.
 */
export function selectedIdsFailure<F extends string>(
  inputs: { visibility: string } & Partial<Record<F, number[] | undefined>>,
  pending: ReadonlySet<string>,
  field: F,
): pulumi.dynamic.CheckFailure | undefined {
  if (pending.has("visibility") || pending.has(field)) return undefined;
  const lists: Partial<Record<F, number[] | undefined>> = inputs;
  const given = lists[field];
  if (inputs.visibility === "selected") {
    lists[field] = given ?? [];
    return undefined;
  }
  if (given !== undefined && given.length > 0) {
    return {
      property: field,
      reason: `${field} is allowed only with visibility "selected"; got visibility "${inputs.visibility}"`,
    };
  }
  delete lists[field];
  return undefined;
}

/** Reusable field validators with messages that say what is allowed. */
export const fields = {
  /** An account, organisation or repository name (case-insensitive on the server). */
  name: (label: string) =>
    z
      .string({ error: `${label} is required: a name such as "acme-eng"` })
      .trim()
      .min(1, `${label} must not be empty`)
      .regex(/^[A-Za-z0-9._-]+$/, `${label} may hold only letters, digits, ".", "-" and "_"`),
  httpUrl: (label: string) =>
    z.string({ error: `${label} is required: an absolute http(s) URL` }).refine(
      (v) => {
        try {
          const u = new URL(v);
          return (u.protocol === "https:" || u.protocol === "http:") && u.hostname !== "";
        } catch {
          return false;
        }
      },
      { error: (iss) => `${label} must be an absolute http(s) URL; got ${JSON.stringify(iss.input)}` },
    ),
  /** A list of positive integer ids (organisations, repositories, runners); order is irrelevant. */
  idList: (label: string) =>
    z.array(
      z
        .number({ error: `${label} must hold integer ids` })
        .int(`${label} must hold integer ids`)
        .positive(`${label} must hold positive ids`),
      {
        error: `${label} must be a list of integer ids`,
      },
    ),
  numericId: (label: string) =>
    z
      .union([z.string(), z.number()])
      .transform((v) => String(v).trim())
      .refine((v) => /^[1-9]\d*$/.test(v), { error: `${label} must be a positive integer id such as "42"` }),
};

/** A URL's password (`https://user:password@host`), which no message may carry. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:)[^\s/@]+@/gi;

/** Every string inside a value, for the texts a message must not carry. */
function textsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(textsOf);
  return [];
}

/** A text with each secret (and every URL password) replaced by `[secret]`. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let safe = text.replace(URL_PASSWORD, "$1[secret]@");
  // Longest first, so a secret holding another is replaced whole; a secret of one or two
  // characters would blank out ordinary words and cannot be told from them.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 3) safe = safe.split(secret).join("[secret]");
  }
  return safe;
}

/**
 * Failures safe to print. The engine prints a named property's value beside the reason
 * (`property value <value> has a problem`), whatever it holds: a failure of a secret field names
 * no property and says the field in its reason instead, and no reason carries a secret's value or a
 * URL's password.
 */
export function safeFailures(
  failures: readonly pulumi.dynamic.CheckFailure[],
  secretFields: ReadonlySet<string>,
  values: Record<string, unknown>,
): pulumi.dynamic.CheckFailure[] {
  const secrets = [...secretFields].flatMap((field) => textsOf(values[field]));
  return failures.map(({ property, reason }) => {
    const safe = withoutSecrets(reason, secrets);
    if (!secretFields.has(property)) return { property, reason: safe };
    return { property: "", reason: safe.startsWith(property) ? safe : `${property}: ${safe}` };
  });
}
