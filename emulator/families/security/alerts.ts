/**
 * Dependency alerts (spec, Dependency alerts (depwatch); concepts, Dependency alert): who may see
 * and change them, the filters and cursors of the three lists, the update's rules, and the alert
 * as the API shows it. The allowed filter values the spec leaves out come from the platform's
 * published description (docs/DECISIONS.md).
 */
import type { Context } from "hono";
import {
  DEPENDENCY_ALERT_ECOSYSTEMS,
  DEPENDENCY_ALERT_SCOPES,
  DEPENDENCY_ALERT_SEVERITIES,
  DEPENDENCY_ALERT_SORTS,
  DEPENDENCY_ALERT_STATES,
} from "../../../provider/client/schemas";
import { orgRole } from "../../core/auth";
import type { Caller, ServerEnv } from "../../core/context";
import type { EnterpriseRecord, OrgRecord, RepoRecord } from "../../core/fixture";
import {
  ApiFailure,
  apiRoot,
  invalidField,
  missingField,
  notFound,
  pageParams,
  paginate,
  validationFailed,
} from "../../core/http";
import { findOrg, findRepo, findUser, repoKey } from "../../core/lookup";
import { nodeId, simpleRepository, userSummary } from "../../core/render";
import { type EmulatorState, type Store, timestamp } from "../../core/store";
import { activeMember } from "../memberships/memberships";
import { AGENT_LOGIN, type DependencyAlertRecord, DISMISSED_REASONS, type DismissedReason } from "./seed";

const RESOURCE = "DependencyAlert";

export const CLASSIFICATIONS = ["general", "malware"] as const;
/** The most a dismissal comment may hold (the description's maxLength). */
export const MAX_DISMISSED_COMMENT = 280;

/** Whether the user is a security manager of the organisation (set by a control route). */
export function isSecurityManager(state: EmulatorState, org: OrgRecord, login: string | undefined): boolean {
  if (!login) return false;
  const key = org.login.toLowerCase();
  return state.securityManagers.some((m) => m.org === key && m.login.toLowerCase() === login.toLowerCase());
}

/** Owners and security managers see every alert of an organisation (spec: the enterprise list). */
export function seesAllAlerts(state: EmulatorState, caller: Caller, org: OrgRecord): boolean {
  return orgRole(caller, org) === "admin" || isSecurityManager(state, org, caller.user?.login);
}

/**
 * The repository of an alert route: alerts are seen by those with access to the repository (the
 * organisation's members: owners and members, who all write to its repositories) and by its
 * security managers. Anyone else gets a 404, public repository or not: alerts are never public.
 */
export function alertRepo(
  state: EmulatorState,
  caller: Caller,
  owner: string,
  name: string,
): { repo: RepoRecord; org: OrgRecord } {
  const repo = findRepo(state, owner, name);
  const org = repo && findOrg(state, repo.owner);
  if (!repo || !org) throw notFound();
  if (!orgRole(caller, org) && !isSecurityManager(state, org, caller.user?.login)) throw notFound();
  return { repo, org };
}

/** Whether the user may be assigned an alert of the repository: someone with access to it. */
function mayBeAssigned(state: EmulatorState, org: OrgRecord, login: string): boolean {
  return activeMember(org, login) !== undefined || isSecurityManager(state, org, login);
}

/** Whether the caller belongs to the enterprise: an owner, billing manager or organisation member. */
export function enterpriseMember(
  state: EmulatorState,
  caller: Caller,
  enterprise: EnterpriseRecord,
): boolean {
  const login = caller.user?.login;
  if (!login) return false;
  if (caller.user?.siteAdmin) return true;
  if (enterprise.owners.includes(login) || enterprise.billingManagers.includes(login)) return true;
  return state.fixture.orgs.some(
    (o) => o.enterprise === enterprise.slug && activeMember(o, login) !== undefined,
  );
}

// ---------------------------------------------------------------------------------------------
// The lists: filters, order, cursors.

