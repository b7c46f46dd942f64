/**
 * The sandbox's deliberate differences from the platform's published API description, each with
 * what differs and why (mirrored in docs/DECISIONS.md, "Conformance with the published API
 * description"). The conformance check skips nothing else: a difference not listed here fails the
 * test file that met it.
 */

/** What kind of difference the check met. */
export type ViolationKind =
  /** No description has an operation for the route. */
  | "no operation"
  /** The operation does not give the status, and it is not an error any operation may answer. */
  | "status not described"
  /** The description gives a body schema for the status; the sandbox answered without a body. */
  | "body missing"
  /** The description gives the status without a body; the sandbox answered with one. */
  | "unexpected body"
  /** The description gives a JSON body; the sandbox answered another media type. */
  | "media type"
  /** The body breaks the schema (at `at`, by `keyword`). */
  | "schema";

export interface Difference {
  /** `GET`, ..., or `*` for any method. */
  method: string;
  /** The sandbox's route templates (`/repos/{owner}/{repo}/hooks`), or `*` for any route. */
  route: string | readonly string[];
  /** The status, or absent for any. */
  status?: number;
  kind: ViolationKind;
  /** For schema differences: the instance path with array indices as `*` (`/*\/config`). */
  at?: string;
  /** For schema differences: the ajv keyword (`required`, `type`, `format`, ...). */
  keyword?: string;
  /** For a missing required field: its name (any other missing field still fails). */
  missing?: string;
  what: string;
  why: string;
}

const BUDGETS = "/enterprises/{enterprise}/settings/billing/budgets";
const BUDGET = `${BUDGETS}/{budget_id}`;

