/**
 * The API description: every route and wire shape of the platform this package speaks, one module
 * per family. `provider/`, `emulator/` and `importer/` import it; it imports none of them, so the
 * client and the sandbox server share one contract and cannot drift apart.
 */

import { actionsRoutes } from "./actions";
import { branchProtectionRoutes } from "./branch-protection";
import { budgetsRoutes } from "./budgets";
import { collaboratorsRoutes } from "./collaborators";
import { customPropertiesRoutes } from "./custom-properties";
import { environmentsRoutes } from "./environments";
import { gitRoutes } from "./git";
import { membershipsRoutes } from "./memberships";
import { metaRoutes } from "./meta";
import { notificationsRoutes } from "./notifications";
import { orgConfigRoutes } from "./org-config";
import { orgRolesRoutes } from "./org-roles";
import { organizationsRoutes } from "./organizations";
import { privateRegistriesRoutes } from "./private-registries";
import { repositoriesRoutes } from "./repositories";
import type { Route } from "./route";
import { rulesetsRoutes } from "./rulesets";
import { runnerGroupsRoutes } from "./runner-groups";
import { securityRoutes } from "./security";
import { statisticsRoutes } from "./statistics";
import { teamsRoutes } from "./teams";
import { unmodelledRoutes } from "./unmodelled";
import { userKeysRoutes } from "./user-keys";
import { webhooksRoutes } from "./webhooks";

export * from "./actions";
export * from "./branch-protection";
export * from "./budgets";
export * from "./collaborators";
export * from "./custom-properties";
export * from "./environments";
export * from "./git";
export * from "./memberships";
export * from "./meta";
export * from "./notifications";
export * from "./org-config";
export * from "./org-roles";
export * from "./organizations";
export * from "./pagination";
export * from "./private-registries";
export * from "./repositories";
export * from "./route";
export * from "./rulesets";
export * from "./runner-groups";
export * from "./security";
export * from "./statistics";
export * from "./teams";
export * from "./unmodelled";
export * from "./user-keys";
export * from "./webhooks";

/** Every route, by group (`ROUTES.repoHooks.get` is `GET /repos/{owner}/{repo}/hooks/{hook_id}`), in router order. */
export const ROUTES = {
  ...metaRoutes,
  ...membershipsRoutes,
  ...webhooksRoutes,
  ...runnerGroupsRoutes,
  ...customPropertiesRoutes,
  ...environmentsRoutes,
  ...budgetsRoutes,
  ...privateRegistriesRoutes,
  ...gitRoutes,
  ...securityRoutes,
  ...statisticsRoutes,
  ...userKeysRoutes,
  ...organizationsRoutes,
  ...orgConfigRoutes,
  ...notificationsRoutes,
  ...actionsRoutes,
  ...repositoriesRoutes,
  ...teamsRoutes,
  ...collaboratorsRoutes,
  ...rulesetsRoutes,
  ...branchProtectionRoutes,
  ...orgRolesRoutes,
  ...unmodelledRoutes,
} as const;

/** Every route of the table, in declaration order (the sandbox's router and its tests walk it). */
export function allRoutes(): Route[] {
  return Object.values(ROUTES).flatMap((group) => Object.values(group) as Route[]);
}
