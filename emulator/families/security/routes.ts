/**
 * The security and review families: dependency snapshots, dependency alerts, issue field values
 * and pull request review requests, registered together (and their control routes).
 */
import type { Hono } from "hono";
import type { ServerEnv } from "../../core/context";
import { dependencyAlertControls, dependencyAlertRoutes } from "./alert-routes";
import { issueFieldValueRoutes } from "./issue-field-values";
import { reviewRequestRoutes } from "./review-requests";
import { dependencySnapshotControls, dependencySnapshotRoutes } from "./snapshot-routes";

export function securityRoutes(app: Hono<ServerEnv>): void {
  dependencySnapshotRoutes(app);
  dependencyAlertRoutes(app);
  issueFieldValueRoutes(app);
  reviewRequestRoutes(app);
}

export function securityControls(app: Hono<ServerEnv>): void {
  dependencySnapshotControls(app);
  dependencyAlertControls(app);
}
