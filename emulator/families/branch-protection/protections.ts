/**
 * Branch protection: the protection a PUT body describes (checked field by field), the answer's
 * shape, and the fixture's protected branches (each requires the `ci/build` status check, as the
 * branch routes' summary has always said).
 */
import type { Context } from "hono";
import { MAX_REQUIRED_APPROVALS, MAX_RESTRICTION_ACTORS, ROUTES } from "../../../api";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { type ErrorItem, missingField, urlOf, validationFailed } from "../../core/http";
import { findUser, repoKey } from "../../core/lookup";
import { activeMember } from "../../core/members";
import { nodeId, userSummary } from "../../core/render";
import type { StateAccess } from "../../core/state";
import type { EmulatorState, RawState } from "../../core/store";
import { teamObject } from "../teams/render";
import { findTeam, teamById } from "../teams/teams";
import type { StoredProtection } from "./state";

export const RESOURCE = "BranchProtection";
/** What a protected branch of the fixture requires. */
const SEEDED_CHECK = "ci/build";

/** Protections of the fixture's protected branches, made when a state is made. */
export function seedProtections(state: EmulatorState): void {
  for (const seed of state.fixture.git ?? []) {
    for (const branch of seed.branches) {
      if (!branch.protected) continue;
      state.branchProtections.push({
        ...unprotected(seed.repo.toLowerCase(), branch.name),
        requiredStatusChecks: { strict: false, contexts: [SEEDED_CHECK] },
      });
    }
  }
}

/** A deleted repository's protections go with it, as the platform deletes them. */
export function dropRepositoryProtections(store: StateAccess, repo: RepoRecord): void {
  const key = repoKey(repo);
  if (!store.raw.branchProtections.some((p) => p.repo === key)) return;
  store.state.branchProtections = store.state.branchProtections.filter((p) => p.repo !== key);
}

/** A protection with everything off. */
function unprotected(repo: string, branch: string): StoredProtection {
  return {
    repo,
    branch,
    requiredStatusChecks: null,
    enforceAdmins: false,
    requiredPullRequestReviews: null,
    restrictions: null,
    requiredLinearHistory: false,
    allowForcePushes: false,
    allowDeletions: false,
    blockCreations: false,
    requiredConversationResolution: false,
    lockBranch: false,
    allowForkSyncing: false,
  };
}

/** The protection of a branch, if it has one. */
export function findProtection(
  state: RawState | EmulatorState,
  repo: string,
  branch: string,
): Readonly<StoredProtection> | undefined {
  return state.branchProtections.find((p) => p.repo === repo && p.branch === branch);
}

type Settings = Omit<StoredProtection, "repo" | "branch">;

/**
 * The protection a PUT body describes, or a 422 naming every field it gets wrong. The four
 * required keys must be there (null turns that part off); restrictions name users who are members
 * of the organisation, its teams and apps installed on it.
 */
export function parseProtection(
  state: EmulatorState,
  org: OrgRecord,
  body: Record<string, unknown>,
): Settings {
  for (const key of [
    "required_status_checks",
    "enforce_admins",
    "required_pull_request_reviews",
    "restrictions",
  ]) {
    if (!Object.hasOwn(body, key)) throw missingField(RESOURCE, key);
  }
  const errors: ErrorItem[] = [];
  const fail = (field: string, message: string) =>
    errors.push({ resource: RESOURCE, field, code: "invalid", message });
  const flag = (key: string, fallback = false): boolean => {
    const value = body[key];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== "boolean") fail(key, `${key} must be true or false`);
    return value === true;
  };
  const settings: Settings = {
    requiredStatusChecks: parseStatusChecks(body.required_status_checks, fail),
    enforceAdmins: flag("enforce_admins"),
    requiredPullRequestReviews: parseReviews(body.required_pull_request_reviews, fail),
    restrictions: parseRestrictions(state, org, body.restrictions, fail),
    requiredLinearHistory: flag("required_linear_history"),
    allowForcePushes: flag("allow_force_pushes"),
    allowDeletions: flag("allow_deletions"),
    blockCreations: flag("block_creations"),
    requiredConversationResolution: flag("required_conversation_resolution"),
    lockBranch: flag("lock_branch"),
    allowForkSyncing: flag("allow_fork_syncing"),
  };
  if (errors.length > 0) throw validationFailed(...errors);
  return settings;
}

