/**
 * The authenticated user, accounts and organisations: what clients read to orient themselves. (An
 * organisation's repositories are the repositories family's.)
 */

import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, callerOf } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, UserRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { forbidden, notFound } from "../../core/http";
import { findOrg, findUser } from "../../core/lookup";
import { FIXTURE_CREATED_AT, orgAsAccount, userSummary } from "../../core/render";
import { orgFull } from "../org-config/org-settings";

const USER: AccessRule = { refuse: ["app_installation"] };
const METADATA: AccessRule = { permission: ["metadata", "read"] };

export function metaRoutes(app: Hono<ServerEnv>): void {
  app.get(ROUTES.meta.user.pattern, guard(USER), (c) => {
    const { user } = callerOf(c);
    if (!user) throw forbidden("Resource not accessible by integration");
    return c.json(privateUser(c, user));
  });

  app.get(ROUTES.meta.org.pattern, guard(METADATA), (c) => {
    const org = findOrg(c.get("store").state, c.req.param("org"));
    if (!org) throw notFound();
    return c.json(orgFull(c, org));
  });

  // Public: anyone may look an account up, a user or an organisation.
  app.get(ROUTES.meta.account.pattern, guard({ public: true }), (c) => {
    const state = c.get("store").state;
    const login = c.req.param("username");
    const user = findUser(state, login);
    if (user) return c.json(publicUser(c, user));
    const org = findOrg(state, login);
    if (!org) throw notFound();
    return c.json(orgAsPublicUser(c, org));
  });
}

/**
 * The authenticated user as the platform shows them to themselves (its private user): the user
 * summary, the profile (the fixture gives only a name; the other profile fields are empty), and
 * counts of what the sandbox holds for them.
 */
function privateUser(c: Context<ServerEnv>, user: UserRecord): Record<string, unknown> {
  const owned = c
    .get("store")
    .state.fixture.repos.filter((r) => r.owner.toLowerCase() === user.login.toLowerCase());
  const privateRepos = owned.filter((r) => r.private).length;
  return {
    ...userSummary(c, user),
    name: user.name,
    company: null,
    blog: "",
    location: null,
    email: null,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: owned.length - privateRepos,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: FIXTURE_CREATED_AT,
    updated_at: FIXTURE_CREATED_AT,
    private_gists: 0,
    total_private_repos: privateRepos,
    owned_private_repos: privateRepos,
    disk_usage: 0,
    collaborators: 0,
    // Every fixture user signs in with a second factor unless the fixture says it is disabled.
    two_factor_authentication: user.twoFactor !== "disabled",
  };
}

/**
 * An account as the public sees it (the description's `public-user`): the user summary and the
 * profile (the fixture gives only a name; the other profile fields are empty).
 */
function publicUser(c: Context<ServerEnv>, user: UserRecord): Record<string, unknown> {
  const owned = c
    .get("store")
    .raw.fixture.repos.filter((r) => r.owner.toLowerCase() === user.login.toLowerCase() && !r.private);
  return {
    ...userSummary(c, user),
    user_view_type: "public",
    name: user.name,
    company: null,
    blog: null,
    location: null,
    email: null,
    hireable: null,
    bio: null,
    public_repos: owned.length,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: FIXTURE_CREATED_AT,
    updated_at: FIXTURE_CREATED_AT,
  };
}

/** An organisation looked up as an account: its account fields, `type: "Organization"`. */
function orgAsPublicUser(c: Context<ServerEnv>, org: OrgRecord): Record<string, unknown> {
  const owned = c
    .get("store")
    .raw.fixture.repos.filter((r) => r.owner.toLowerCase() === org.login.toLowerCase() && !r.private);
  return {
    ...orgAsAccount(c, org),
    user_view_type: "public",
    name: org.profileName ?? null,
    company: null,
    blog: null,
    location: null,
    email: null,
    hireable: null,
    bio: org.description || null,
    public_repos: owned.length,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: FIXTURE_CREATED_AT,
    updated_at: FIXTURE_CREATED_AT,
  };
}