export type ListKind = "enterprise" | "org" | "repo";

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

// ---------------------------------------------------------------------------------------------
// The update.

const UPDATE_KEYS = ["state", "dismissed_reason", "dismissed_comment", "assignees", "agent_assignment"];
const AGENT_KEYS = ["custom_instructions", "custom_agent", "model"];

/**
 * Applies `PATCH .../alerts/{alert_number}`: 400 for a body that names nothing to change, 422 for
 * a field the platform refuses, 409 for a state change of an alert that closed by itself (fixed,
 * auto-dismissed); nothing changes unless everything is accepted.
 */
export function updateAlert(
  store: Store,
  caller: Caller,
  org: OrgRecord,
  alert: DependencyAlertRecord,
  body: Record<string, unknown>,
): void {
  const unknown = Object.keys(body).find((k) => !UPDATE_KEYS.includes(k));
  if (unknown !== undefined) {
    throw invalidField(
      RESOURCE,
      unknown,
      `${unknown} is not a permitted key; allowed: ${UPDATE_KEYS.join(", ")}`,
    );
  }
  if (body.state === undefined && body.assignees === undefined) {
    throw new ApiFailure(400, "The request body must name state or assignees to change");
  }
  const state = body.state;
  if (state !== undefined && state !== "open" && state !== "dismissed") {
    throw invalidField(
      RESOURCE,
      "state",
      `state must be "open" or "dismissed"; got ${JSON.stringify(state)}`,
    );
  }
  const reason = body.dismissed_reason;
  if (state === "dismissed" && reason === undefined) throw missingField(RESOURCE, "dismissed_reason");
  if (reason !== undefined && !(DISMISSED_REASONS as readonly unknown[]).includes(reason)) {
    throw invalidField(
      RESOURCE,
      "dismissed_reason",
      `dismissed_reason must be one of: ${DISMISSED_REASONS.join(", ")}; got ${JSON.stringify(reason)}`,
    );
  }
  const comment = body.dismissed_comment;
  if (comment !== undefined && (typeof comment !== "string" || comment.length > MAX_DISMISSED_COMMENT)) {
    throw invalidField(
      RESOURCE,
      "dismissed_comment",
      `dismissed_comment must be a string of at most ${MAX_DISMISSED_COMMENT} characters`,
    );
  }
  // A reason or comment belongs to a dismissal: sent without one, it would be silently lost.
  if (state !== "dismissed") {
    for (const field of ["dismissed_reason", "dismissed_comment"]) {
      if (body[field] !== undefined) {
        throw invalidField(RESOURCE, field, `${field} is only accepted with state "dismissed"`);
      }
    }
  }
  const assignees =
    body.assignees === undefined ? undefined : parseAssignees(store.state, org, body.assignees);
  const agent = parseAgentAssignment(body.agent_assignment);
  if (state !== undefined && (alert.state === "fixed" || alert.state === "auto_dismissed")) {
    throw new ApiFailure(
      409,
      `Alert ${alert.number} is ${alert.state === "fixed" ? "fixed" : "auto-dismissed"}; its state cannot be changed`,
    );
  }

  const now = timestamp();
  if (state === "dismissed") {
    Object.assign(alert, {
      state,
      dismissedAt: now,
      dismissedBy: caller.user?.login ?? null,
      dismissedReason: reason as DismissedReason,
      dismissedComment: (comment as string | undefined) ?? null,
    });
  } else if (state === "open" && alert.state !== "open") {
    Object.assign(alert, {
      state,
      dismissedAt: null,
      dismissedBy: null,
      dismissedReason: null,
      dismissedComment: null,
    });
  }
  if (assignees !== undefined) {
    alert.assignees = assignees;
    // Used only when an agent is among the assignees; ignored otherwise (the description).
    if (assignees.includes(AGENT_LOGIN) && agent) alert.agentAssignment = agent;
    else delete alert.agentAssignment;
  }
  alert.updatedAt = now;
}

