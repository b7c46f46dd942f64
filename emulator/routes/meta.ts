/** The authenticated user, organisations and repositories: what clients read to orient themselves. */

import type { Context, Hono } from "hono";
import { ROUTES } from "../../provider/client/routes";
import { type AccessRule, callerOf } from "../auth";
import type { ServerEnv } from "../context";
import type { OrgRecord, RepoRecord } from "../fixture";
import { guard } from "../guard";
import { apiRoot, forbidden, notFound, paginate } from "../http";
import { findOrg, readableRepo } from "../lookup";
import { nodeId, orgSummary, userSummary } from "../render";

const USER: AccessRule = { refuse: ["app_installation"] };
const METADATA: AccessRule = { permission: ["metadata", "read"] };

export function metaRoutes(app: Hono<ServerEnv>): void {
  app.get(ROUTES.meta.user.pattern, guard(USER), (c) => {
    const { user } = callerOf(c);
    if (!user) throw forbidden("Resource not accessible by integration");
    return c.json({ ...userSummary(c, user), name: user.name });
  });

  app.get(ROUTES.meta.org.pattern, guard(METADATA), (c) => {
    const org = findOrg(c.get("store").state, c.req.param("org"));
    if (!org) throw notFound();
    return c.json(orgSummary(c, org));
  });

  // The spec's excerpt does not show it; the platform lists an organisation's repositories the
  // caller can see (private ones to its members), sorted by name, paginated.
  app.get(ROUTES.meta.orgRepos.pattern, guard(METADATA), (c) => {
    const state = c.get("store").state;
    const org = findOrg(state, c.req.param("org"));
    if (!org) throw notFound();
    const visible = state.fixture.repos
      .filter((r) => r.owner.toLowerCase() === org.login.toLowerCase())
      .filter((r) => {
        try {
          readableRepo(state, c.get("caller"), r.owner, r.name, METADATA);
          return true;
        } catch {
          return false;
        }
      })
      .sort((a, b) => a.name.localeCompare(b.name));
    return c.json(paginate(c, visible).map((r) => repoObject(c, r, org)));
  });

  app.get(ROUTES.meta.repo.pattern, guard(METADATA), (c) => {
    const state = c.get("store").state;
    const owner = c.req.param("owner");
    const { repo, org } = readableRepo(state, callerOf(c), owner, c.req.param("repo"), METADATA);
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
