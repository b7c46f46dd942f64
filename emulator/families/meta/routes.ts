/** The authenticated user, organisations and repositories: what clients read to orient themselves. */

import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, callerOf } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord, UserRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { forbidden, notFound, paginate } from "../../core/http";
import { findOrg, readableRepo, repoKey } from "../../core/lookup";
import { FIXTURE_CREATED_AT, orgAsAccount, orgSummary, userSummary } from "../../core/render";
import { forkCount } from "../git/git";
import { repoSummary } from "../git/repository";

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
    return c.json(paginate(c, visible).map((r) => repoSummary(c, r, org)));
  });

  app.get(ROUTES.meta.repo.pattern, guard(METADATA), (c) => {
    const state = c.get("store").state;
    const owner = c.req.param("owner");
    const { repo, org } = readableRepo(state, callerOf(c), owner, c.req.param("repo"), METADATA);
    return c.json(repoFull(c, repo, org));
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

/** An organisation as its own page shows it (the platform's full organisation). */
function orgFull(c: Context<ServerEnv>, org: OrgRecord): Record<string, unknown> {
  const repos = c
    .get("store")
    .state.fixture.repos.filter((r) => r.owner.toLowerCase() === org.login.toLowerCase());
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
    updated_at: FIXTURE_CREATED_AT,
    archived_at: null,
  };
}

/**
 * A repository as its own page shows it (the platform's full repository): the summary, the clone
 * URLs, its forks (from the git data), and what the sandbox models of its content, which is
 * nothing: no stars, watchers, issues, pages or licence.
 */
function repoFull(c: Context<ServerEnv>, repo: RepoRecord, org: OrgRecord): Record<string, unknown> {
  const origin = new URL(c.req.url);
  const full = `${repo.owner}/${repo.name}`;
  const forks = forkCount(c.get("store"), repoKey(repo));
  return {
    ...repoSummary(c, repo, org),
    organization: orgAsAccount(c, org),
    clone_url: `${origin.origin}/${full}.git`,
    git_url: `git://${origin.host}/${full}.git`,
    ssh_url: `git@${origin.hostname}:${full}.git`,
    svn_url: `${origin.origin}/${full}`,
    mirror_url: null,
    homepage: null,
    language: null,
    size: 0,
    forks,
    forks_count: forks,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    subscribers_count: 0,
    network_count: 0,
    open_issues: 0,
    open_issues_count: 0,
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_discussions: false,
    archived: false,
    disabled: false,
    license: null,
    pushed_at: FIXTURE_CREATED_AT,
    created_at: FIXTURE_CREATED_AT,
    updated_at: FIXTURE_CREATED_AT,
  };
}
