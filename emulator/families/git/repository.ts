/**
 * Repositories as responses embed them: the platform's simple and minimal repository, whose fork
 * flag and default branch are the git data's, and description and visibility the repository's
 * settings (the repositories family).
 */
import type { Context } from "hono";
import { ROUTES } from "../../../api";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { urlOf } from "../../core/http";
import { repoKey } from "../../core/lookup";
import { nodeId, orgAsAccount } from "../../core/render";
import { settingsOf, visibilityOf } from "../repositories/settings";
import { gitRepo } from "./git";

/**
 * A repository as the platform embeds one where its full field list is not shown (alerts,
 * notification threads, pull requests: the description's `simple-repository`): identity, owner,
 * visibility and the URL templates of its sub-resources.
 */
export function simpleRepository(
  c: Context<ServerEnv>,
  repo: RepoRecord,
  org: OrgRecord,
): Record<string, unknown> & { url: string } {
  const full = `${repo.owner}/${repo.name}`;
  const api = urlOf(c, ROUTES.repositories.get, { owner: repo.owner, repo: repo.name });
  return {
    id: repo.id,
    node_id: nodeId("Repository", repo.id),
    name: repo.name,
    full_name: full,
    owner: orgAsAccount(c, org),
    private: repo.private,
    html_url: `${new URL(c.req.url).origin}/${full}`,
    description: settingsOf(c.get("store").raw, repo).description,
    // A fork of the fixture (acme-ops/infra) names its upstream in the git data.
    fork: gitRepo(c.get("store"), repoKey(repo)).upstream !== undefined,
    url: api,
    archive_url: `${api}/{archive_format}{/ref}`,
    assignees_url: `${api}/assignees{/user}`,
    blobs_url: `${api}/git/blobs{/sha}`,
    branches_url: `${api}/branches{/branch}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    comments_url: `${api}/comments{/number}`,
    commits_url: `${api}/commits{/sha}`,
    compare_url: `${api}/compare/{base}...{head}`,
    contents_url: `${api}/contents/{+path}`,
    contributors_url: `${api}/contributors`,
    deployments_url: `${api}/deployments`,
    downloads_url: `${api}/downloads`,
    events_url: `${api}/events`,
    forks_url: `${api}/forks`,
    git_commits_url: `${api}/git/commits{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    hooks_url: `${api}/hooks`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    issue_events_url: `${api}/issues/events{/number}`,
    issues_url: `${api}/issues{/number}`,
    keys_url: `${api}/keys{/key_id}`,
    labels_url: `${api}/labels{/name}`,
    languages_url: `${api}/languages`,
    merges_url: `${api}/merges`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    pulls_url: `${api}/pulls{/number}`,
    releases_url: `${api}/releases{/id}`,
    stargazers_url: `${api}/stargazers`,
    statuses_url: `${api}/statuses/{sha}`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    tags_url: `${api}/tags`,
    teams_url: `${api}/teams`,
    trees_url: `${api}/git/trees{/sha}`,
  };
}

/** A repository as lists show it (the platform's minimal repository); its default branch is the git data's. */
export function repoSummary(
  c: Context<ServerEnv>,
  repo: RepoRecord,
  org: OrgRecord,
): Record<string, unknown> {
  return {
    ...simpleRepository(c, repo, org),
    visibility: visibilityOf(repo, settingsOf(c.get("store").raw, repo)),
    default_branch: gitRepo(c.get("store"), repoKey(repo)).defaultBranch,
  };
}
