/**
 * Organisation members and memberships (spec, endpoints "Organization members and memberships";
 * state machine in concepts, "Organization membership").
 *
 * - The member list and the member check are public: a caller who is not a member, or whose token
 *   lacks `read:org` (classic) or `members` read (fine-grained, app), sees only public members and
 *   gets 302 from the check. Concealed members are shown to members only; the 2fa filters are for
 *   owners only (422 otherwise).
 * - Reading a membership needs the caller to be a member (or to ask about themselves); setting and
 *   deleting one is for owners (403 otherwise).
 * - PUT invites a non-member (pending; an invitation is recorded), changes the role of an active
 *   member, or changes the role of a pending invitation. DELETE cancels an invitation or removes
 *   an active member. An organisation always keeps one owner: demoting or removing the last one is
 *   refused.
 */

import type { Context, Hono } from "hono";
import { ORG_MEMBER_FILTERS, ORG_MEMBER_ROLE_FILTERS, ORG_MEMBERSHIP_ROLES, ROUTES } from "../../../api";
import { type AccessRule, callerOf, grants, orgRole } from "../../core/auth";
import type { Caller, ServerEnv } from "../../core/context";
import type { OrgRecord, UserRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import {
  forbidden,
  invalidField,
  notFound,
  paginate,
  readBody,
  urlOf,
  validationFailed,
} from "../../core/http";
import { LINKS } from "../../core/links";
import { findOrg, findUser } from "../../core/lookup";
import { activeMember, isLastOwner } from "../../core/members";
import { orgSummary, userSummary } from "../../core/render";
import {
  cancelInvitation,
  findInvitation,
  invite,
  type Membership,
  type MembershipRole,
  membershipOf,
  removeMember,
} from "./memberships";

const READ: AccessRule = { scopes: ["read:org"], permission: ["members", "read"] };
const WRITE: AccessRule = { scopes: ["admin:org"], permission: ["members", "write"] };
/** The member lists and checks: public (spec); READ decides who sees the organisation from inside. */
const PUBLIC: AccessRule = { ...READ, public: true };

const RESOURCE = "OrganizationMembership";

/** How the caller sees an organisation on the public routes. */
type View = "owner" | "member" | "public";

const M = ROUTES.members;

export function membershipRoutes(app: Hono<ServerEnv>): void {
  app.get(M.list.pattern, guard(PUBLIC), (c) => {
    const org = requireOrg(c);
    const view = viewOf(c, org);
    const filter = queryChoice(c, "filter", ORG_MEMBER_FILTERS);
    const role = queryChoice(c, "role", ORG_MEMBER_ROLE_FILTERS);
    if (filter !== "all" && view !== "owner") {
      throw invalidField(
        "Organization",
        "filter",
        `Only owners of ${org.login} can filter members by ${filter}`,
      );
    }
    const users = c.get("store").state.fixture.users.filter((user) => {
      const member = activeMember(org, user.login);
      if (!member) return false;
      if (view === "public" && member.concealed) return false;
      if (role !== "all" && member.role !== role) return false;
      return matchesFilter(user, filter);
    });
    return c.json(paginate(c, users).map((u) => userSummary(c, u)));
  });

  app.get(M.check.pattern, guard(PUBLIC), (c) => {
    const org = requireOrg(c);
    const username = c.req.param("username");
    if (viewOf(c, org) === "public") {
      // The platform sends outsiders to the public membership check instead.
      return c.redirect(urlOf(c, ROUTES.members.checkPublic, { org: org.login, username }), 302);
    }
    const user = findUser(c.get("store").state, username);
    if (!user || !activeMember(org, user.login)) throw notFound();
    return c.body(null, 204);
  });

  app.delete(M.remove.pattern, guard(WRITE), (c) => {
    const { org, user } = ownerAction(c, "remove members from");
    if (!activeMember(org, user.login)) throw notFound();
    refuseLastOwner(org, user, "remove");
    removeMember(c.get("store"), org, user);
    return c.body(null, 204);
  });

  app.get(M.listPublic.pattern, guard(PUBLIC), (c) => {
    const org = requireOrg(c);
    const users = c.get("store").state.fixture.users.filter((u) => {
      const member = activeMember(org, u.login);
      return member !== undefined && !member.concealed;
    });
    return c.json(paginate(c, users).map((u) => userSummary(c, u)));
  });

  app.get(M.checkPublic.pattern, guard(PUBLIC), (c) => {
    const org = requireOrg(c);
    const user = findUser(c.get("store").state, c.req.param("username"));
    const member = user && activeMember(org, user.login);
    if (!member || member.concealed) throw notFound();
    return c.body(null, 204);
  });

  // The spec's excerpt does not show it; the platform lists pending invitations to owners only,
  // oldest first, with the role as invitations name it (`direct_member` for a member).
  app.get(M.invitations.pattern, guard(READ), (c) => {
    const org = requireOrg(c);
    if (orgRole(callerOf(c), org) !== "admin") {
      throw forbidden(`You must be an owner of ${org.login} to list its invitations.`);
    }
    const state = c.get("store").state;
    const pending = state.invitations.filter((i) => i.org === org.login).sort((a, b) => a.id - b.id);
    return c.json(
      paginate(c, pending).map((i) => {
        const user = findUser(state, i.login);
        const inviter = findUser(state, i.inviter);
        return {
          id: i.id,
          login: i.login,
          node_id: user ? userSummary(c, user).node_id : null,
          email: null,
          role: i.role === "admin" ? "admin" : "direct_member",
          created_at: i.created_at,
          inviter: inviter ? userSummary(c, inviter) : null,
          team_count: 0,
          // Invitations to teams are not modelled: the list this names is empty.
          invitation_teams_url: urlOf(c, LINKS.invitationTeams, { org_id: org.id, invitation_id: i.id }),
          invitation_source: "member",
        };
      }),
    );
  });

  app.get(M.getMembership.pattern, guard(READ), (c) => {
    const caller = callerOf(c);
    const store = c.get("store");
    const org = requireOrg(c);
    const username = c.req.param("username");
    const self = caller.user?.login.toLowerCase() === username.toLowerCase();
    if (!self && !orgRole(caller, org)) {
      throw forbidden(`You must be a member of ${org.login} to see membership information for ${username}.`);
    }
    const user = findUser(store.state, username);
    const membership = user && membershipOf(store, org, user.login);
    if (!user || !membership) throw notFound();
    return c.json(render(c, org, user, membership));
  });

  app.put(M.setMembership.pattern, guard(WRITE), async (c) => {
    const { caller, org, user } = ownerAction(c, "set memberships of");
    const store = c.get("store");
    const body = await readBody(c);
    const role = parseRole(body.role);
    const member = activeMember(org, user.login);
    if (member) {
      if (member.role === "admin" && role === "member" && isLastOwner(org, user.login)) {
        throw validationFailed({
          resource: RESOURCE,
          field: "role",
          code: "custom",
          message: `${user.login} is the last owner of ${org.login} and cannot be made a member`,
        });
      }
      member.role = role;
    } else {
      const invitation = findInvitation(store, org, user.login);
      if (invitation) invitation.role = role;
      else invite(store, org, user, role, caller.user?.login ?? caller.token.user);
    }
    const membership = membershipOf(store, org, user.login) as Membership;
    return c.json(render(c, org, user, membership));
  });

  app.delete(M.removeMembership.pattern, guard(WRITE), (c) => {
    const { org, user } = ownerAction(c, "remove memberships of");
    const store = c.get("store");
    if (activeMember(org, user.login)) {
      refuseLastOwner(org, user, "remove");
      removeMember(c.get("store"), org, user);
    } else if (!cancelInvitation(store, org, user)) {
      throw notFound();
    }
    return c.body(null, 204);
  });
}

function requireOrg(c: Context<ServerEnv>): OrgRecord {
  const org = findOrg(c.get("store").state, c.req.param("org") ?? "");
  if (!org) throw notFound();
  return org;
}

/**
 * The public routes serve everyone, anonymous callers included, but only a caller who is a member
 * and whose token may read members sees the organisation from inside.
 */
function viewOf(c: Context<ServerEnv>, org: OrgRecord): View {
  const caller = c.get("caller");
  if (!grants(caller, READ)) return "public";
  const role = orgRole(caller, org);
  return role === "admin" ? "owner" : role === "member" ? "member" : "public";
}

/** Checks a write: token, organisation, owner, then the user (404 when unknown). */
function ownerAction(
  c: Context<ServerEnv>,
  what: string,
): { caller: Caller; org: OrgRecord; user: UserRecord } {
  const caller = callerOf(c);
  const org = requireOrg(c);
  if (orgRole(caller, org) !== "admin")
    throw forbidden(`You must be an owner of ${org.login} to ${what} it.`);
  const user = findUser(c.get("store").state, c.req.param("username") ?? "");
  if (!user) throw notFound();
  return { caller, org, user };
}

function refuseLastOwner(org: OrgRecord, user: UserRecord, action: string): void {
  if (isLastOwner(org, user.login)) {
    throw forbidden(`Cannot ${action} ${user.login}: they are the last owner of ${org.login}.`);
  }
}

function parseRole(raw: unknown): MembershipRole {
  if (raw === undefined) return "member";
  if (!(ORG_MEMBERSHIP_ROLES as readonly unknown[]).includes(raw)) {
    throw invalidField(RESOURCE, "role", `role must be one of ${ORG_MEMBERSHIP_ROLES.join(", ")}`);
  }
  return raw as MembershipRole;
}

function queryChoice<T extends string>(c: Context<ServerEnv>, name: string, allowed: readonly T[]): T {
  const value = c.req.query(name) ?? allowed[0];
  if (!(allowed as readonly string[]).includes(value as string)) {
    throw invalidField("Organization", name, `${name} must be one of ${allowed.join(", ")}`);
  }
  return value as T;
}

function matchesFilter(user: UserRecord, filter: (typeof ORG_MEMBER_FILTERS)[number]): boolean {
  const twoFactor = user.twoFactor ?? "enabled";
  if (filter === "2fa_disabled") return twoFactor === "disabled";
  if (filter === "2fa_insecure") return twoFactor === "insecure";
  return true;
}

/** The membership object of the spec (concepts, Organization membership). */
function render(
  c: Context<ServerEnv>,
  org: OrgRecord,
  user: UserRecord,
  membership: Membership,
): Record<string, unknown> {
  const orgUrl = urlOf(c, ROUTES.meta.org, { org: org.login });
  return {
    url: `${orgUrl}/memberships/${user.login}`,
    state: membership.state,
    role: membership.role,
    organization_url: orgUrl,
    organization: orgSummary(c, org),
    user: userSummary(c, user),
  };
}
