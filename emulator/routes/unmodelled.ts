/**
 * The routes of the API the sandbox server does not model: those the spec knows only from its
 * permission matrix, whose request and response bodies it does not show. Each still answers as
 * the platform's auth rules say (401, 403, 404 for the callers they refuse); a caller they allow
 * gets a 501 that says the sandbox does not model the route, never a silent 404 that reads as
 * "gone" (README, "Sandbox").
 *
 * Registered after every family: a route of the table no family registered lands here.
 */
import type { Hono } from "hono";
import { allRoutes, type Route } from "../../provider/client/routes";
import type { AccessRule } from "../auth";
import type { ServerEnv } from "../context";
import { guard } from "../guard";
import { ApiFailure } from "../http";

/** The auth rule of each unmodelled route, by route name (`METHOD /template`). */
export const UNMODELLED_ACCESS: Readonly<Record<string, AccessRule>> = {};

export function unmodelledRoutes(app: Hono<ServerEnv>): void {
  const served = new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`));
  for (const route of allRoutes()) {
    if (served.has(`${route.method} ${route.pattern}`)) continue;
    app.on(route.method, route.pattern, guard(UNMODELLED_ACCESS[route.name] ?? {}), () => {
      throw notModelled(route);
    });
  }
}

/** The 501 of a route the sandbox knows but does not model. */
export function notModelled(route: Route): ApiFailure {
  return new ApiFailure(
    501,
    `The sandbox server does not model ${route.name}: the route exists on the platform, but its request and response bodies are not specified`,
  );
}
