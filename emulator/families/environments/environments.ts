/**
 * Environments of repositories (the platform's published description of
 * `/repos/{owner}/{repo}/environments/{environment_name}`): finding one by its name, the body of
 * `PUT` (create or update) with the platform's limits, deleting one with everything kept per
 * environment, and the JSON shape of an environment.
 *
 * - Names compare case-insensitively; an environment keeps the spelling it was created with.
 * - `PUT` sets what the body names and keeps the rest (a new environment starts from the
 *   defaults: no wait, no reviewers, every branch). `wait_timer` is 0-43,200 minutes; at most 6
 *   reviewers, each a user who may read the repository or a team of its organisation (the teams
 *   family's, the one place the sandbox keeps teams); `deployment_branch_policy` is null (every
 *   branch) or exactly one of `protected_branches` and `custom_branch_policies`. Anything else is a
 *   422 naming the field. Leaving custom branch policies drops the environment's name patterns.
 * - Deleting an environment deletes its branch policies and protection rules, and calls every
 *   hook registered with `whenEnvironmentRemoved` (families keeping things per environment).
 */
import type { Context } from "hono";
import { ROUTES } from "../../../api";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { invalidField, urlOf, validationFailed } from "../../core/http";
import { findOrg, repoKey } from "../../core/lookup";
import { nodeId, userSummary } from "../../core/render";
import { roleOf } from "../../core/repo-access";
import { type EmulatorState, type Store, timestamp } from "../../core/store";
import { teamObject } from "../teams/render";
import type { StoredTeam } from "../teams/state";
import { teamById } from "../teams/teams";
import type { StoredBranchPolicySettings, StoredEnvironment, StoredReviewer } from "./state";

export const ENVIRONMENT = "Environment";
export const WAIT_TIMER_MAX = 43_200;
export const REVIEWERS_MAX = 6;
export const NAME_MAX = 255;

const BODY_KEYS = new Set(["wait_timer", "prevent_self_review", "reviewers", "deployment_branch_policy"]);

/** The repository's environment with this name (case-insensitively), if any. */
export function findEnvironment(
  state: EmulatorState,
  repo: RepoRecord,
  name: string,
): StoredEnvironment | undefined {
  const key = repoKey(repo);
  const wanted = name.toLowerCase();
  return state.environments.find((e) => e.repo === key && e.name.toLowerCase() === wanted);
}

export function environmentsOf(state: EmulatorState, repo: RepoRecord): StoredEnvironment[] {
  const key = repoKey(repo);
  return state.environments.filter((e) => e.repo === key);
}

/** Where an environment is, as the families keeping things per environment name it. */
export interface EnvironmentPlace {
  /** The repository's owner and name, as the fixture spells them. */
  owner: string;
  repo: string;
  /** The environment's name, as it was created. */
  environment: string;
}

/** What a family drops when an environment is deleted (its secrets, its variables). */
export type EnvironmentRemoved = (store: Store, where: EnvironmentPlace) => void;

const removalHooks: EnvironmentRemoved[] = [];

/**
 * Registers what to drop when an environment is deleted. A family keeping things per environment
 * calls it once, from its module (the family list imports every family before a server starts), so
 * the environments family names none of them: the Actions family registers its
 * `dropEnvironmentActions(state, owner, repo, environment)` here.
 */
export function whenEnvironmentRemoved(hook: EnvironmentRemoved): void {
  if (!removalHooks.includes(hook)) removalHooks.push(hook);
}

/** `PUT .../environments/{environment_name}`: creates the environment or updates its settings. */
export function putEnvironment(
  store: Store,
  repo: RepoRecord,
  name: string,
  body: Record<string, unknown>,
): { environment: StoredEnvironment; created: boolean } {
  const state = store.state;
  const existing = findEnvironment(state, repo, name);
  if (!existing) checkName(name);
  const settings = parseSettings(state, repo, body);
  const now = timestamp();
  if (existing) {
    Object.assign(existing, settings, { updated_at: now });
    if (!existing.deployment_branch_policy?.custom_branch_policies) dropBranchPolicies(state, existing);
    return { environment: existing, created: false };
  }
  const environment: StoredEnvironment = {
    id: store.nextId(),
    repo: repoKey(repo),
    name,
    wait_timer: 0,
    prevent_self_review: false,
    reviewers: [],
    deployment_branch_policy: null,
    ...settings,
    created_at: now,
    updated_at: now,
  };
  state.environments.push(environment);
  return { environment, created: true };
}

