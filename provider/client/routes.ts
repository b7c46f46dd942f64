/**
 * Every route of the API this package speaks, written once as the spec writes it
 * (`"GET /repos/{owner}/{repo}/hooks/{hook_id}"`), with what the client needs to call it: the API
 * version the spec documents for it where that is not the default, and the schema its answer is
 * validated with. The provider's client takes nothing but these routes and the sandbox server
 * registers its router from them, so the two cannot drift apart. With `schemas.ts` it is the API
 * contract the sandbox server shares with the library.
 *
 * Parameters are typed from the template and checked and encoded in one place: an integer id
 * (`*_id` except `budget_id` and `gist_id`, and `*_number`) must be a positive decimal integer, and a name must be non-empty and
 * not `.` or `..` (which a URL would resolve as a step up the path), and is percent-encoded, so a
 * value can never reach another path.
 */
import { z } from "zod";
import { itemsOf } from "./pagination";
import {
  API_VERSION_2026,
  API_VERSION_DEFAULT,
  type ApiVersion,
  AVAILABLE_INTEGRATIONS_KEY,
  apiAvailableIntegrationsPageSchema,
  apiBranchSchema,
  apiBudgetEnvelopeSchema,
  apiBudgetListSchema,
  apiBudgetSchema,
  apiCodeFrequencySchema,
  apiCommitActivitySchema,
  apiContributorsSchema,
  apiDependencyAlertSchema,
  apiDeploymentProtectionRuleListSchema,
  apiDeploymentProtectionRuleSchema,
  apiEnvironmentSummarySchema,
  apiGpgKeySchema,
  apiIssueFieldSchema,
  apiIssueTypeSchema,
  apiOrganizationSchema,
  apiOrgInvitationSchema,
  apiOrgMemberSchema,
  apiOrgMembershipSchema,
  apiParticipationSchema,
  apiPrivateRegistrySchema,
  apiPropertyValueSchema,
  apiProtectionRuleAppSchema,
  apiPunchCardSchema,
  apiRegistryPublicKeySchema,
  apiRepositorySummarySchema,
  apiRunnerGroupSchema,
  apiRunnerSchema,
  apiSignedInUserSchema,
  apiSshKeySchema,
  apiUserSummarySchema,
  apiWebhookSchema,
} from "./schemas";

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

/** The parameters of a route whose template has none (`GET /user`). */
export type NoParams = RouteParams<"/">;

/** A template in the router's syntax, as a type, so the router types its parameters. */
export type Pattern<T extends string> = T extends `${infer Head}{${infer P}}${infer Rest}`
  ? `${Head}:${P}${Pattern<Rest>}`
  : T;

/**
 * An answer that is one body (an object, an envelope, a statistic), validated with `schema`.
 * `bodyless` lists the statuses whose body is not read (`data` is then undefined): a statistic
 * still being computed (202), a repository without commits (204).
 */
export interface BodyAnswer<
  S extends z.ZodType = z.ZodType,
  B extends readonly number[] = readonly number[],
> {
  readonly kind: "body";
  readonly schema: S;
  readonly bodyless: B;
}

/**
 * An answer that is a list paginated by `Link`: each item is validated with `item`. `select`
 * picks the items out of a page that is not the list itself (an envelope such as
 * `{total_count, runners: [...]}`); anything but an array there is an unexpected answer.
 */
export interface ListAnswer<S extends z.ZodType = z.ZodType> {
  readonly kind: "list";
  readonly item: S;
  readonly select: ((page: unknown) => unknown) | undefined;
}

export type Answer = BodyAnswer | ListAnswer;

/** What the client gets from an answer: the schema's output (one page of items for a list). */
export type AnswerData<A extends Answer> =
  A extends BodyAnswer<infer S, infer B>
    ? B extends readonly []
      ? z.output<S>
      : z.output<S> | undefined
    : A extends ListAnswer<infer S>
      ? Array<z.output<S>>
      : never;

