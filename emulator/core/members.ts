/**
 * Who is a member and who owns an organisation, as the fixture records it (an active membership is
 * an entry of `fixture.orgs[].members`; pending ones are the membership family's invitations).
 * Access rules and several families read it.
 */
import type { OrgMember, OrgRecord } from "./fixture";
import { ownValue } from "./records";

/** The user's active membership, if any (fixture entries with another state are not members). */
export function activeMember(org: OrgRecord, login: string): OrgMember | undefined {
  const member = ownValue(org.members, login);
  return member?.state === "active" ? member : undefined;
}

/** Logins of the organisation's active owners. */
export function owners(org: OrgRecord): string[] {
  return Object.entries(org.members)
    .filter(([, m]) => m.state === "active" && m.role === "admin")
    .map(([login]) => login);
}

/** Whether `login` is the only owner: an organisation always keeps at least one. */
export function isLastOwner(org: OrgRecord, login: string): boolean {
  const all = owners(org);
  return all.length === 1 && all[0] === login;
}
