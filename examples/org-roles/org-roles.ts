/**
 * Organisation roles as code: which team and which members hold which of the organisation's roles,
 * named as `getOrgRoles` lists them. Each assignment is its own resource: destroying one revokes
 * that role only. Used by this example's program and by the root demo.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

export interface RoleSettings {
  org: string;
  /** Team slug -> role name (`security_manager`). */
  teams: Record<string, string>;
  /** Member login -> role name (`all_repo_read`). */
  users: Record<string, string>;
}

/** Declares one assignment per team and member; returns the name of each role held. */
export function declareRoleAssignments(settings: RoleSettings): Record<string, pulumi.Output<string>> {
  const roles = hosting.getOrgRolesOutput({ org: settings.org });
  const idOf = (name: string) =>
    roles.apply((r) => {
      const role = r.roles.find((x) => x.name === name);
      if (!role)
        throw new Error(
          `${settings.org} has no role ${name}: its roles are ${r.roles.map((x) => x.name).join(", ")}`,
        );
      return role.id;
    });
  const held: Record<string, pulumi.Output<string>> = {};
  for (const [team, role] of Object.entries(settings.teams)) {
    const assignment = new hosting.OrgRoleAssignment(`${settings.org}/teams/${team}/${role}`, {
      org: settings.org,
      roleId: idOf(role),
      team,
    });
    held[`teams/${team}`] = assignment.roleName;
  }
  for (const [username, role] of Object.entries(settings.users)) {
    const assignment = new hosting.OrgRoleAssignment(`${settings.org}/users/${username}/${role}`, {
      org: settings.org,
      roleId: idOf(role),
      username,
    });
    held[`users/${username}`] = assignment.roleName;
  }
  return held;
}