/** The items of a list answer. */
export type ItemOf<A extends ListAnswer> = A extends ListAnswer<infer S> ? z.output<S> : never;

/** What the client needs of a route: its method, version, answer and paths, whatever its template. */
export interface ClientRoute<M extends RouteMethod, P, A extends Answer | undefined> {
  readonly method: M;
  /** `METHOD template`, the route's name in logs and request counts. */
  readonly name: string;
  /** The `X-Service-Api-Version` the spec documents for the route (`hosting:apiVersion` overrides it). */
  readonly apiVersion: ApiVersion;
  /** How the client reads the answer; undefined for a route the client never calls. */
  readonly answer: A;
  /** The path for these parameters, each checked and encoded; throws `InvalidRouteParameter`. */
  path(params: P): string;
}

/** A route the client may send as `M` with parameters `P`, answering one body of type `T`. */
export type BodyRoute<M extends RouteMethod, P, T> = ClientRoute<M, P, BodyAnswer<z.ZodType<T>, readonly []>>;
/** A route the client may list with parameters `P`, answering items of type `T`. */
export type ListRoute<P, T> = ClientRoute<"GET", P, ListAnswer<z.ZodType<T>>>;
/** A route the client may send as `M` with parameters `P`, whose answer it does not need. */
export type AnyRoute<M extends RouteMethod, P> = ClientRoute<M, P, BodyAnswer>;

/**
 * The routes of a collection the client manages (`ROUTES.repoHooks`): list it and add to it with
 * parameters `P`, read, update and delete one of its objects of type `T` with `P & I`.
 */
export interface CollectionRoutes<P, I, T> {
  list: ListRoute<P, T>;
  create: BodyRoute<"POST", P, T>;
  get: BodyRoute<"GET", P & I, T>;
  update: BodyRoute<"PATCH", P & I, T>;
  delete: AnyRoute<"DELETE", P & I>;
}

export interface Route<
  T extends string = string,
  M extends RouteMethod = RouteMethod,
  A extends Answer | undefined = Answer | undefined,
> extends ClientRoute<M, RouteParams<T>, A> {
  /** The path template below the API root, as the spec writes it. */
  readonly template: T;
  /** The template in the router's syntax (`/repos/:owner/:repo/hooks`). */
  readonly pattern: Pattern<T>;
  /** The parameter names, in path order. */
  readonly params: readonly string[];
}

/**
 * What a route declares beside its method and template: its API version where the spec documents
 * another than the default, and its answer, `body` (one object, validated by the schema) or `list`
 * (the item schema, and `select` where the page is an envelope). A route the client never calls
 * may declare no answer; the client refuses it, at compile time.
 */
export type RouteDeclaration = { readonly version?: ApiVersion } & (
  | { readonly body: z.ZodType; readonly bodyless?: readonly number[]; readonly list?: never }
  | { readonly list: z.ZodType; readonly select?: (page: unknown) => unknown; readonly body?: never }
  | { readonly body?: never; readonly list?: never }
);

/** The answer a declaration gives. */
type AnswerOf<D> = D extends { readonly body: infer S extends z.ZodType }
  ? BodyAnswer<S, D extends { readonly bodyless: infer B extends readonly number[] } ? B : readonly []>
  : D extends { readonly list: infer S extends z.ZodType }
    ? ListAnswer<S>
    : undefined;

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

function answerOf(declared: RouteDeclaration): Answer | undefined {
  if (declared.body !== undefined) {
    return { kind: "body", schema: declared.body, bodyless: declared.bodyless ?? [] };
  }
  if (declared.list !== undefined) return { kind: "list", item: declared.list, select: declared.select };
  return undefined;
}

export function route<
  const S extends `${RouteMethod} /${string}`,
  const D extends RouteDeclaration = Record<never, never>,
>(
  spec: S,
  declared: D = {} as D,
): Route<
  S extends `${RouteMethod} ${infer T}` ? T : never,
  S extends `${infer M extends RouteMethod} ${string}` ? M : never,
  AnswerOf<D>
