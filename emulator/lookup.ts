/** Case-insensitive lookups of fixture objects, as the platform treats names. */
import { orgRole } from "./auth";
import type { Caller } from "./context";
import type { EnterpriseRecord, OrgRecord, RepoRecord, UserRecord } from "./fixture";
import { notFound } from "./http";
import type { EmulatorState } from "./store";

export function findOrg(state: EmulatorState, name: string): OrgRecord | undefined {
  const key = name.toLowerCase();
  return state.fixture.orgs.find((o) => o.login.toLowerCase() === key);
}

export function findRepo(state: EmulatorState, owner: string, name: string): RepoRecord | undefined {
  const o = owner.toLowerCase();
  const n = name.toLowerCase().replace(/\.git$/, "");
  return state.fixture.repos.find((r) => r.owner.toLowerCase() === o && r.name.toLowerCase() === n);
}

export function repoKey(repo: RepoRecord): string {
  return `${repo.owner}/${repo.name}`.toLowerCase();
}

/** A repository the caller administers; anything else is a 404, which hides its existence. */
export function adminRepo(state: EmulatorState, caller: Caller, owner: string, name: string): RepoRecord {
  const repo = findRepo(state, owner, name);
  const org = repo && findOrg(state, repo.owner);
  if (!repo || !org || orgRole(caller, org) !== "admin") throw notFound();
  return repo;
}

export function findUser(state: EmulatorState, login: string): UserRecord | undefined {
  const key = login.toLowerCase();
  return state.fixture.users.find((u) => u.login.toLowerCase() === key);
}

export function findEnterprise(state: EmulatorState, slug: string): EnterpriseRecord | undefined {
  const key = slug.toLowerCase();
  return state.fixture.enterprises.find((e) => e.slug.toLowerCase() === key);
}
