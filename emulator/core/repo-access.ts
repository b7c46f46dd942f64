/**
 * A person's role on a repository, from every source of grants the server has: the organisation
 * (its owners administer its repositories, its members push: docs/DECISIONS.md, "Who may push,
 * rename, merge") and what families grant beyond it (a team's access, a direct collaborator's),
 * each a `RepoRoleSource` its `Family` declares. The strongest role wins, as on the platform. The
 * core names no family: the app registers the sources of the families it serves
 * (`useRepoRoleSources`).
 */
import { orgRole } from "./auth";
import type { Caller } from "./context";
import type { OrgRecord, RepoRecord } from "./fixture";
import { activeMember } from "./members";
import type { EmulatorState } from "./state";

/** The repository roles, weakest first (`pull` reads, `push` writes, `admin` administers). */
export const REPO_ROLES = ["pull", "triage", "push", "maintain", "admin"] as const;
export type RepoRole = (typeof REPO_ROLES)[number];

/** What a family grants `login` on `repo` beyond the organisation's own rule; undefined: nothing. */
export type RepoRoleSource = (state: EmulatorState, repo: RepoRecord, login: string) => RepoRole | undefined;

/**
 * The sources of the families served. Sources read only their own keys of the state, and a state
 * without such a key (a server of other families) grants nothing through them.
 */
const sources = new Set<RepoRoleSource>();

/** Registers the sources the families declare (once per source, however many servers start). */
export function useRepoRoleSources(families: ReadonlyArray<{ repoRoles?: RepoRoleSource }>): void {
  for (const family of families) if (family.repoRoles) sources.add(family.repoRoles);
}

/** Whether `role` is `wanted` or stronger. */
export function atLeast(role: RepoRole | undefined, wanted: RepoRole): boolean {
  return role !== undefined && REPO_ROLES.indexOf(role) >= REPO_ROLES.indexOf(wanted);
}

/** The stronger of two roles. */
export function stronger(a: RepoRole | undefined, b: RepoRole | undefined): RepoRole | undefined {
  if (a === undefined) return b;
  return b === undefined || atLeast(a, b) ? a : b;
}

/** What the organisation's own rule gives a user of its: owners administer, members push. */
export function orgBaseRole(role: "admin" | "member" | undefined): RepoRole | undefined {
  return role === "admin" ? "admin" : role === "member" ? "push" : undefined;
}

/**
 * `login`'s role on `repo` of `org`: the organisation's rule for its membership, raised by every
 * registered source (what a collaborator list or a permission check reports of a person).
 */
export function roleOf(
  state: EmulatorState,
  login: string,
  org: OrgRecord,
  repo: RepoRecord,
): RepoRole | undefined {
  let role = orgBaseRole(activeMember(org, login)?.role);
  if (role === "admin") return role;
  for (const source of sources) role = stronger(role, source(state, repo, login));
  return role;
}

/**
 * The caller's role on `repo` of `org`: the organisation's rule for the caller (a site
 * administrator owns every organisation; an installation token acts for its organisation only),
 * raised by what the sources grant the caller's user.
 */
export function repoRole(
  state: EmulatorState,
  caller: Caller | undefined,
  org: OrgRecord,
  repo: RepoRecord,
): RepoRole | undefined {
  const base = orgBaseRole(orgRole(caller, org));
  const login = caller?.token.kind === "app_installation" ? undefined : caller?.user?.login;
  if (login === undefined || base === "admin") return base;
  return stronger(base, roleOf(state, login, org, repo));
}
