import { z } from "zod";
import { apiUserSummarySchema } from "./meta";
import { route, V2026 } from "./route";

/** `state` of a dependency alert; the update sets open or dismissed, the platform the others. */
export const DEPENDENCY_ALERT_STATES = ["auto_dismissed", "dismissed", "fixed", "open"] as const;
export const DEPENDENCY_ALERT_SEVERITIES = ["low", "medium", "high", "critical"] as const;
export const DEPENDENCY_ALERT_ECOSYSTEMS = [
  "composer",
  "go",
  "maven",
  "npm",
  "nuget",
  "pip",
  "pub",
  "rubygems",
  "rust",
] as const;
export const DEPENDENCY_ALERT_SCOPES = ["development", "runtime"] as const;
export const DEPENDENCY_ALERT_SORTS = ["created", "updated", "epss_percentage"] as const;

const apiAlertPackageSchema = z.object({ ecosystem: z.string(), name: z.string() }).loose();

export const apiDependencyAlertSchema = z
  .object({
    number: z.number(),
    state: z.string(),
    dependency: z
      .object({
        package: apiAlertPackageSchema,
        manifest_path: z.string(),
        scope: z.string().nullable().optional(),
      })
      .loose(),
    security_advisory: z
      .object({
        ghsa_id: z.string(),
        cve_id: z.string().nullable(),
        summary: z.string(),
        severity: z.string(),
      })
      .loose(),
    security_vulnerability: z
      .object({
        severity: z.string(),
        vulnerable_version_range: z.string(),
        first_patched_version: z.object({ identifier: z.string() }).loose().nullable(),
      })
      .loose(),
    url: z.string(),
    html_url: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    dismissed_at: z.string().nullable(),
    dismissed_by: apiUserSummarySchema.nullable(),
    dismissed_reason: z.string().nullable(),
    dismissed_comment: z.string().nullable(),
    fixed_at: z.string().nullable(),
    auto_dismissed_at: z.string().nullable().optional(),
    assignees: z.array(apiUserSummarySchema).optional(),
    /** In the enterprise and organisation lists only. */
    repository: z.object({ name: z.string(), full_name: z.string() }).loose().optional(),
  })
  .loose();
export type ApiDependencyAlert = z.infer<typeof apiDependencyAlertSchema>;

const ALERTS = "depwatch/alerts";

export const securityRoutes = {
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
  dependencySnapshots: {
    create: route("POST /repos/{owner}/{repo}/dependency-graph/snapshots"),
  },
  reviewRequests: {
    list: route("GET /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers"),
    request: route("POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers"),
  },
  issueFieldValues: {
    list: route("GET /repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"),
  },
} as const;
