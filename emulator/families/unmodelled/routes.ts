/**
 * The routes of the API the sandbox server does not model: those the spec knows only from its
 * permission matrix, whose request and response bodies it does not show. Each still answers as
 * the platform's auth rules say (401, 403, 404 for the callers they refuse); a caller they allow
 * gets a 501 that says the sandbox does not model the route, never a silent 404 that reads as
 * "gone" (README, "Sandbox").
 *
 * Registered after every family: a route of the table no family registered lands here.
 */
import type { Context, Hono } from "hono";
import { allRoutes, ROUTES, type Route } from "../../../api";
import type { AccessRule } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import { guard } from "../../core/guard";
import { ApiFailure, notFound } from "../../core/http";
import { findOrg, findUser, readableRepo } from "../../core/lookup";

/** The header naming the route a 501 comes from, so a client tells it from the platform's errors. */
export const NOT_MODELLED_HEADER = "X-Sandbox-Not-Modelled";

/** A fine-grained or app permission group and its level. */
const FG = (group: string, level: "read" | "write"): Pick<AccessRule, "permission"> => ({
  permission: [group, level],
});
/** "UAT only" rows of the permission matrix: an installation token is refused outright. */
const UAT_ONLY: Pick<AccessRule, "refuse"> = { refuse: ["app_installation"] };

/**
 * The rule of each route (docs/DECISIONS.md, "Unmodelled routes: their access rules"): the access
 * level and token kinds of the spec's permission matrix, the platform's permission group (named as
 * the spec names the product: `assistant` for copilot, `workspaces` for codespaces) and the classic
 * scopes the platform documents. No scopes: any classic token.
 */
const RULES: Array<[Route, AccessRule]> = [
  // Organization permissions (UAT and IAT).
  ...Object.values(ROUTES.campaigns).map((r): [Route, AccessRule] => [
    r,
    { scopes: ["security_events"], ...FG("organization_campaigns", r.method === "GET" ? "read" : "write") },
  ]),
  [
    ROUTES.contentExclusion.get,
    { scopes: ["assistant", "read:org"], ...FG("organization_assistant_content_exclusion", "read") },
  ],
  [
    ROUTES.contentExclusion.set,
    { scopes: ["assistant"], ...FG("organization_assistant_content_exclusion", "write") },
  ],
  [ROUTES.events.orgEventsForUser, { ...FG("organization_events", "read"), ...UAT_ONLY }],
  ...Object.values(ROUTES.workspaceAccess).map((r): [Route, AccessRule] => [
    r,
    { scopes: ["admin:org"], ...FG("organization_workspaces_settings", "write") },
  ]),
  ...Object.values(ROUTES.patRequests).map((r): [Route, AccessRule] => [
    r,
    {
      scopes: ["admin:org"],
      ...FG("organization_personal_access_token_requests", r.method === "GET" ? "read" : "write"),
    },
  ]),
  ...Object.values(ROUTES.pats).map((r): [Route, AccessRule] => [
    r,
    {
      scopes: ["admin:org"],
      ...FG("organization_personal_access_tokens", r.method === "GET" ? "read" : "write"),
    },
  ]),
  // Repository permissions (UAT and IAT unless stated).
  [ROUTES.codeQuality.findings, { scopes: ["repo"], ...FG("code_quality", "read") }],
  [ROUTES.codeQuality.finding, { scopes: ["repo"], ...FG("code_quality", "read") }],
  [ROUTES.workspacesMetadata.devcontainers, { scopes: ["workspace"], ...FG("workspaces_metadata", "read") }],
  [ROUTES.workspacesMetadata.machines, { scopes: ["workspace"], ...FG("workspaces_metadata", "read") }],
  [
    ROUTES.workspacesMetadata.workspaceMachines,
    { scopes: ["workspace"], ...FG("workspaces_metadata", "read"), ...UAT_ONLY },
  ],
  [ROUTES.commitStatuses.create, { scopes: ["repo:status"], ...FG("statuses", "write") }],
  // Statuses of a public repository are public.
  [ROUTES.commitStatuses.combined, { scopes: ["repo:status"], ...FG("statuses", "read"), public: true }],
  [ROUTES.commitStatuses.list, { scopes: ["repo:status"], ...FG("statuses", "read"), public: true }],
  [ROUTES.agentConfiguration.get, { scopes: ["repo"], ...FG("assistant_agent_settings", "read") }],
  // User permissions (UAT only unless stated).
  ...Object.values(ROUTES.userBlocks).map((r): [Route, AccessRule] => [
    r,
    { scopes: ["user"], ...FG("blocking", r.method === "GET" ? "read" : "write"), ...UAT_ONLY },
  ]),
  ...Object.values(ROUTES.emails).map((r): [Route, AccessRule] => [
    r,
    r.method === "GET"
      ? { scopes: ["user:email"], ...FG("email_addresses", "read"), ...UAT_ONLY }
      : { scopes: ["user"], ...FG("email_addresses", "write"), ...UAT_ONLY },
  ]),
  // Reading followers needs no scope; following and unfollowing need user:follow.
  ...Object.values(ROUTES.followers).map((r): [Route, AccessRule] => [
    r,
    r.method === "GET"
      ? { ...FG("followers", "read"), ...UAT_ONLY }
      : { scopes: ["user:follow"], ...FG("followers", "write"), ...UAT_ONLY },
  ]),
  ...Object.values(ROUTES.gists).map((r): [Route, AccessRule] => [
    r,
    { scopes: ["gist"], ...FG("gists", "write"), ...UAT_ONLY },
  ]),
  ...Object.values(ROUTES.interactionLimits).map((r): [Route, AccessRule] => [
    r,
    { scopes: ["user"], ...FG("interaction_limits", r.method === "GET" ? "read" : "write"), ...UAT_ONLY },
  ]),
  ...Object.values(ROUTES.billingUsage).map((r): [Route, AccessRule] => [
    r,
    { scopes: ["user"], ...FG("plan", "read"), ...UAT_ONLY },
  ]),
  ...Object.values(ROUTES.profile).map((r): [Route, AccessRule] => [
    r,
    { scopes: ["user"], ...FG("profile", "write"), ...UAT_ONLY },
  ]),
  [ROUTES.subscriptions.mine, { ...FG("watching", "read"), ...UAT_ONLY }],
  // UAT and IAT; a user's watched repositories are public.
  [ROUTES.subscriptions.forUser, { ...FG("watching", "read"), public: true }],
];

