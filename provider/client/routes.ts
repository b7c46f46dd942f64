/**
 * Every route of the API this package speaks, written once as the spec writes it
 * (`"GET /repos/{owner}/{repo}/hooks/{hook_id}"`). The provider's client builds every path from
 * here and the sandbox server registers its router from here, so the two cannot drift apart. With
 * `schemas.ts` it is the API contract the sandbox server shares with the library.
 *
 * Parameters are typed from the template and checked and encoded in one place: an integer id
 * (`*_id` except `budget_id` and `gist_id`, and `*_number`) must be a positive decimal integer, and a name must be non-empty and
 * not `.` or `..` (which a URL would resolve as a step up the path), and is percent-encoded, so a
 * value can never reach another path.
 */

export type RouteMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** The parameter names of a path template: `"/orgs/{org}/hooks/{hook_id}"` -> `"org" | "hook_id"`. */
type ParamNames<T extends string> = T extends `${string}{${infer P}}${infer Rest}`
  ? P | ParamNames<Rest>
  : never;

/** Parameters that are not integer ids, although their names end in `_id` (gist ids are hex). */
type TextIds = "budget_id" | "gist_id";
/** Integer parameters: ids (`*_id`) and numbers (`*_number`: issues, pull requests, alerts). */
type IsInteger<P extends string> = P extends TextIds
  ? false
  : P extends `${string}_id` | `${string}_number`
    ? true
    : false;

/** What a route's parameters take: integer ids as numbers (or their decimal strings), names as strings. */
export type RouteParams<T extends string> = {
  readonly [P in ParamNames<T>]: IsInteger<P> extends true ? number | string : string;
};

/** A template in the router's syntax, as a type, so the router types its parameters. */
export type Pattern<T extends string> = T extends `${infer Head}{${infer P}}${infer Rest}`
  ? `${Head}:${P}${Pattern<Rest>}`
  : T;

export interface Route<T extends string = string> {
  readonly method: RouteMethod;
  /** The path template below the API root, as the spec writes it. */
  readonly template: T;
  /** `METHOD template`, the route's name in logs and request counts. */
  readonly name: string;
  /** The template in the router's syntax (`/repos/:owner/:repo/hooks`). */
  readonly pattern: Pattern<T>;
  /** The parameter names, in path order. */
  readonly params: readonly string[];
  /** The path for these parameters, each checked and encoded; throws `InvalidRouteParameter`. */
  path(params: RouteParams<T>): string;
}

/** A parameter value no path may carry; the message names the route, the parameter and what is allowed. */
export class InvalidRouteParameter extends Error {
  override readonly name = "InvalidRouteParameter";
  constructor(
    readonly route: string,
    readonly parameter: string,
    readonly value: unknown,
    readonly allowed: string,
  ) {
    super(`${parameter} must be ${allowed}, got ${JSON.stringify(value)} (for ${route})`);
  }
}

/**
 * An integer id as a path carries it: digits only, without sign, spaces, exponent, hex prefix or
 * leading zero, within the safe integer range. Undefined for anything else (the sandbox answers 404).
 */
export function integerParam(text: string): number | undefined {
  const id = /^[1-9][0-9]*$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(id) ? id : undefined;
}

export function isIntegerParam(name: string): boolean {
  return (name.endsWith("_id") || name.endsWith("_number")) && name !== "budget_id" && name !== "gist_id";
}

/** One parameter as it goes into a path: checked, then encoded. */
function encodeParam(route: string, name: string, value: unknown): string {
  if (isIntegerParam(name)) {
    const text = typeof value === "number" ? String(value) : value;
    if (typeof text !== "string" || integerParam(text) === undefined) {
      throw new InvalidRouteParameter(route, name, value, "a positive decimal integer");
    }
    return text;
  }
  if (typeof value !== "string" || value === "" || value === "." || value === "..") {
    throw new InvalidRouteParameter(route, name, value, 'a non-empty name other than "." and ".."');
  }
  return encodeURIComponent(value);
}

export function route<const S extends `${RouteMethod} /${string}`>(
  spec: S,
): Route<S extends `${RouteMethod} ${infer T}` ? T : never> {
  const space = spec.indexOf(" ");
  const method = spec.slice(0, space) as RouteMethod;
  const template = spec.slice(space + 1);
  const params = [...template.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);
  return {
    method,
    template: template as never,
    name: spec,
    pattern: template.replace(/\{([a-z_]+)\}/g, ":$1") as never,
    params,
    path(values) {
      const given = values as Record<string, unknown>;
      return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeParam(spec, name, given[name]));
    },
  };
}

