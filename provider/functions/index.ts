/**
 * Functions: reads of what a program does not manage, in the Pulumi style. Each `getX(args, opts?)`
 * returns a promise, each `getXOutput(args, opts?)` an Output (secret when an input is). They run
 * in the program's process with the process's shared client (`provider/internal/context.ts`).
 */
export type {
  Branch,
  GetBranchArgs,
  GetBranchesArgs,
  GetBranchesResult,
  GetBranchResult,
} from "./branches";
export { getBranch, getBranches, getBranchesOutput, getBranchOutput, MAX_BRANCH_REDIRECTS } from "./branches";
export type { FunctionOptions, InputArgs } from "./common";
export type {
  DependencyAlert,
  DependencyAlertEcosystem,
  DependencyAlertScope,
  DependencyAlertSeverity,
  DependencyAlertSort,
  DependencyAlertState,
  GetDependencyAlertsArgs,
  GetDependencyAlertsResult,
} from "./dependency-alerts";
export { getDependencyAlerts, getDependencyAlertsOutput } from "./dependency-alerts";
export type {
  GetUserGpgKeysArgs,
  GetUserGpgKeysResult,
  GpgCapabilities,
  GpgKey,
  GpgSubkey,
} from "./gpg-keys";
export { getUserGpgKeys, getUserGpgKeysOutput } from "./gpg-keys";
export type {
  GetOrgMembersArgs,
  GetOrgMembersResult,
  OrgMember,
  OrgMemberFilter,
  OrgMemberRoleFilter,
} from "./members";
export { getOrgMembers, getOrgMembersOutput } from "./members";
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
