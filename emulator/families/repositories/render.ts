/**
 * A repository as its page and its writes show it (the description's `full-repository`): the
 * minimal repository (git/repository.ts), the clone URLs, its settings and topics, and what the
 * sandbox models of its content, which is nothing: no stars, watchers, issues, pages or licence.
 */
import type { Context } from "hono";
import { expandScopes } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { repoKey } from "../../core/lookup";
import { ownValue } from "../../core/records";
import { orgAsAccount } from "../../core/render";
import { atLeast, repoRole } from "../../core/repo-access";
import { forkCount } from "../git/git";
import { repoSummary } from "../git/repository";
import { settingsOf } from "./settings";

export function repositoryFull(
  c: Context<ServerEnv>,
  repo: RepoRecord,
  org: OrgRecord,
): Record<string, unknown> {
  const origin = new URL(c.req.url);
  const full = `${repo.owner}/${repo.name}`;
  const store = c.get("store");
  const forks = forkCount(store, repoKey(repo));
  const s = settingsOf(store.raw, repo);
  return {
    ...repoSummary(c, repo, org),
    organization: orgAsAccount(c, org),
    clone_url: `${origin.origin}/${full}.git`,
    git_url: `git://${origin.host}/${full}.git`,
    ssh_url: `git@${origin.hostname}:${full}.git`,
    svn_url: `${origin.origin}/${full}`,
    mirror_url: null,
    homepage: s.homepage,
    language: null,
    size: 0,
    forks,
    forks_count: forks,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    subscribers_count: 0,
    network_count: 0,
    open_issues: 0,
    open_issues_count: 0,
    is_template: s.isTemplate,
    topics: s.topics,
    has_issues: s.hasIssues,
    has_projects: s.hasProjects,
    has_wiki: s.hasWiki,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    archived: repo.archived === true,
    disabled: false,
    license: null,
    pushed_at: s.createdAt,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    ...(mayPush(c, org, repo)
      ? {
          allow_merge_commit: s.allowMergeCommit,
          allow_squash_merge: s.allowSquashMerge,
          allow_rebase_merge: s.allowRebaseMerge,
          allow_auto_merge: s.allowAutoMerge,
          delete_branch_on_merge: s.deleteBranchOnMerge,
          allow_update_branch: s.allowUpdateBranch,
        }
      : {}),
  };
}

/**
 * Whether the caller may push to the repository, the condition on which the platform shows the
 * merge settings (the description: "you must have the contents:read and contents:write
 * permissions"): someone whose role on it is push or more (its organisation's members and owners,
 * and whom a team or a direct collaboration gives push: core/repo-access.ts) and whose token writes
 * contents (classic `repo`, or `public_repo` on a public repository).
 */
function mayPush(c: Context<ServerEnv>, org: OrgRecord, repo: RepoRecord): boolean {
  const caller = c.get("caller");
  if (!caller || !atLeast(repoRole(c.get("store").state, caller, org, repo), "push")) return false;
  if (caller.token.kind === "classic") {
    const scopes = expandScopes(caller.token.scopes);
    return scopes.has("repo") || (!repo.private && scopes.has("public_repo"));
  }
  const permissions = caller.token.permissions;
  return (ownValue(permissions, "contents") ?? ownValue(permissions, "*")) === "write";
}