export const DIFFERENCES: readonly Difference[] = [
  {
    method: "*",
    route: "*",
    status: 422,
    kind: "schema",
    at: "/errors/*",
    keyword: "type",
    what: "Validation errors list objects ({resource, field, code, message}) on every route, where a few operations of the description give plain strings.",
    why: "One error shape across the sandbox, the one most of the description's operations give (validation-error), so a client reads every 422 the same way; the spec does not show error bodies.",
  },
  {
    method: "GET",
    route: [
      "/repos/{owner}/{repo}/depwatch/alerts/{alert_number}",
      "/repos/{owner}/{repo}/depwatch/alerts",
      "/orgs/{org}/depwatch/alerts",
      "/enterprises/{enterprise}/depwatch/alerts",
    ],
    status: 200,
    kind: "schema",
    keyword: "additionalProperties",
    what: "A dependency alert carries `assignees` (and the enterprise list's `repository`), which the ghes-3.19 alert schema, closed to other properties, lacks.",
    why: "The spec's Dependency alert lists `assignees` and the update takes them; the ghec description has them too.",
  },
  {
    method: "PATCH",
    route: "/repos/{owner}/{repo}/depwatch/alerts/{alert_number}",
    status: 200,
    kind: "schema",
    keyword: "additionalProperties",
    what: "The updated alert carries `assignees`.",
    why: "As for the alert reads: the spec lists them.",
  },
  {
    method: "GET",
    route: ["/users/{username}/keys", "/users/{username}/gpg_keys"],
    status: 304,
    kind: "status not described",
    what: "The public key lists answer 304 to a matching conditional request.",
    why: "The spec's Errors table gives 304 for the user key endpoints; the description lists it for the signed-in user's routes only.",
  },
  {
    method: "PUT",
    route: "/repos/{owner}/{repo}/collaborators/{username}",
    status: 201,
    kind: "status not described",
    what: "Adding someone outside the organisation as a collaborator answers 201 with the repository invitation.",
    why: "The project's API notes (shared notes, \"Collaborators\") and the platform's cloud descriptions (ghec, api.github.com) give 201 with a `repository-invitation`; the ghes-3.19 file lists only 204, which the sandbox answers when the person is given the role at once.",
  },
  {
    method: "*",
    route: "*",
    status: 501,
    kind: "status not described",
    what: "Routes the sandbox does not model answer 501 after their auth check.",
    why: "The spec knows these routes from its permission matrix only, without their bodies; a 501 that says so is truer than an invented body or a 404 that reads as 'gone' (README, Sandbox).",
  },
  {
    method: "*",
    route: "*",
    status: 413,
    kind: "status not described",
    what: "A request body over the sandbox's size limit is refused with 413 before it is parsed.",
    why: "The spec states no limit; the sandbox keeps one so one request cannot exhaust its memory (emulator/core/http.ts, MAX_REQUEST_BODY_BYTES). The description lists 413 for uploads only.",
  },
  {
    method: "GET",
    route: BUDGETS,
    status: 200,
    kind: "schema",
    at: "/budgets/*",
    keyword: "required",
    missing: "budget_product_sku",
    what: "Budgets in the list carry budget_product_skus (an array), not budget_product_sku.",
    why: "The spec (concepts, Budget): budget_product_sku in single-budget responses, budget_product_skus in list responses.",
  },
  {
    method: "GET",
    route: BUDGETS,
    status: 200,
    kind: "schema",
    at: "/budgets/*/budget_type",
    what: "budget_type may be BundlePricing; the description knows SkuPricing and ProductPricing only.",
    why: "The spec (concepts, Budget; endpoints, create body) names BundlePricing for budgets over all AI credit SKUs.",
  },
  {
    method: "*",
    route: [BUDGETS, BUDGET],
    kind: "schema",
    at: "/budget/budget_type",
    what: "budget_type may be BundlePricing in the create and update envelopes.",
    why: "As for the list: the spec names BundlePricing, the description does not.",
  },
  {
    method: "GET",
    route: BUDGET,
    status: 200,
    kind: "schema",
    at: "/budget_type",
    what: "budget_type may be BundlePricing in a single budget.",
    why: "As for the list: the spec names BundlePricing, the description does not.",
  },
  {
    method: "DELETE",
    route: BUDGET,
    status: 200,
    kind: "schema",
    at: "",
    keyword: "required",
    missing: "id",
    what: "The delete envelope names the budget budget_id, not id.",
    why: "The spec (concepts, Budget): delete envelope message string, budget_id string.",
  },
  {
    method: "POST",
    route: "/orgs/{org}/private-registries",
    status: 201,
    kind: "schema",
    at: "/username",
    keyword: "type",
    what: "A created registry without a username shows username: null; the description's create response has a string.",
    why: "The spec (concepts, Private registry): username string or null; the description's own read schema is nullable too.",
  },
  {
    method: "GET",
    route: "/repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules/apps",
    status: 200,
    kind: "schema",
    at: "",
    keyword: "type",
    what: "The list of apps for custom protection rules is an array of two objects ({total_count}, then {available_custom_deployment_protection_rule_integrations}), not one object.",
    why: "The spec (endpoints, deployment protection rules, P/apps) gives that array shape.",
  },
];

/** An instance path with its array indices as `*`: `/0/config/url` -> `/*\/config/url`. */
export function pathPattern(instancePath: string): string {
  return instancePath.replace(/\/\d+(?=\/|$)/g, "/*");
}

export interface Met {
  method: string;
  route: string;
  status: number;
  kind: ViolationKind;
  instancePath?: string;
  keyword?: string;
  missing?: string;
}

/** The listed difference `met` is, if any. */
export function allowed(met: Met): Difference | undefined {
  return DIFFERENCES.find(
    (d) =>
      (d.method === "*" || d.method === met.method) &&
      (d.route === "*" ||
        (typeof d.route === "string" ? d.route === met.route : d.route.includes(met.route))) &&
      (d.status === undefined || d.status === met.status) &&
      d.kind === met.kind &&
      (d.at === undefined || (met.instancePath !== undefined && d.at === pathPattern(met.instancePath))) &&
      (d.keyword === undefined || d.keyword === met.keyword) &&
      (d.missing === undefined || d.missing === met.missing),
  );
}
