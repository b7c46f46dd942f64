/**
 * The summaries of users and organisations (spec, concepts, User summary and Organization summary)
 * that many responses embed.
 */
import type { Context } from "hono";
import { gitRepo } from "../families/git/git";
import type { ServerEnv } from "./context";
import type { OrgRecord, RepoRecord, UserRecord } from "./fixture";
import { apiRoot } from "./http";
import { repoKey } from "./lookup";

/** The opaque `node_id` of an object: its type and id, base64. */
export function nodeId(type: string, id: number): string {
  return Buffer.from(`${type}:${id}`).toString("base64");
}

export function userSummary(c: Context<ServerEnv>, user: UserRecord): Record<string, unknown> {
  return account(c, { login: user.login, id: user.id, type: "User", siteAdmin: user.siteAdmin });
}

/**
 * An account as the platform shows one (the user summary): a user, or an organisation where an
 * account stands (a repository's owner).
 */
function account(
  c: Context<ServerEnv>,
  who: { login: string; id: number; type: "User" | "Organization"; siteAdmin: boolean },
): Record<string, unknown> {
  const origin = new URL(c.req.url).origin;
  const url = `${apiRoot(c)}/users/${who.login}`;
  return {
    login: who.login,
    id: who.id,
    node_id: nodeId(who.type, who.id),
    avatar_url: `${origin}/avatars/${who.type === "User" ? "u" : "o"}/${who.id}`,
    avatar_provider_id: "",
    url,
    html_url: `${origin}/${who.login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: who.type,
    site_admin: who.siteAdmin,
  };
}

export function orgSummary(c: Context<ServerEnv>, org: OrgRecord): Record<string, unknown> {
  const url = `${apiRoot(c)}/orgs/${org.login}`;
  return {
    login: org.login,
    id: org.id,
    node_id: nodeId("Organization", org.id),
    url,
    repos_url: `${url}/repos`,
    events_url: `${url}/events`,
    hooks_url: `${url}/hooks`,
    issues_url: `${url}/issues`,
    members_url: `${url}/members{/member}`,
    public_members_url: `${url}/public_members{/member}`,
    avatar_url: `${new URL(c.req.url).origin}/avatars/o/${org.id}`,
    description: org.description,
  };
}

/**
 * When the fixture's users, organisations and repositories were created (and last changed or
 * pushed to): the fixture states no time, and a fixed one reads the same in every run.
 */
export const FIXTURE_CREATED_AT = "2026-01-01T00:00:00Z";

/**
 * An organisation where the platform shows an account (a repository's owner): the user summary's
 * fields, with the organisation's identity and `type: "Organization"`.
 */
export function orgAsAccount(c: Context<ServerEnv>, org: OrgRecord): Record<string, unknown> {
  return account(c, { login: org.login, id: org.id, type: "Organization", siteAdmin: false });
}

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
  const api = `${apiRoot(c)}/repos/${full}`;
  return {
    id: repo.id,
    node_id: nodeId("Repository", repo.id),
    name: repo.name,
    full_name: full,
    owner: orgAsAccount(c, org),
    private: repo.private,
    html_url: `${new URL(c.req.url).origin}/${full}`,
    description: null,
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
    visibility: repo.private ? "private" : "public",
    default_branch: gitRepo(c.get("store"), repoKey(repo)).defaultBranch,
  };
}
