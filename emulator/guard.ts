/**
 * What every API route runs before its handler, in this order: authentication (401), the API
 * version (400), the secondary rate limit (403), then the route's access rule (403, or 404 on
 * site-administration routes). A request refused at one step never reaches the next, so an
 * anonymous request neither learns about versions nor uses up the rate limit. Every answer, the
 * refusals included, names what the endpoint accepts (`describeAccess`).
 */
import type { Context, MiddlewareHandler } from "hono";
import { KNOWN_API_VERSIONS } from "../provider/client/schemas";
import { type AccessRule, authenticate, describeAccess, refusal } from "./auth";
import type { ServerEnv } from "./context";
import { ApiFailure, apiPath, badRequest, unauthorized } from "./http";

/** The rule of each guard, so tests can read what a served route needs (its API version). */
const RULES = new WeakMap<object, AccessRule>();

/** The access rule a route's handler enforces, when the handler is a guard. */
export function ruleOf(handler: unknown): AccessRule | undefined {
  return typeof handler === "function" ? RULES.get(handler) : undefined;
}

export function guard(rule: AccessRule): MiddlewareHandler<ServerEnv> {
  const middleware: MiddlewareHandler<ServerEnv> = async (c, next) => {
    describeAccess(c, rule);
    const caller = authenticate(c);
    if (caller?.token.kind === "classic") c.header("X-OAuth-Scopes", caller.token.scopes.join(", "));
    if (!caller && !rule.public) throw unauthorized();
    checkApiVersion(c, rule);
    checkSecondaryRateLimit(c);
    // Public routes serve callers the rule does not grant; the handler picks what they may see.
    const refused = caller && !rule.public ? refusal(caller, rule) : undefined;
    if (refused) throw refused;
    c.set("caller", caller);
    await next();
  };
  RULES.set(middleware, rule);
  return middleware;
}

function checkApiVersion(c: Context<ServerEnv>, rule: AccessRule): void {
  const requested = c.req.header("x-service-api-version");
  if (requested !== undefined && !(KNOWN_API_VERSIONS as readonly string[]).includes(requested)) {
    throw badRequest(
      `Unsupported API version ${requested}. Supported versions: ${KNOWN_API_VERSIONS.join(", ")}`,
    );
  }
  if (rule.apiVersion !== undefined && requested !== rule.apiVersion) {
    throw badRequest(
      `This endpoint requires the header X-Service-Api-Version: ${rule.apiVersion}; got ${requested ?? "none"}`,
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
