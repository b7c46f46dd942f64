/**
 * Branch protection: the write shape and the read shape (flags as `{enabled}`, parts with URLs,
 * people and teams as objects, parts that are off left out), the seeded protection of acme-eng/api's
 * `main`, branch names with slashes, the branch routes' summary following the protection, 422s
 * naming their field, and removal.
 */
import { describe, expect, it } from "vitest";
import {
  call,
  expectErrorBody,
  expectValidationFailed,
  type Json,
  stateOf,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();
const base = (branch: string) => `/repos/acme-eng/api/branches/${branch}/protection`;

const OFF = {
  required_status_checks: null,
  enforce_admins: null,
  required_pull_request_reviews: null,
  restrictions: null,
};
const FULL = {
  required_status_checks: { strict: true, contexts: ["ci/build", "ci/test"] },
  enforce_admins: true,
  required_pull_request_reviews: {
    dismiss_stale_reviews: true,
    require_code_owner_reviews: false,
    required_approving_review_count: 2,
    require_last_push_approval: true,
  },
  restrictions: { users: ["octocat"], teams: ["platform"], apps: ["deploy-gate"] },
  required_linear_history: true,
  allow_force_pushes: false,
  allow_deletions: false,
  required_conversation_resolution: true,
  lock_branch: false,
};

async function put(branch: string, body: unknown): Promise<Json> {
  const response = await call(sandbox.emulator, "PUT", base(branch), { body });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe("branch protection", () => {
  it("starts with main of acme-eng/api requiring ci/build", async () => {
    const response = await call(sandbox.emulator, "GET", base("main"));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      required_status_checks: {
        strict: false,
        contexts: ["ci/build"],
        checks: [{ context: "ci/build", app_id: null }],
      },
      enforce_admins: {
        enabled: false,
        url: expect.stringMatching(/\/branches\/main\/protection\/enforce_admins$/),
      },
      required_linear_history: { enabled: false },
    });
    expect(response.body.restrictions).toBeUndefined();
    expect(response.body.required_pull_request_reviews).toBeUndefined();
  });

  it("answers the PUT's flags as {enabled}, people and teams as objects, and GET reads the same", async () => {
    const written = await put("develop", FULL);
    expect(written).toMatchObject({
      url: expect.stringMatching(/\/repos\/acme-eng\/api\/branches\/develop\/protection$/),
      required_status_checks: { strict: true, contexts: ["ci/build", "ci/test"] },
      enforce_admins: { enabled: true },
      required_pull_request_reviews: {
        dismiss_stale_reviews: true,
        require_code_owner_reviews: false,
        required_approving_review_count: 2,
        require_last_push_approval: true,
      },
      required_linear_history: { enabled: true },
      allow_force_pushes: { enabled: false },
      required_conversation_resolution: { enabled: true },
      lock_branch: { enabled: false },
      restrictions: {
        users: [expect.objectContaining({ login: "octocat", type: "User" })],
        teams: [expect.objectContaining({ slug: "platform" })],
        apps: [expect.objectContaining({ slug: "deploy-gate", id: 101 })],
      },
    });
    expect((await call(sandbox.emulator, "GET", base("develop"))).body).toEqual(written);
    const branch = await call(sandbox.emulator, "GET", "/repos/acme-eng/api/branches/develop");
    expect(branch.body.protected).toBe(true);
    expect(branch.body.protection.required_status_checks).toEqual({
      enforcement_level: "everyone",
      contexts: ["ci/build", "ci/test"],
      checks: [
        { context: "ci/build", app_id: null },
        { context: "ci/test", app_id: null },
      ],
    });
  });

  it("turns parts off with null, and the PUT replaces the whole protection", async () => {
    await put("develop", FULL);
    const off = await put("develop", OFF);
    expect(off.required_status_checks).toBeUndefined();
    expect(off.restrictions).toBeUndefined();
    expect(off.enforce_admins.enabled).toBe(false);
    expect(off.required_linear_history.enabled).toBe(false);
  });

  it("protects branches whose names hold a slash, encoded or not", async () => {
    await put("release%2F1.0", { ...OFF, lock_branch: true });
    const read = await call(sandbox.emulator, "GET", base("release/1.0"));
    expect(read.status).toBe(200);
    expect(read.body.lock_branch).toEqual({ enabled: true });
    expect(read.body.url).toMatch(/\/branches\/release%2F1\.0\/protection$/);
  });

  it("is removed by DELETE; then GET and DELETE answer Branch not protected", async () => {
    expect((await call(sandbox.emulator, "DELETE", base("main"))).status).toBe(204);
    for (const method of ["GET", "DELETE"]) {
      const response = await call(sandbox.emulator, method, base("main"));
      expect(response.status).toBe(404);
      expectErrorBody(response.body, "Branch not protected");
    }
    const branch = await call(sandbox.emulator, "GET", "/repos/acme-eng/api/branches/main");
    expect(branch.body.protected).toBe(false);
    expect(branch.body.protection.enabled).toBe(false);
  });

  it("lets teams of the teams family push: one made through the API, followed by its rename, gone with it", async () => {
    const made = await call(sandbox.emulator, "POST", "/orgs/acme-eng/teams", {
      body: { name: "Release Crew" },
    });
    expect(made.status).toBe(201);
    await put("main", { ...OFF, restrictions: { users: [], teams: ["platform", "Release-Crew"] } });
    const teams = async () =>
      (await call(sandbox.emulator, "GET", base("main"))).body.restrictions.teams.map((t: Json) => t.slug);
    expect(await teams()).toEqual(["platform", "release-crew"]);
    await call(sandbox.emulator, "PATCH", "/orgs/acme-eng/teams/release-crew", {
      body: { name: "Deploy Crew" },
    });
    expect(await teams()).toEqual(["platform", "deploy-crew"]);
    expect((await call(sandbox.emulator, "DELETE", "/orgs/acme-eng/teams/deploy-crew")).status).toBe(204);
    expect(await teams()).toEqual(["platform"]);
  });

  it("goes with its repository: a repository made again with the name starts unprotected", async () => {
    const made = await call(sandbox.emulator, "POST", "/orgs/acme-eng/repos", {
      body: { name: "svc", auto_init: true },
    });
    expect(made.status, made.text).toBe(201);
    const svc = "/repos/acme-eng/svc/branches/main/protection";
    expect((await call(sandbox.emulator, "PUT", svc, { body: { ...OFF, lock_branch: true } })).status).toBe(
      200,
    );
    expect((await call(sandbox.emulator, "DELETE", "/repos/acme-eng/svc")).status).toBe(204);
    const left = (await stateOf(sandbox.emulator)).branchProtections.map((p: Json) => p.repo);
    expect(left).toEqual(["acme-eng/api"]);
    await call(sandbox.emulator, "POST", "/orgs/acme-eng/repos", { body: { name: "svc", auto_init: true } });
    const again = await call(sandbox.emulator, "GET", svc);
    expect(again.status).toBe(404);
    expectErrorBody(again.body, "Branch not protected");
  });

  it("answers Branch not found for a branch the repository lacks", async () => {
    const response = await call(sandbox.emulator, "PUT", base("nope"), { body: OFF });
    expect(response.status).toBe(404);
    expectErrorBody(response.body, "Branch not found");
  });

  it.each([
    [{ ...OFF, restrictions: undefined }, "restrictions", "missing_field"],
    [{ ...OFF, enforce_admins: "yes" }, "enforce_admins", "invalid"],
    [
      { ...FULL, required_pull_request_reviews: { required_approving_review_count: 7 } },
      "required_pull_request_reviews.required_approving_review_count",
      "invalid",
    ],
    [{ ...FULL, required_status_checks: { contexts: [] } }, "required_status_checks.strict", "invalid"],
    [{ ...FULL, restrictions: { users: ["mona"], teams: [] } }, "restrictions.users", "invalid"],
    [{ ...FULL, restrictions: { users: [], teams: ["nope"] } }, "restrictions.teams", "invalid"],
  ])("refuses %j with a 422 naming %s, changing nothing", async (body, field, code) => {
    const before = (await call(sandbox.emulator, "GET", base("main"))).body;
    expectValidationFailed(
      await call(sandbox.emulator, "PUT", base("main"), { body }),
      field,
      code,
      "BranchProtection",
    );
    expect((await call(sandbox.emulator, "GET", base("main"))).body).toEqual(before);
  });

  it("is the repository administrators': a member gets 404", async () => {
    expect((await call(sandbox.emulator, "GET", base("main"), { token: TOKENS.member })).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", base("main"), { token: TOKENS.owner })).status).toBe(200);
  });
});