/** The new assignee set: logins of users with access to the repository, or the agent's bot. */
function parseAssignees(state: EmulatorState, org: OrgRecord, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw invalidField(RESOURCE, "assignees", "assignees must be an array of user logins");
  }
  const logins: string[] = [];
  for (const given of value as string[]) {
    if (given.toLowerCase() === AGENT_LOGIN) {
      if (!logins.includes(AGENT_LOGIN)) logins.push(AGENT_LOGIN);
      continue;
    }
    const user = findUser(state, given);
    if (!user || !mayBeAssigned(state, org, user.login)) {
      throw validationFailed({
        resource: RESOURCE,
        field: "assignees",
        code: "invalid",
        message: `${given} cannot be assigned: not a user with access to the repository`,
      });
    }
    if (!logins.includes(user.login)) logins.push(user.login);
  }
  return logins;
}

function parseAgentAssignment(value: unknown): DependencyAlertRecord["agentAssignment"] {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalidField(RESOURCE, "agent_assignment", "agent_assignment must be an object");
  }
  const result: Record<string, string> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (!AGENT_KEYS.includes(key)) {
      throw invalidField(
        RESOURCE,
        `agent_assignment.${key}`,
        `agent_assignment takes only ${AGENT_KEYS.join(", ")}`,
      );
    }
    if (typeof inner !== "string") {
      throw invalidField(RESOURCE, `agent_assignment.${key}`, `agent_assignment.${key} must be a string`);
    }
    result[key] = inner;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Rendering.

/** The agent's bot as an assignee: a user summary of type Bot. */
function agentSummary(c: Context<ServerEnv>): Record<string, unknown> {
  const summary = userSummary(c, { id: 900, login: AGENT_LOGIN, name: "Assistant agent", siteAdmin: false });
  return { ...summary, node_id: nodeId("Bot", 900), type: "Bot" };
}

function userOrNull(c: Context<ServerEnv>, state: EmulatorState, login: string | null) {
  if (login === null) return null;
  if (login === AGENT_LOGIN) return agentSummary(c);
  const user = findUser(state, login);
  return user ? userSummary(c, user) : null;
}

/** The alert as the API shows it; with `repository` in the enterprise list. */
export function renderAlert(
  c: Context<ServerEnv>,
  state: EmulatorState,
  alert: DependencyAlertRecord,
  repo: RepoRecord,
  org: OrgRecord,
  withRepository = false,
): Record<string, unknown> {
  const path = `${repo.owner}/${repo.name}`;
  return {
    number: alert.number,
    state: alert.state,
    dependency: alert.dependency,
    security_advisory: alert.advisory,
    security_vulnerability: alert.vulnerability,
    url: `${apiRoot(c)}/repos/${path}/depwatch/alerts/${alert.number}`,
    html_url: `${new URL(c.req.url).origin}/${path}/security/depwatch/${alert.number}`,
    created_at: alert.createdAt,
    updated_at: alert.updatedAt,
    dismissed_at: alert.dismissedAt,
    dismissed_by: userOrNull(c, state, alert.dismissedBy),
    dismissed_reason: alert.dismissedReason,
    dismissed_comment: alert.dismissedComment,
    fixed_at: alert.fixedAt,
    auto_dismissed_at: alert.autoDismissedAt,
    assignees: alert.assignees.map((l) => userOrNull(c, state, l)).filter((u) => u !== null),
    ...(withRepository ? { repository: simpleRepository(c, repo, org) } : {}),
  };
}

/** What the platform does by itself (a control): the dependency is upgraded, or an auto-triage rule closes it. */
export function closeAlert(alert: DependencyAlertRecord, how: "fixed" | "auto_dismissed"): void {
  const now = timestamp();
  alert.state = how;
  alert.updatedAt = now;
  if (how === "fixed") alert.fixedAt = now;
  else alert.autoDismissedAt = now;
}
