/**
 * The dependency alert lists: which alerts a list's query keeps, in its order, and the page of them
 * its cursors (`before`, `after`) or page numbers select.
 */
import type { Context } from "hono";
import {
  DEPENDENCY_ALERT_ECOSYSTEMS,
  DEPENDENCY_ALERT_SCOPES,
  DEPENDENCY_ALERT_SEVERITIES,
  DEPENDENCY_ALERT_SORTS,
  DEPENDENCY_ALERT_STATES,
} from "../../../api";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { invalidField, pageParams, paginate } from "../../core/http";
import { repoKey } from "../../core/lookup";
import type { EmulatorState } from "../../core/store";
import { CLASSIFICATIONS, type ListKind, RESOURCE } from "./alerts";
import type { DependencyAlertRecord } from "./records";

interface Listed {
  alert: DependencyAlertRecord;
  repo: RepoRecord;
  org: OrgRecord;
}

/** The alerts of the given repositories that the list's query keeps, in the query's order. */
export function listAlerts(
  c: Context<ServerEnv>,
  state: EmulatorState,
  repos: ReadonlyArray<{ repo: RepoRecord; org: OrgRecord }>,
  kind: ListKind,
): Listed[] {
  const keep = filters(c, kind);
  const byRepo = new Map(repos.map((r) => [repoKey(r.repo), r]));
  const items: Listed[] = [];
  for (const alert of state.dependencyAlerts) {
    const where = byRepo.get(alert.repo);
    if (where && keep(alert)) items.push({ alert, ...where });
  }
  const order = ordering(c);
  return items.sort((a, b) => order.compare(keyOf(a, order.sort), keyOf(b, order.sort)));
}

/** One page of `items`, by cursor (`before` / `after` in `Link`) or, where allowed, by `page`. */
export function pageOf(c: Context<ServerEnv>, items: Listed[], kind: ListKind): Listed[] {
  const before = c.req.query("before");
  const after = c.req.query("after");
  if (before !== undefined && after !== undefined) {
    throw invalidField(RESOURCE, "before", "before and after cannot be used together");
  }
  // The description keeps the deprecated `page` on the repository list only.
  if (kind === "repo" && c.req.query("page") !== undefined) {
    if (before !== undefined || after !== undefined) {
      throw invalidField(RESOURCE, "page", "page cannot be combined with the cursors before and after");
    }
    return paginate(c, items);
  }
  const { perPage } = pageParams(c);
  const order = ordering(c);
  const keys = items.map((i) => keyOf(i, order.sort));
  let start = 0;
  let end = Math.min(items.length, perPage);
  if (after !== undefined) {
    const cursor = decodeCursor(after, "after");
    start = keys.findIndex((k) => order.compare(k, cursor) > 0);
    if (start < 0) start = items.length;
    end = Math.min(items.length, start + perPage);
  } else if (before !== undefined) {
    const cursor = decodeCursor(before, "before");
    end = keys.findIndex((k) => order.compare(k, cursor) >= 0);
    if (end < 0) end = items.length;
    start = Math.max(0, end - perPage);
  }
  const links: string[] = [];
  const link = (rel: "prev" | "next", param: "before" | "after", key: SortKey) => {
    const url = new URL(c.req.url);
    url.searchParams.delete("before");
    url.searchParams.delete("after");
    url.searchParams.set(param, encodeCursor(key));
    url.searchParams.set("per_page", String(perPage));
    links.push(`<${url.toString()}>; rel="${rel}"`);
  };
  const first = keys[start];
  const last = keys[end - 1];
  if (start > 0 && first) link("prev", "before", first);
  if (end < items.length && last) link("next", "after", last);
  if (links.length > 0) c.header("Link", links.join(", "));
  return items.slice(start, end);
}

/** Where an alert sits in the order: the sort value, then repository id and number (unique). */
type SortKey = [value: string | number, repoId: number, number: number];

function keyOf(item: Listed, sort: (typeof DEPENDENCY_ALERT_SORTS)[number]): SortKey {
  const value =
    sort === "created"
      ? item.alert.createdAt
      : sort === "updated"
        ? item.alert.updatedAt
        : (item.alert.advisory.epss?.percentage ?? -1);
  return [value, item.repo.id, item.alert.number];
}

function ordering(c: Context<ServerEnv>) {
  const sort = oneOf(c, "sort", DEPENDENCY_ALERT_SORTS) ?? "created";
  const direction = oneOf(c, "direction", ["asc", "desc"] as const) ?? "desc";
  const sign = direction === "asc" ? 1 : -1;
  const compare = (a: SortKey, b: SortKey): number => {
    for (let i = 0; i < 3; i++) {
      const x = a[i] as string | number;
      const y = b[i] as string | number;
      if (x < y) return -sign;
      if (x > y) return sign;
    }
    return 0;
  };
  return { sort, compare };
}

/** A cursor is opaque to clients: the sort key, base64url. */
function encodeCursor(key: SortKey): string {
  return Buffer.from(JSON.stringify(key)).toString("base64url");
}

