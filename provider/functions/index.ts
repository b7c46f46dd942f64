/**
 * Functions: reads of what a program does not manage, in the Pulumi style. Each `getX(args, opts?)`
 * returns a promise, each `getXOutput(args, opts?)` an Output (secret when an input is). They run
 * in the program's process with the process's shared client (`provider/internal/context.ts`).
 */

export type { FunctionOptions, InputArgs } from "./common";
export type {
  Branch,
  GetBranchArgs,
  GetBranchesArgs,
  GetBranchesResult,
  GetBranchResult,
} from "./git";
export { getBranch, getBranches, getBranchesOutput, getBranchOutput, MAX_BRANCH_REDIRECTS } from "./git";
export type {
  GetOrgMembersArgs,
  GetOrgMembersResult,
  OrgMember,
  OrgMemberFilter,
  OrgMemberRoleFilter,
} from "./memberships";
export { getOrgMembers, getOrgMembersOutput } from "./memberships";
export type { GetUserArgs, GetUserResult } from "./meta";
export { getUser, getUserOutput } from "./meta";
export type { GetOrgRolesArgs, GetOrgRolesResult, OrgRole } from "./org-roles";
export { getOrgRoles, getOrgRolesOutput } from "./org-roles";
export type { GetRepositoryArgs, GetRepositoryResult } from "./repositories";
export { getRepository, getRepositoryOutput, MAX_REPOSITORY_REDIRECTS } from "./repositories";
export type { BranchRule, GetBranchRulesArgs, GetBranchRulesResult } from "./rulesets";
export { getBranchRules, getBranchRulesOutput } from "./rulesets";
export type {
  DependencyAlert,
  DependencyAlertEcosystem,
  DependencyAlertScope,
  DependencyAlertSeverity,
  DependencyAlertSort,
  DependencyAlertState,
  GetDependencyAlertsArgs,
  GetDependencyAlertsResult,
} from "./security";
export { getDependencyAlerts, getDependencyAlertsOutput } from "./security";
export type {
  CodeFrequencyWeek,
  CommitActivityWeek,
  Contributor,
  GetRepositoryStatisticsArgs,
  GetRepositoryStatisticsResult,
  Participation,
  PunchCardHour,
  RepositoryStatistics,
  StatisticsKind,
} from "./statistics";
export {
  DEFAULT_STATISTICS_WAIT_MS,
  getRepositoryStatistics,
  getRepositoryStatisticsOutput,
  MAX_STATISTICS_WAIT_MS,
} from "./statistics";
export type { GetTeamArgs, GetTeamResult } from "./teams";
export { getTeam, getTeamOutput } from "./teams";
export type {
  GetUserGpgKeysArgs,
  GetUserGpgKeysResult,
  GpgCapabilities,
  GpgKey,
  GpgSubkey,
} from "./user-keys";
export { getUserGpgKeys, getUserGpgKeysOutput } from "./user-keys";
