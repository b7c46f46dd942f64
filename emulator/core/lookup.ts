/** Case-insensitive lookups of fixture objects, as the platform treats names. */
import type { Context } from "hono";
import { type AccessRule, callerOf, expandScopes, grants } from "./auth";
import type { Caller, ServerEnv } from "./context";
import type { EnterpriseRecord, OrgRecord, RepoRecord, UserRecord } from "./fixture";
import { forbidden, notFound } from "./http";
import { repoRole } from "./repo-access";
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

/** An archived repository is read-only: a write to it is refused as the platform refuses it (403). */
export function refuseArchived(repo: RepoRecord): void {
  if (repo.archived) throw forbidden("Repository was archived so is read-only.");
}

/**
 * A repository the caller administers (an owner of its organisation, or `admin` through a team or
 * as a collaborator); anything else is a 404, which hides its existence.
 */
export function adminRepo(state: EmulatorState, caller: Caller, owner: string, name: string): RepoRecord {
  return adminRepoAndOrg(state, caller, owner, name).repo;
}

/** `adminRepo`, with the repository's organisation. */
function adminRepoAndOrg(
  state: EmulatorState,
  caller: Caller,
  owner: string,
  name: string,
): { repo: RepoRecord; org: OrgRecord } {
  const repo = findRepo(state, owner, name);
  const org = repo && findOrg(state, repo.owner);
  if (!repo || !org || repoRole(state, caller, org, repo) !== "admin") throw notFound();
  return { repo, org };
}

/** The repository a route's path names (`/repos/:owner/:repo/...`), which the caller administers. */
export function pathAdminRepo(c: Context<ServerEnv>): { repo: RepoRecord; org: OrgRecord } {
  const owner = c.req.param("owner") ?? "";
  return adminRepoAndOrg(c.get("store").state, callerOf(c), owner, c.req.param("repo") ?? "");
}

/**
 * A repository the caller may read through a route guarded by `rule`, with its organisation. A
 * private one is hidden (404) from anyone without a role on it (outside its organisation and not a
 * collaborator), from tokens the rule does not
 * grant (anonymous callers of public routes included) and from classic tokens without `repo`
 * (spec, Authentication 2).
 */
export function readableRepo(
  state: EmulatorState,
  caller: Caller | undefined,
  owner: string,
  name: string,
  rule: AccessRule,
): { repo: RepoRecord; org: OrgRecord } {
  const repo = findRepo(state, owner, name);
  const org = repo && findOrg(state, repo.owner);
  if (!repo || !org) throw notFound();
  const classicWithoutRepo =
    caller?.token.kind === "classic" && !expandScopes(caller.token.scopes).has("repo");
  const hidden = !repoRole(state, caller, org, repo) || !grants(caller, rule) || classicWithoutRepo;
  if (repo.private && hidden) throw notFound();
  return { repo, org };
}

export function findUser(state: EmulatorState, login: string): UserRecord | undefined {
  const key = login.toLowerCase();
  return state.fixture.users.find((u) => u.login.toLowerCase() === key);
}

export function findEnterprise(state: EmulatorState, slug: string): EnterpriseRecord | undefined {
  const key = slug.toLowerCase();
  return state.fixture.enterprises.find((e) => e.slug.toLowerCase() === key);
}
