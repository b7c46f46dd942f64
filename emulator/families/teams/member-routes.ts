/**
 * Team members and memberships (the description's `teams/list-members-in-org`,
 * `get-membership-for-user-in-org`, `add-or-update-membership-for-user-in-org`,
 * `remove-membership-for-user-in-org`).
 *
 * - The member list holds the team's active members and those of the teams nested below it
 *   (`inherited: true` when only a child team holds them), each with the role the platform reports;
 *   `role` filters by it.
 * - A membership is the person's direct one: `active` when they are a member of the organisation,
 *   `pending` while their invitation to it is open. An owner of the organisation is reported as a
 *   `maintainer`, whatever role was set.
 * - Owners and the team's maintainers add and remove members. Adding someone who is not in the
 *   organisation invites them to it (owners only): the membership is pending until they accept.
 */
import type { Hono } from "hono";
import { ROUTES, TEAM_MEMBER_ROLE_FILTERS, TEAM_ROLES } from "../../../api";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, UserRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { forbidden, invalidField, notFound, paginate, readBody } from "../../core/http";
import { findUser } from "../../core/lookup";
import { activeMember } from "../../core/members";
import type { Store } from "../../core/store";
import { findInvitation, invite } from "../memberships/memberships";
import { changeableTeam, READ, teamOf, type Viewer, WRITE } from "./access";
import { memberObject, membershipObject } from "./render";
import type { StoredTeam, TeamRole } from "./state";
import { descendantsOf, directMember, membershipState } from "./teams";

const M = ROUTES.teamMembers;

export function memberRoutes(app: Hono<ServerEnv>): void {
  app.get(M.list.pattern, guard(READ), (c) => {
    const { org, team } = teamOf(c);
    const role = c.req.query("role") ?? "all";
    if (!(TEAM_MEMBER_ROLE_FILTERS as readonly string[]).includes(role)) {
      throw invalidField("Team", "role", `role must be one of ${TEAM_MEMBER_ROLE_FILTERS.join(", ")}`);
    }
    const store = c.get("store");
    const members = membersOf(store, org, team).filter((m) => role === "all" || m.role === role);
    return c.json(paginate(c, members).map((m) => memberObject(c, m.user, m.role, m.inherited)));
  });

  app.get(M.get.pattern, guard(READ), (c) => {
    const { org, team } = teamOf(c);
    const store = c.get("store");
    const member = directMember(store.state, team, c.req.param("username"));
    const membership = member && membershipState(store, org, member);
    if (!member || !membership) throw notFound();
    return c.json(membershipObject(c, org, team, member.login, membership));
  });

  app.put(M.set.pattern, guard(WRITE), async (c) => {
    const { org, team, viewer } = changeableTeam(c, "add members");
    const store = c.get("store");
    const user = findUser(store.state, c.req.param("username"));
    if (!user) throw notFound();
    const role = parseRole(await readBody(c));
    setMembership(store, org, team, user, role, viewer);
    const member = directMember(store.state, team, user.login);
    const membership = member && membershipState(store, org, member);
    if (!membership) throw notFound();
    return c.json(membershipObject(c, org, team, user.login, membership), 200);
  });

  app.delete(M.remove.pattern, guard(WRITE), (c) => {
    const { team } = changeableTeam(c, "remove members");
    const state = c.get("store").state;
    const member = directMember(state, team, c.req.param("username"));
    if (!member) throw notFound();
    state.teamMembers = state.teamMembers.filter((m) => !(m.teamId === team.id && m.login === member.login));
    return c.body(null, 204);
  });
}

interface ListedMember {
  user: UserRecord;
  role: TeamRole;
  inherited: boolean;
}

/** The team's active members, then those only its descendants hold, by login. */
export function membersOf(store: Store, org: OrgRecord, team: StoredTeam): ListedMember[] {
  const listed = new Map<string, ListedMember>();
  for (const [t, inherited] of [
    [team, false] as const,
    ...descendantsOf(store.state, team).map((d) => [d, true] as const),
  ]) {
    for (const member of store.state.teamMembers.filter((m) => m.teamId === t.id)) {
      const membership = membershipState(store, org, member);
      const user = findUser(store.state, member.login);
      if (membership?.state !== "active" || !user || listed.has(user.login)) continue;
      listed.set(user.login, { user, role: inherited ? "member" : membership.role, inherited });
    }
  }
  return [...listed.values()].sort((a, b) => a.user.login.localeCompare(b.user.login));
}

function parseRole(body: Record<string, unknown>): TeamRole {
  const role = body.role ?? "member";
  if (typeof role !== "string" || !(TEAM_ROLES as readonly string[]).includes(role)) {
    throw invalidField("TeamMembership", "role", `role must be one of ${TEAM_ROLES.join(", ")}`);
  }
  return role as TeamRole;
}

/**
 * Adds the person to the team with `role`, or changes their role. Someone outside the organisation
 * is invited to it (by an owner only) unless an invitation is open already: the membership stays
 * pending until they accept.
 */
export function setMembership(
  store: Store,
  org: OrgRecord,
  team: StoredTeam,
  user: UserRecord,
  role: TeamRole,
  viewer: Viewer | undefined,
): void {
  if (!activeMember(org, user.login) && !findInvitation(store, org, user.login)) {
    if (viewer && !viewer.owner) {
      throw forbidden(`Only owners of ${org.login} can add people outside the organisation to a team`);
    }
    invite(store, org, user, "member", viewer?.login ?? "ghost");
  }
  const existing = directMember(store.state, team, user.login);
  if (existing) existing.role = role;
  else store.state.teamMembers.push({ teamId: team.id, login: user.login, role });
}
