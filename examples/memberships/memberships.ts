/**
 * Membership as code: who belongs to an organisation, with which role, and what happens to them
 * when a membership leaves the program. Used by this example's program and by the root demo.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

export interface Member {
  username: string;
  /** Default "member"; "admin" makes them an owner of the organisation. */
  role?: hosting.OrgMembershipRole;
  /** Default "remove". "downgrade" or "retain" keep the person when the membership is destroyed. */
  onDestroy?: hosting.OrgMembershipOnDestroy;
}

export interface MembershipSettings {
  org: string;
  members: Member[];
}

/**
 * Declares one OrgMembership per member. People who are not members yet are invited: their state
 * reads `pending` until they accept, then `active` (a refresh records it; it is never drift).
 */
export function declareMemberships(settings: MembershipSettings): Record<string, pulumi.Output<string>> {
  const states: Record<string, pulumi.Output<string>> = {};
  for (const member of settings.members) {
    const membership = new hosting.OrgMembership(`${settings.org}-${member.username}`, {
      org: settings.org,
      username: member.username,
      ...(member.role ? { role: member.role } : {}),
      ...(member.onDestroy ? { onDestroy: member.onDestroy } : {}),
    });
    states[member.username] = membership.state;
  }
  return states;
}
