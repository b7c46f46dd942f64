/**
 * What every API route runs before its handler, in this order: authentication (401), the API
 * version (400), the secondary rate limit (403), then the route's access rule (403, or 404 on
 * site-administration routes). A request refused at one step never reaches the next, so an
 * anonymous request neither learns about versions nor uses up the rate limit. Every answer, the
 * refusals included, names what the endpoint accepts (`describeAccess`). The version a route
 * needs is the one the route table declares for it, the version the client sends.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { API_VERSION_DEFAULT, allRoutes, KNOWN_API_VERSIONS, type Route } from "../../api";
import { type AccessRule, authenticate, describeAccess, refusal } from "./auth";
import type { ServerEnv } from "./context";
import { API_PREFIX, ApiFailure, apiPath, badRequest, unauthorized } from "./http";

/** The routes of the table by how the router registered them (`GET /api/v3/repos/:owner/:repo/hooks`). */
let registered: Map<string, Route> | undefined;

/** The route of the table whose handler is running, as the router matched it. */
function servedRoute(c: Context<ServerEnv>): Route | undefined {
  registered ??= new Map(allRoutes().map((r) => [`${r.method} ${API_PREFIX}${r.pattern}`, r]));
  const served = matchedRoutes(c)[c.req.routeIndex];
  return served && registered.get(`${served.method} ${served.path}`);
}

/**
 * The one `X-Service-Api-Version` a route exists in: the version the route table declares for it,
 * when that is not the default (budgets, notifications, ...: 2026-03-10 only); undefined for
 * routes served in every known version.
 */
export function onlyVersionOf(route: Pick<Route, "apiVersion"> | undefined): string | undefined {
  return route === undefined || route.apiVersion === API_VERSION_DEFAULT ? undefined : route.apiVersion;
}

export function guard(rule: AccessRule): MiddlewareHandler<ServerEnv> {
  const middleware: MiddlewareHandler<ServerEnv> = async (c, next) => {
    describeAccess(c, rule);
    const caller = authenticate(c);
    if (caller?.token.kind === "classic") c.header("X-OAuth-Scopes", caller.token.scopes.join(", "));
    if (!caller && !rule.public) throw unauthorized();
    checkApiVersion(c);
    checkSecondaryRateLimit(c);
    // Public routes serve callers the rule does not grant; the handler picks what they may see.
    const refused = caller && !rule.public ? refusal(caller, rule) : undefined;
    if (refused) throw refused;
    c.set("caller", caller);
    await next();
  };
  return middleware;
}

function checkApiVersion(c: Context<ServerEnv>): void {
  const requested = c.req.header("x-service-api-version");
  if (requested !== undefined && !(KNOWN_API_VERSIONS as readonly string[]).includes(requested)) {
    throw badRequest(
      `Unsupported API version ${requested}. Supported versions: ${KNOWN_API_VERSIONS.join(", ")}`,
    );
  }
  const only = onlyVersionOf(servedRoute(c));
  if (only !== undefined && requested !== only) {
    throw badRequest(
      `This endpoint requires the header X-Service-Api-Version: ${only}; got ${requested ?? "none"}`,
    );
  }
  c.header("X-Service-Api-Version-Selected", requested ?? KNOWN_API_VERSIONS[0]);
}

function checkSecondaryRateLimit(c: Context<ServerEnv>): void {
  const mode = c.get("controls").takeRateLimit(c.req.method, apiPath(c.req.url));
  if (!mode) return;
  throw new ApiFailure(
    403,
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
    undefined,
    { "retry-after": String(mode.retryAfter) },
  );
}