function decodeCursor(text: string, param: "before" | "after"): SortKey {
  const bad = () =>
    invalidField(RESOURCE, param, `${param} is not a cursor this list gave in its Link header`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw bad();
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    !(typeof parsed[0] === "string" || typeof parsed[0] === "number") ||
    !Number.isSafeInteger(parsed[1]) ||
    !Number.isSafeInteger(parsed[2])
  ) {
    throw bad();
  }
  return parsed as SortKey;
}

/** A single-valued query parameter that must be one of `allowed`; undefined when absent. */
function oneOf<T extends string>(c: Context<ServerEnv>, name: string, allowed: readonly T[]): T | undefined {
  const value = c.req.query(name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw invalidField(RESOURCE, name, `${name} must be one of: ${allowed.join(", ")}; got "${value}"`);
  }
  return value as T;
}

/** A comma-separated list parameter (every `name=` given), each item one of `allowed` when named. */
function listOf(c: Context<ServerEnv>, name: string, allowed?: readonly string[]): string[] | undefined {
  const raw = c.req.queries(name);
  if (raw === undefined) return undefined;
  const items = raw
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v !== "");
  if (allowed) {
    const wrong = items.find((v) => !allowed.includes(v));
    if (wrong !== undefined) {
      throw invalidField(
        RESOURCE,
        name,
        `${name} takes a comma-separated list of: ${allowed.join(", ")}; got "${wrong}"`,
      );
    }
  }
  return items;
}

/** `epss_percentage`: `n`, `>n`, `<n`, `>=n`, `<=n` or `n..n`, each n from 0.0 to 1.0. */
function epssFilter(c: Context<ServerEnv>): ((value: number | undefined) => boolean) | undefined {
  const raw = c.req.query("epss_percentage");
  if (raw === undefined) return undefined;
  const bad = () =>
    invalidField(
      RESOURCE,
      "epss_percentage",
      `epss_percentage must be n, >n, <n, >=n, <=n or n..n with n from 0.0 to 1.0; got "${raw}"`,
    );
  const number = (text: string): number => {
    if (!/^(?:\d+(?:\.\d+)?|\.\d+)$/.test(text)) throw bad();
    const n = Number(text);
    if (n < 0 || n > 1) throw bad();
    return n;
  };
  const range = /^(.+)\.\.(.+)$/.exec(raw);
  if (range?.[1] !== undefined && range[2] !== undefined) {
    const low = number(range[1]);
    const high = number(range[2]);
    return (v) => v !== undefined && v >= low && v <= high;
  }
  const comparison = /^(>=|<=|>|<)?(.*)$/.exec(raw);
  const op = comparison?.[1];
  const n = number(comparison?.[2] ?? "");
  return (v) => {
    if (v === undefined) return false;
    if (op === ">=") return v >= n;
    if (op === "<=") return v <= n;
    if (op === ">") return v > n;
    if (op === "<") return v < n;
    return v === n;
  };
}

/** The query's filters, every one validated before any alert is looked at. */
function filters(c: Context<ServerEnv>, kind: ListKind): (alert: DependencyAlertRecord) => boolean {
  const states = listOf(c, "state", DEPENDENCY_ALERT_STATES);
  const severities = listOf(c, "severity", DEPENDENCY_ALERT_SEVERITIES);
  const ecosystems = listOf(c, "ecosystem", DEPENDENCY_ALERT_ECOSYSTEMS);
  const classifications = listOf(c, "classification", CLASSIFICATIONS);
  const packages = listOf(c, "package");
  const manifests = kind === "repo" ? listOf(c, "manifest") : undefined;
  const assignees = listOf(c, "assignee")?.map((a) => a.toLowerCase());
  // `deployment` exists on the organisation list only; no alert of the sandbox has a deployment record.
  const has = listOf(c, "has", kind === "org" ? ["patch", "deployment"] : ["patch"]);
  const scope = oneOf(c, "scope", DEPENDENCY_ALERT_SCOPES);
  const epss = epssFilter(c);
  return (a) =>
    (!states || states.includes(a.state)) &&
    (!severities || severities.includes(a.vulnerability.severity)) &&
    (!ecosystems || ecosystems.includes(a.dependency.package.ecosystem)) &&
    (!classifications || classifications.includes(a.classification)) &&
    (!packages || packages.includes(a.dependency.package.name)) &&
    (!manifests || manifests.includes(a.dependency.manifest_path)) &&
    (!scope || a.dependency.scope === scope) &&
    (!epss || epss(a.advisory.epss?.percentage)) &&
    (!has || has.every((h) => h === "patch" && a.vulnerability.first_patched_version !== null)) &&
    (!assignees ||
      assignees.some((who) =>
        who === "*"
          ? a.assignees.length > 0
          : who === "none"
            ? a.assignees.length === 0
            : a.assignees.some((l) => l.toLowerCase() === who),
      ));
}