const RUNNER_GROUPS_E = "/enterprises/{enterprise}/actions/runner-groups";
const RUNNER_GROUPS_O = "/orgs/{org}/actions/runner-groups";
const REPO_HOOKS = "/repos/{owner}/{repo}/hooks";
const RULES = "/repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules";
const BUDGETS = "/enterprises/{enterprise}/settings/billing/budgets";
const REGISTRIES = "/orgs/{org}/private-registries";
const STATS = "/repos/{owner}/{repo}/stats";
const BRANCHES = "/repos/{owner}/{repo}/branches";

/** A router pattern whose `:N` parameter takes the rest of the path, slashes included. */
type Slashed<P extends string, N extends string> = P extends `${infer Head}:${N}${infer Rest}`
  ? `${Head}:${N}{.+}${Rest}`
  : P;

/**
 * A route whose `{name}` may hold slashes (branch names such as `release/1.0`): the client sends it
 * percent-encoded (`release%2F1.0`), the platform also takes it raw, and the router's `:name{.+}`
 * matches both (docs/DECISIONS.md).
 */
function slashed<T extends string, N extends string>(
  r: Route<T>,
  name: N,
): Omit<Route<T>, "pattern"> & { readonly pattern: Slashed<Pattern<T>, N> } {
  return { ...r, pattern: r.pattern.replace(`:${name}`, `:${name}{.+}`) as Slashed<Pattern<T>, N> };
}
const ALERTS = "depwatch/alerts";
const ISSUE_TYPES = "/orgs/{org}/issue-types";
const ISSUE_FIELDS = "/orgs/{org}/issue-fields";
const CAMPAIGNS = "/orgs/{org}/campaigns";
const PAT_REQUESTS = "/orgs/{org}/personal-access-token-requests";
const PATS = "/orgs/{org}/personal-access-tokens";
const USAGE = "/users/{username}/settings/billing";