> {
  const space = spec.indexOf(" ");
  const method = spec.slice(0, space) as RouteMethod;
  const template = spec.slice(space + 1);
  const params = [...template.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);
  return {
    method: method as never,
    template: template as never,
    name: spec,
    pattern: template.replace(/\{([a-z_]+)\}/g, ":$1") as never,
    params,
    apiVersion: declared.version ?? API_VERSION_DEFAULT,
    answer: answerOf(declared) as never,
    path(values) {
      const given = values as Record<string, unknown>;
      return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeParam(spec, name, given[name]));
    },
  };
}

/** The answer of a route the client sends only for its status (204, a queued job's 202): not read, not validated. */
const STATUS_ONLY = { body: z.unknown() } as const;
/** Routes that exist in API version 2026-03-10 only (spec, Versioning). */
const V2026 = { version: API_VERSION_2026 } as const;
const RUNNER_GROUP = { body: apiRunnerGroupSchema } as const;
const RUNNER_GROUP_LIST = { list: apiRunnerGroupSchema, select: itemsOf("runner_groups") } as const;
const RUNNER_LIST = { list: apiRunnerSchema, select: itemsOf("runners") } as const;
/** A repository statistic: 202 while it is computed, 204 for a repository without commits. */
const statistic = <S extends z.ZodType>(schema: S) => ({ body: schema, bodyless: [202, 204] }) as const;

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
function slashed<T extends string, M extends RouteMethod, A extends Answer | undefined, N extends string>(
  r: Route<T, M, A>,
  name: N,
): Omit<Route<T, M, A>, "pattern"> & { readonly pattern: Slashed<Pattern<T>, N> } {
  return { ...r, pattern: r.pattern.replace(`:${name}`, `:${name}{.+}`) as Slashed<Pattern<T>, N> };
}

/**
 * The integrations of a page of `.../deployment_protection_rules/apps`, which is an array of two
 * objects (spec, table P): `[{total_count}, {available_custom_deployment_protection_rule_integrations: [...]}]`.
 */
const availableIntegrations = (page: unknown): unknown =>
  apiAvailableIntegrationsPageSchema.safeParse(page).data?.[1][AVAILABLE_INTEGRATIONS_KEY];

const ALERTS = "depwatch/alerts";
const ISSUE_TYPES = "/orgs/{org}/issue-types";
const ISSUE_FIELDS = "/orgs/{org}/issue-fields";
const CAMPAIGNS = "/orgs/{org}/campaigns";
const PAT_REQUESTS = "/orgs/{org}/personal-access-token-requests";
const PATS = "/orgs/{org}/personal-access-tokens";
const USAGE = "/users/{username}/settings/billing";

