/**
 * Pull request review requests (spec, Pull request review requests): who is requested, and
 * requesting more. Collaborators of a repository are the active members of its organisation; the
 * author cannot review their own pull request; teams are the organisation's.
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, callerOf, orgRole } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { ApiFailure, forbidden, notFound, pathId, readBody, urlOf, validationFailed } from "../../core/http";
import { findUser, readableRepo, repoKey } from "../../core/lookup";
import { activeMember } from "../../core/members";
import { nodeId, orgAsAccount, userSummary } from "../../core/render";
import { type EmulatorState, timestamp } from "../../core/store";
import { teamObject } from "../teams/render";
import type { StoredTeam } from "../teams/state";
import { findTeam } from "../teams/teams";
import type { PullRequestRecord } from "./records";
import { fullRepository } from "./repo-objects";

/** FG Pull requests read; public. */
const READ: AccessRule = { scopes: ["repo"], permission: ["pull_requests", "read"], public: true };
/** FG Pull requests write; classic repo. */
const WRITE: AccessRule = { scopes: ["repo"], permission: ["pull_requests", "write"] };

const R = ROUTES.reviewRequests;
const RESOURCE = "PullRequest";

export function reviewRequestRoutes(app: Hono<ServerEnv>): void {
  app.get(R.list.pattern, guard(READ), (c) => {
    const { state, pull, org } = findPull(c, READ);
    return c.json({
      users: reviewers(c, state, pull),
      teams: teamsOf(state, org, pull.requestedTeams).map((t) => teamObject(c, t, org)),
    });
  });

  // May trigger the secondary rate limit (spec, Limits): the guard answers it, before any change.
  app.post(R.request.pattern, guard(WRITE), async (c) => {
    const { state, pull, repo, org } = findPull(c, WRITE);
    if (!orgRole(callerOf(c), org))
      throw forbidden("Resource not accessible: write access to the repository is required");
    const body = await readBody(c);
    const logins = stringList(body.reviewers, "reviewers");
    const slugs = stringList(body.team_reviewers, "team_reviewers");
    if (logins.length === 0 && slugs.length === 0) {
      throw validationFailed({
        resource: RESOURCE,
        field: "reviewers",
        code: "missing_field",
        message: "reviewers or team_reviewers must name at least one reviewer",
      });
    }
    const users = logins.map((login) => collaborator(state, repo, org, pull, login));
    const teams = slugs.map((slug) => {
      const team = findTeam(state, org, slug);
      if (!team) throw notCollaborator(repo, "team_reviewers", slug);
      return team.slug;
    });
    for (const login of users)
      if (!pull.requestedReviewers.includes(login)) pull.requestedReviewers.push(login);
    for (const slug of teams) if (!pull.requestedTeams.includes(slug)) pull.requestedTeams.push(slug);
    pull.updatedAt = timestamp();
    return c.json(renderPull(c, state, pull, repo, org), 201);
  });
}

function findPull(c: Context<ServerEnv>, rule: AccessRule) {
  const store = c.get("store");
  const state = store.state;
  const { repo, org } = readableRepo(
    state,
    c.get("caller"),
    c.req.param("owner") ?? "",
    c.req.param("repo") ?? "",
    rule,
  );
  const number = pathId(c, "pull_number");
  const key = repoKey(repo);
  const found = store.raw.pullRequests.find((p) => p.repo === key && p.number === number);
  if (!found) throw notFound();
  return { state, repo, org, pull: store.tracked("pullRequests", found) };
}

function stringList(value: unknown, field: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw validationFailed({
      resource: RESOURCE,
      field,
      code: "invalid",
      message: `${field} must be an array of strings`,
    });
  }
  return value as string[];
}

function notCollaborator(repo: RepoRecord, field: string, name: string): ApiFailure {
  return new ApiFailure(
    422,
    `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${repo.owner}/${repo.name} repository.`,
    [
      {
        resource: RESOURCE,
        field,
        code: "invalid",
        message: `${name} is not a collaborator of ${repo.owner}/${repo.name}`,
      },
    ],
  );
}