export const ROUTES = {
  meta: {
    user: route("GET /user"),
    org: route("GET /orgs/{org}"),
    orgRepos: route("GET /orgs/{org}/repos"),
    repo: route("GET /repos/{owner}/{repo}"),
  },
  repoHooks: {
    list: route(`GET ${REPO_HOOKS}`),
    create: route(`POST ${REPO_HOOKS}`),
    get: route(`GET ${REPO_HOOKS}/{hook_id}`),
    update: route(`PATCH ${REPO_HOOKS}/{hook_id}`),
    delete: route(`DELETE ${REPO_HOOKS}/{hook_id}`),
    getConfig: route(`GET ${REPO_HOOKS}/{hook_id}/config`),
    updateConfig: route(`PATCH ${REPO_HOOKS}/{hook_id}/config`),
    deliveries: route(`GET ${REPO_HOOKS}/{hook_id}/deliveries`),
    ping: route(`POST ${REPO_HOOKS}/{hook_id}/pings`),
    test: route(`POST ${REPO_HOOKS}/{hook_id}/tests`),
  },
  globalHooks: {
    list: route("GET /admin/hooks"),
    create: route("POST /admin/hooks"),
    get: route("GET /admin/hooks/{hook_id}"),
    update: route("PATCH /admin/hooks/{hook_id}"),
    delete: route("DELETE /admin/hooks/{hook_id}"),
    ping: route("POST /admin/hooks/{hook_id}/pings"),
  },
  members: {
    list: route("GET /orgs/{org}/members"),
    check: route("GET /orgs/{org}/members/{username}"),
    remove: route("DELETE /orgs/{org}/members/{username}"),
    listPublic: route("GET /orgs/{org}/public_members"),
    checkPublic: route("GET /orgs/{org}/public_members/{username}"),
    invitations: route("GET /orgs/{org}/invitations"),
    getMembership: route("GET /orgs/{org}/memberships/{username}"),
    setMembership: route("PUT /orgs/{org}/memberships/{username}"),
    removeMembership: route("DELETE /orgs/{org}/memberships/{username}"),
  },
  enterpriseRunnerGroups: {
    list: route(`GET ${RUNNER_GROUPS_E}`),
    create: route(`POST ${RUNNER_GROUPS_E}`),
    get: route(`GET ${RUNNER_GROUPS_E}/{runner_group_id}`),
    update: route(`PATCH ${RUNNER_GROUPS_E}/{runner_group_id}`),
    delete: route(`DELETE ${RUNNER_GROUPS_E}/{runner_group_id}`),
    runners: route(`GET ${RUNNER_GROUPS_E}/{runner_group_id}/runners`),
    setRunners: route(`PUT ${RUNNER_GROUPS_E}/{runner_group_id}/runners`),
    addRunner: route(`PUT ${RUNNER_GROUPS_E}/{runner_group_id}/runners/{runner_id}`),
    removeRunner: route(`DELETE ${RUNNER_GROUPS_E}/{runner_group_id}/runners/{runner_id}`),
    organizations: route(`GET ${RUNNER_GROUPS_E}/{runner_group_id}/organizations`),
    setOrganizations: route(`PUT ${RUNNER_GROUPS_E}/{runner_group_id}/organizations`),
    addOrganization: route(`PUT ${RUNNER_GROUPS_E}/{runner_group_id}/organizations/{org_id}`),
    removeOrganization: route(`DELETE ${RUNNER_GROUPS_E}/{runner_group_id}/organizations/{org_id}`),
  },
  orgRunnerGroups: {
    list: route(`GET ${RUNNER_GROUPS_O}`),
    create: route(`POST ${RUNNER_GROUPS_O}`),
    get: route(`GET ${RUNNER_GROUPS_O}/{runner_group_id}`),
    update: route(`PATCH ${RUNNER_GROUPS_O}/{runner_group_id}`),
    delete: route(`DELETE ${RUNNER_GROUPS_O}/{runner_group_id}`),
    runners: route(`GET ${RUNNER_GROUPS_O}/{runner_group_id}/runners`),
    setRunners: route(`PUT ${RUNNER_GROUPS_O}/{runner_group_id}/runners`),
    addRunner: route(`PUT ${RUNNER_GROUPS_O}/{runner_group_id}/runners/{runner_id}`),
    removeRunner: route(`DELETE ${RUNNER_GROUPS_O}/{runner_group_id}/runners/{runner_id}`),
    repositories: route(`GET ${RUNNER_GROUPS_O}/{runner_group_id}/repositories`),
    setRepositories: route(`PUT ${RUNNER_GROUPS_O}/{runner_group_id}/repositories`),
  },
  runners: {
    listOrg: route("GET /orgs/{org}/actions/runners"),
  },
  propertyValues: {
    org: route("GET /organizations/{org}/org-properties/values"),
    updateOrg: route("PATCH /organizations/{org}/org-properties/values"),
    repo: route("GET /repos/{owner}/{repo}/properties/values"),
    updateRepo: route("PATCH /repos/{owner}/{repo}/properties/values"),
  },
  protectionRules: {
    environments: route("GET /repos/{owner}/{repo}/environments"),
    list: route(`GET ${RULES}`),
    create: route(`POST ${RULES}`),
    apps: route(`GET ${RULES}/apps`),
    get: route(`GET ${RULES}/{protection_rule_id}`),
    delete: route(`DELETE ${RULES}/{protection_rule_id}`),
  },
  budgets: {
    list: route(`GET ${BUDGETS}`),
    create: route(`POST ${BUDGETS}`),
    get: route(`GET ${BUDGETS}/{budget_id}`),
    update: route(`PATCH ${BUDGETS}/{budget_id}`),
    delete: route(`DELETE ${BUDGETS}/{budget_id}`),
  },
  privateRegistries: {
    list: route(`GET ${REGISTRIES}`),
    create: route(`POST ${REGISTRIES}`),
    publicKey: route(`GET ${REGISTRIES}/public-key`),
    get: route(`GET ${REGISTRIES}/{secret_name}`),
    update: route(`PATCH ${REGISTRIES}/{secret_name}`),
    delete: route(`DELETE ${REGISTRIES}/{secret_name}`),
  },
  statistics: {
    codeFrequency: route(`GET ${STATS}/code_frequency`),
    commitActivity: route(`GET ${STATS}/commit_activity`),
    contributors: route(`GET ${STATS}/contributors`),
    participation: route(`GET ${STATS}/participation`),
    punchCard: route(`GET ${STATS}/punch_card`),
  },
  gpgKeys: {
    list: route("GET /user/gpg_keys"),
    create: route("POST /user/gpg_keys"),
    get: route("GET /user/gpg_keys/{gpg_key_id}"),
    delete: route("DELETE /user/gpg_keys/{gpg_key_id}"),
    listForUser: route("GET /users/{username}/gpg_keys"),
  },
  sshKeys: {
    list: route("GET /user/keys"),
    create: route("POST /user/keys"),
    get: route("GET /user/keys/{key_id}"),
    delete: route("DELETE /user/keys/{key_id}"),
    listForUser: route("GET /users/{username}/keys"),
  },
  sshSigningKeys: {
    list: route("GET /user/ssh_signing_keys"),
    create: route("POST /user/ssh_signing_keys"),
    get: route("GET /user/ssh_signing_keys/{ssh_signing_key_id}"),
    delete: route("DELETE /user/ssh_signing_keys/{ssh_signing_key_id}"),
  },
  orgAdmin: {
    create: route("POST /admin/organizations"),
    rename: route("PATCH /admin/organizations/{org}"),
  },
  branches: {
    list: route(`GET ${BRANCHES}`),
    get: slashed(route(`GET ${BRANCHES}/{branch}`), "branch"),
    rename: slashed(route(`POST ${BRANCHES}/{branch}/rename`), "branch"),
    mergeUpstream: route("POST /repos/{owner}/{repo}/merge-upstream"),
    merge: route("POST /repos/{owner}/{repo}/merges"),
  },
  dependencySnapshots: {
    create: route("POST /repos/{owner}/{repo}/dependency-graph/snapshots"),
  },
  reviewRequests: {
    list: route("GET /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers"),
    request: route("POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers"),
  },
  dependencyAlerts: {
    listEnterprise: route(`GET /enterprises/{enterprise}/${ALERTS}`),
    listOrg: route(`GET /orgs/{org}/${ALERTS}`),
    listRepo: route(`GET /repos/{owner}/{repo}/${ALERTS}`),
    get: route(`GET /repos/{owner}/{repo}/${ALERTS}/{alert_number}`),
    update: route(`PATCH /repos/{owner}/{repo}/${ALERTS}/{alert_number}`),
  },
  issueFieldValues: {
    list: route("GET /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"),
  },
  notifications: {
    list: route("GET /notifications"),
    markRead: route("PUT /notifications"),
    thread: route("GET /notifications/threads/{thread_id}"),
  },
  orgBlocks: {
    list: route("GET /orgs/{org}/blocks"),
    check: route("GET /orgs/{org}/blocks/{username}"),
    block: route("PUT /orgs/{org}/blocks/{username}"),
    unblock: route("DELETE /orgs/{org}/blocks/{username}"),
  },
  issueTypes: {
    list: route(`GET ${ISSUE_TYPES}`),
    create: route(`POST ${ISSUE_TYPES}`),
    update: route(`PUT ${ISSUE_TYPES}/{issue_type_id}`),
    delete: route(`DELETE ${ISSUE_TYPES}/{issue_type_id}`),
  },
  issueFields: {
    list: route(`GET ${ISSUE_FIELDS}`),
    create: route(`POST ${ISSUE_FIELDS}`),
    update: route(`PATCH ${ISSUE_FIELDS}/{issue_field_id}`),
    delete: route(`DELETE ${ISSUE_FIELDS}/{issue_field_id}`),
  },
  // The rest of the permission matrix (spec, Authentication): request and response bodies not
  // shown, so the sandbox answers them, after their auth check, with a 501 (README, "Sandbox").
  campaigns: {
    list: route(`GET ${CAMPAIGNS}`),
    create: route(`POST ${CAMPAIGNS}`),
    get: route(`GET ${CAMPAIGNS}/{campaign_number}`),
    update: route(`PATCH ${CAMPAIGNS}/{campaign_number}`),
    delete: route(`DELETE ${CAMPAIGNS}/{campaign_number}`),
  },
  contentExclusion: {
    get: route("GET /orgs/{org}/assistant/content_exclusion"),
    set: route("PUT /orgs/{org}/assistant/content_exclusion"),
  },
  orgRoles: {
    list: route("GET /orgs/{org}/organization-roles"),
    get: route("GET /orgs/{org}/organization-roles/{role_id}"),
  },
  events: {
    orgEventsForUser: route("GET /users/{username}/events/orgs/{org}"),
  },
  workspaceAccess: {
    set: route("PUT /orgs/{org}/workspaces/access"),
    addUsers: route("POST /orgs/{org}/workspaces/access/selected_users"),
    removeUsers: route("DELETE /orgs/{org}/workspaces/access/selected_users"),
  },
  patRequests: {
    list: route(`GET ${PAT_REQUESTS}`),
    reviewAll: route(`POST ${PAT_REQUESTS}`),
    review: route(`POST ${PAT_REQUESTS}/{pat_request_id}`),
    repositories: route(`GET ${PAT_REQUESTS}/{pat_request_id}/repositories`),
  },
  pats: {
    list: route(`GET ${PATS}`),
    updateAll: route(`POST ${PATS}`),
    update: route(`POST ${PATS}/{pat_id}`),
    repositories: route(`GET ${PATS}/{pat_id}/repositories`),
  },
  codeQuality: {
    findings: route("GET /repos/{owner}/{repo}/code-quality/findings"),
    finding: route("GET /repos/{owner}/{repo}/code-quality/findings/{finding_number}"),
  },
  workspacesMetadata: {
    devcontainers: route("GET /repos/{owner}/{repo}/workspaces/devcontainers"),
    machines: route("GET /repos/{owner}/{repo}/workspaces/machines"),
    workspaceMachines: route("GET /user/workspaces/{workspace_name}/machines"),
  },
  commitStatuses: {
    create: route("POST /repos/{owner}/{repo}/statuses/{sha}"),
    combined: route("GET /repos/{owner}/{repo}/commits/{ref}/status"),
    list: route("GET /repos/{owner}/{repo}/commits/{ref}/statuses"),
  },
  agentConfiguration: {
    get: route("GET /repos/{owner}/{repo}/assistant/cloud-agent/configuration"),
  },
  userBlocks: {
    list: route("GET /user/blocks"),
    check: route("GET /user/blocks/{username}"),
    block: route("PUT /user/blocks/{username}"),
    unblock: route("DELETE /user/blocks/{username}"),
  },
  emails: {
    setVisibility: route("PATCH /user/email/visibility"),
    list: route("GET /user/emails"),
    add: route("POST /user/emails"),
    delete: route("DELETE /user/emails"),
    listPublic: route("GET /user/public_emails"),
  },
  followers: {
    followers: route("GET /user/followers"),
    following: route("GET /user/following"),
    check: route("GET /user/following/{username}"),
    follow: route("PUT /user/following/{username}"),
    unfollow: route("DELETE /user/following/{username}"),
  },
  gists: {
    create: route("POST /gists"),
    update: route("PATCH /gists/{gist_id}"),
    delete: route("DELETE /gists/{gist_id}"),
    createComment: route("POST /gists/{gist_id}/comments"),
    updateComment: route("PATCH /gists/{gist_id}/comments/{comment_id}"),
    deleteComment: route("DELETE /gists/{gist_id}/comments/{comment_id}"),
    fork: route("POST /gists/{gist_id}/forks"),
    star: route("PUT /gists/{gist_id}/star"),
    unstar: route("DELETE /gists/{gist_id}/star"),
  },
  interactionLimits: {
    get: route("GET /user/interaction-limits"),
    set: route("PUT /user/interaction-limits"),
    remove: route("DELETE /user/interaction-limits"),
  },
  billingUsage: {
    aiCredits: route(`GET ${USAGE}/ai_credit/usage`),
    premiumRequests: route(`GET ${USAGE}/premium_request/usage`),
    usage: route(`GET ${USAGE}/usage`),
    summary: route(`GET ${USAGE}/usage/summary`),
  },
  repoInvitations: {
    list: route("GET /repos/{owner}/{repo}/invitations"),
  },
  profile: {
    update: route("PATCH /user"),
    addSocialAccounts: route("POST /user/social_accounts"),
    removeSocialAccounts: route("DELETE /user/social_accounts"),
  },
  subscriptions: {
    mine: route("GET /user/subscriptions"),
    forUser: route("GET /users/{username}/subscriptions"),
  },
} as const;

/** Every route of the table, in declaration order (the sandbox's router and its tests walk it). */
export function allRoutes(): Route[] {
  return Object.values(ROUTES).flatMap((family) => Object.values(family) as Route[]);
}
