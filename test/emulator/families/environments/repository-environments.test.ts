/**
 * Environments and their deployment branch policies, as the platform's published description has
 * them: the fixture's environments, create-or-update with its limits (wait timer, reviewers, the
 * branch policy setting), deleting an environment with everything kept per environment, branch
 * policies (404 without custom policies, 303 to a pattern already there, renames), the workflow-job
 * control, and who may read and write.
 */
import { describe, expect, it } from "vitest";
import { whenEnvironmentRemoved } from "../../../../emulator/families/environments/environments";
import {
  call,
  control,
  expectErrorBody,
  expectValidationFailed,
  type Json,
  parseLink,
  stateOf,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();

const env = (name: string, repo = "acme-eng/api") =>
  `/repos/${repo}/environments/${encodeURIComponent(name)}`;
const policies = (name: string, repo = "acme-eng/api") => `${env(name, repo)}/deployment-branch-policies`;
const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

async function put(name: string, body: unknown, repo = "acme-eng/api"): Promise<Json> {
  const response = await call(sandbox.emulator, "PUT", env(name, repo), { body });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function addPolicy(name: string, body: unknown): Promise<Json> {
  const response = await call(sandbox.emulator, "POST", policies(name), { body });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const CUSTOM = { protected_branches: false, custom_branch_policies: true };

describe("the fixture's environments", () => {
  it("lists production, staging and release/eu of acme-eng/api with their settings", async () => {
    const response = await call(sandbox.emulator, "GET", "/repos/acme-eng/api/environments");
    expect(response.status).toBe(200);
    expect(response.body.total_count).toBe(3);
    expect(response.body.environments.map((e: Json) => e.name)).toEqual([
      "production",
      "staging",
      "release/eu",
    ]);
    const [production, staging, release] = response.body.environments;
    expect(staging).toMatchObject({ protection_rules: [], deployment_branch_policy: null });
    expect(release.url).toBe(`${sandbox.emulator.url}/repos/acme-eng/api/environments/release%2Feu`);
    expect(release.html_url).toContain("environments_filter=release%2Feu");
    expect(production.deployment_branch_policy).toEqual(CUSTOM);
    const reviewers = production.protection_rules.find((r: Json) => r.type === "required_reviewers");
    expect(reviewers).toMatchObject({
      prevent_self_review: false,
      id: expect.any(Number),
      node_id: expect.any(String),
    });
    expect(reviewers.reviewers).toEqual([
      { type: "User", reviewer: expect.objectContaining({ login: "octocat", id: 3, type: "User" }) },
    ]);
    expect(production.protection_rules.map((r: Json) => r.type)).toEqual([
      "required_reviewers",
      "branch_policy",
    ]);
    const list = await call(sandbox.emulator, "GET", policies("production"));
    expect(list.body).toEqual({
      total_count: 1,
      branch_policies: [
        { id: expect.any(Number), node_id: expect.any(String), name: "main", type: "branch" },
      ],
    });
  });

  it("reads one environment by its encoded name, case-insensitively", async () => {
    const one = await call(sandbox.emulator, "GET", env("RELEASE/EU"));
    expect(one.status).toBe(200);
    expect(one.body.name).toBe("release/eu");
    for (const path of [
      env("nowhere"),
      env("production", "acme-eng/nothing"),
      "/repos/acme-eng/api/environments/release/eu",
    ]) {
      const missing = await call(sandbox.emulator, "GET", path);
      expect(missing.status, path).toBe(404);
      expectErrorBody(missing.body, "Not Found");
    }
  });

  it("pages the list with per_page and Link, total_count counting every environment", async () => {
    const first = await call(sandbox.emulator, "GET", "/repos/acme-eng/api/environments?per_page=2");
    expect(first.body.total_count).toBe(3);
    expect(first.body.environments).toHaveLength(2);
    const next = parseLink(first.headers.get("link")).next;
    const second = await call(sandbox.emulator, "GET", next ?? "");
    expect(second.body.environments.map((e: Json) => e.name)).toEqual(["release/eu"]);
  });
});

describe("PUT .../environments/{environment_name}", () => {
  it("creates an environment with the platform's defaults, its name holding '/' and ':'", async () => {
    const made = await put("canary:eu/1", {});
    expect(made).toMatchObject({
      name: "canary:eu/1",
      protection_rules: [],
      deployment_branch_policy: null,
      url: `${sandbox.emulator.url}/repos/acme-eng/api/environments/canary%3Aeu%2F1`,
    });
    expect(made.created_at).toMatch(ISO_SECONDS);
    expect((await stateOf(sandbox.emulator)).environments.map((e: Json) => e.name)).toContain("canary:eu/1");
  });

  it("takes every setting, and shows each as a protection rule", async () => {
    const made = await put("canary", {
      wait_timer: 30,
      prevent_self_review: true,
      reviewers: [
        { type: "User", id: 3 },
        { type: "Team", id: 1 },
        { type: "User", id: 3 },
      ],
      deployment_branch_policy: { protected_branches: true, custom_branch_policies: false },
    });
    expect(made.protection_rules.map((r: Json) => r.type)).toEqual([
      "wait_timer",
      "required_reviewers",
      "branch_policy",
    ]);
    expect(made.protection_rules[0].wait_timer).toBe(30);
    const required = made.protection_rules[1];
    expect(required.prevent_self_review).toBe(true);
    // A reviewer named twice is one reviewer; a team is shown as the team.
    expect(required.reviewers.map((r: Json) => [r.type, r.reviewer.id])).toEqual([
      ["User", 3],
      ["Team", 1],
    ]);
    expect(required.reviewers[1].reviewer).toMatchObject({ slug: "platform", name: "Platform" });
    expect(made.deployment_branch_policy).toEqual({
      protected_branches: true,
      custom_branch_policies: false,
    });
  });

  it("updates what the body names and keeps the rest", async () => {
    const first = await put("canary", { wait_timer: 5, reviewers: [{ type: "User", id: 2 }] });
    const second = await put("CANARY", { wait_timer: 10 });
    expect(second.id).toBe(first.id);
    expect(second.name).toBe("canary");
    expect(second.protection_rules.find((r: Json) => r.type === "wait_timer").wait_timer).toBe(10);
    expect(second.protection_rules.find((r: Json) => r.type === "required_reviewers").reviewers).toHaveLength(
      1,
    );
    const cleared = await put("canary", { wait_timer: 0, reviewers: null });
    expect(cleared.protection_rules).toEqual([]);
  });

  it.each([
    ["a wait timer over 30 days", { wait_timer: 43_201 }, "wait_timer"],
    ["a negative wait timer", { wait_timer: -1 }, "wait_timer"],
    ["a fractional wait timer", { wait_timer: 1.5 }, "wait_timer"],
    [
      "seven reviewers",
      { reviewers: [1, 2, 3, 4, 5, 6].map((id) => ({ type: "User", id })).concat({ type: "Team", id: 1 }) },
      "reviewers",
    ],
    ["a reviewer who does not exist", { reviewers: [{ type: "User", id: 999 }] }, "reviewers"],
    ["a reviewer of another kind", { reviewers: [{ type: "Bot", id: 3 }] }, "reviewers"],
    ["a team of no organisation of the repository", { reviewers: [{ type: "Team", id: 99 }] }, "reviewers"],
    [
      "both branch settings",
      { deployment_branch_policy: { protected_branches: true, custom_branch_policies: true } },
      "deployment_branch_policy",
    ],
    [
      "neither branch setting",
      { deployment_branch_policy: { protected_branches: false, custom_branch_policies: false } },
      "deployment_branch_policy",
    ],
    [
      "a branch setting missing",
      { deployment_branch_policy: { protected_branches: true } },
      "deployment_branch_policy",
    ],
    ["a key the platform does not know", { waitTimer: 5 }, "waitTimer"],
    ["prevent_self_review as a string", { prevent_self_review: "yes" }, "prevent_self_review"],
  ])("refuses %s with a 422 naming the field, changing nothing", async (_label, body, field) => {
    const before = await stateOf(sandbox.emulator);
    const response = await call(sandbox.emulator, "PUT", env("production"), { body });
    expectValidationFailed(response, field, "invalid", "Environment");
    expect(await stateOf(sandbox.emulator)).toEqual(before);
  });

  it("says the limits in the messages", async () => {
    const timer = await call(sandbox.emulator, "PUT", env("canary"), { body: { wait_timer: 50_000 } });
    expect(timer.body.errors[0].message).toBe("wait_timer must be an integer between 0 and 43200 (minutes)");
    const many = Array.from({ length: 7 }, (_, i) => ({ type: "User", id: (i % 6) + 1 }));
    many[6] = { type: "Team", id: 1 };
    const seven = await call(sandbox.emulator, "PUT", env("canary"), { body: { reviewers: many } });
    expect(seven.body.errors[0].message).toBe("reviewers may list at most 6 users or teams; got 7");
  });

  it("refuses a reviewer who cannot read a private repository", async () => {
    // mona belongs to no organisation: she cannot read acme-eng/api, and may review acme-eng/web's.
    const refused = await call(sandbox.emulator, "PUT", env("canary"), {
      body: { reviewers: [{ type: "User", id: 4 }] },
    });
    expectValidationFailed(refused, "reviewers", "invalid", "Environment");
    expect(refused.body.errors[0].message).toBe(
      "reviewer mona (User 4) must have read access to acme-eng/api",
    );
    await put("preview", { reviewers: [{ type: "User", id: 4 }] }, "acme-eng/web");
  });

  it("takes as reviewer whom a collaboration lets read a private repository", async () => {
    const invited = await control(sandbox.emulator, "PUT", "/repos/acme-eng/api/collaborators/mona", {
      permission: "pull",
    });
    await control(sandbox.emulator, "POST", `/repository-invitations/${invited.body.invitationId}/accept`);
    const environment = await put("canary", { reviewers: [{ type: "User", id: 4 }] });
    expect(environment.protection_rules[0].reviewers[0].reviewer.login).toBe("mona");
  });

  it("takes the teams the teams family keeps, and no longer lists one deleted since", async () => {
    const team = await call(sandbox.emulator, "POST", "/orgs/acme-eng/teams", {
      body: { name: "Reviewers" },
    });
    expect(team.status, team.text).toBe(201);
    const environment = await put("canary", {
      reviewers: [
        { type: "Team", id: team.body.id },
        { type: "User", id: 3 },
      ],
    });
    expect(
      environment.protection_rules[0].reviewers.map((r: Json) => [
        r.type,
        r.reviewer.slug ?? r.reviewer.login,
      ]),
    ).toEqual([
      ["Team", "reviewers"],
      ["User", "octocat"],
    ]);
    expect((await call(sandbox.emulator, "DELETE", "/orgs/acme-eng/teams/reviewers")).status).toBe(204);
    const after = await call(sandbox.emulator, "GET", env("canary"));
    expect(after.body.protection_rules[0].reviewers.map((r: Json) => r.type)).toEqual(["User"]);
  });

  it.each([
    ["longer than 255 characters", "e".repeat(256)],
    ["with a space at the end", "canary "],
    ["with a control character", "can\u0001ary"],
  ])("refuses a new name %s", async (_label, name) => {
    const response = await call(sandbox.emulator, "PUT", env(name), { body: {} });
    expectValidationFailed(response, "name", "invalid", "Environment");
  });

  it("drops the name patterns when the environment leaves custom policies", async () => {
    await put("production", { deployment_branch_policy: null });
    expect((await stateOf(sandbox.emulator)).branchPolicies).toEqual([]);
    expect((await call(sandbox.emulator, "GET", policies("production"))).body.total_count).toBe(0);
  });

  it("moves updated_at on every update", async () => {
    const first = await put("canary", {});
    const state = sandbox.emulator.store.state;
    const stored = state.environments.find((e) => e.name === "canary");
    if (stored) stored.updated_at = "2026-01-01T00:00:00Z";
    const again = await put("canary", { wait_timer: 1 });
    expect(again.updated_at).not.toBe("2026-01-01T00:00:00Z");
    expect(again.created_at).toBe(first.created_at);
  });
});

describe("DELETE .../environments/{environment_name}", () => {
  it("deletes the environment with its branch policies, protection rules and what families registered", async () => {
    const dropped: string[] = [];
    whenEnvironmentRemoved((_store, where) => {
      dropped.push(`${where.owner}/${where.repo}/${where.environment}`);
    });
    const rule = await call(sandbox.emulator, "POST", `${env("production")}/deployment_protection_rules`, {
      body: { integration_id: 101 },
    });
    expect(rule.status).toBe(201);
    const removed = await call(sandbox.emulator, "DELETE", env("PRODUCTION"), { token: TOKENS.owner });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe("");
    const state = await stateOf(sandbox.emulator);
    expect(state.environments.map((e: Json) => e.name)).toEqual(["staging", "release/eu"]);
    expect(state.branchPolicies).toEqual([]);
    expect(state.protectionRules).toEqual([]);
    expect(dropped).toContain("acme-eng/api/production");
    expect((await call(sandbox.emulator, "GET", env("production"))).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", env("production"))).status).toBe(404);
    expect(
      (
        await call(
          sandbox.emulator,
          "GET",
          `${env("production")}/deployment_protection_rules/${rule.body.id}`,
        )
      ).status,
    ).toBe(404);
  });
});

describe("deployment branch policies", () => {
  it("adds a pattern (type branch by default) and a tag pattern of the same name", async () => {
    const branch = await addPolicy("production", { name: "release/*" });
    expect(branch).toEqual({
      id: expect.any(Number),
      node_id: expect.any(String),
      name: "release/*",
      type: "branch",
    });
    const tag = await addPolicy("production", { name: "release/*", type: "tag" });
    expect(tag.id).not.toBe(branch.id);
    const one = await call(sandbox.emulator, "GET", `${policies("production")}/${tag.id}`);
    expect(one.body).toEqual(tag);
    expect((await call(sandbox.emulator, "GET", policies("production"))).body.total_count).toBe(3);
  });

  it("answers 303 to the pattern the environment already has", async () => {
    const [main] = (await call(sandbox.emulator, "GET", policies("production"))).body.branch_policies;
    const again = await call(sandbox.emulator, "POST", policies("production"), {
      body: { name: "main", type: "branch" },
      redirect: "manual",
    });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe(`${sandbox.emulator.url}${policies("production")}/${main.id}`);
    expect((await stateOf(sandbox.emulator)).branchPolicies).toHaveLength(1);
  });

  it("answers 404 on an environment without custom policies", async () => {
    const response = await call(sandbox.emulator, "POST", policies("staging"), { body: { name: "main" } });
    expect(response.status).toBe(404);
    await put("staging", {
      deployment_branch_policy: { protected_branches: true, custom_branch_policies: false },
    });
    expect(
      (await call(sandbox.emulator, "POST", policies("staging"), { body: { name: "main" } })).status,
    ).toBe(404);
    await put("staging", { deployment_branch_policy: CUSTOM });
    await addPolicy("staging", { name: "main" });
  });

  it.each([
    ["no name", {}, "missing_field"],
    ["an empty name", { name: "" }, "invalid"],
    ["a type other than branch or tag", { name: "main", type: "commit" }, "invalid"],
  ])("refuses %s with a 422", async (_label, body, code) => {
    const response = await call(sandbox.emulator, "POST", policies("production"), { body });
    expectValidationFailed(
      response,
      Object.hasOwn(body, "type") ? "type" : "name",
      code,
      "DeploymentBranchPolicy",
    );
  });

  it("renames a pattern, keeping its type; a name the environment has for that type is a 422", async () => {
    const tag = await addPolicy("production", { name: "v*", type: "tag" });
    const renamed = await call(sandbox.emulator, "PUT", `${policies("production")}/${tag.id}`, {
      body: { name: "v1.*" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: tag.id, name: "v1.*", type: "tag" });
    const [main] = (await call(sandbox.emulator, "GET", policies("production"))).body.branch_policies;
    const clash = await addPolicy("production", { name: "develop" });
    const taken = await call(sandbox.emulator, "PUT", `${policies("production")}/${clash.id}`, {
      body: { name: main.name },
    });
    expectValidationFailed(taken, "name", "already_exists", "DeploymentBranchPolicy");
  });

  it("deletes a pattern: 204, then 404; ids of another environment are 404 here", async () => {
    const [main] = (await call(sandbox.emulator, "GET", policies("production"))).body.branch_policies;
    expect((await call(sandbox.emulator, "GET", `${policies("staging")}/${main.id}`)).status).toBe(404);
    const removed = await call(sandbox.emulator, "DELETE", `${policies("production")}/${main.id}`);
    expect(removed.status).toBe(204);
    expect((await call(sandbox.emulator, "GET", `${policies("production")}/${main.id}`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `${policies("production")}/${main.id}`)).status).toBe(404);
  });
});

describe("a workflow job naming an environment (control)", () => {
  it("creates a missing environment with no protection, and leaves an existing one", async () => {
    const path = "/repos/acme-eng/api/environments/canary%2Feu/workflow-job";
    const made = await control(sandbox.emulator, "POST", path);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "canary/eu", protection_rules: [] });
    const again = await control(sandbox.emulator, "POST", path);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(made.body.id);
    expect(
      (await control(sandbox.emulator, "POST", "/repos/acme-eng/nothing/environments/x/workflow-job")).status,
    ).toBe(404);
  });
});

describe("who may read and write environments", () => {
  it("serves a public repository's environments to anyone, and hides a private one's", async () => {
    await put("preview", {}, "acme-eng/web");
    for (const token of [null, TOKENS.noScopes, TOKENS.member]) {
      expect((await call(sandbox.emulator, "GET", env("preview", "acme-eng/web"), { token })).status).toBe(
        200,
      );
    }
    for (const token of [null, TOKENS.noScopes]) {
      expect((await call(sandbox.emulator, "GET", env("production"), { token })).status).toBe(404);
      expect((await call(sandbox.emulator, "GET", policies("production"), { token })).status).toBe(404);
    }
    expect((await call(sandbox.emulator, "GET", env("production"), { token: TOKENS.install })).status).toBe(
      200,
    );
  });

  it("keeps writes to the repository's admins", async () => {
    const before = await stateOf(sandbox.emulator);
    const member = await call(sandbox.emulator, "PUT", env("canary"), { token: TOKENS.member, body: {} });
    expect(member.status).toBe(404);
    const install = await call(sandbox.emulator, "PUT", env("canary"), { token: TOKENS.install, body: {} });
    expect(install.status).toBe(403);
    expect(install.headers.get("x-accepted-service-permissions")).toBe("administration=write");
    expect(install.headers.get("x-accepted-oauth-scopes")).toBe("repo");
    const policy = await call(sandbox.emulator, "POST", policies("production"), {
      token: TOKENS.member,
      body: { name: "x" },
    });
    expect(policy.status).toBe(404);
    expect(await stateOf(sandbox.emulator)).toEqual(before);
    expect(
      (await call(sandbox.emulator, "PUT", env("canary"), { token: TOKENS.owner, body: {} })).status,
    ).toBe(200);
  });
});