/** The login of a user who may review: a collaborator (active member of the organisation), not the author. */
function collaborator(
  state: EmulatorState,
  repo: RepoRecord,
  org: OrgRecord,
  pull: PullRequestRecord,
  login: string,
): string {
  const user = findUser(state, login);
  if (!user || !activeMember(org, user.login)) throw notCollaborator(repo, "reviewers", login);
  if (user.login === pull.user) {
    throw new ApiFailure(422, "Review cannot be requested from pull request author.", [
      {
        resource: RESOURCE,
        field: "reviewers",
        code: "invalid",
        message: `${user.login} is the author of the pull request`,
      },
    ]);
  }
  return user.login;
}

/** The requested teams, from the teams family's state (a team deleted since is left out). */
function teamsOf(state: EmulatorState, org: OrgRecord, slugs: readonly string[]): StoredTeam[] {
  return slugs.flatMap((slug) => findTeam(state, org, slug) ?? []);
}

function reviewers(c: Context<ServerEnv>, state: EmulatorState, pull: PullRequestRecord) {
  return pull.requestedReviewers.flatMap((login) => {
    const user = findUser(state, login);
    return user ? [userSummary(c, user)] : [];
  });
}

/**
 * The pull request as the request-reviewers operation returns it: the fields of the spec's "Gaps"
 * list, completed with the rest of the description's `pull-request-simple`.
 */
function renderPull(
  c: Context<ServerEnv>,
  state: EmulatorState,
  pull: PullRequestRecord,
  repo: RepoRecord,
  org: OrgRecord,
): Record<string, unknown> {
  const repoUrl = urlOf(c, ROUTES.repositories.get, { owner: repo.owner, repo: repo.name });
  const html = `${new URL(c.req.url).origin}/${repo.owner}/${repo.name}/pull/${pull.number}`;
  const url = `${repoUrl}/pulls/${pull.number}`;
  const author = findUser(state, pull.user);
  const branch = (side: { ref: string; sha: string }) => ({
    label: `${org.login}:${side.ref}`,
    ref: side.ref,
    sha: side.sha,
    user: orgAsAccount(c, org),
    repo: fullRepository(c, repo, org),
  });
  const links = {
    self: url,
    html,
    issue: `${repoUrl}/issues/${pull.number}`,
    comments: `${repoUrl}/issues/${pull.number}/comments`,
    review_comments: `${url}/comments`,
    review_comment: `${repoUrl}/pulls/comments{/number}`,
    commits: `${url}/commits`,
    statuses: `${repoUrl}/statuses/${pull.head.sha}`,
  };
  return {
    url,
    id: pull.id,
    node_id: nodeId("PullRequest", pull.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: links.issue,
    commits_url: links.commits,
    review_comments_url: links.review_comments,
    review_comment_url: links.review_comment,
    comments_url: links.comments,
    statuses_url: links.statuses,
    number: pull.number,
    state: pull.state,
    locked: false,
    title: pull.title,
    user: author ? userSummary(c, author) : null,
    body: pull.body,
    labels: [],
    milestone: null,
    active_lock_reason: null,
    created_at: pull.createdAt,
    updated_at: pull.updatedAt,
    closed_at: null,
    merged_at: null,
    merge_commit_sha: null,
    assignee: null,
    assignees: [],
    requested_reviewers: reviewers(c, state, pull),
    requested_teams: teamsOf(state, org, pull.requestedTeams).map((t) => teamObject(c, t, org)),
    head: branch(pull.head),
    base: branch(pull.base),
    _links: Object.fromEntries(Object.entries(links).map(([k, href]) => [k, { href }])),
    author_association: author && activeMember(org, author.login) ? "MEMBER" : "NONE",
    auto_merge: null,
    draft: false,
  };
}
