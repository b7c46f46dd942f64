/**
 * Wire shapes shared by the provider and the sandbox server. Only this module may be imported by
 * both: the server never reaches into resource files.
 */
import { z } from "zod";

/** The API versions the spec lists (`X-Service-Api-Version`); the server refuses others with 400. */
export const API_VERSION_DEFAULT = "2022-11-28";
export const API_VERSION_2026 = "2026-03-10";
export const KNOWN_API_VERSIONS = [API_VERSION_DEFAULT, API_VERSION_2026] as const;
export type ApiVersion = (typeof KNOWN_API_VERSIONS)[number];

/** Roles of an organisation membership (spec, Organization membership). */
export const ORG_MEMBERSHIP_ROLES = ["member", "admin"] as const;
export type OrgMembershipRole = (typeof ORG_MEMBERSHIP_ROLES)[number];
/** `pending` until the user accepts the invitation, then `active`. */
export const ORG_MEMBERSHIP_STATES = ["pending", "active"] as const;
/** `filter` of `GET /orgs/{org}/members`; the two 2fa filters are for owners only. */
export const ORG_MEMBER_FILTERS = ["all", "2fa_disabled", "2fa_insecure"] as const;
/** `role` of `GET /orgs/{org}/members`. */
export const ORG_MEMBER_ROLE_FILTERS = ["all", "admin", "member"] as const;

export const apiOrgMembershipSchema = z.object({
  url: z.string().optional(),
  state: z.string(),
  role: z.string(),
  organization_url: z.string().optional(),
  organization: z.object({ login: z.string() }).loose().optional(),
  user: z.object({ login: z.string() }).loose().optional(),
});
export type ApiOrgMembership = z.infer<typeof apiOrgMembershipSchema>;

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

export const apiRunnerGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  visibility: z.string(),
  default: z.boolean().optional(),
  runners_url: z.string().optional(),
  selected_organizations_url: z.string().optional(),
  selected_repositories_url: z.string().optional(),
  allows_public_repositories: z.boolean().optional(),
  restricted_to_workflows: z.boolean().optional(),
  selected_workflows: z.array(z.string()).optional(),
  workflow_restrictions_read_only: z.boolean().optional(),
});
export type ApiRunnerGroup = z.infer<typeof apiRunnerGroupSchema>;

export const apiRunnerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  os: z.string().optional(),
  status: z.string().optional(),
  busy: z.boolean().optional(),
  runner_group_id: z.number().int().optional(),
});
export type ApiRunner = z.infer<typeof apiRunnerSchema>;

/** The kinds of custom property (organisation properties of an enterprise, repository properties of an organisation). */
export const PROPERTY_VALUE_TYPES = ["string", "single_select", "multi_select"] as const;
export type PropertyValueType = (typeof PROPERTY_VALUE_TYPES)[number];

/**
 * A custom property name as the platform allows it: letters, digits, `_`, `-`, `$` and `#`, at
 * most 75 characters, no spaces.
 */
