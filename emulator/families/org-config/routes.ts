/**
 * Organisation configuration that infrastructure code manages: blocked users, issue types, issue
 * fields and the organisation's settings (spec, permission matrix, Organization permissions), registered together.
 */
import type { Hono } from "hono";
import type { ServerEnv } from "../../core/context";
import { issueFieldRoutes } from "./issue-fields";
import { issueTypeRoutes } from "./issue-types";
import { orgBlockRoutes } from "./org-blocks";
import { orgSettingsRoutes } from "./org-settings";

export function orgConfigRoutes(app: Hono<ServerEnv>): void {
  orgBlockRoutes(app);
  issueTypeRoutes(app);
  issueFieldRoutes(app);
  orgSettingsRoutes(app);
}
