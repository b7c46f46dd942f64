/**
 * Every read function's declaration, once: the package schema's functions and the native plugin's
 * invokes derive from this list.
 */
import type { FunctionDeclaration } from "../internal/declare";
import { getBranchesFunction, getBranchFunction } from "./git";
import { getOrgMembersFunction } from "./memberships";
import { getDependencyAlertsFunction } from "./security";
import { getRepositoryStatisticsFunction } from "./statistics";
import { getTeamFunction } from "./teams";
import { getUserGpgKeysFunction } from "./user-keys";

export const FUNCTIONS: readonly FunctionDeclaration[] = [
  getOrgMembersFunction,
  getBranchesFunction,
  getBranchFunction,
  getDependencyAlertsFunction,
  getRepositoryStatisticsFunction,
  getUserGpgKeysFunction,
  getTeamFunction,
];