type Fail = (field: string, message: string) => void;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isNames = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === "string" && s !== "");

function parseStatusChecks(raw: unknown, fail: Fail): Settings["requiredStatusChecks"] {
  const at = "required_status_checks";
  if (raw === null) return null;
  if (!isObject(raw)) {
    fail(at, `${at} must be an object {strict, contexts} or null`);
    return null;
  }
  if (typeof raw.strict !== "boolean") fail(`${at}.strict`, `${at}.strict must be true or false`);
  if (!isNames(raw.contexts)) fail(`${at}.contexts`, `${at}.contexts must be a list of check names`);
  const checks = raw.checks ?? [];
  const named = Array.isArray(checks)
    ? checks.map((c) => (isObject(c) ? c.context : undefined))
    : [undefined];
  if (!isNames(named)) fail(`${at}.checks`, `${at}.checks must be a list of {context, app_id?}`);
  const contexts = [...(isNames(raw.contexts) ? raw.contexts : []), ...(isNames(named) ? named : [])];
  return { strict: raw.strict === true, contexts: [...new Set(contexts)] };
}

function parseReviews(raw: unknown, fail: Fail): Settings["requiredPullRequestReviews"] {
  const at = "required_pull_request_reviews";
  if (raw === null) return null;
  if (!isObject(raw)) {
    fail(at, `${at} must be an object or null`);
    return null;
  }
  const flag = (key: string): boolean => {
    const value = raw[key];
    if (value !== undefined && typeof value !== "boolean")
      fail(`${at}.${key}`, `${at}.${key} must be true or false`);
    return value === true;
  };
  const count = raw.required_approving_review_count ?? 1;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0 || count > MAX_REQUIRED_APPROVALS) {
    fail(
      `${at}.required_approving_review_count`,
      `${at}.required_approving_review_count must be a whole number from 0 to ${MAX_REQUIRED_APPROVALS}`,
    );
  }
  return {
    dismissStaleReviews: flag("dismiss_stale_reviews"),
    requireCodeOwnerReviews: flag("require_code_owner_reviews"),
    requiredApprovingReviewCount: typeof count === "number" ? count : 1,
    requireLastPushApproval: flag("require_last_push_approval"),
  };
}

function parseRestrictions(
  state: EmulatorState,
  org: OrgRecord,
  raw: unknown,
  fail: Fail,
): Settings["restrictions"] {
  const at = "restrictions";
  if (raw === null) return null;
  if (!isObject(raw)) {
    fail(at, `${at} must be an object {users, teams, apps?} or null`);
    return null;
  }
  const list = (key: "users" | "teams" | "apps", required: boolean): string[] => {
    const value = raw[key] ?? (required ? undefined : []);
    if (!isNames(value)) {
      fail(`${at}.${key}`, `${at}.${key} must be a list of ${key === "users" ? "logins" : "slugs"}`);
      return [];
    }
    return [...new Set(value)];
  };
  const users = list("users", true).map((login) => {
    const user = findUser(state, login);
    if (!user || !activeMember(org, user.login)) {
      fail(`${at}.users`, `${login} cannot be given push access: not a member of ${org.login}`);
    }
    return user?.login ?? login;
  });
  const teamIds = list("teams", true).flatMap((slug) => {
    const team = findTeam(state, org, slug);
    if (!team) fail(`${at}.teams`, `${slug} is not a team of ${org.login}`);
    return team ? [team.id] : [];
  });
  const owner = org.login.toLowerCase();
  const apps = list("apps", false).map((slug) => {
    const app = state.fixture.apps.find((a) => a.slug === slug.toLowerCase());
    if (!app?.installedOn.some((o) => o.toLowerCase() === owner)) {
      fail(`${at}.apps`, `${slug} is not an app installed on ${org.login}`);
    }
    return app?.slug ?? slug;
  });
  if (users.length + teamIds.length + apps.length > MAX_RESTRICTION_ACTORS) {
    fail(at, `${at} may name at most ${MAX_RESTRICTION_ACTORS} users, teams and apps together`);
  }
  return { users, teamIds: [...new Set(teamIds)], apps };
}