/** Deletes the environment with its branch policies, protection rules, and what families registered. */
export function removeEnvironment(store: Store, repo: RepoRecord, environment: StoredEnvironment): void {
  const state = store.state;
  state.environments = state.environments.filter((e) => e !== environment);
  dropBranchPolicies(state, environment);
  state.protectionRules = state.protectionRules.filter(
    (r) => !(r.repo === environment.repo && r.environment === environment.name),
  );
  for (const hook of removalHooks) {
    hook(store, { owner: repo.owner, repo: repo.name, environment: environment.name });
  }
}

function dropBranchPolicies(state: EmulatorState, environment: StoredEnvironment): void {
  if (!state.branchPolicies.some((p) => p.repo === environment.repo && p.environment === environment.name)) {
    return;
  }
  state.branchPolicies = state.branchPolicies.filter(
    (p) => !(p.repo === environment.repo && p.environment === environment.name),
  );
}

/** A name the platform takes: 1-255 characters, not `.` or `..`, no control characters, no spaces at either end. */
function checkName(name: string): void {
  const invalid = (why: string) => invalidField(ENVIRONMENT, "name", `environment name ${why}`);
  if (name.length > NAME_MAX) throw invalid(`must be at most ${NAME_MAX} characters`);
  if (name === "." || name === "..") throw invalid('must not be "." or ".."');
  if (name.trim() !== name) throw invalid("must not start or end with spaces");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) throw invalid("must not hold control characters");
}

type Settings = Partial<
  Pick<StoredEnvironment, "wait_timer" | "prevent_self_review" | "reviewers" | "deployment_branch_policy">
>;

function parseSettings(state: EmulatorState, repo: RepoRecord, body: Record<string, unknown>): Settings {
  const unknown = Object.keys(body).filter((k) => !BODY_KEYS.has(k));
  if (unknown.length > 0) {
    throw validationFailed(
      ...unknown.map((field) => ({
        resource: ENVIRONMENT,
        field,
        code: "invalid" as const,
        message: `${field} is not a permitted key`,
      })),
    );
  }
  const settings: Settings = {};
  if (body.wait_timer !== undefined) settings.wait_timer = parseWaitTimer(body.wait_timer);
  if (body.prevent_self_review !== undefined) {
    if (typeof body.prevent_self_review !== "boolean") {
      throw invalidField(ENVIRONMENT, "prevent_self_review", "prevent_self_review must be a boolean");
    }
    settings.prevent_self_review = body.prevent_self_review;
  }
  if (body.reviewers !== undefined) settings.reviewers = parseReviewers(state, repo, body.reviewers);
  if (body.deployment_branch_policy !== undefined) {
    settings.deployment_branch_policy = parseBranchPolicySettings(body.deployment_branch_policy);
  }
  return settings;
}

function parseWaitTimer(raw: unknown): number {
  if (typeof raw !== "number" || !Number.isInteger(raw) || raw < 0 || raw > WAIT_TIMER_MAX) {
    throw invalidField(
      ENVIRONMENT,
      "wait_timer",
      `wait_timer must be an integer between 0 and ${WAIT_TIMER_MAX} (minutes)`,
    );
  }
  return raw;
}

function parseReviewers(state: EmulatorState, repo: RepoRecord, raw: unknown): StoredReviewer[] {
  if (raw === null) return [];
  const invalid = (message: string) => invalidField(ENVIRONMENT, "reviewers", message);
  if (!Array.isArray(raw)) throw invalid("reviewers must be an array of {type, id}");
  const reviewers: StoredReviewer[] = [];
  for (const item of raw) {
    const entry = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    const { type, id } = entry;
    if (type !== "User" && type !== "Team") throw invalid("reviewers[].type must be User or Team");
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0) {
      throw invalid("reviewers[].id must be the positive integer id of a user or team");
    }
    if (!reviewers.some((r) => r.type === type && r.id === id)) reviewers.push({ type, id });
  }
  if (reviewers.length > REVIEWERS_MAX) {
    throw invalid(`reviewers may list at most ${REVIEWERS_MAX} users or teams; got ${reviewers.length}`);
  }
  for (const { type, id } of reviewers) {
    if (type === "User") checkUserReviewer(state, repo, id);
    else checkTeamReviewer(state, repo, id);
  }
  return reviewers;
}

/**
 * A user reviewer must exist and read the repository: anyone, for a public one; else whoever has a
 * role on it (its organisation's members, and the people its teams and collaborators let in).
 */
