import { z } from "zod";
import { route, STATUS_ONLY } from "./route";

/** What the API shows in place of a stored webhook secret. */
export const MASKED_SECRET = "********";

export const WEBHOOK_CONTENT_TYPES = ["json", "form"] as const;

/** Events a global webhook may subscribe to (spec, Events 2). */
export const GLOBAL_WEBHOOK_EVENTS = [
  "organization",
  "user",
  "repository",
  "team",
  "member",
  "membership",
  "fork",
  "ping",
] as const;
export const GLOBAL_WEBHOOK_DEFAULT_EVENTS: Array<(typeof GLOBAL_WEBHOOK_EVENTS)[number]> = [
  "user",
  "organization",
];
export const REPOSITORY_WEBHOOK_DEFAULT_EVENTS = ["push"];

/**
 * Repository event names the sandbox server accepts. The spec leaves the full list out; these are
 * the platform's documented webhook events. The provider only checks the form of a name, so a new
 * event on a real server is never refused client-side.
 */
export const REPOSITORY_WEBHOOK_EVENTS = [
  "*",
  "branch_protection_rule",
  "check_run",
  "check_suite",
  "code_scanning_alert",
  "commit_comment",
  "create",
  "delete",
  "dependabot_alert",
  "deploy_key",
  "deployment",
  "deployment_protection_rule",
  "deployment_review",
  "deployment_status",
  "discussion",
  "discussion_comment",
  "fork",
  "gollum",
  "issue_comment",
  "issues",
  "label",
  "member",
  "merge_group",
  "meta",
  "milestone",
  "package",
  "page_build",
  "public",
  "pull_request",
  "pull_request_review",
  "pull_request_review_comment",
  "pull_request_review_thread",
  "push",
  "registry_package",
  "release",
  "repository",
  "repository_dispatch",
  "repository_import",
  "repository_vulnerability_alert",
  "secret_scanning_alert",
  "security_advisory",
  "star",
  "status",
  "team_add",
  "watch",
  "workflow_dispatch",
  "workflow_job",
  "workflow_run",
] as const;

/**
 * Organisation event names the sandbox server accepts: the repository events (an organisation hook
 * hears every repository of the organisation) and the organisation's own. As for repositories, the
 * provider checks only the form of a name.
 */
export const ORG_WEBHOOK_EVENTS = [
  ...REPOSITORY_WEBHOOK_EVENTS,
  "custom_property",
  "custom_property_values",
  "membership",
  "org_block",
  "organization",
  "projects_v2",
  "projects_v2_item",
  "repository_ruleset",
  "security_and_analysis",
  "team",
] as const;
export const ORG_WEBHOOK_DEFAULT_EVENTS = ["push"];

export const EVENT_NAME_PATTERN = /^(\*|[a-z][a-z0-9_]*)$/;

export const apiWebhookConfigSchema = z.object({
  url: z.string().optional(),
  content_type: z.string().optional(),
  insecure_ssl: z.union([z.string(), z.number()]).optional(),
  secret: z.string().optional(),
});

export const apiWebhookSchema = z.object({
  type: z.string().optional(),
  id: z.number().int(),
  name: z.string().optional(),
  active: z.boolean(),
  events: z.array(z.string()),
  config: apiWebhookConfigSchema,
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  url: z.string().optional(),
  ping_url: z.string().optional(),
  test_url: z.string().optional(),
  deliveries_url: z.string().optional(),
  last_response: z
    .object({ code: z.number().nullable(), status: z.string().nullable(), message: z.string().nullable() })
    .partial()
    .nullable()
    .optional(),
});

export type ApiWebhook = z.infer<typeof apiWebhookSchema>;
export type ApiWebhookConfig = z.infer<typeof apiWebhookConfigSchema>;

/** The body of a webhook create or full update, as the provider sends it. */
export interface ApiWebhookWrite {
  name?: "web";
  active: boolean;
  events: string[];
  config: { url: string; content_type: string; insecure_ssl: "0" | "1"; secret?: string };
}

/** `insecure_ssl` arrives as "0"/"1" or 0/1; anything else is invalid. */
export function normaliseInsecureSsl(value: unknown): "0" | "1" | undefined {
  if (value === 0 || value === "0") return "0";
  if (value === 1 || value === "1") return "1";
  return undefined;
}

const REPO_HOOKS = "/repos/{owner}/{repo}/hooks";
const ORG_HOOKS = "/orgs/{org}/hooks";

export const webhooksRoutes = {
  repoHooks: {
    list: route(`GET ${REPO_HOOKS}`, { list: apiWebhookSchema }),
    create: route(`POST ${REPO_HOOKS}`, { body: apiWebhookSchema }),
    get: route(`GET ${REPO_HOOKS}/{hook_id}`, { body: apiWebhookSchema }),
    update: route(`PATCH ${REPO_HOOKS}/{hook_id}`, { body: apiWebhookSchema }),
    delete: route(`DELETE ${REPO_HOOKS}/{hook_id}`, STATUS_ONLY),
    getConfig: route(`GET ${REPO_HOOKS}/{hook_id}/config`),
    updateConfig: route(`PATCH ${REPO_HOOKS}/{hook_id}/config`),
    deliveries: route(`GET ${REPO_HOOKS}/{hook_id}/deliveries`),
    ping: route(`POST ${REPO_HOOKS}/{hook_id}/pings`),
    test: route(`POST ${REPO_HOOKS}/{hook_id}/tests`),
  },
  orgHooks: {
    list: route(`GET ${ORG_HOOKS}`, { list: apiWebhookSchema }),
    create: route(`POST ${ORG_HOOKS}`, { body: apiWebhookSchema }),
    get: route(`GET ${ORG_HOOKS}/{hook_id}`, { body: apiWebhookSchema }),
    update: route(`PATCH ${ORG_HOOKS}/{hook_id}`, { body: apiWebhookSchema }),
    delete: route(`DELETE ${ORG_HOOKS}/{hook_id}`, STATUS_ONLY),
    getConfig: route(`GET ${ORG_HOOKS}/{hook_id}/config`),
    updateConfig: route(`PATCH ${ORG_HOOKS}/{hook_id}/config`),
    deliveries: route(`GET ${ORG_HOOKS}/{hook_id}/deliveries`),
    ping: route(`POST ${ORG_HOOKS}/{hook_id}/pings`),
  },
  globalHooks: {
    list: route("GET /admin/hooks", { list: apiWebhookSchema }),
    create: route("POST /admin/hooks", { body: apiWebhookSchema }),
    get: route("GET /admin/hooks/{hook_id}", { body: apiWebhookSchema }),
    update: route("PATCH /admin/hooks/{hook_id}", { body: apiWebhookSchema }),
    delete: route("DELETE /admin/hooks/{hook_id}", STATUS_ONLY),
    ping: route("POST /admin/hooks/{hook_id}/pings"),
  },
} as const;
