/**
 * The summaries of users and organisations (spec, concepts, User summary and Organization summary)
 * that many responses embed.
 */
import type { Context } from "hono";
import { ROUTES } from "../../api";
import type { ServerEnv } from "./context";
import type { OrgRecord, UserRecord } from "./fixture";
import { urlOf } from "./http";
import { LINKS } from "./links";

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
  const url = urlOf(c, LINKS.user, { username: who.login });
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
  const url = urlOf(c, ROUTES.meta.org, { org: org.login });
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
 * An organisation as `organization-full` and a team's `organization` show it, up to its settings:
 * the summary, its page, its public repositories counted, and `updated_at` as the caller knows it
 * (the organisation's settings record one; a team's organisation shows the fixture's time).
 */
export function orgDetails(
  c: Context<ServerEnv>,
  org: OrgRecord,
  updatedAt: string,
): Record<string, unknown> {
  const login = org.login.toLowerCase();
  const repos = c.get("store").raw.fixture.repos.filter((r) => r.owner.toLowerCase() === login);
  return {
    ...orgSummary(c, org),
    html_url: `${new URL(c.req.url).origin}/${org.login}`,
    has_organization_projects: true,
    has_repository_projects: true,
    public_repos: repos.filter((r) => !r.private).length,
    public_gists: 0,
    followers: 0,
    following: 0,
    type: "Organization",
    created_at: FIXTURE_CREATED_AT,
    updated_at: updatedAt,
    archived_at: null,
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
