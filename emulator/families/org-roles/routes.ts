/**
 * Organisation roles (the published description's `orgs/*org-role*`): the roles, a role, the teams
 * and users holding one, and assigning and revoking one for a team or a user.
 *
 * - Every route is the organisation owners' (`admin:org`). Fine-grained and app tokens need
 *   `organization_custom_org_roles` read for the roles, `members` for assignments and their lists
 *   (the platform lists the assignment routes under Members).
 * - An unknown organisation, role, team or user is a 404; assigning a role to a user who is not a
 *   member of the organisation is a 422. Assigning twice, or revoking what is not held, is a 204
 *   that changes nothing.
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import type { AccessRule } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { invalidField, notFound, paginate, pathId } from "../../core/http";
import { findUser } from "../../core/lookup";
import { activeMember } from "../../core/members";
import { configOrg } from "../org-config/config";
import { findTeam, teamById } from "../teams/teams";
import { assignmentsOf, findRole, renderRole, renderRoleTeam, renderRoleUser, rolesOf } from "./roles";
import type { OrgRoleRecord } from "./seed";
import type { StoredRoleAssignment } from "./state";

const ROLES: AccessRule = { scopes: ["admin:org"], permission: ["organization_custom_org_roles", "read"] };
const ASSIGNEES: AccessRule = { scopes: ["admin:org"], permission: ["members", "read"] };
const ASSIGN: AccessRule = { scopes: ["admin:org"], permission: ["members", "write"] };

const R = ROUTES.orgRoles;
const WHAT = "manage organization roles";

export function orgRoleRoutes(app: Hono<ServerEnv>): void {
  app.get(R.list.pattern, guard(ROLES), (c) => {
    configOrg(c, "owner", "list organization roles");
    const roles = rolesOf(c.get("store").state).map(renderRole);
    return c.json({ total_count: roles.length, roles });
  });

  app.get(R.get.pattern, guard(ROLES), (c) => {
    const { role } = roleContext(c, "read organization roles");
    return c.json(renderRole(role));
  });

  app.get(R.teams.pattern, guard(ASSIGNEES), (c) => {
    const { org, role } = roleContext(c, WHAT);
    const state = c.get("store").state;
    const teams = assignmentsOf(state, org, role.id).flatMap((a) => {
      const team = a.teamId === undefined ? undefined : teamById(state, a.teamId);
      return team?.orgId === org.id ? [renderRoleTeam(c, team, org)] : [];
    });
    return c.json(paginate(c, teams));
  });

  app.get(R.users.pattern, guard(ASSIGNEES), (c) => {
    const { org, role } = roleContext(c, WHAT);
    const state = c.get("store").state;
    const users = assignmentsOf(state, org, role.id).flatMap((a) => {
      const user = a.user === undefined ? undefined : findUser(state, a.user);
      return user ? [renderRoleUser(c, user)] : [];
    });
    return c.json(paginate(c, users));
  });

  app.put(R.assignTeam.pattern, guard(ASSIGN), (c) => {
    const { org, role } = roleContext(c, WHAT);
    const state = c.get("store").state;
    const team = findTeam(state, org, c.req.param("team_slug"));
    if (!team) throw notFound();
    if (!held(c, org, role, (a) => a.teamId === team.id)) {
      state.orgRoleAssignments.push({ org: org.login, roleId: role.id, teamId: team.id });
    }
    return c.body(null, 204);
  });

  app.delete(R.revokeTeam.pattern, guard(ASSIGN), (c) => {
    const { org, role } = roleContext(c, WHAT);
    const state = c.get("store").state;
    const team = findTeam(state, org, c.req.param("team_slug"));
    if (!team) throw notFound();
    revoke(c, org, role, (a) => a.teamId === team.id);
    return c.body(null, 204);
  });

  app.put(R.assignUser.pattern, guard(ASSIGN), (c) => {
    const { org, role } = roleContext(c, WHAT);
    const state = c.get("store").state;
    const user = findUser(state, c.req.param("username"));
    if (!user) throw notFound();
    if (!activeMember(org, user.login)) {
      throw invalidField("OrganizationRole", "username", `${user.login} is not a member of ${org.login}`);
    }
    if (!held(c, org, role, (a) => a.user === user.login)) {
      state.orgRoleAssignments.push({ org: org.login, roleId: role.id, user: user.login });
    }
    return c.body(null, 204);
  });

  app.delete(R.revokeUser.pattern, guard(ASSIGN), (c) => {
    const { org, role } = roleContext(c, WHAT);
    const user = findUser(c.get("store").state, c.req.param("username"));
    if (!user) throw notFound();
    revoke(c, org, role, (a) => a.user === user.login);
    return c.body(null, 204);
  });
}

/** The organisation (its owners only) and the role of the path; 404 for a role it does not have. */
function roleContext(c: Context<ServerEnv>, what: string): { org: OrgRecord; role: OrgRoleRecord } {
  const org = configOrg(c, "owner", what);
  const role = findRole(c.get("store").state, pathId(c, "role_id"));
  if (!role) throw notFound();
  return { org, role };
}

function held(
  c: Context<ServerEnv>,
  org: OrgRecord,
  role: OrgRoleRecord,
  who: (a: StoredRoleAssignment) => boolean,
): boolean {
  return assignmentsOf(c.get("store").state, org, role.id).some(who);
}

function revoke(
  c: Context<ServerEnv>,
  org: OrgRecord,
  role: OrgRoleRecord,
  who: (a: StoredRoleAssignment) => boolean,
): void {
  const state = c.get("store").state;
  const login = org.login.toLowerCase();
  const match = (a: StoredRoleAssignment) => a.org.toLowerCase() === login && a.roleId === role.id && who(a);
  if (state.orgRoleAssignments.some(match)) {
    state.orgRoleAssignments = state.orgRoleAssignments.filter((a) => !match(a));
  }
}
