/**
 * Rulesets of organisations and repositories, and the rules that apply to a branch (the published
 * description's `repos/*-ruleset*`, `orgs/*-ruleset*` and `repos/get-branch-rules`).
 */
import { z } from "zod";
import { route, STATUS_ONLY, slashed } from "../route";

export * from "./rules";

export const RULESET_TARGETS = ["branch", "tag", "push"] as const;
export type RulesetTarget = (typeof RULESET_TARGETS)[number];
export const RULESET_ENFORCEMENTS = ["disabled", "active", "evaluate"] as const;
export type RulesetEnforcement = (typeof RULESET_ENFORCEMENTS)[number];

/** Who may bypass a ruleset (`repository-ruleset-bypass-actor`). */
export const BYPASS_ACTOR_TYPES = [
  "Integration",
  "OrganizationAdmin",
  "RepositoryRole",
  "Team",
  "DeployKey",
  "EnterpriseOwner",
] as const;
export type BypassActorType = (typeof BYPASS_ACTOR_TYPES)[number];
/** Actor types the platform names without an id (it ignores one given, and answers null). */
export const BYPASS_ACTORS_WITHOUT_ID: readonly BypassActorType[] = [
  "OrganizationAdmin",
  "DeployKey",
  "EnterpriseOwner",
];
export const BYPASS_MODES = ["always", "pull_request"] as const;
export type BypassMode = (typeof BYPASS_MODES)[number];

/** The repository roles a `RepositoryRole` bypass actor names: the platform's base roles' ids. */
export const REPOSITORY_ROLE_IDS: Readonly<Record<number, string>> = {
  1: "read",
  2: "maintain",
  3: "triage",
  4: "write",
  5: "admin",
};

/** Ref name patterns that are not patterns: every branch (or tag), and the default branch. */
export const REF_ALL = "~ALL";
export const REF_DEFAULT_BRANCH = "~DEFAULT_BRANCH";
/** Property targeting reads custom properties (`custom`, the default) or the platform's own (`system`). */
export const PROPERTY_SOURCES = ["custom", "system"] as const;

export const apiBypassActorSchema = z
  .object({
    actor_id: z.number().int().nullable().optional(),
    actor_type: z.enum(BYPASS_ACTOR_TYPES),
    bypass_mode: z.enum(BYPASS_MODES).optional(),
  })
  .loose();
export type ApiBypassActor = z.infer<typeof apiBypassActorSchema>;

const includeExclude = { include: z.array(z.string()).optional(), exclude: z.array(z.string()).optional() };

export const apiPropertyTargetSchema = z
  .object({
    name: z.string(),
    property_values: z.array(z.string()),
    source: z.enum(PROPERTY_SOURCES).optional(),
  })
  .loose();
export type ApiPropertyTarget = z.infer<typeof apiPropertyTargetSchema>;

/** Conditions of either kind of ruleset (a repository's has `ref_name` only). */
export const apiConditionsSchema = z
  .object({
    ref_name: z.object(includeExclude).loose().optional(),
    repository_name: z
      .object({ ...includeExclude, protected: z.boolean().optional() })
      .loose()
      .optional(),
    repository_property: z
      .object({
        include: z.array(apiPropertyTargetSchema).optional(),
        exclude: z.array(apiPropertyTargetSchema).optional(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type ApiConditions = z.infer<typeof apiConditionsSchema>;

export const apiRuleSchema = z
  .object({ type: z.string(), parameters: z.record(z.string(), z.unknown()).optional() })
  .loose();

/** A ruleset as the API answers it (`repository-ruleset`). */
export const apiRulesetSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    target: z.enum(RULESET_TARGETS).optional(),
    source_type: z.enum(["Repository", "Organization"]).optional(),
    source: z.string(),
    enforcement: z.enum(RULESET_ENFORCEMENTS),
    bypass_actors: z.array(apiBypassActorSchema).optional(),
    node_id: z.string().optional(),
    conditions: apiConditionsSchema.nullable().optional(),
    rules: z.array(apiRuleSchema).optional(),
  })
  .loose();
export type ApiRuleset = z.infer<typeof apiRulesetSchema>;

/** The body of a ruleset's create (POST) and update (PUT): the whole ruleset. */
export interface ApiRulesetWrite {
  name: string;
  target: RulesetTarget;
  enforcement: RulesetEnforcement;
  bypass_actors: ApiBypassActor[];
  conditions?: ApiConditions;
  rules: Array<{ type: string; parameters?: Record<string, unknown> }>;
}

/** A rule that applies to a branch, with the ruleset it comes from (`repository-rule-detailed`). */
export const apiBranchRuleSchema = z
  .object({
    type: z.string(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    ruleset_source_type: z.enum(["Repository", "Organization"]),
    ruleset_source: z.string(),
    ruleset_id: z.number().int(),
  })
  .loose();
export type ApiBranchRule = z.infer<typeof apiBranchRuleSchema>;

const ORG = "/orgs/{org}/rulesets";
const REPO = "/repos/{owner}/{repo}/rulesets";

export const rulesetsRoutes = {
  orgRulesets: {
    list: route(`GET ${ORG}`, { list: apiRulesetSchema }),
    create: route(`POST ${ORG}`, { body: apiRulesetSchema }),
    get: route(`GET ${ORG}/{ruleset_id}`, { body: apiRulesetSchema }),
    update: route(`PUT ${ORG}/{ruleset_id}`, { body: apiRulesetSchema }),
    delete: route(`DELETE ${ORG}/{ruleset_id}`, STATUS_ONLY),
  },
  repoRulesets: {
    list: route(`GET ${REPO}`, { list: apiRulesetSchema }),
    create: route(`POST ${REPO}`, { body: apiRulesetSchema }),
    get: route(`GET ${REPO}/{ruleset_id}`, { body: apiRulesetSchema }),
    update: route(`PUT ${REPO}/{ruleset_id}`, { body: apiRulesetSchema }),
    delete: route(`DELETE ${REPO}/{ruleset_id}`, STATUS_ONLY),
  },
  branchRules: {
    /** Branch names may hold slashes (`release/1.0`). */
    get: slashed(
      route("GET /repos/{owner}/{repo}/rules/branches/{branch}", { list: apiBranchRuleSchema }),
      "branch",
    ),
  },
} as const;
