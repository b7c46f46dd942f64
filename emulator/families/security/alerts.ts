/**
 * Dependency alerts (spec, Dependency alerts (depwatch); concepts, Dependency alert): who may see
 * and change them, the filters and cursors of the three lists, the update's rules, and the alert
 * as the API shows it. The allowed filter values the spec leaves out come from the platform's
 * published description (docs/DECISIONS.md).
 */
import type { Context } from "hono";
import { ROUTES } from "../../../api";
import { orgRole } from "../../core/auth";
import type { Caller, ServerEnv } from "../../core/context";
import type { EnterpriseRecord, OrgRecord, RepoRecord } from "../../core/fixture";
import { ApiFailure, invalidField, missingField, notFound, urlOf, validationFailed } from "../../core/http";
import { findOrg, findRepo, findUser } from "../../core/lookup";
import { activeMember } from "../../core/members";
import { nodeId, userSummary } from "../../core/render";
import { type EmulatorState, type Store, timestamp } from "../../core/store";
import { simpleRepository } from "../git/repository";
import { AGENT_LOGIN, type DependencyAlertRecord, DISMISSED_REASONS, type DismissedReason } from "./records";

export const RESOURCE = "DependencyAlert";

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
    url: urlOf(c, ROUTES.dependencyAlerts.get, {
      owner: repo.owner,
      repo: repo.name,
      alert_number: alert.number,
    }),
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
