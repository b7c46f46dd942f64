/** The Actions family's API routes: secrets, then variables, of every scope. */
import type { Hono } from "hono";
import type { ServerEnv } from "../../core/context";
import { secretRoutes } from "./secret-routes";
import { variableRoutes } from "./variable-routes";

export function actionsRoutes(app: Hono<ServerEnv>): void {
  secretRoutes(app);
  variableRoutes(app);
}
