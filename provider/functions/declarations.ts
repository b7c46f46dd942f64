/**
 * Every read function's declaration, once: the package schema's functions and the native plugin's
 * invokes derive from this list.
 */
import type { FunctionDeclaration } from "../internal/declare";
import { getBranchesFunction, getBranchFunction } from "./branches";
import { getDependencyAlertsFunction } from "./dependency-alerts";
import { getUserGpgKeysFunction } from "./gpg-keys";
import { getOrgMembersFunction } from "./members";
import { getRepositoryStatisticsFunction } from "./statistics";

export const FUNCTIONS: readonly FunctionDeclaration[] = [
  getOrgMembersFunction,
  getBranchesFunction,
  getBranchFunction,
  getDependencyAlertsFunction,
  getRepositoryStatisticsFunction,
  getUserGpgKeysFunction,
];
