import { z } from "zod";
import { itemsOf } from "./pagination";
import { route, STATUS_ONLY } from "./route";

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

/** The platform's limits on an environment (the published description of `PUT .../environments/{name}`). */
export const ENVIRONMENT_WAIT_TIMER_MAX = 43_200;
export const ENVIRONMENT_REVIEWERS_MAX = 6;
export const ENVIRONMENT_NAME_MAX = 255;
export const REVIEWER_TYPES = ["User", "Team"] as const;
export type ReviewerType = (typeof REVIEWER_TYPES)[number];
export const BRANCH_POLICY_TYPES = ["branch", "tag"] as const;
export type BranchPolicyType = (typeof BRANCH_POLICY_TYPES)[number];

/**
 * One of an environment's built-in protection rules as the platform shows it: `wait_timer` (with
 * `wait_timer`), `required_reviewers` (with `prevent_self_review` and `reviewers`, each
 * `{type, reviewer}` where the reviewer is a user summary or a team) or `branch_policy`.
 */
export const apiEnvironmentProtectionRuleSchema = z
  .object({
    id: z.number().int(),
    node_id: z.string().optional(),
    type: z.string(),
    wait_timer: z.number().int().optional(),
    prevent_self_review: z.boolean().optional(),
    reviewers: z
      .array(
        z
          .object({ type: z.enum(REVIEWER_TYPES), reviewer: z.object({ id: z.number().int() }).loose() })
          .loose(),
      )
      .optional(),
  })
  .loose();

/** `deployment_branch_policy`: null means every branch may deploy. */
export const apiDeploymentBranchPolicySettingsSchema = z.object({
  protected_branches: z.boolean(),
  custom_branch_policies: z.boolean(),
});

/** An environment (`GET /repos/{owner}/{repo}/environments/{environment_name}`, and each of the list). */
export const apiEnvironmentSchema = z
  .object({
    id: z.number().int(),
    node_id: z.string().optional(),
    name: z.string(),
    url: z.string().optional(),
    html_url: z.string().optional(),
    created_at: z.string(),
    updated_at: z.string(),
    protection_rules: z.array(apiEnvironmentProtectionRuleSchema).optional(),
    deployment_branch_policy: apiDeploymentBranchPolicySettingsSchema.nullable().optional(),
  })
  .loose();
export type ApiEnvironment = z.infer<typeof apiEnvironmentSchema>;

/** The body of `PUT .../environments/{environment_name}` as the provider sends it: the whole settings. */
export interface ApiEnvironmentWrite {
  wait_timer: number;
  prevent_self_review: boolean;
  reviewers: Array<{ type: ReviewerType; id: number }>;
  deployment_branch_policy: { protected_branches: boolean; custom_branch_policies: boolean } | null;
}

/** A deployment branch (or tag) policy: a name pattern refs must match to deploy to the environment. */
export const apiBranchPolicySchema = z.object({
  id: z.number().int(),
  node_id: z.string().optional(),
  name: z.string(),
  type: z.enum(BRANCH_POLICY_TYPES).optional(),
});
export type ApiBranchPolicy = z.infer<typeof apiBranchPolicySchema>;

const ENVIRONMENTS = "/repos/{owner}/{repo}/environments";
const ENVIRONMENT = `${ENVIRONMENTS}/{environment_name}`;
const BRANCH_POLICIES = `${ENVIRONMENT}/deployment-branch-policies`;
const RULES = `${ENVIRONMENT}/deployment_protection_rules`;

/**
 * The integrations of a page of `.../deployment_protection_rules/apps`, which is an array of two
 * objects (spec, table P): `[{total_count}, {available_custom_deployment_protection_rule_integrations: [...]}]`.
 */
const availableIntegrations = (page: unknown): unknown =>
  apiAvailableIntegrationsPageSchema.safeParse(page).data?.[1][AVAILABLE_INTEGRATIONS_KEY];

export const environmentsRoutes = {
  /** `environment_name` is URL-encoded (`release%2Feu`), as every path parameter is. */
  environments: {
    list: route(`GET ${ENVIRONMENTS}`, { list: apiEnvironmentSchema, select: itemsOf("environments") }),
    get: route(`GET ${ENVIRONMENT}`, { body: apiEnvironmentSchema }),
    /** Creates the environment or replaces its settings: the whole body, every time. */
    put: route(`PUT ${ENVIRONMENT}`, { body: apiEnvironmentSchema }),
    delete: route(`DELETE ${ENVIRONMENT}`, STATUS_ONLY),
  },
  branchPolicies: {
    list: route(`GET ${BRANCH_POLICIES}`, {
      list: apiBranchPolicySchema,
      select: itemsOf("branch_policies"),
    }),
    create: route(`POST ${BRANCH_POLICIES}`, { body: apiBranchPolicySchema }),
    get: route(`GET ${BRANCH_POLICIES}/{branch_policy_id}`, { body: apiBranchPolicySchema }),
    update: route(`PUT ${BRANCH_POLICIES}/{branch_policy_id}`, { body: apiBranchPolicySchema }),
    delete: route(`DELETE ${BRANCH_POLICIES}/{branch_policy_id}`, STATUS_ONLY),
  },
  protectionRules: {
    list: route(`GET ${RULES}`, { body: apiDeploymentProtectionRuleListSchema }),
    create: route(`POST ${RULES}`, { body: apiDeploymentProtectionRuleSchema }),
    apps: route(`GET ${RULES}/apps`, { list: apiProtectionRuleAppSchema, select: availableIntegrations }),
    get: route(`GET ${RULES}/{protection_rule_id}`, { body: apiDeploymentProtectionRuleSchema }),
    delete: route(`DELETE ${RULES}/{protection_rule_id}`, STATUS_ONLY),
  },
} as const;