/** The auth rule of each unmodelled route, by route name (`METHOD /template`). */
export const UNMODELLED_ACCESS: Readonly<Record<string, AccessRule>> = Object.fromEntries(
  RULES.map(([r, rule]) => [r.name, rule]),
);

export function unmodelledRoutes(app: Hono<ServerEnv>): void {
  const served = new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`));
  for (const route of allRoutes()) {
    if (served.has(`${route.method} ${route.pattern}`)) continue;
    const rule = UNMODELLED_ACCESS[route.name] ?? {};
    app.on(route.method, route.pattern, guard(rule), (c) => {
      resolvePath(c, rule);
      throw notModelled(route);
    });
  }
}

/**
 * The objects the path names that the sandbox knows, as the platform finds them before it acts: an
 * unknown organisation, user or repository is a 404, and so is a private repository the caller
 * may not see (on public routes, which let everyone past the guard). Objects the sandbox does not
 * model (campaigns, gists, statuses...) are not looked up.
 */
function resolvePath(c: Context<ServerEnv>, rule: AccessRule): void {
  const state = c.get("store").state;
  const params = c.req.param() as Record<string, string | undefined>;
  if (params.org !== undefined && !findOrg(state, params.org)) throw notFound();
  if (params.username !== undefined && !findUser(state, params.username)) throw notFound();
  if (params.owner !== undefined && params.repo !== undefined) {
    readableRepo(state, c.get("caller"), params.owner, params.repo, rule);
  }
}

/**
 * The 501 of a route the sandbox knows but does not model: the platform's error body, and the
 * route's name in `X-Sandbox-Not-Modelled`, so a client (or a test) tells it from any other 501.
 */
export function notModelled(route: Route): ApiFailure {
  return new ApiFailure(
    501,
    `The sandbox server does not model ${route.name}: the route exists on the platform, but its request and response bodies are not specified`,
    undefined,
    { [NOT_MODELLED_HEADER]: route.name },
  );
}
