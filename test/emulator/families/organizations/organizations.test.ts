/**
 * Enterprise organisation administration (spec, endpoints): creating an organisation (201, its
 * owner, default runner group and enterprise), and renaming one: 202, the pending window in which the
 * old name still answers and a second rename is refused, then the old name a 404 and everything
 * keyed by the login reachable under the new one.
 */
import { describe, expect, it } from "vitest";
import { API_VERSION_2026 } from "../../../../api";
import {
  type ApiResponse,
  type CallOptions,
  call,
  control,
  expectErrorBody,
  expectValidationFailed,
  type Json,
  runJobs,
  seedWorld,
  stateOf,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();
const V2026 = { "x-service-api-version": API_VERSION_2026 };

function api(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  return call(sandbox.emulator, method, path, options);
}

const create = (body: unknown, token: string = TOKENS.siteAdmin) =>
  api("POST", "/admin/organizations", { body, token });
const rename = (org: string, login: unknown) =>
  api("PATCH", `/admin/organizations/${org}`, { body: { login } });
const jobDelay = async (delayMs: number) =>
  expect((await control(sandbox.emulator, "PUT", "/jobs", { delayMs })).status).toBe(200);

describe("POST /admin/organizations", () => {
  it("creates an organisation owned by the admin user, in the installation's enterprise", async () => {
    const response = await create({ login: "acme-data", admin: "olivia", profile_name: "Acme Data" });
    expect(response.status, response.text).toBe(201);
    const url = `${sandbox.emulator.url}/orgs/acme-data`;
    expect(response.body).toEqual({
      login: "acme-data",
      id: 103,
      node_id: expect.any(String),
      url,
      repos_url: `${url}/repos`,
      events_url: `${url}/events`,
      hooks_url: `${url}/hooks`,
      issues_url: `${url}/issues`,
      members_url: `${url}/members{/member}`,
      public_members_url: `${url}/public_members{/member}`,
      avatar_url: expect.stringMatching(/^http:\/\/.+\/avatars\/o\/103$/),
      description: "",
    });
    expect((await api("GET", "/orgs/ACME-DATA")).body).toMatchObject(response.body);
    const membership = await api("GET", "/orgs/acme-data/memberships/olivia", { token: TOKENS.owner });
    expect(membership.status).toBe(200);
    expect(membership.body).toMatchObject({ state: "active", role: "admin" });
    const groups = await api("GET", "/orgs/acme-data/actions/runner-groups", { token: TOKENS.owner });
    expect(groups.body.runner_groups.map((g: Json) => [g.name, g.default])).toEqual([["Default", true]]);
    const org = (await stateOf(sandbox.emulator)).fixture.orgs.find((o: Json) => o.login === "acme-data");
    expect(org).toMatchObject({
      enterprise: "acme",
      profileName: "Acme Data",
      members: { olivia: { role: "admin" } },
    });
  });

  it("takes a login of 39 characters", async () => {
    expect((await create({ login: `a${"-b".repeat(19)}`, admin: "admin" })).status).toBe(201);
  });

  it.each([
    ["a missing login", { admin: "admin" }, "login", "missing_field"],
    ["an empty login", { login: "", admin: "admin" }, "login", "missing_field"],
    [
      "a login taken by an organisation (any case)",
      { login: "ACME-eng", admin: "admin" },
      "login",
      "already_exists",
    ],
    ["a login taken by a user", { login: "Octocat", admin: "admin" }, "login", "already_exists"],
    ["a login starting with a hyphen", { login: "-acme", admin: "admin" }, "login", "invalid"],
    ["a login ending with a hyphen", { login: "acme-", admin: "admin" }, "login", "invalid"],
    ["a login with two hyphens in a row", { login: "ac--me", admin: "admin" }, "login", "invalid"],
    ["a login with an underscore", { login: "ac_me", admin: "admin" }, "login", "invalid"],
    ["a login of 40 characters", { login: "a".repeat(40), admin: "admin" }, "login", "invalid"],
    ["a login that is no string", { login: 42, admin: "admin" }, "login", "invalid"],
    ["a missing admin", { login: "acme-x" }, "admin", "missing_field"],
    ["an unknown admin", { login: "acme-x", admin: "nobody" }, "admin", "invalid"],
    [
      "a profile_name that is no string",
      { login: "acme-x", admin: "admin", profile_name: 7 },
      "profile_name",
      "invalid",
    ],
  ])("answers 422 for %s and changes nothing", async (_what, body, field, code) => {
    const before = await stateOf(sandbox.emulator);
    expectValidationFailed(await create(body), field, code, "Organization");
    expect(await stateOf(sandbox.emulator)).toEqual(before);
  });

  it("answers 404 to anyone but a site administrator's classic token", async () => {
    for (const token of [TOKENS.owner, TOKENS.member, TOKENS.fineGrained, TOKENS.install]) {
      const response = await create({ login: "acme-x", admin: "admin" }, token);
      expect(response.status, token).toBe(404);
      expectErrorBody(response.body, "Not Found");
    }
  });
});

describe("PATCH /admin/organizations/{org}", () => {
  it("answers 202 and renames when the job runs: the old name is gone, everything is under the new one", async () => {
    const world = await seedWorld(sandbox.emulator);
    // More objects keyed by the login: an invitation, property values, a repository budget, a key pair.
    expect((await api("PUT", "/orgs/acme-eng/memberships/mona", { body: { role: "member" } })).status).toBe(
      200,
    );
    const tier = { properties: [{ property_name: "tier", value: "gold" }] };
    const orgValues = await api("PATCH", "/organizations/acme-eng/org-properties/values", {
      body: tier,
      headers: V2026,
    });
    expect(orgValues.status).toBe(204);
    expect((await api("PATCH", "/repos/acme-eng/api/properties/values", { body: tier })).status).toBe(204);
    const repoBudget = await api("POST", "/enterprises/acme/settings/billing/budgets", {
      headers: V2026,
      body: {
        budget_amount: 10,
        prevent_further_usage: false,
        budget_alerting: { will_alert: false, alert_recipients: [] },
        budget_scope: "repository",
        budget_entity_name: "acme-eng/api",
        budget_type: "ProductPricing",
        budget_product_sku: "actions",
      },
    });
    expect(repoBudget.status, repoBudget.text).toBe(200);
    const key = (await api("GET", "/orgs/acme-eng/private-registries/public-key")).body;
    await api("PUT", "/notifications", {
      headers: V2026,
      body: { read: false, last_read_at: "2026-01-31T00:00:00Z" },
    });
    // And of the families keyed by owner/name or login besides: a dependency snapshot, a security
    // manager, statistics compiled for the default branch. The fixture seeds the git data (branches,
    // the legacy redirect, the fork acme-ops/infra of acme-eng/api), issues, pull request #7 and its
    // team, alerts; `seedWorld` an organisation block, an issue type and an issue field.
    const snapshot = await api("POST", "/repos/acme-eng/api/dependency-graph/snapshots", {
      body: {
        version: 0,
        job: { id: "rename", correlator: "rename" },
        sha: "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3",
        ref: "refs/heads/main",
        detector: { name: "rename", version: "1.0.0", url: "https://example.com/rename" },
        scanned: "2026-01-10T09:00:00Z",
      },
    });
    expect(snapshot.status, snapshot.text).toBe(201);
    const manager = await control(sandbox.emulator, "PUT", "/orgs/acme-eng/security-managers/octocat");
    expect(manager.status).toBe(204);

    await jobDelay(0);
    expect((await api("GET", "/repos/acme-eng/api/stats/contributors")).status).toBe(202);
    // The next request finishes the computation.
    expect((await api("GET", "/repos/acme-eng/api/stats/contributors")).status).toBe(200);
    const response = await rename("acme-eng", "acme-core");
    expect(response.status, response.text).toBe(202);
    expect(response.body).toEqual({
      message: "Job queued to rename organization. It may take a few minutes to complete.",
      url: `${sandbox.emulator.url}/organizations/100`,
    });

    // The next request runs the job.
    expect((await api("GET", "/orgs/acme-eng")).status).toBe(404);
    expect((await api("GET", "/repos/acme-eng/api")).status).toBe(404);
    expect((await api("GET", "/repos/acme-eng/api/hooks")).status).toBe(404);
    const org = await api("GET", "/orgs/acme-core");
    expect(org.body).toMatchObject({
      login: "acme-core",
      id: 100,
      url: `${sandbox.emulator.url}/orgs/acme-core`,
    });
    expect((await api("GET", "/repos/acme-core/api")).body.full_name).toBe("acme-core/api");

    const hooks = await api("GET", "/repos/acme-core/api/hooks");
    expect(hooks.body.map((h: Json) => [h.id, h.url])).toEqual([
      [world.repoHook, `${sandbox.emulator.url}/repos/acme-core/api/hooks/${world.repoHook}`],
    ]);
    const members = await api("GET", "/orgs/acme-core/members");
    expect(members.body.map((m: Json) => m.login).sort()).toEqual(["admin", "octocat", "olivia"]);
    const invitations = await api("GET", "/orgs/acme-core/invitations");
    expect(invitations.body.map((i: Json) => i.login)).toEqual(["mona"]);
    const groups = await api("GET", "/orgs/acme-core/actions/runner-groups");
    expect(groups.body.runner_groups.map((g: Json) => g.name)).toEqual(["Default", "seed"]);
    const seedGroup = await api("GET", `/orgs/acme-core/actions/runner-groups/${world.orgGroup}/runners`);
    expect(seedGroup.body.runners.map((r: Json) => r.id)).toEqual([1]);
    const runners = await api("GET", "/orgs/acme-core/actions/runners");
    expect(runners.body.runners.map((r: Json) => r.id)).toEqual([1, 2, 3, 4]);
    const rule = await api(
      "GET",
      `/repos/acme-core/api/environments/release%2Feu/deployment_protection_rules/${world.protectionRule}`,
      { token: TOKENS.install },
    );
    expect(rule.status, rule.text).toBe(200);
    expect(rule.body.app.slug).toBe("deploy-gate");
    const orgProps = await api("GET", "/organizations/acme-core/org-properties/values", { headers: V2026 });
    expect(orgProps.body).toEqual([{ property_name: "tier", value: "gold" }]);
    const repoProps = await api("GET", "/repos/acme-core/api/properties/values");
    expect(repoProps.body).toEqual([{ property_name: "tier", value: "gold" }]);
    const budgets = await api("GET", "/enterprises/acme/settings/billing/budgets", { headers: V2026 });
    expect(budgets.body.budgets.map((b: Json) => b.budget_entity_name).sort()).toEqual([
      "acme-core",
      "acme-core/api",
    ]);
    const registries = await api("GET", "/orgs/acme-core/private-registries");
    expect(registries.body.configurations.map((r: Json) => r.name)).toEqual([world.registry]);
    expect((await api("GET", "/orgs/acme-core/private-registries/public-key")).body).toEqual(key);
    const thread = await api("GET", "/notifications/threads/1", { headers: V2026 });
    expect(thread.body.repository.full_name).toBe("acme-core/api");
    expect(thread.body.subject.url).toBe(`${sandbox.emulator.url}/repos/acme-core/api/issues/1`);

    // Git data: branches, the earlier rename's redirect, statistics still compiled, the fork's upstream.
    expect((await api("GET", "/repos/acme-core/api/branches/main")).body.name).toBe("main");
    const legacy = await api("GET", "/repos/acme-core/api/branches/legacy", { redirect: "manual" });
    expect(legacy.status).toBe(301);
    expect(legacy.headers.get("location")).toBe(
      `${sandbox.emulator.url}/repos/acme-core/api/branches/develop`,
    );
    expect((await api("GET", "/repos/acme-core/api/stats/contributors")).status).toBe(200);
    const sync = await api("POST", "/repos/acme-ops/infra/merge-upstream", { body: { branch: "main" } });
    expect(sync.status, sync.text).toBe(200);
    expect(sync.body.base_branch).toBe("acme-core:main");
    // Security and review: the snapshot, alerts (octocat reads the organisation's as its security
    // manager), issues (the transferred one sent to the new name), the pull request and its team.
    const graph = await control(sandbox.emulator, "GET", "/repos/acme-core/api/dependency-graph");
    expect(graph.body.snapshots.map((x: Json) => x.correlator)).toEqual(["rename"]);
    const alerts = await api("GET", "/repos/acme-core/api/depwatch/alerts");
    expect(alerts.body.map((a: Json) => a.number).sort()).toEqual([1, 2, 3]);
    const managed = await api("GET", "/orgs/acme-core/depwatch/alerts", { token: TOKENS.member });
    expect(managed.status, managed.text).toBe(200);
    expect(managed.body.map((a: Json) => a.repository.full_name)).toContain("acme-core/api");
    expect((await api("GET", "/repos/acme-core/api/issues/1/issue-field-values")).status).toBe(200);
    const transferred = await api("GET", "/repos/acme-core/api/issues/2/issue-field-values", {
      redirect: "manual",
    });
    expect(transferred.status).toBe(301);
    expect(transferred.headers.get("location")).toBe(
      `${sandbox.emulator.url}/repos/acme-core/web/issues/4/issue-field-values`,
    );
    const review = await api("POST", "/repos/acme-core/api/pulls/7/requested_reviewers", {
      body: { team_reviewers: ["platform"] },
    });
    expect(review.status, review.text).toBe(201);
    expect(review.body.requested_teams.map((t: Json) => t.slug)).toEqual(["platform"]);
    // Organisation configuration.
    expect((await api("GET", "/orgs/acme-core/blocks")).body.map((u: Json) => u.login)).toEqual(["hubot"]);
    expect((await api("GET", "/orgs/acme-core/issue-types")).body.map((t: Json) => t.name)).toEqual(["Seed"]);
    expect((await api("GET", "/orgs/acme-core/issue-fields")).body.map((f: Json) => f.name)).toEqual([
      "Seed",
    ]);

    // Nothing in the state names the old login any more, the fixture's seeds included.
    expect(JSON.stringify(await stateOf(sandbox.emulator))).not.toMatch(/acme-eng/i);
  });

  it("moves a branch rename queued while the organisation's rename was pending to the new name", async () => {
    await jobDelay(60_000);
    expect((await rename("acme-eng", "acme-core")).status).toBe(202);
    // Queued after the organisation's rename, so done after it: under the new name.
    const branch = await api("POST", "/repos/acme-eng/api/branches/develop/rename", {
      body: { new_name: "next" },
    });
    expect(branch.status, branch.text).toBe(201);
    await runJobs(sandbox.emulator);
    const old = await api("GET", "/repos/acme-core/api/branches/develop", { redirect: "manual" });
    expect(old.status).toBe(301);
    expect(old.headers.get("location")).toBe(`${sandbox.emulator.url}/repos/acme-core/api/branches/next`);
    const jobs = await control(sandbox.emulator, "GET", "/jobs");
    expect(jobs.body.pending).toEqual([]);
    expect(JSON.stringify(await stateOf(sandbox.emulator))).not.toMatch(/acme-eng/i);
  });

  it("keeps the old name while the rename is pending, and refuses a second rename meanwhile", async () => {
    await jobDelay(60_000);
    expect((await rename("acme-eng", "acme-core")).status).toBe(202);
    expect((await api("GET", "/orgs/acme-eng")).status).toBe(200);
    expect((await api("GET", "/orgs/acme-core")).status).toBe(404);
    const again = await rename("acme-eng", "acme-other");
    expectValidationFailed(again, "login", "unprocessable", "Organization");
    expect(again.body.errors[0].message).toBe("a rename of acme-eng is already in progress");
    // The pending name is taken: by another rename, and by a new organisation.
    expectValidationFailed(await rename("acme-ops", "ACME-CORE"), "login", "already_exists", "Organization");
    expectValidationFailed(
      await create({ login: "acme-core", admin: "admin" }),
      "login",
      "already_exists",
      "Organization",
    );
    const jobs = await control(sandbox.emulator, "GET", "/jobs");
    expect(jobs.body.pending.map((j: Json) => [j.kind, j.data])).toEqual([
      ["orgs.rename", { orgId: 100, to: "acme-core" }],
    ]);
  });

  it("renames after the job's delay", async () => {
    await jobDelay(60_000);
    expect((await rename("acme-ops", "acme-platform")).status).toBe(202);
    expect((await api("GET", "/repos/acme-ops/infra")).status).toBe(200);
    await runJobs(sandbox.emulator);
    expect((await api("GET", "/repos/acme-ops/infra")).status).toBe(404);
    expect((await api("GET", "/repos/acme-platform/infra")).status).toBe(200);
    // The renamed organisation can be renamed again, back to its old name too.
    await jobDelay(0);
    expect((await rename("acme-platform", "acme-ops")).status).toBe(202);
    expect((await api("GET", "/repos/acme-ops/infra")).status).toBe(200);
  });

  it("takes a change of case of the organisation's own name", async () => {
    await jobDelay(0);
    expect((await rename("acme-eng", "Acme-Eng")).status).toBe(202);
    expect((await api("GET", "/orgs/acme-eng")).body.login).toBe("Acme-Eng");
    expectValidationFailed(await rename("acme-eng", "Acme-Eng"), "login", "already_exists", "Organization");
  });

  it.each([
    ["taken by an organisation", "acme-ops", "already_exists"],
    ["taken by a user", "mona", "already_exists"],
    ["invalid", "acme--core", "invalid"],
    ["missing", undefined, "missing_field"],
  ])("answers 422 for a new name %s, and queues nothing", async (_what, login, code) => {
    const before = await stateOf(sandbox.emulator);
    expectValidationFailed(await rename("acme-eng", login), "login", code, "Organization");
    expect(await stateOf(sandbox.emulator)).toEqual(before);
  });

  it("answers 404 for an unknown organisation and to anyone but a site administrator", async () => {
    expect((await rename("nope", "acme-core")).status).toBe(404);
    for (const token of [TOKENS.owner, TOKENS.fineGrained, TOKENS.install]) {
      const response = await api("PATCH", "/admin/organizations/acme-eng", { token, body: { login: "x" } });
      expect(response.status, token).toBe(404);
    }
  });
});
