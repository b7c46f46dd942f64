/** The authenticated user, organisations and repositories: what clients read to orient themselves. */
import type { Context, Hono } from "hono";
import { authorize, orgRole } from "../auth";
import type { ServerEnv } from "../context";
import type { OrgRecord, RepoRecord, UserRecord } from "../fixture";
import { apiRoot, forbidden, notFound } from "../http";
import { findOrg, findRepo } from "../lookup";

export function metaRoutes(app: Hono<ServerEnv>): void {
  app.get("/user", (c) => {
    const caller = authorize(c, {});
    if (caller.token.kind === "app_installation" || !caller.user) {
      throw forbidden("Resource not accessible by integration");
    }
    return c.json({ ...userSummary(c, caller.user), name: caller.user.name });
  });

  app.get("/orgs/:org", (c) => {
    authorize(c, { permission: ["metadata", "read"] });
    const org = findOrg(c.get("store").state, c.req.param("org"));
    if (!org) throw notFound();
    return c.json(orgSummary(c, org));
  });

  app.get("/repos/:owner/:repo", (c) => {
    const caller = authorize(c, { permission: ["metadata", "read"] });
    const state = c.get("store").state;
    const repo = findRepo(state, c.req.param("owner"), c.req.param("repo"));
    const org = repo && findOrg(state, repo.owner);
    if (!repo || !org) throw notFound();
    if (repo.private && !orgRole(caller, org)) throw notFound();
    return c.json(repoObject(c, repo, org));
  });
}

export function userSummary(c: Context<ServerEnv>, user: UserRecord): Record<string, unknown> {
  const url = `${apiRoot(c)}/users/${user.login}`;
  return {
    login: user.login,
    id: user.id,
    node_id: Buffer.from(`User:${user.id}`).toString("base64"),
    avatar_url: `${new URL(c.req.url).origin}/avatars/u/${user.id}`,
    avatar_provider_id: "",
    url,
    html_url: `${new URL(c.req.url).origin}/${user.login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: "User",
    site_admin: user.siteAdmin,
  };
}

export function orgSummary(c: Context<ServerEnv>, org: OrgRecord): Record<string, unknown> {
  const url = `${apiRoot(c)}/orgs/${org.login}`;
  return {
    login: org.login,
    id: org.id,
    node_id: Buffer.from(`Organization:${org.id}`).toString("base64"),
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

function repoObject(c: Context<ServerEnv>, repo: RepoRecord, org: OrgRecord): Record<string, unknown> {
  const url = `${apiRoot(c)}/repos/${repo.owner}/${repo.name}`;
  return {
    id: repo.id,
    node_id: Buffer.from(`Repository:${repo.id}`).toString("base64"),
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    owner: { ...orgSummary(c, org), type: "Organization" },
    private: repo.private,
    visibility: repo.private ? "private" : "public",
    html_url: `${new URL(c.req.url).origin}/${repo.owner}/${repo.name}`,
    description: null,
    fork: false,
    url,
    hooks_url: `${url}/hooks`,
    default_branch: "main",
  };
}
