/**
 * pulumi-hosting: Pulumi resources for the settings of a self-managed source-code hosting platform.
 * Public exports only.
 */

// First: what a program compiles from here on goes to Node's compile cache (internal/compile-cache.ts).
import "./internal/compile-cache";

// The routes HostingClient takes: the API's, and `route` to declare another.
export type { BudgetProductSku, Route, RouteDeclaration, RouteParams } from "../api";
export { ROUTES, route } from "../api";
export type { ClientSettings } from "./client/config";
export { normaliseBaseUrl, resolveSettings } from "./client/config";
export type { ApiErrorDetail, HostingErrorCode } from "./client/errors";
export { HostingApiError, isNotFound, isRateLimited } from "./client/errors";
export type { ApiResponse, ClientOptions, RequestOptions } from "./client/http";
export { HostingClient } from "./client/http";
// Functions: reads of what a program does not manage (provider/functions/).
export * from "./functions/index";
export type {
  ActionsVisibility,
  EnvironmentActionsSecretArgs,
  EnvironmentActionsVariableArgs,
  OrgActionsSecretArgs,
  OrgActionsVariableArgs,
  RepositoryActionsSecretArgs,
  RepositoryActionsVariableArgs,
} from "./resources/actions";
export {
  EnvironmentActionsSecret,
  EnvironmentActionsVariable,
  OrgActionsSecret,
  OrgActionsVariable,
  RepositoryActionsSecret,
  RepositoryActionsVariable,
} from "./resources/actions";
export type {
  BranchProtectionArgs,
  BranchProtectionRestrictionsArgs,
  BranchProtectionReviewsArgs,
  BranchProtectionStatusChecksArgs,
} from "./resources/branch-protection";
export { BranchProtection } from "./resources/branch-protection";
export type { BudgetAlertingArgs, BudgetArgs, BudgetScope, BudgetType } from "./resources/budgets";
export { Budget } from "./resources/budgets";
export type {
  RepositoryCollaboratorArgs,
  RepositoryCollaboratorsArgs,
  RepositoryCollaboratorTeamArgs,
  RepositoryCollaboratorUserArgs,
  RepositoryPermission,
} from "./resources/collaborators";
export { RepositoryCollaborator, RepositoryCollaborators } from "./resources/collaborators";
export type {
  OrgCustomPropertyArgs,
  OrgPropertyValueArgs,
  PropertyValue,
  RepositoryPropertyValueArgs,
} from "./resources/custom-properties";
export { OrgCustomProperty, OrgPropertyValue, RepositoryPropertyValue } from "./resources/custom-properties";
export type {
  DeploymentBranchPolicyArgs,
  DeploymentProtectionRuleArgs,
  EnvironmentBranchPolicyArgs,
  EnvironmentReviewerArgs,
  ProtectionRuleApp,
  RepositoryEnvironmentArgs,
} from "./resources/environments";
export { DeploymentProtectionRule, RepositoryEnvironment } from "./resources/environments";
export type {
  OrgMembershipArgs,
  OrgMembershipOnDestroy,
  OrgMembershipRole,
  OrgMembershipState,
} from "./resources/memberships";
export { OrgMembership } from "./resources/memberships";
export type {
  IssueColor,
  IssueFieldArgs,
  IssueFieldDataType,
  IssueFieldOptionArgs,
  IssueFieldVisibility,
  IssueTypeArgs,
  OrgBlockArgs,
  OrgSettingsArgs,
} from "./resources/org-config";
export { IssueField, IssueType, OrgBlock, OrgSettings } from "./resources/org-config";
export type { OrgRoleAssignmentArgs } from "./resources/org-roles";
export { OrgRoleAssignment } from "./resources/org-roles";
export type { OrganizationArgs } from "./resources/organizations";
export { Organization } from "./resources/organizations";
export type {
  PrivateRegistryArgs,
  PrivateRegistryAuthType,
  PrivateRegistryOidcArgs,
  PrivateRegistryType,
  PrivateRegistryVisibility,
} from "./resources/private-registries";
export { PrivateRegistry } from "./resources/private-registries";
export type {
  RepositoryArgs,
  RepositoryDeployKeyArgs,
  RepositoryOnDestroy,
} from "./resources/repositories";
export { Repository, RepositoryDeployKey } from "./resources/repositories";
export type {
  OrgRulesetArgs,
  OrgRulesetConditionsArgs,
  RepositoryRulesetArgs,
  RepositoryRulesetConditionsArgs,
  RulesetBypassActorArgs,
  RulesetRuleArgs,
} from "./resources/rulesets";
export { OrgRuleset, RepositoryRuleset } from "./resources/rulesets";
export type {
  EnterpriseRunnerGroupArgs,
  OrgRunnerGroupArgs,
  RunnerGroupRunnersArgs,
} from "./resources/runner-groups";
export { EnterpriseRunnerGroup, OrgRunnerGroup, RunnerGroupRunners } from "./resources/runner-groups";
export type {
  TeamArgs,
  TeamMemberArgs,
  TeamMembersArgs,
  TeamMembershipArgs,
  TeamMembershipState,
  TeamNotificationSetting,
  TeamPrivacy,
  TeamRepositoryArgs,
  TeamRole,
} from "./resources/teams";
export { Team, TeamMembers, TeamMembership, TeamRepository } from "./resources/teams";
export type {
  GpgKeyEmail,
  UserGpgKeyArgs,
  UserSshKeyArgs,
  UserSshSigningKeyArgs,
} from "./resources/user-keys";
export { UserGpgKey, UserSshKey, UserSshSigningKey } from "./resources/user-keys";
export type {
  GlobalWebhookArgs,
  GlobalWebhookEvent,
  OrgWebhookArgs,
  RepositoryWebhookArgs,
  WebhookArgs,
} from "./resources/webhooks";
export { GlobalWebhook, OrgWebhook, RepositoryWebhook } from "./resources/webhooks";
