/**
 * The rules of teams, shared by the API routes, the controls and the role source: slugs made from
 * names as the platform makes them, who sees a team, nesting (a parent and its descendants), what
 * a membership reports (an owner is a maintainer; someone not yet in the organisation is pending
 * until the organisation's invitation is accepted), and what a team grants on a repository (its
 * own role and its ancestors').
 */
import { teamSlugOf } from "../../../api";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { activeMember } from "../../core/members";
import { type RepoRole, stronger } from "../../core/repo-access";
import type { StateAccess } from "../../core/state";
import type { EmulatorState, Store } from "../../core/store";
import { findInvitation } from "../memberships/memberships";
import type { StoredTeam, StoredTeamMember, TeamRole } from "./state";

/** The slug of a team's name, as the platform makes it (`api/teams.ts`). */
export const slugOf = teamSlugOf;

export function teamsOf(state: EmulatorState, org: OrgRecord): StoredTeam[] {
  return state.teams.filter((t) => t.orgId === org.id);
}

/** The team of `org` with this slug (slugs are lower case; the path may not be). */
export function findTeam(state: EmulatorState, org: OrgRecord, slug: string): StoredTeam | undefined {
  const key = slug.toLowerCase();
  return state.teams.find((t) => t.orgId === org.id && t.slug === key);
}

export function teamById(state: EmulatorState, id: number): StoredTeam | undefined {
  return state.teams.find((t) => t.id === id);
}

/** The team's parent, its parent's parent, ...: nearest first. */
export function ancestorsOf(state: EmulatorState, team: StoredTeam): StoredTeam[] {
  const found: StoredTeam[] = [];
  const seen = new Set([team.id]);
  for (let at = team.parentId; at !== null; ) {
    const parent = teamById(state, at);
    if (!parent || seen.has(parent.id)) break;
    seen.add(parent.id);
    found.push(parent);
    at = parent.parentId;
  }
  return found;
}

/** The team's children, their children, ...: every team nested below it. */
export function descendantsOf(state: EmulatorState, team: StoredTeam): StoredTeam[] {
  const found: StoredTeam[] = [];
  const queue = [team.id];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const child of state.teams.filter((t) => t.parentId === id)) {
      if (child.id === team.id || found.includes(child)) continue;
      found.push(child);
      queue.push(child.id);
    }
  }
  return found;
}

export function directMember(
  state: EmulatorState,
  team: StoredTeam,
  login: string,
): StoredTeamMember | undefined {
  const key = login.toLowerCase();
  return state.teamMembers.find((m) => m.teamId === team.id && m.login.toLowerCase() === key);
}

export interface TeamMembership {
  /** The role as the platform reports it: an organisation owner's is `maintainer`. */
  role: TeamRole;
  state: "active" | "pending";
}

/**
 * What a direct membership is now: active while the person is an active member of the
 * organisation, pending while their invitation to it is open. A person who leaves the organisation,
 * or declines, leaves its teams too (`leaveTeams`): a team keeps no one the organisation does not. An owner is reported
 * as a maintainer whatever role was asked for (the platform's documented behaviour).
 */
export function membershipState(
  store: Store,
  org: OrgRecord,
  member: StoredTeamMember,
): TeamMembership | undefined {
  const orgMember = activeMember(org, member.login);
  if (orgMember) return { role: orgMember.role === "admin" ? "maintainer" : member.role, state: "active" };
  if (findInvitation(store, org, member.login)) return { role: member.role, state: "pending" };
  return undefined;
}

/** Whether `login` is an active direct member of the team. */
export function isActiveMember(store: Store, org: OrgRecord, team: StoredTeam, login: string): boolean {
  const member = directMember(store.state, team, login);
  return member !== undefined && membershipState(store, org, member)?.state === "active";
}

/** Whether `login` may change the team as its maintainer (an active direct maintainer). */
export function isMaintainer(store: Store, org: OrgRecord, team: StoredTeam, login: string): boolean {
  const member = directMember(store.state, team, login);
  return member !== undefined && membershipState(store, org, member)?.role === "maintainer";
}

/**
 * Whether `login` sees the team: a closed team is seen by every member of the organisation, a
 * secret one by its owners and the team's own members. `owner` says the viewer owns the organisation.
 */
export function visibleTo(
  store: Store,
  org: OrgRecord,
  team: StoredTeam,
  viewer: { owner: boolean; login: string | undefined },
): boolean {
  if (viewer.owner) return true;
  if (viewer.login === undefined || !activeMember(org, viewer.login)) return false;
  return team.privacy === "closed" || directMember(store.state, team, viewer.login) !== undefined;
}

/** The team's role on the repository: its own, or what it inherits from a parent (the stronger). */
export function teamRole(state: EmulatorState, team: StoredTeam, repo: RepoRecord): RepoRole | undefined {
  let role: RepoRole | undefined;
  for (const t of [team, ...ancestorsOf(state, team)]) {
    const grant = state.teamRepos.find((g) => g.teamId === t.id && g.repoId === repo.id);
    role = stronger(role, grant?.permission);
  }
  return role;
}

/**
 * The role source of the family: the strongest role the teams `login` is an active member of hold
 * on `repo` (only active members: someone invited is not yet in the organisation). A state without
 * the family's keys grants nothing.
 */
export function teamRepoRole(state: EmulatorState, repo: RepoRecord, login: string): RepoRole | undefined {
  const org = state.fixture.orgs.find((o) => o.login.toLowerCase() === repo.owner.toLowerCase());
  if (!org || !activeMember(org, login) || state.teamMembers === undefined) return undefined;
  const key = login.toLowerCase();
  let role: RepoRole | undefined;
  for (const member of state.teamMembers) {
    if (member.login.toLowerCase() !== key) continue;
    const team = teamById(state, member.teamId);
    if (team?.orgId === org.id) role = stronger(role, teamRole(state, team, repo));
  }
  return role;
}

/** A repository was deleted: every team's access to it goes. */
export function dropRepositoryAccess(store: StateAccess, repo: RepoRecord): void {
  if (!store.state.teamRepos.some((g) => g.repoId === repo.id)) return;
  store.state.teamRepos = store.state.teamRepos.filter((g) => g.repoId !== repo.id);
}

/** A person left the organisation (or declined to join): their memberships of its teams go. */
export function leaveTeams(store: StateAccess, org: OrgRecord, login: string): void {
  const teams = new Set(store.state.teams.filter((t) => t.orgId === org.id).map((t) => t.id));
  const key = login.toLowerCase();
  store.state.teamMembers = store.state.teamMembers.filter(
    (m) => !(teams.has(m.teamId) && m.login.toLowerCase() === key),
  );
}
