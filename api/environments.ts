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

/** An environment of `GET /repos/{owner}/{repo}/environments` (`{total_count, environments: [...]}`). */
export const apiEnvironmentSummarySchema = z.object({ name: z.string() }).loose();

const RULES = "/repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules";

/**
 * The integrations of a page of `.../deployment_protection_rules/apps`, which is an array of two
 * objects (spec, table P): `[{total_count}, {available_custom_deployment_protection_rule_integrations: [...]}]`.
 */
const availableIntegrations = (page: unknown): unknown =>
  apiAvailableIntegrationsPageSchema.safeParse(page).data?.[1][AVAILABLE_INTEGRATIONS_KEY];

export const environmentsRoutes = {
  protectionRules: {
    environments: route("GET /repos/{owner}/{repo}/environments", {
      list: apiEnvironmentSummarySchema,
      select: itemsOf("environments"),
    }),
    list: route(`GET ${RULES}`, { body: apiDeploymentProtectionRuleListSchema }),
    create: route(`POST ${RULES}`, { body: apiDeploymentProtectionRuleSchema }),
    apps: route(`GET ${RULES}/apps`, { list: apiProtectionRuleAppSchema, select: availableIntegrations }),
    get: route(`GET ${RULES}/{protection_rule_id}`, { body: apiDeploymentProtectionRuleSchema }),
    delete: route(`DELETE ${RULES}/{protection_rule_id}`, STATUS_ONLY),
  },
} as const;
