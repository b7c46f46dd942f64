/**
 * Organisation membership rules shared by the API routes and the control routes: the state machine
 * of the spec (concepts, Organization membership).
 *
 * One source of truth per state: an active membership is an entry of `fixture.orgs[].members`
 * (with `state: "active"`); a pending membership is an invitation in `state.invitations` and
 * nothing else. Accepting moves it from the second to the first; declining or cancelling deletes
 * the invitation; removing (or leaving) deletes the member entry.
 */
import type { OrgMember, OrgRecord, UserRecord } from "../../core/fixture";
import { activeMember } from "../../core/members";
import { type Store, timestamp } from "../../core/store";
import type { Invitation } from "./state";

export type MembershipRole = OrgMember["role"];

export interface Membership {
  state: "active" | "pending";
  role: MembershipRole;
}

export function findInvitation(store: Store, org: OrgRecord, login: string): Invitation | undefined {
  return store.state.invitations.find((i) => i.org === org.login && i.login === login);
}

/** What `GET /orgs/{org}/memberships/{username}` reports: active, pending, or nothing. */
export function membershipOf(store: Store, org: OrgRecord, login: string): Membership | undefined {
  const member = activeMember(org, login);
  if (member) return { state: "active", role: member.role };
  const invitation = findInvitation(store, org, login);
  return invitation ? { state: "pending", role: invitation.role } : undefined;
}

/** PUT on a non-member: records an invitation (the membership is pending until accepted). */
export function invite(
  store: Store,
  org: OrgRecord,
  user: UserRecord,
  role: MembershipRole,
  inviter: string,
): Invitation {
  const invitation: Invitation = {
    id: store.nextId(),
    org: org.login,
    login: user.login,
    role,
    inviter,
    created_at: timestamp(),
  };
  store.state.invitations.push(invitation);
  return invitation;
}

function dropInvitation(store: Store, invitation: Invitation): void {
  store.state.invitations = store.state.invitations.filter((i) => i !== invitation);
}

/**
 * The user accepts (what the platform's web UI does): the invitation becomes an active membership
 * with the invited role. New memberships are concealed, as on the platform, until the user makes
 * them public.
 */
export function acceptInvitation(store: Store, org: OrgRecord, user: UserRecord): Membership | undefined {
  const invitation = findInvitation(store, org, user.login);
  if (!invitation) return undefined;
  dropInvitation(store, invitation);
  org.members[user.login] = { role: invitation.role, state: "active", concealed: true };
  return { state: "active", role: invitation.role };
}

/**
 * The user declines, or an owner cancels: the invitation is gone, and so is what other families
 * held for the invitee there (a pending team membership).
 */
export function cancelInvitation(store: Store, org: OrgRecord, user: UserRecord): boolean {
  const invitation = findInvitation(store, org, user.login);
  if (!invitation) return false;
  dropInvitation(store, invitation);
  left(store, org, user.login);
  return true;
}

/**
 * Removes an active member from the organisation, and from all its teams (each family drops what it
 * held for them there: `onLeave`). The caller checks the last-owner rule first.
 */
export function removeMember(store: Store, org: OrgRecord, user: UserRecord): boolean {
  if (!activeMember(org, user.login)) return false;
  delete org.members[user.login];
  left(store, org, user.login);
  return true;
}

function left(store: Store, org: OrgRecord, login: string): void {
  for (const family of store.model.families) family.onLeave?.(store, org, login);
}
