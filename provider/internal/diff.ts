/**
 * `diff`: compares old outputs with new inputs field by field. Sets (events, ids, workflows)
 * compare order-insensitively; a changed replace-on-change field forces replacement; `changes` is
 * always set, and is true whenever `replaces` is non-empty.
 */
import type * as pulumi from "@pulumi/pulumi";
import { containsUnknown } from "./check";

export interface FieldRule {
  /** A change replaces the resource instead of updating it. */
  replace?: boolean;
  /** An unordered collection: order and repeats do not matter. */
  set?: boolean;
  /** Read only at create (e.g. `importId`): later changes are ignored. */
  createOnly?: boolean;
  /**
   * With `createOnly`: a value the API takes only at creation and can never change (an
   * organisation's admin), so a change after create is refused at check rather than ignored.
   */
  refusedAfterCreate?: boolean;
  /** A secret: its value is never copied anywhere state keeps in plain text. */
  secret?: boolean;
}

export type FieldRules<T> = { [K in keyof T]-?: FieldRule };

export function diffFields<T>(rules: FieldRules<T>, olds: object, news: object): pulumi.dynamic.DiffResult {
  const changed = changedFields(rules, olds, news);
  const replaces = changed.filter((k) => (rules as Record<string, FieldRule>)[k]?.replace);
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: false };
}

/**
 * The fields that differ, in the rules' order (create-only fields never do): what `diffFields`
 * decides from, and what the native plugin's detailed diff names field by field.
 */
export function changedFields<T>(rules: FieldRules<T>, olds: object, news: object): string[] {
  const before = olds as Record<string, unknown>;
  const after = news as Record<string, unknown>;
  const changed: string[] = [];
  for (const [key, rule] of Object.entries(rules) as Array<[string, FieldRule]>) {
    if (rule.createOnly) continue;
    if (!sameValue(before[key], after[key], rule.set === true)) changed.push(key);
  }
  return changed;
}

export function sameValue(a: unknown, b: unknown, asSet = false): boolean {
  if (containsUnknown(b)) return false;
  const norm = (v: unknown) => (v === null ? undefined : v);
  const x = norm(a);
  const y = norm(b);
  if (asSet && Array.isArray(x) && Array.isArray(y)) {
    return (
      canonical([...new Set(x.map(canonical))].sort()) === canonical([...new Set(y.map(canonical))].sort())
    );
  }
  return canonical(x) === canonical(y);
}

/** Stable JSON: object keys sorted, so `{a, b}` equals `{b, a}`. */
export function canonical(value: unknown): string {
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * A `comparable` for names the platform treats case-insensitively: those string fields are
 * lower-cased before diff compares them, so respelling `Mona` as `mona` is no change (and never a
 * replacement whose delete half undoes what the create half just did).
 */
export function lowerCased<T>(...keys: ReadonlyArray<keyof T & string>): (values: object) => object {
  const names: ReadonlySet<string> = new Set(keys);
  return (values) =>
    Object.fromEntries(
      Object.entries(values).map(([k, v]) => [
        k,
        names.has(k) && typeof v === "string" ? v.toLowerCase() : v,
      ]),
    );
}
