/** Rulesets: OrgRuleset and RepositoryRuleset. */
export * from "./org-ruleset";
export * from "./repository-ruleset";
export type {
  OrgRulesetConditionsArgs,
  RepositoryRulesetConditionsArgs,
  RulesetBypassActorArgs,
  RulesetRuleArgs,
} from "./schema";
