/** The authenticated user, organisations and repositories: what clients read to orient themselves. */
import type { Context, Hono } from "hono";
import { authorize, orgRole } from "../auth";
import type { ServerEnv } from "../context";
import type { OrgRecord, RepoRecord } from "../fixture";
import { apiRoot, forbidden, notFound } from "../http";
import { findOrg, findRepo } from "../lookup";
import { nodeId, orgSummary, userSummary } from "../render";

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