export const ROUTES = {
  meta: {
    user: route("GET /user", { body: apiSignedInUserSchema }),
    org: route("GET /orgs/{org}", { body: apiOrganizationSchema }),
    orgRepos: route("GET /orgs/{org}/repos", { list: apiRepositorySummarySchema }),
    repo: route("GET /repos/{owner}/{repo}"),
  },
  repoHooks: {
    list: route(`GET ${REPO_HOOKS}`, { list: apiWebhookSchema }),
    create: route(`POST ${REPO_HOOKS}`, { body: apiWebhookSchema }),
    get: route(`GET ${REPO_HOOKS}/{hook_id}`, { body: apiWebhookSchema }),
    update: route(`PATCH ${REPO_HOOKS}/{hook_id}`, { body: apiWebhookSchema }),
    delete: route(`DELETE ${REPO_HOOKS}/{hook_id}`, STATUS_ONLY),
    getConfig: route(`GET ${REPO_HOOKS}/{hook_id}/config`),
    updateConfig: route(`PATCH ${REPO_HOOKS}/{hook_id}/config`),
    deliveries: route(`GET ${REPO_HOOKS}/{hook_id}/deliveries`),
    ping: route(`POST ${REPO_HOOKS}/{hook_id}/pings`),
    test: route(`POST ${REPO_HOOKS}/{hook_id}/tests`),
  },
  globalHooks: {
    list: route("GET /admin/hooks", { list: apiWebhookSchema }),
    create: route("POST /admin/hooks", { body: apiWebhookSchema }),
    get: route("GET /admin/hooks/{hook_id}", { body: apiWebhookSchema }),
    update: route("PATCH /admin/hooks/{hook_id}", { body: apiWebhookSchema }),
    delete: route("DELETE /admin/hooks/{hook_id}", STATUS_ONLY),
    ping: route("POST /admin/hooks/{hook_id}/pings"),
  },
  members: {
    list: route("GET /orgs/{org}/members", { list: apiOrgMemberSchema }),
    check: route("GET /orgs/{org}/members/{username}"),
    remove: route("DELETE /orgs/{org}/members/{username}"),
    listPublic: route("GET /orgs/{org}/public_members"),
    checkPublic: route("GET /orgs/{org}/public_members/{username}"),
    invitations: route("GET /orgs/{org}/invitations", { list: apiOrgInvitationSchema }),
    getMembership: route("GET /orgs/{org}/memberships/{username}", { body: apiOrgMembershipSchema }),
    setMembership: route("PUT /orgs/{org}/memberships/{username}", { body: apiOrgMembershipSchema }),
    removeMembership: route("DELETE /orgs/{org}/memberships/{username}", STATUS_ONLY),
  },
  enterpriseRunnerGroups: {
    list: route(`GET ${RUNNER_GROUPS_E}`, RUNNER_GROUP_LIST),
    create: route(`POST ${RUNNER_GROUPS_E}`, RUNNER_GROUP),
    get: route(`GET ${RUNNER_GROUPS_E}/{runner_group_id}`, RUNNER_GROUP),
    update: route(`PATCH ${RUNNER_GROUPS_E}/{runner_group_id}`, RUNNER_GROUP),
    delete: route(`DELETE ${RUNNER_GROUPS_E}/{runner_group_id}`, STATUS_ONLY),
    runners: route(`GET ${RUNNER_GROUPS_E}/{runner_group_id}/runners`, RUNNER_LIST),
    setRunners: route(`PUT ${RUNNER_GROUPS_E}/{runner_group_id}/runners`, STATUS_ONLY),
    addRunner: route(`PUT ${RUNNER_GROUPS_E}/{runner_group_id}/runners/{runner_id}`),
    removeRunner: route(`DELETE ${RUNNER_GROUPS_E}/{runner_group_id}/runners/{runner_id}`),
    organizations: route(`GET ${RUNNER_GROUPS_E}/{runner_group_id}/organizations`, {
      list: apiOrganizationSchema,
      select: itemsOf("organizations"),
    }),
    setOrganizations: route(`PUT ${RUNNER_GROUPS_E}/{runner_group_id}/organizations`, STATUS_ONLY),
    addOrganization: route(`PUT ${RUNNER_GROUPS_E}/{runner_group_id}/organizations/{org_id}`),
    removeOrganization: route(`DELETE ${RUNNER_GROUPS_E}/{runner_group_id}/organizations/{org_id}`),
  },
  orgRunnerGroups: {
    list: route(`GET ${RUNNER_GROUPS_O}`, RUNNER_GROUP_LIST),
    create: route(`POST ${RUNNER_GROUPS_O}`, RUNNER_GROUP),
    get: route(`GET ${RUNNER_GROUPS_O}/{runner_group_id}`, RUNNER_GROUP),
    update: route(`PATCH ${RUNNER_GROUPS_O}/{runner_group_id}`, RUNNER_GROUP),
    delete: route(`DELETE ${RUNNER_GROUPS_O}/{runner_group_id}`, STATUS_ONLY),
    runners: route(`GET ${RUNNER_GROUPS_O}/{runner_group_id}/runners`, RUNNER_LIST),
    setRunners: route(`PUT ${RUNNER_GROUPS_O}/{runner_group_id}/runners`, STATUS_ONLY),
    addRunner: route(`PUT ${RUNNER_GROUPS_O}/{runner_group_id}/runners/{runner_id}`),
    removeRunner: route(`DELETE ${RUNNER_GROUPS_O}/{runner_group_id}/runners/{runner_id}`),
    repositories: route(`GET ${RUNNER_GROUPS_O}/{runner_group_id}/repositories`, {
      list: apiRepositorySummarySchema,
      select: itemsOf("repositories"),
    }),
    setRepositories: route(`PUT ${RUNNER_GROUPS_O}/{runner_group_id}/repositories`, STATUS_ONLY),
  },
  runners: {
    listOrg: route("GET /orgs/{org}/actions/runners"),
  },
  propertyValues: {
    org: route("GET /organizations/{org}/org-properties/values", { ...V2026, list: apiPropertyValueSchema }),
    updateOrg: route("PATCH /organizations/{org}/org-properties/values", { ...V2026, ...STATUS_ONLY }),
    repo: route("GET /repos/{owner}/{repo}/properties/values", { list: apiPropertyValueSchema }),
    updateRepo: route("PATCH /repos/{owner}/{repo}/properties/values", STATUS_ONLY),
  },
  protectionRules: {
    environments: route("GET /repos/{owner}/{repo}/environments", {
      list: apiEnvironmentSummarySchema,
      select: itemsOf("environments"),
    }),
    list: route(`GET ${RULES}`, { body: apiDeploymentProtectionRuleListSchema }),
    create: route(`POST ${RULES}`, { body: apiDeploymentProtectionRuleSchema }),
    apps: route(`GET ${RULES}/apps`, { list: apiProtectionRuleAppSchema, select: availableIntegrations }),
    get: route(`GET ${RULES}/{protection_rule_id}`, { body: apiDeploymentProtectionRuleSchema }),
    delete: route(`DELETE ${RULES}/{protection_rule_id}`, STATUS_ONLY),
  },
  budgets: {
    list: route(`GET ${BUDGETS}`, { ...V2026, body: apiBudgetListSchema }),
    create: route(`POST ${BUDGETS}`, { ...V2026, body: apiBudgetEnvelopeSchema }),
    get: route(`GET ${BUDGETS}/{budget_id}`, { ...V2026, body: apiBudgetSchema }),
    update: route(`PATCH ${BUDGETS}/{budget_id}`, { ...V2026, body: apiBudgetEnvelopeSchema }),
    delete: route(`DELETE ${BUDGETS}/{budget_id}`, { ...V2026, ...STATUS_ONLY }),
  },
  privateRegistries: {
    list: route(`GET ${REGISTRIES}`, { list: apiPrivateRegistrySchema, select: itemsOf("configurations") }),
    create: route(`POST ${REGISTRIES}`, { body: apiPrivateRegistrySchema }),
    publicKey: route(`GET ${REGISTRIES}/public-key`, { body: apiRegistryPublicKeySchema }),
    get: route(`GET ${REGISTRIES}/{secret_name}`, { body: apiPrivateRegistrySchema }),
    update: route(`PATCH ${REGISTRIES}/{secret_name}`, STATUS_ONLY),
    delete: route(`DELETE ${REGISTRIES}/{secret_name}`, STATUS_ONLY),
  },
  statistics: {
    codeFrequency: route(`GET ${STATS}/code_frequency`, statistic(apiCodeFrequencySchema)),
    commitActivity: route(`GET ${STATS}/commit_activity`, statistic(apiCommitActivitySchema)),
    contributors: route(`GET ${STATS}/contributors`, statistic(apiContributorsSchema)),
    participation: route(`GET ${STATS}/participation`, statistic(apiParticipationSchema)),
    punchCard: route(`GET ${STATS}/punch_card`, statistic(apiPunchCardSchema)),
  },
  gpgKeys: {
    list: route("GET /user/gpg_keys", { list: apiGpgKeySchema }),
    create: route("POST /user/gpg_keys", { body: apiGpgKeySchema }),
    get: route("GET /user/gpg_keys/{gpg_key_id}", { body: apiGpgKeySchema }),
    delete: route("DELETE /user/gpg_keys/{gpg_key_id}", STATUS_ONLY),
    listForUser: route("GET /users/{username}/gpg_keys", { list: apiGpgKeySchema }),
  },
  sshKeys: {
    list: route("GET /user/keys", { list: apiSshKeySchema }),
    create: route("POST /user/keys", { body: apiSshKeySchema }),
    get: route("GET /user/keys/{key_id}", { body: apiSshKeySchema }),
    delete: route("DELETE /user/keys/{key_id}", STATUS_ONLY),
    listForUser: route("GET /users/{username}/keys"),
  },
  sshSigningKeys: {
    list: route("GET /user/ssh_signing_keys", { list: apiSshKeySchema }),
    create: route("POST /user/ssh_signing_keys", { body: apiSshKeySchema }),
    get: route("GET /user/ssh_signing_keys/{ssh_signing_key_id}", { body: apiSshKeySchema }),
    delete: route("DELETE /user/ssh_signing_keys/{ssh_signing_key_id}", STATUS_ONLY),
  },
  orgAdmin: {
    create: route("POST /admin/organizations", { body: apiOrganizationSchema }),
    rename: route("PATCH /admin/organizations/{org}", STATUS_ONLY),
  },
  branches: {
    list: route(`GET ${BRANCHES}`, { list: apiBranchSchema }),
    get: slashed(route(`GET ${BRANCHES}/{branch}`, { body: apiBranchSchema }), "branch"),
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
    listEnterprise: route(`GET /enterprises/{enterprise}/${ALERTS}`, {
      ...V2026,
      list: apiDependencyAlertSchema,
    }),
    listOrg: route(`GET /orgs/{org}/${ALERTS}`, { list: apiDependencyAlertSchema }),
    listRepo: route(`GET /repos/{owner}/{repo}/${ALERTS}`, { list: apiDependencyAlertSchema }),
    get: route(`GET /repos/{owner}/{repo}/${ALERTS}/{alert_number}`),
    update: route(`PATCH /repos/{owner}/{repo}/${ALERTS}/{alert_number}`, V2026),
  },
  issueFieldValues: {
    list: route("GET /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"),
  },
  notifications: {
    list: route("GET /notifications", V2026),
    markRead: route("PUT /notifications", V2026),
    thread: route("GET /notifications/threads/{thread_id}", V2026),
  },
  orgBlocks: {
    list: route("GET /orgs/{org}/blocks", { list: apiUserSummarySchema }),
    check: route("GET /orgs/{org}/blocks/{username}", STATUS_ONLY),
    block: route("PUT /orgs/{org}/blocks/{username}", STATUS_ONLY),
    unblock: route("DELETE /orgs/{org}/blocks/{username}", STATUS_ONLY),
  },
  issueTypes: {
    list: route(`GET ${ISSUE_TYPES}`, { list: apiIssueTypeSchema }),
    create: route(`POST ${ISSUE_TYPES}`, { body: apiIssueTypeSchema }),
    update: route(`PUT ${ISSUE_TYPES}/{issue_type_id}`, { body: apiIssueTypeSchema }),
    delete: route(`DELETE ${ISSUE_TYPES}/{issue_type_id}`, STATUS_ONLY),
  },
  issueFields: {
    list: route(`GET ${ISSUE_FIELDS}`, { list: apiIssueFieldSchema }),
    create: route(`POST ${ISSUE_FIELDS}`, { body: apiIssueFieldSchema }),
    update: route(`PATCH ${ISSUE_FIELDS}/{issue_field_id}`, { body: apiIssueFieldSchema }),
    delete: route(`DELETE ${ISSUE_FIELDS}/{issue_field_id}`, STATUS_ONLY),
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
