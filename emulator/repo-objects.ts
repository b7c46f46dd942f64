/**
 * The repository and team objects that alerts and pull requests embed (spec, concepts, "Gaps in
 * the resource list": the repository's complete field list is not shown, so the fields are those
 * of the platform's published description, `simple-repository` and `repository`).
 */
import type { Context } from "hono";
import type { ServerEnv } from "./context";
import type { OrgRecord, RepoRecord } from "./fixture";
import { apiRoot } from "./http";
import { nodeId } from "./render";
import type { TeamRecord } from "./security-seed";

/** Every repository's default branch: the fixture names no other. */
export const DEFAULT_BRANCH = "main";

/** The fixture's repositories were all created at the same moment. */
const REPO_CREATED_AT = "2025-01-01T00:00:00Z";

/** The organisation as a repository's `owner`: the user-summary shape with type Organization. */
export function ownerObject(c: Context<ServerEnv>, org: OrgRecord): Record<string, unknown> {
  const origin = new URL(c.req.url).origin;
  const url = `${apiRoot(c)}/users/${org.login}`;
  return {
    login: org.login,
    id: org.id,
    node_id: nodeId("Organization", org.id),
    avatar_url: `${origin}/avatars/o/${org.id}`,
    avatar_provider_id: "",
    url,
    html_url: `${origin}/${org.login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: "Organization",
    site_admin: false,
  };
}

/** `simple-repository`: the one alerts of the enterprise list carry. */
export function simpleRepository(
  c: Context<ServerEnv>,
  repo: RepoRecord,
  org: OrgRecord,
): Record<string, unknown> {
  const url = `${apiRoot(c)}/repos/${repo.owner}/${repo.name}`;
  return {
    id: repo.id,
    node_id: nodeId("Repository", repo.id),
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    owner: ownerObject(c, org),
    private: repo.private,
    html_url: `${new URL(c.req.url).origin}/${repo.owner}/${repo.name}`,
    description: null,
    fork: false,
    url,
    archive_url: `${url}/{archive_format}{/ref}`,
    assignees_url: `${url}/assignees{/user}`,
    blobs_url: `${url}/git/blobs{/sha}`,
    branches_url: `${url}/branches{/branch}`,
    collaborators_url: `${url}/collaborators{/collaborator}`,
    comments_url: `${url}/comments{/number}`,
    commits_url: `${url}/commits{/sha}`,
    compare_url: `${url}/compare/{base}...{head}`,
    contents_url: `${url}/contents/{+path}`,
    contributors_url: `${url}/contributors`,
    deployments_url: `${url}/deployments`,
    downloads_url: `${url}/downloads`,
    events_url: `${url}/events`,
    forks_url: `${url}/forks`,
    git_commits_url: `${url}/git/commits{/sha}`,
    git_refs_url: `${url}/git/refs{/sha}`,
    git_tags_url: `${url}/git/tags{/sha}`,
    issue_comment_url: `${url}/issues/comments{/number}`,
    issue_events_url: `${url}/issues/events{/number}`,
    issues_url: `${url}/issues{/number}`,
    keys_url: `${url}/keys{/key_id}`,
    labels_url: `${url}/labels{/name}`,
    languages_url: `${url}/languages`,
    merges_url: `${url}/merges`,
    milestones_url: `${url}/milestones{/number}`,
    notifications_url: `${url}/notifications{?since,all,participating}`,
    pulls_url: `${url}/pulls{/number}`,
    releases_url: `${url}/releases{/id}`,
    stargazers_url: `${url}/stargazers`,
    statuses_url: `${url}/statuses/{sha}`,
    subscribers_url: `${url}/subscribers`,
    subscription_url: `${url}/subscription`,
    tags_url: `${url}/tags`,
    teams_url: `${url}/teams`,
    trees_url: `${url}/git/trees{/sha}`,
    hooks_url: `${url}/hooks`,
  };
}

/** `repository`: the full object a pull request's head and base carry. */
export function fullRepository(
  c: Context<ServerEnv>,
  repo: RepoRecord,
  org: OrgRecord,
): Record<string, unknown> {
  const origin = new URL(c.req.url);
  const html = `${origin.origin}/${repo.owner}/${repo.name}`;
  return {
    ...simpleRepository(c, repo, org),
    clone_url: `${html}.git`,
    git_url: `git://${origin.host}/${repo.owner}/${repo.name}.git`,
    ssh_url: `git@${origin.hostname}:${repo.owner}/${repo.name}.git`,
    svn_url: html,
    mirror_url: null,
    homepage: null,
    language: null,
    default_branch: DEFAULT_BRANCH,
    visibility: repo.private ? "private" : "public",
    forks: 0,
    forks_count: 0,
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

/** A team as review requests list it (the description's `team`). */
export function teamObject(c: Context<ServerEnv>, team: TeamRecord, org: OrgRecord): Record<string, unknown> {
  const url = `${apiRoot(c)}/orgs/${org.login}/teams/${team.slug}`;
  return {
    id: team.id,
    node_id: nodeId("Team", team.id),
    url,
    html_url: `${new URL(c.req.url).origin}/orgs/${org.login}/teams/${team.slug}`,
    name: team.name,
    slug: team.slug,
    description: team.description,
    privacy: "closed",
    notification_setting: "notifications_enabled",
    permission: "push",
    members_url: `${url}/members{/member}`,
    repositories_url: `${url}/repos`,
    type: "organization",
    organization_id: org.id,
    parent: null,
  };
}
