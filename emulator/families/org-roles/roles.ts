/**
 * Organisation roles and who holds them: the roles an organisation has (the fixture's predefined
 * roles), the teams that hold them (the teams family's), and the shapes the API answers.
 */
import type { Context } from "hono";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, UserRecord } from "../../core/fixture";
import { FIXTURE_CREATED_AT, userSummary } from "../../core/render";
import type { EmulatorState } from "../../core/store";
import { teamObject } from "../teams/render";
import type { StoredTeam } from "../teams/state";
import { type OrgRoleRecord, predefinedRoles } from "./seed";
import type { StoredRoleAssignment } from "./state";

/** The roles of every organisation: the fixture's, or the platform's own in a data file without them. */
export function rolesOf(state: EmulatorState): readonly OrgRoleRecord[] {
  return state.fixture.orgRoles ?? predefinedRoles();
}

export function findRole(state: EmulatorState, id: number): OrgRoleRecord | undefined {
  return rolesOf(state).find((r) => r.id === id);
}

/** The assignments of one organisation's role. */
export function assignmentsOf(state: EmulatorState, org: OrgRecord, roleId: number): StoredRoleAssignment[] {
  const o = org.login.toLowerCase();
  return state.orgRoleAssignments.filter((a) => a.org.toLowerCase() === o && a.roleId === roleId);
}

/** A role as the API answers it (`organization-role`): predefined roles belong to no organisation. */
export function renderRole(role: OrgRoleRecord): Record<string, unknown> {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    base_role: role.baseRole,
    source: "Predefined",
    permissions: [...role.permissions],
    organization: null,
    created_at: FIXTURE_CREATED_AT,
    updated_at: FIXTURE_CREATED_AT,
  };
}

/** A team holding a role (`team-role-assignment`): assigned directly, the only way the sandbox assigns. */
export function renderRoleTeam(
  c: Context<ServerEnv>,
  team: StoredTeam,
  org: OrgRecord,
): Record<string, unknown> {
  return { ...teamObject(c, team, org), assignment: "direct" };
}

/** A user holding a role (`user-role-assignment`). */
export function renderRoleUser(c: Context<ServerEnv>, user: UserRecord): Record<string, unknown> {
  return { ...userSummary(c, user), assignment: "direct", inherited_from: [] };
}
