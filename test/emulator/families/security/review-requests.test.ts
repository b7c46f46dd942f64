/**
 * Pull request review requests over HTTP on pull request #7 of acme-eng/api (by octocat): listing,
 * requesting users and teams (201 with the pull request), the collaborator and author rules, and
 * the secondary rate limit, each refusal changing nothing.
 */
import { describe, expect, it } from "vitest";
import {
  type ApiResponse,
  call,
  control,
  expectErrorBody,
  type Json,
  stateOf,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();

const PATH = "/repos/acme-eng/api/pulls/7/requested_reviewers";
const request = (body: unknown, token: string = TOKENS.owner, path = PATH) =>
  call(sandbox.emulator, "POST", path, { body, token });
const list = (token: string | null = TOKENS.member, path = PATH) =>
  call(sandbox.emulator, "GET", path, { token });
const pullInState = async () => (await stateOf(sandbox.emulator)).pullRequests[0];

function expectNotCollaborator(response: ApiResponse, field: string, name: string): void {
  expect(response.status, response.text).toBe(422);
  expectErrorBody(
    response.body,
    "Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the acme-eng/api repository.",
  );
  expect(response.body.errors).toEqual([
    {
      resource: "PullRequest",
      field,
      code: "invalid",
      message: `${name} is not a collaborator of acme-eng/api`,
    },
  ]);
}

describe("review requests", () => {
  it("starts with no one requested", async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ users: [], teams: [] });
  });

  it("requests users and teams, answering 201 with the pull request", async () => {
    const response = await request({ reviewers: ["olivia"], team_reviewers: ["platform"] });
    expect(response.status, response.text).toBe(201);
    const pull: Json = response.body;
    const url = `${sandbox.emulator.url}/repos/acme-eng/api/pulls/7`;
    expect(pull).toMatchObject({
      url,
      id: 7007,
      number: 7,
      state: "open",
      locked: false,
      title: "Retry logins behind the proxy",
      body: "Fixes #1.",
      html_url: `${sandbox.emulator.origin}/acme-eng/api/pull/7`,
      diff_url: `${sandbox.emulator.origin}/acme-eng/api/pull/7.diff`,
      issue_url: `${sandbox.emulator.url}/repos/acme-eng/api/issues/7`,
      labels: [],
      milestone: null,
      active_lock_reason: null,
      closed_at: null,
      merged_at: null,
      merge_commit_sha: null,
      assignee: null,
      assignees: [],
      author_association: "MEMBER",
      auto_merge: null,
      draft: false,
    });
    expect(pull.user.login).toBe("octocat");
    expect(pull.requested_reviewers.map((u: Json) => u.login)).toEqual(["olivia"]);
    expect(pull.requested_teams).toEqual([
      expect.objectContaining({
        id: 1,
        slug: "platform",
        name: "Platform",
        type: "organization",
        parent: null,
      }),
    ]);
    expect(pull.head).toMatchObject({ ref: "feature/proxy-retry", label: "acme-eng:feature/proxy-retry" });
    // acme-ops/infra is the one fork of acme-eng/api.
    expect(pull.head.repo).toMatchObject({
      full_name: "acme-eng/api",
      default_branch: "main",
      private: true,
      fork: false,
      forks: 1,
      forks_count: 1,
    });
    expect(pull.base.ref).toBe("main");
    expect(pull._links.self).toEqual({ href: url });
    expect(Date.parse(pull.updated_at)).toBeGreaterThan(Date.parse(pull.created_at));

    const listed = await list();
    expect(listed.body.users.map((u: Json) => u.login)).toEqual(["olivia"]);
    expect(listed.body.teams.map((t: Json) => t.slug)).toEqual(["platform"]);
  });

  it("adds to the requests without repeating anyone", async () => {
    await request({ reviewers: ["olivia"] });
    const response = await request({ reviewers: ["admin", "OLIVIA"], team_reviewers: ["Platform"] });
    expect(response.status).toBe(201);
    expect(response.body.requested_reviewers.map((u: Json) => u.login)).toEqual(["olivia", "admin"]);
    expect(response.body.requested_teams.map((t: Json) => t.slug)).toEqual(["platform"]);
  });

  it("refuses the author, non-collaborators and unknown teams, changing nothing", async () => {
    const before = await pullInState();
    const author = await request({ reviewers: ["olivia", "octocat"] });
    expect(author.status).toBe(422);
    expectErrorBody(author.body, "Review cannot be requested from pull request author.");
    expect(author.body.errors[0]).toMatchObject({ field: "reviewers", code: "invalid" });
    // mona belongs to no organisation; billie is billing manager of acme, no member of acme-eng.
    for (const login of ["mona", "billie", "nobody"]) {
      expectNotCollaborator(await request({ reviewers: ["olivia", login] }), "reviewers", login);
    }
    expectNotCollaborator(await request({ team_reviewers: ["security"] }), "team_reviewers", "security");
    for (const body of [{}, { reviewers: [] }, { reviewers: [], team_reviewers: [] }]) {
      const response = await request(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.errors[0]).toMatchObject({ field: "reviewers", code: "missing_field" });
    }
    for (const body of [{ reviewers: "olivia" }, { team_reviewers: [1] }]) {
      const response = await request(body);
      expect(response.status).toBe(422);
      expect(response.body.errors[0].code).toBe("invalid");
    }
    expect(await pullInState()).toEqual(before);
  });

  it("answers 404 for a pull request that does not exist and a repository the caller cannot see", async () => {
    expect(
      (
        await request(
          { reviewers: ["olivia"] },
          TOKENS.owner,
          "/repos/acme-eng/api/pulls/8/requested_reviewers",
        )
      ).status,
    ).toBe(404);
    expect((await list(TOKENS.member, "/repos/acme-eng/api/pulls/1/requested_reviewers")).status).toBe(404);
    expect((await list(null)).status).toBe(404);
    expect((await list(TOKENS.noScopes)).status).toBe(404);
    expect((await request({ reviewers: ["olivia"] }, TOKENS.install)).status).toBe(403);
  });

  it("answers the secondary rate limit with 403 and retry-after, and requests nothing", async () => {
    const set = await control(sandbox.emulator, "PUT", "/rate-limit", {
      method: "POST",
      path: "/repos/acme-eng/api/pulls/7/requested_reviewers",
      retryAfter: 30,
      count: 1,
    });
    expect(set.status).toBe(200);
    // Reads are not limited.
    expect((await list()).status).toBe(200);
    const limited = await request({ reviewers: ["olivia"] });
    expect(limited.status).toBe(403);
    expect(limited.headers.get("retry-after")).toBe("30");
    expectErrorBody(limited.body, /secondary rate limit/);
    expect((await pullInState()).requestedReviewers).toEqual([]);
    expect((await request({ reviewers: ["olivia"] })).status).toBe(201);
  });
});