function checkUserReviewer(state: EmulatorState, repo: RepoRecord, id: number): void {
  const user = state.fixture.users.find((u) => u.id === id);
  if (!user) throw invalidField(ENVIRONMENT, "reviewers", `reviewer User ${id} does not exist`);
  const org = findOrg(state, repo.owner);
  const reads =
    !repo.private ||
    user.siteAdmin ||
    (org !== undefined && roleOf(state, user.login, org, repo) !== undefined);
  if (!reads) {
    throw invalidField(
      ENVIRONMENT,
      "reviewers",
      `reviewer ${user.login} (User ${id}) must have read access to ${repo.owner}/${repo.name}`,
    );
  }
}

/** A team reviewer must be a team of the repository's organisation, as the teams family keeps them. */
function checkTeamReviewer(state: EmulatorState, repo: RepoRecord, id: number): void {
  if (!teamOf(state, repo, id)) {
    throw invalidField(
      ENVIRONMENT,
      "reviewers",
      `reviewer Team ${id} is not a team of ${repo.owner}: a team reviewer must belong to the repository's organisation`,
    );
  }
}

function teamOf(state: EmulatorState, repo: RepoRecord, id: number): StoredTeam | undefined {
  const org = findOrg(state, repo.owner);
  const team = teamById(state, id);
  return team !== undefined && team.orgId === org?.id ? team : undefined;
}

function parseBranchPolicySettings(raw: unknown): StoredBranchPolicySettings | null {
  if (raw === null) return null;
  const field = "deployment_branch_policy";
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw invalidField(ENVIRONMENT, field, `${field} must be an object or null`);
  }
  const { protected_branches: protectedBranches, custom_branch_policies: custom } = raw as Record<
    string,
    unknown
  >;
  if (typeof protectedBranches !== "boolean" || typeof custom !== "boolean") {
    throw invalidField(
      ENVIRONMENT,
      field,
      `${field} must hold the booleans protected_branches and custom_branch_policies`,
    );
  }
  if (protectedBranches === custom) {
    throw invalidField(
      ENVIRONMENT,
      field,
      `${field}: exactly one of protected_branches and custom_branch_policies must be true (null lets every branch deploy)`,
    );
  }
  return { protected_branches: protectedBranches, custom_branch_policies: custom };
}

/** An environment as the API shows it, its built-in protection rules included. */
export function renderEnvironment(
  c: Context<ServerEnv>,
  state: EmulatorState,
  repo: RepoRecord,
  env: StoredEnvironment,
): Record<string, unknown> {
  const url = urlOf(c, ROUTES.environments.get, {
    owner: repo.owner,
    repo: repo.name,
    environment_name: env.name,
  });
  const origin = new URL(c.req.url).origin;
  // The built-in rules are parts of the environment: their ids derive from its id.
  const rule = (n: number, type: string) => ({
    id: env.id * 10 + n,
    node_id: nodeId("Gate", env.id * 10 + n),
    type,
  });
  const rules: Array<Record<string, unknown>> = [];
  if (env.wait_timer > 0) rules.push({ ...rule(1, "wait_timer"), wait_timer: env.wait_timer });
  const reviewers = env.reviewers.flatMap((r) => {
    const reviewer = renderReviewer(c, state, repo, r);
    return reviewer ? [{ type: r.type, reviewer }] : [];
  });
  if (reviewers.length > 0) {
    rules.push({ ...rule(2, "required_reviewers"), prevent_self_review: env.prevent_self_review, reviewers });
  }
  if (env.deployment_branch_policy) rules.push(rule(3, "branch_policy"));
  return {
    id: env.id,
    node_id: nodeId("Environment", env.id),
    name: env.name,
    url,
    html_url: `${origin}/${repo.owner}/${repo.name}/deployments/activity_log?environments_filter=${encodeURIComponent(env.name)}`,
    created_at: env.created_at,
    updated_at: env.updated_at,
    protection_rules: rules,
    deployment_branch_policy: env.deployment_branch_policy,
  };
}

/**
 * A reviewer as the environment shows it. A team deleted since it was named is no longer a reviewer
 * (undefined), as the platform drops a deleted team from every environment.
 */
function renderReviewer(
  c: Context<ServerEnv>,
  state: EmulatorState,
  repo: RepoRecord,
  reviewer: StoredReviewer,
): Record<string, unknown> | undefined {
  if (reviewer.type === "User") {
    const user = state.fixture.users.find((u) => u.id === reviewer.id);
    // Users are never removed from a fixture under a stored state.
    if (!user) throw new Error(`environment reviewer User ${reviewer.id} is gone from the fixture`);
    return userSummary(c, user);
  }
  const team = teamOf(state, repo, reviewer.id);
  return team && teamObject(c, team, findOrg(state, repo.owner) as OrgRecord);
}
