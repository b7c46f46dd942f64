/**
 * The repository objects that alerts and pull requests embed (spec, concepts, "Gaps in
 * the resource list": the repository's complete field list is not shown, so the fields are those
 * of the platform's published description, `simple-repository` and `repository`).
 */
import type { Context } from "hono";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { repoKey } from "../../core/lookup";
import { forkCount } from "../git/git";
import { repoSummary } from "../git/repository";

/** The fixture's repositories were all created at the same moment. */
const REPO_CREATED_AT = "2025-01-01T00:00:00Z";

/** `repository`: the full object a pull request's head and base carry. */
export function fullRepository(
  c: Context<ServerEnv>,
  repo: RepoRecord,
  org: OrgRecord,
): Record<string, unknown> {
  const origin = new URL(c.req.url);
  const html = `${origin.origin}/${repo.owner}/${repo.name}`;
  const forks = forkCount(c.get("store"), repoKey(repo));
  return {
    ...repoSummary(c, repo, org),
    clone_url: `${html}.git`,
    git_url: `git://${origin.host}/${repo.owner}/${repo.name}.git`,
    ssh_url: `git@${origin.hostname}:${repo.owner}/${repo.name}.git`,
    svn_url: html,
    mirror_url: null,
    homepage: null,
    language: null,
    forks,
    forks_count: forks,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    open_issues: 0,
    open_issues_count: 0,
    size: 0,
    has_downloads: true,
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    archived: false,
    disabled: false,
    license: null,
    pushed_at: REPO_CREATED_AT,
    created_at: REPO_CREATED_AT,
    updated_at: REPO_CREATED_AT,
  };
}