/**
 * A protection as the GET (`branch-protection`) and the PUT (`protected-branch`) answer it: every
 * part with its URL, flags as `{enabled}`, people and teams as objects, the status checks, reviews
 * and restrictions left out when off.
 */
export function renderProtection(
  c: Context<ServerEnv>,
  state: EmulatorState,
  repo: RepoRecord,
  org: OrgRecord,
  p: Readonly<StoredProtection>,
): Record<string, unknown> {
  const url = urlOf(c, ROUTES.branchProtection.get, { owner: repo.owner, repo: repo.name, branch: p.branch });
  const enabled = (value: boolean) => ({ enabled: value });
  const checks = p.requiredStatusChecks;
  const reviews = p.requiredPullRequestReviews;
  const restrictions = p.restrictions;
  return {
    url,
    ...(checks
      ? {
          required_status_checks: {
            url: `${url}/required_status_checks`,
            strict: checks.strict,
            contexts: [...checks.contexts],
            contexts_url: `${url}/required_status_checks/contexts`,
            checks: checks.contexts.map((context) => ({ context, app_id: null })),
          },
        }
      : {}),
    ...(reviews
      ? {
          required_pull_request_reviews: {
            url: `${url}/required_pull_request_reviews`,
            dismiss_stale_reviews: reviews.dismissStaleReviews,
            require_code_owner_reviews: reviews.requireCodeOwnerReviews,
            required_approving_review_count: reviews.requiredApprovingReviewCount,
            require_last_push_approval: reviews.requireLastPushApproval,
          },
        }
      : {}),
    required_signatures: { url: `${url}/required_signatures`, enabled: false },
    enforce_admins: { url: `${url}/enforce_admins`, enabled: p.enforceAdmins },
    required_linear_history: enabled(p.requiredLinearHistory),
    allow_force_pushes: enabled(p.allowForcePushes),
    allow_deletions: enabled(p.allowDeletions),
    block_creations: enabled(p.blockCreations),
    required_conversation_resolution: enabled(p.requiredConversationResolution),
    lock_branch: enabled(p.lockBranch),
    allow_fork_syncing: enabled(p.allowForkSyncing),
    ...(restrictions ? { restrictions: renderRestrictions(c, state, org, url, restrictions) } : {}),
  };
}

function renderRestrictions(
  c: Context<ServerEnv>,
  state: EmulatorState,
  org: OrgRecord,
  url: string,
  r: NonNullable<StoredProtection["restrictions"]>,
): Record<string, unknown> {
  const base = `${url}/restrictions`;
  return {
    url: base,
    users_url: `${base}/users`,
    teams_url: `${base}/teams`,
    apps_url: `${base}/apps`,
    users: r.users.flatMap((login) => {
      const user = findUser(state, login);
      return user ? [userSummary(c, user)] : [];
    }),
    teams: r.teamIds.flatMap((id) => {
      const team = teamById(state, id);
      return team?.orgId === org.id ? [teamObject(c, team, org)] : [];
    }),
    apps: r.apps.flatMap((slug) => {
      const app = state.fixture.apps.find((a) => a.slug === slug);
      return app
        ? [{ id: app.id, slug: app.slug, node_id: nodeId("Integration", app.id), name: app.slug }]
        : [];
    }),
  };
}

/**
 * The protection summary that branch answers embed: whether the branch is protected, and the
 * status checks it requires (`non_admins` unless administrators are included, `off` without checks).
 */
export function protectionSummary(p: Readonly<StoredProtection> | undefined): Record<string, unknown> {
  const checks = p?.requiredStatusChecks;
  const level = !checks ? "off" : p?.enforceAdmins ? "everyone" : "non_admins";
  const contexts = checks ? [...checks.contexts] : [];
  return {
    enabled: p !== undefined,
    required_status_checks: {
      enforcement_level: level,
      contexts,
      checks: contexts.map((context) => ({ context, app_id: null })),
    },
  };
}
