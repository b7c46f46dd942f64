/** The authenticated user, organisations and repositories: what clients read to orient themselves. */
import type { Context, Hono } from "hono";
import { type AccessRule, callerOf, expandScopes, orgRole } from "../auth";
import type { ServerEnv } from "../context";
import type { OrgRecord, RepoRecord } from "../fixture";
import { guard } from "../guard";
import { apiRoot, forbidden, notFound } from "../http";
import { findOrg, findRepo } from "../lookup";
import { nodeId, orgSummary, userSummary } from "../render";

const USER: AccessRule = { refuse: ["app_installation"] };
const METADATA: AccessRule = { permission: ["metadata", "read"] };

export function metaRoutes(app: Hono<ServerEnv>): void {
  app.get("/user", guard(USER), (c) => {
    const { user } = callerOf(c);
    if (!user) throw forbidden("Resource not accessible by integration");
    return c.json({ ...userSummary(c, user), name: user.name });
  });

  app.get("/orgs/:org", guard(METADATA), (c) => {
    const org = findOrg(c.get("store").state, c.req.param("org"));
    if (!org) throw notFound();
    return c.json(orgSummary(c, org));
  });

  app.get("/repos/:owner/:repo", guard(METADATA), (c) => {
    const caller = callerOf(c);
    const state = c.get("store").state;
    const repo = findRepo(state, c.req.param("owner"), c.req.param("repo"));
    const org = repo && findOrg(state, repo.owner);
    if (!repo || !org) throw notFound();
    // A private repository is hidden from outsiders and from classic tokens without `repo`
    // (spec, Authentication 2).
    const classicWithoutRepo =
      caller.token.kind === "classic" && !expandScopes(caller.token.scopes).has("repo");
    if (repo.private && (!orgRole(caller, org) || classicWithoutRepo)) throw notFound();
    return c.json(repoObject(c, repo, org));
  });
}

function repoObject(c: Context<ServerEnv>, repo: RepoRecord, org: OrgRecord): Record<string, unknown> {
  const url = `${apiRoot(c)}/repos/${repo.owner}/${repo.name}`;
  return {
    id: repo.id,
    node_id: nodeId("Repository", repo.id),
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