export const PROPERTY_NAME_PATTERN = /^[A-Za-z0-9_$#-]{1,75}$/;

/**
 * One custom property value: a string (string and single select properties), strings (multi
 * select), or null (no value). `GET .../values` answers an array of these, `PATCH .../values`
 * takes `{properties: [...]}` of them.
 */
export const apiPropertyValueSchema = z.object({
  property_name: z.string(),
  value: z.union([z.string(), z.array(z.string())]).nullable(),
});
export type ApiPropertyValue = z.infer<typeof apiPropertyValueSchema>;
/**
 * The app of a custom deployment protection rule, and an integration available to an environment
 * (spec, concepts, Deployment protection rule: the same four fields).
 */
export const apiProtectionRuleAppSchema = z.object({
  id: z.number().int(),
  node_id: z.string().optional(),
  slug: z.string(),
  integration_url: z.string().optional(),
});
export type ApiProtectionRuleApp = z.infer<typeof apiProtectionRuleAppSchema>;

export const apiDeploymentProtectionRuleSchema = z.object({
  id: z.number().int(),
  node_id: z.string().optional(),
  enabled: z.boolean(),
  app: apiProtectionRuleAppSchema,
});
export type ApiDeploymentProtectionRule = z.infer<typeof apiDeploymentProtectionRuleSchema>;

/** `GET .../deployment_protection_rules`: every rule of the environment, in one answer. */
export const apiDeploymentProtectionRuleListSchema = z.object({
  total_count: z.number().int(),
  custom_deployment_protection_rules: z.array(apiDeploymentProtectionRuleSchema),
});

/**
 * `GET .../deployment_protection_rules/apps` answers an array of two objects (spec, table P):
 * `{total_count}`, then `{available_custom_deployment_protection_rule_integrations: [...]}`.
 */
export const AVAILABLE_INTEGRATIONS_KEY = "available_custom_deployment_protection_rule_integrations";
export const apiAvailableIntegrationsPageSchema = z.tuple([
  z.object({ total_count: z.number().int() }),
  z.object({ [AVAILABLE_INTEGRATIONS_KEY]: z.array(apiProtectionRuleAppSchema) }),
]);

/** Budget scopes (spec, Budget; table "Enterprise billing budgets", create body). */
export const BUDGET_SCOPES = [
  "enterprise",
  "organization",
  "repository",
  "cost_center",
  "multi_user_customer",
  "user",
] as const;
export type BudgetScope = (typeof BUDGET_SCOPES)[number];
/** Pricing models: a bundle of SKUs, every SKU of a product, or one SKU. */
export const BUDGET_TYPES = ["BundlePricing", "ProductPricing", "SkuPricing"] as const;
export type BudgetType = (typeof BUDGET_TYPES)[number];
/** The one product SKU of a BundlePricing budget: all AI credit SKUs. */
export const BUDGET_BUNDLE_SKU = "ai_credits";
/** Scopes that apply per user: only for the SKUs below, and they must prevent further usage. */
export const BUDGET_PER_USER_SCOPES: readonly BudgetScope[] = ["multi_user_customer", "user"];
export const BUDGET_PER_USER_SKUS = [BUDGET_BUNDLE_SKU, "premium_requests"] as const;
/**
 * Products a ProductPricing budget covers, and SKUs a SkuPricing budget covers. The spec names
 * `actions`, `packages` and `actions_linux` as examples and leaves the list out; these are the
 * platform's billing products and SKUs. The self-managed edition is discontinued (no releases after
 * 2026-07-01), so the list cannot grow, which is why the provider checks against it at preview.
 */
export const BUDGET_PRODUCTS = [
  "actions",
  "packages",
  "codespaces",
  "copilot",
  "git_lfs",
  "advanced_security",
] as const;
export const BUDGET_SKUS = [
  "actions_linux",
  "actions_windows",
  "actions_macos",
  "actions_storage",
  "packages_storage",
  "packages_data_transfer",
  "codespaces_compute",
  "codespaces_storage",
  "git_lfs_storage",
  "git_lfs_bandwidth",
  "premium_requests",
] as const;
/** Every value a budget's `productSku` may take (which ones a budget allows depends on its type). */
export type BudgetProductSku =
  | typeof BUDGET_BUNDLE_SKU
  | (typeof BUDGET_PRODUCTS)[number]
  | (typeof BUDGET_SKUS)[number];

/**
 * A budget as single-budget answers carry it (`budget_product_sku`, a string) and as list items
 * carry it (`budget_product_skus`, an array); `user` names the person of a user-scoped budget.
 * Scope and type are read as strings: a list may hold budgets of kinds this library does not manage.
 */
export const apiBudgetSchema = z.object({
  id: z.string().min(1),
  budget_type: z.string(),
  budget_scope: z.string(),
  budget_entity_name: z.string().optional(),
  budget_amount: z.number(),
  prevent_further_usage: z.boolean(),
  budget_product_sku: z.string().optional(),
  budget_product_skus: z.array(z.string()).optional(),
  budget_alerting: z.object({
    will_alert: z.boolean(),
    alert_recipients: z.array(z.string()),
  }),
  user: z.string().optional(),
});
export type ApiBudget = z.infer<typeof apiBudgetSchema>;

/** `GET .../budgets`: one page of budgets. */
export const apiBudgetListSchema = z.object({
  budgets: z.array(apiBudgetSchema),
  has_next_page: z.boolean(),
  total_count: z.number().int(),
});
/** What create and update answer: `{message, budget}`. */
export const apiBudgetEnvelopeSchema = z.object({ message: z.string(), budget: apiBudgetSchema });
/** What delete answers: `{message, budget_id}`. */
export const apiBudgetDeletedSchema = z.object({ message: z.string(), budget_id: z.string() });

/** The body of a budget create or full update, as the provider sends it. */
export interface ApiBudgetWrite {
  budget_amount: number;
  prevent_further_usage: boolean;
  budget_alerting: { will_alert: boolean; alert_recipients: string[] };
  budget_scope: BudgetScope;
  budget_entity_name: string;
  budget_type: BudgetType;
  budget_product_sku: string;
  user?: string;
}

/** Budget ids are UUIDs (notes/api.md). */
export const BUDGET_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `registry_type` of an organisation private registry (spec, Organization private registries). */
export const PRIVATE_REGISTRY_TYPES = [
  "maven_repository",
  "nuget_feed",
  "goproxy_server",
  "npm_registry",
  "rubygems_server",
  "cargo_registry",
  "composer_repository",
  "docker_registry",
  "git_source",
  "helm_registry",
  "hex_organization",
  "hex_repository",
  "pub_repository",
  "python_index",
  "terraform_registry",
] as const;
export type PrivateRegistryType = (typeof PRIVATE_REGISTRY_TYPES)[number];

/** Which repositories of the organisation may use a private registry. */
export const PRIVATE_REGISTRY_VISIBILITIES = ["all", "private", "selected"] as const;
export type PrivateRegistryVisibility = (typeof PRIVATE_REGISTRY_VISIBILITIES)[number];

/** `auth_type`: fixed at creation. The OIDC ones take no sealed value. */
export const PRIVATE_REGISTRY_AUTH_TYPES = [
  "token",
  "username_password",
  "oidc_azure",
  "oidc_aws",
  "oidc_jfrog",
  "oidc_cloudsmith",
  "oidc_gcp",
] as const;
export type PrivateRegistryAuthType = (typeof PRIVATE_REGISTRY_AUTH_TYPES)[number];
export type PrivateRegistryOidcAuthType = Extract<PrivateRegistryAuthType, `oidc_${string}`>;

/** Every OIDC setting of a private registry, by its wire name. */
export const PRIVATE_REGISTRY_OIDC_FIELDS = [
  "tenant_id",
  "client_id",
  "aws_region",
  "account_id",
  "role_name",
  "domain",
  "domain_owner",
  "jfrog_oidc_provider_name",
  "audience",
  "identity_mapping_name",
  "namespace",
  "service_slug",
  "api_host",
  "workload_identity_provider",
  "service_account",
] as const;
export type PrivateRegistryOidcField = (typeof PRIVATE_REGISTRY_OIDC_FIELDS)[number];

/**
 * The OIDC settings each OIDC auth type requires and accepts (spec, the update body's table). A
 * setting of another auth type is refused: it would be stored and never used.
 */
export const PRIVATE_REGISTRY_OIDC_SETTINGS: Record<
  PrivateRegistryOidcAuthType,
  { required: readonly PrivateRegistryOidcField[]; optional: readonly PrivateRegistryOidcField[] }
> = {
  oidc_azure: { required: ["tenant_id", "client_id"], optional: [] },
  oidc_aws: {
    required: ["aws_region", "account_id", "role_name", "domain", "domain_owner"],
    optional: ["audience"],
  },
  oidc_jfrog: { required: ["jfrog_oidc_provider_name"], optional: ["audience", "identity_mapping_name"] },
  oidc_cloudsmith: { required: ["namespace", "service_slug", "audience"], optional: ["api_host"] },
  oidc_gcp: { required: ["workload_identity_provider"], optional: ["audience", "service_account"] },
};

export function isOidcAuthType(authType: string): authType is PrivateRegistryOidcAuthType {
  return Object.hasOwn(PRIVATE_REGISTRY_OIDC_SETTINGS, authType);
}

/** An OIDC setting as answers carry it (absent or null when unset). */
const oidcSetting = z.string().nullable().optional();

/**
 * A private registry configuration as the API returns it. The spec lists name, registry_type,
 * username, visibility and the timestamps; the platform's answers also carry the URL, auth type,
 * replaces_base, the selected repositories and the OIDC settings, so those are read when present.
 * The value is never returned.
 */
export const apiPrivateRegistrySchema = z.object({
  name: z.string(),
  registry_type: z.string(),
  auth_type: z.string().optional(),
  url: z.string().optional(),
  username: z.string().nullable().optional(),
  replaces_base: z.boolean().optional(),
  visibility: z.string(),
  selected_repository_ids: z.array(z.number().int()).optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  tenant_id: oidcSetting,
  client_id: oidcSetting,
  aws_region: oidcSetting,
  account_id: oidcSetting,
  role_name: oidcSetting,
  domain: oidcSetting,
  domain_owner: oidcSetting,
  jfrog_oidc_provider_name: oidcSetting,
  audience: oidcSetting,
  identity_mapping_name: oidcSetting,
  namespace: oidcSetting,
  service_slug: oidcSetting,
  api_host: oidcSetting,
  workload_identity_provider: oidcSetting,
  service_account: oidcSetting,
});
export type ApiPrivateRegistry = z.infer<typeof apiPrivateRegistrySchema>;

/** `GET /orgs/{org}/private-registries/public-key`: the Curve25519 key values are sealed for (base64). */
export const apiRegistryPublicKeySchema = z.object({ key_id: z.string(), key: z.string() });
export type ApiRegistryPublicKey = z.infer<typeof apiRegistryPublicKeySchema>;

// ---------------------------------------------------------------------------------------------
// What the functions (`provider/functions/`) read. Only the fields they return are required; the
// rest of each object passes through (`loose`).

/** A user as lists show one (`login`, `id`, ...). */
export const apiUserSummarySchema = z.object({ login: z.string(), id: z.number() }).loose();

/** A member of `GET /orgs/{org}/members`: a user summary, with the account type and site-admin flag. */
export const apiOrgMemberSchema = apiUserSummarySchema.extend({
  type: z.string().optional(),
  site_admin: z.boolean().optional(),
});

/** A pending invitation of `GET /orgs/{org}/invitations` (`login` is null for an invitation by email). */
export const apiOrgInvitationSchema = z.object({ login: z.string().nullable(), role: z.string() });

/** `GET /user`: who the token is, as far as error messages need it. */
export const apiSignedInUserSchema = z
  .object({ login: z.string().optional(), site_admin: z.boolean().optional() })
  .loose();

/** A repository as lists show one (`GET /orgs/{org}/repos`, a runner group's repositories). */
export const apiRepositorySummarySchema = z
  .object({ id: z.number().int(), name: z.string(), owner: z.object({ login: z.string() }).loose() })
  .loose();

/** An environment of `GET /repos/{owner}/{repo}/environments` (`{total_count, environments: [...]}`). */
export const apiEnvironmentSummarySchema = z.object({ name: z.string() }).loose();

/** A branch of `GET /repos/{owner}/{repo}/branches` and `.../branches/{branch}`. */
export const apiBranchSchema = z
  .object({
    name: z.string(),
    commit: z.object({ sha: z.string() }).loose(),
    protected: z.boolean(),
  })
  .loose();

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

/** The kinds of `GET /repos/{owner}/{repo}/stats/{kind}`. */
export const STATISTICS_KINDS = [
  "code_frequency",
  "commit_activity",
  "contributors",
  "participation",
  "punch_card",
] as const;
export type StatisticsKind = (typeof STATISTICS_KINDS)[number];

export const apiCodeFrequencySchema = z.array(z.tuple([z.number(), z.number(), z.number()]));
export const apiCommitActivitySchema = z.array(
  z.object({ days: z.array(z.number()), total: z.number(), week: z.number() }).loose(),
);
export const apiContributorsSchema = z.array(
  z
    .object({
      author: apiUserSummarySchema.nullable(),
      total: z.number(),
      weeks: z.array(z.object({ w: z.number(), a: z.number(), d: z.number(), c: z.number() }).loose()),
    })
    .loose(),
);
export const apiParticipationSchema = z
  .object({ all: z.array(z.number()), owner: z.array(z.number()) })
  .loose();
export const apiPunchCardSchema = z.array(z.tuple([z.number(), z.number(), z.number()]));

const apiGpgSubkeySchema = z
  .object({
    id: z.number(),
    key_id: z.string(),
    can_sign: z.boolean(),
    can_encrypt_comms: z.boolean(),
    can_encrypt_storage: z.boolean(),
    can_certify: z.boolean(),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    revoked: z.boolean().optional(),
  })
  .loose();

export const apiGpgKeySchema = z
  .object({
    id: z.number(),
    name: z.string().nullable().optional(),
    primary_key_id: z.number().nullable().optional(),
    key_id: z.string(),
    public_key: z.string(),
    emails: z.array(z.object({ email: z.string(), verified: z.boolean() }).loose()),
    subkeys: z.array(apiGpgSubkeySchema),
    can_sign: z.boolean(),
    can_encrypt_comms: z.boolean(),
    can_encrypt_storage: z.boolean(),
    can_certify: z.boolean(),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    revoked: z.boolean(),
    raw_key: z.string().nullable().optional(),
  })
  .loose();
export type ApiGpgKey = z.infer<typeof apiGpgKeySchema>;

/**
 * An SSH authentication key (`/user/keys`) or signing key (`/user/ssh_signing_keys`) of the
 * signed-in user; `verified`, `read_only` and `last_used` come with authentication keys only.
 */
export const apiSshKeySchema = z
  .object({
    id: z.number(),
    key: z.string(),
    title: z.string().nullable().optional(),
    created_at: z.string().nullable().optional(),
    verified: z.boolean().optional(),
    read_only: z.boolean().optional(),
    last_used: z.string().nullable().optional(),
  })
  .loose();
export type ApiSshKey = z.infer<typeof apiSshKeySchema>;
/** `GET /orgs/{org}` (and the 201 of `POST /admin/organizations`): the organisation summary. */
export const apiOrganizationSchema = z
  .object({ login: z.string(), id: z.number().int(), name: z.string().nullable().optional() })
  .loose();
export type ApiOrganization = z.infer<typeof apiOrganizationSchema>;

/** The colours of issue types and of issue field options (the platform's `issue-type.color`). */
export const ISSUE_COLORS = ["gray", "blue", "green", "yellow", "orange", "red", "pink", "purple"] as const;
export type IssueColor = (typeof ISSUE_COLORS)[number];
export const ISSUE_FIELD_DATA_TYPES = ["text", "date", "single_select", "multi_select", "number"] as const;
export type IssueFieldDataType = (typeof ISSUE_FIELD_DATA_TYPES)[number];
/** The data types whose fields take options. */
export const ISSUE_FIELD_SELECT_TYPES: readonly IssueFieldDataType[] = ["single_select", "multi_select"];
export const ISSUE_FIELD_VISIBILITIES = ["organization_members_only", "all"] as const;
export type IssueFieldVisibility = (typeof ISSUE_FIELD_VISIBILITIES)[number];

export const apiIssueTypeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable().optional(),
  color: z.string().nullable().optional(),
  is_enabled: z.boolean(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type ApiIssueType = z.infer<typeof apiIssueTypeSchema>;

export const apiIssueFieldOptionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable().optional(),
  color: z.string(),
  priority: z.number().int(),
});
export type ApiIssueFieldOption = z.infer<typeof apiIssueFieldOptionSchema>;

export const apiIssueFieldSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable().optional(),
  data_type: z.string(),
  visibility: z.string().optional(),
  options: z.array(apiIssueFieldOptionSchema).nullable().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type ApiIssueField = z.infer<typeof apiIssueFieldSchema>;
