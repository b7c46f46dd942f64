/**
 * Every route of the API this package speaks, written once as the spec writes it
 * (`"GET /repos/{owner}/{repo}/hooks/{hook_id}"`). The provider's client builds every path from
 * here and the sandbox server registers its router from here, so the two cannot drift apart. With
 * `schemas.ts` it is the API contract the sandbox server shares with the library.
 *
 * Parameters are typed from the template and checked and encoded in one place: an integer id
 * (`*_id` except `budget_id`) must be a positive decimal integer, and a name must be non-empty and
 * not `.` or `..` (which a URL would resolve as a step up the path), and is percent-encoded, so a
 * value can never reach another path.
 */

export type RouteMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** The parameter names of a path template: `"/orgs/{org}/hooks/{hook_id}"` -> `"org" | "hook_id"`. */
type ParamNames<T extends string> = T extends `${string}{${infer P}}${infer Rest}`
  ? P | ParamNames<Rest>
  : never;

/** Parameters that are not integer ids, although their names end in `_id`. */
type TextIds = "budget_id";
type IsInteger<P extends string> = P extends TextIds ? false : P extends `${string}_id` ? true : false;

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
  return name.endsWith("_id") && name !== "budget_id";
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
} as const;

/** Every route of the table, in declaration order (the sandbox's router and its tests walk it). */
export function allRoutes(): Route[] {
  return Object.values(ROUTES).flatMap((family) => Object.values(family) as Route[]);
}
