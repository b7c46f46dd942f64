/**
 * The summaries of users and organisations (spec, concepts, User summary and Organization summary)
 * that many responses embed.
 */
import type { Context } from "hono";
import type { ServerEnv } from "./context";
import type { OrgRecord, UserRecord } from "./fixture";
import { apiRoot } from "./http";

/** The opaque `node_id` of an object: its type and id, base64. */
export function nodeId(type: string, id: number): string {
  return Buffer.from(`${type}:${id}`).toString("base64");
}

export function userSummary(c: Context<ServerEnv>, user: UserRecord): Record<string, unknown> {
  const url = `${apiRoot(c)}/users/${user.login}`;
  return {
    login: user.login,
    id: user.id,
    node_id: nodeId("User", user.id),
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
