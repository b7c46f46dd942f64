/**
 * Repositories (the repository Administration group, served as the platform's published
 * description serves it): create in an organisation, read, update, rename with a redirect from the
 * old name, archive (read-only), delete, topics; who may do each; and that a repository made
 * through the API is one every family finds.
 */
import { describe, expect, it } from "vitest";
import { call, control, expectErrorBody, type Json, stateOf, TOKENS, useSandbox } from "../../helpers";

const sandbox = useSandbox();

async function create(body: Record<string, unknown>, token: string = TOKENS.siteAdmin, org = "acme-eng") {
  return call(sandbox.emulator, "POST", `/orgs/${org}/repos`, { body, token });
}

async function made(body: Record<string, unknown>): Promise<Json> {
  const response = await create(body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const patch = (name: string, body: Record<string, unknown>, token: string = TOKENS.siteAdmin) =>
  call(sandbox.emulator, "PATCH", `/repos/acme-eng/${name}`, { body, token, redirect: "manual" });

describe("creating a repository", () => {
  it("answers 201 with the full repository, its defaults and a Location", async () => {
    const response = await create({
      name: "svc",
      description: "The service",
      homepage: "https://svc.example",
    });
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get("location")).toBe(`${sandbox.emulator.url}/repos/acme-eng/svc`);
    expect(response.body).toMatchObject({
      name: "svc",
      full_name: "acme-eng/svc",
      private: false,
      visibility: "public",
      description: "The service",
      homepage: "https://svc.example",
      default_branch: "main",
      has_issues: true,
      has_projects: true,
      has_wiki: true,
      is_template: false,
      archived: false,
      topics: [],
      allow_merge_commit: true,
      allow_squash_merge: true,
      allow_rebase_merge: true,
      allow_auto_merge: false,
      delete_branch_on_merge: false,
      allow_update_branch: false,
      clone_url: `${sandbox.emulator.origin}/acme-eng/svc.git`,
    });
    expect(response.body.id).toBeGreaterThan(1003);
    expect(response.body.owner.login).toBe("acme-eng");
  });

  it("takes visibility over private, and refuses internal outside an enterprise", async () => {
    expect((await made({ name: "a", private: true, visibility: "internal" })).visibility).toBe("internal");
    expect((await made({ name: "b", private: true })).visibility).toBe("private");
    const solo = await create({ name: "c", visibility: "internal" }, TOKENS.siteAdmin, "solo");
    expect(solo.status).toBe(422);
    expect(solo.body.errors[0]).toMatchObject({ field: "visibility", code: "invalid" });
  });

  it("makes an initial commit on main with auto_init, and none without", async () => {
    await made({ name: "init", auto_init: true });
    await made({ name: "bare" });
    const init = await call(sandbox.emulator, "GET", "/repos/acme-eng/init/branches");
    expect(init.body.map((b: Json) => b.name)).toEqual(["main"]);
    const bare = await call(sandbox.emulator, "GET", "/repos/acme-eng/bare/branches");
    expect(bare.body).toEqual([]);
  });

  it("refuses a name the organisation has (case-insensitively), bad names and bad values, all at once", async () => {
    const taken = await create({ name: "API" });
    expect(taken.status).toBe(422);
    expect(taken.body.errors[0]).toMatchObject({ field: "name", code: "custom" });
    const bad = await create({ name: "a b", has_wiki: "yes", visibility: "secret" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: Json) => e.field).sort()).toEqual(["has_wiki", "name", "visibility"]);
    const missing = await create({ description: "no name" });
    expect(missing.body.errors[0]).toMatchObject({ field: "name", code: "missing_field" });
    const merges = await create({
      name: "nomerge",
      allow_merge_commit: false,
      allow_squash_merge: false,
      allow_rebase_merge: false,
    });
    expect(merges.status).toBe(422);
    expect(merges.body.errors[0].message).toContain("at least one");
  });

  it("lets members create as the organisation's policies allow, and refuses outsiders and app tokens", async () => {
    expect((await create({ name: "by-member", visibility: "private" }, TOKENS.member)).status).toBe(201);
    const policy = await call(sandbox.emulator, "PATCH", "/orgs/acme-eng", {
      token: TOKENS.owner,
      body: { members_can_create_private_repositories: false },
    });
    expect(policy.status, policy.text).toBe(200);
    const refused = await create({ name: "by-member-2", visibility: "private" }, TOKENS.member);
    expect(refused.status).toBe(403);
    expectErrorBody(refused.body, /cannot create private repositories/);
    // Owners are not bound by the members' policy; public repositories are still allowed.
    expect((await create({ name: "by-owner", visibility: "private" }, TOKENS.owner)).status).toBe(201);
    expect((await create({ name: "by-member-3" }, TOKENS.member)).status).toBe(201);
    expect((await create({ name: "x" }, TOKENS.siteAdmin, "acme-ops")).status).toBe(201);
    expect((await create({ name: "y" }, TOKENS.member, "acme-ops")).status).toBe(403);
    expect((await create({ name: "z" }, TOKENS.install)).status).toBe(403);
    expect((await create({ name: "z" }, TOKENS.noScopes)).status).toBe(403);
  });

  it("is a repository every family finds: webhooks, property values, runner groups, the org's list", async () => {
    const repo = await made({ name: "svc" });
    const hook = await call(sandbox.emulator, "POST", "/repos/acme-eng/svc/hooks", {
      body: { config: { url: "https://example.com/h" } },
    });
    expect(hook.status, hook.text).toBe(201);
    const values = await call(sandbox.emulator, "PATCH", "/repos/acme-eng/svc/properties/values", {
      body: { properties: [{ property_name: "tier", value: "gold" }] },
    });
    expect(values.status, values.text).toBe(204);
    const group = await call(sandbox.emulator, "POST", "/orgs/acme-eng/actions/runner-groups", {
      body: { name: "g", visibility: "selected", selected_repository_ids: [repo.id] },
    });
    expect(group.status, group.text).toBe(201);
    const list = await call(sandbox.emulator, "GET", "/orgs/acme-eng/repos");
    expect(list.body.map((r: Json) => r.name)).toEqual(["api", "empty", "svc", "web"]);
  });
});

describe("reading and updating a repository", () => {
  it("shows the fixture's repositories with the platform's defaults", async () => {
    const api = await call(sandbox.emulator, "GET", "/repos/acme-eng/api");
    expect(api.status).toBe(200);
    expect(api.body).toMatchObject({
      id: 1000,
      private: true,
      visibility: "private",
      archived: false,
      topics: [],
    });
  });

  it("shows the merge settings only to callers who may push", async () => {
    const owner = await call(sandbox.emulator, "GET", "/repos/acme-eng/web", { token: TOKENS.owner });
    expect(owner.body.allow_merge_commit).toBe(true);
    const install = await call(sandbox.emulator, "GET", "/repos/acme-eng/web", { token: TOKENS.install });
    expect(install.status).toBe(200);
    expect(install.body.allow_merge_commit).toBeUndefined();
    expect(install.body.allow_update_branch).toBeUndefined();
  });

  it("shows them to a collaborator who may push, not to one who only triages", async () => {
    // octocat is outside acme-ops: he sees acme-ops/infra only as its collaborator.
    const infra = () => call(sandbox.emulator, "GET", "/repos/acme-ops/infra", { token: TOKENS.member });
    expect((await infra()).status).toBe(404);
    const invited = await control(sandbox.emulator, "PUT", "/repos/acme-ops/infra/collaborators/octocat", {
      permission: "triage",
    });
    await control(sandbox.emulator, "POST", `/repository-invitations/${invited.body.invitationId}/accept`);
    const triage = await infra();
    expect(triage.status, triage.text).toBe(200);
    expect(triage.body.allow_merge_commit).toBeUndefined();
    await control(sandbox.emulator, "PUT", "/repos/acme-ops/infra/collaborators/octocat", {
      permission: "push",
    });
    expect((await infra()).body.allow_merge_commit).toBe(true);
  });

  it("updates every declared setting, leaving the others as they are", async () => {
    await made({ name: "svc", description: "before", has_wiki: false });
    const response = await patch("svc", {
      description: "after",
      homepage: "",
      visibility: "private",
      has_issues: false,
      is_template: true,
      allow_merge_commit: false,
      allow_auto_merge: true,
      delete_branch_on_merge: true,
      allow_update_branch: true,
      default_branch: "trunk",
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      description: "after",
      homepage: null,
      private: true,
      visibility: "private",
      has_issues: false,
      has_wiki: false,
      is_template: true,
      allow_merge_commit: false,
      allow_squash_merge: true,
      allow_auto_merge: true,
      delete_branch_on_merge: true,
      allow_update_branch: true,
      // A repository without branches takes any name as the branch its first push makes.
      default_branch: "trunk",
    });
  });

  it("takes as default branch only a branch the repository has, once it has some", async () => {
    const response = await patch("api", { default_branch: "nope" });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({ field: "default_branch" });
    expect((await patch("api", { default_branch: "develop" })).body.default_branch).toBe("develop");
  });

  it("refuses a reader (403), hides a private repository from outsiders (404)", async () => {
    expect((await patch("api", { description: "x" }, TOKENS.member)).status).toBe(403);
    expect((await patch("api", { description: "x" }, TOKENS.noScopes)).status).toBe(403);
    expect((await patch("nope", { description: "x" })).status).toBe(404);
  });
});

describe("renaming a repository", () => {
  it("keeps its id, moves what other families hold, and redirects the old name", async () => {
    const repo = await made({ name: "svc", auto_init: true });
    await call(sandbox.emulator, "POST", "/repos/acme-eng/svc/hooks", {
      body: { config: { url: "https://e.com/h" } },
    });
    const renamed = await patch("svc", { name: "service" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ id: repo.id, name: "service", full_name: "acme-eng/service" });
    const hooks = await call(sandbox.emulator, "GET", "/repos/acme-eng/service/hooks");
    expect(hooks.body).toHaveLength(1);
    const branches = await call(sandbox.emulator, "GET", "/repos/acme-eng/service/branches");
    expect(branches.body.map((b: Json) => b.name)).toEqual(["main"]);

    const get = await call(sandbox.emulator, "GET", "/repos/acme-eng/svc", { redirect: "manual" });
    expect(get.status).toBe(301);
    expect(get.headers.get("location")).toBe(`${sandbox.emulator.url}/repos/acme-eng/service`);
    expect(get.body).toMatchObject({ message: "Moved Permanently", url: get.headers.get("location") });
    const moved = await patch("svc", { description: "x" });
    expect(moved.status).toBe(307);
    expect(moved.headers.get("location")).toBe(`${sandbox.emulator.url}/repos/acme-eng/service`);
    const del = await call(sandbox.emulator, "DELETE", "/repos/acme-eng/svc", { redirect: "manual" });
    expect(del.status).toBe(307);
    // A redirect was no write: the repository is still there.
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/service")).status).toBe(200);
  });

  it("follows a second rename from the first name, and gives the old name to a new repository", async () => {
    await made({ name: "one" });
    await patch("one", { name: "two" });
    await patch("two", { name: "three" });
    const first = await call(sandbox.emulator, "GET", "/repos/acme-eng/one", { redirect: "manual" });
    expect(first.headers.get("location")).toBe(`${sandbox.emulator.url}/repos/acme-eng/three`);
    await made({ name: "one" });
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/one", { redirect: "manual" })).status).toBe(
      200,
    );
  });

  it("refuses a name the owner has, and keeps no redirect for a change of case", async () => {
    await made({ name: "svc" });
    expect((await patch("svc", { name: "WEB" })).status).toBe(422);
    expect((await patch("svc", { name: "SVC" })).body.name).toBe("SVC");
    expect((await stateOf(sandbox.emulator)).repositoryRedirects).toEqual([]);
  });

  it("hides the redirect of a private repository from who cannot see it", async () => {
    await made({ name: "secret", visibility: "private" });
    await patch("secret", { name: "hidden" });
    const outsider = await call(sandbox.emulator, "GET", "/repos/acme-eng/secret", {
      token: TOKENS.noScopes,
      redirect: "manual",
    });
    expect(outsider.status).toBe(404);
  });
});

describe("archiving and deleting", () => {
  it("makes an archived repository read-only until it is unarchived", async () => {
    await made({ name: "svc", auto_init: true });
    expect((await patch("svc", { archived: true })).body.archived).toBe(true);
    const refused = await patch("svc", { description: "x" });
    expect(refused.status).toBe(403);
    expectErrorBody(refused.body, "Repository was archived so is read-only.");
    const topics = await call(sandbox.emulator, "PUT", "/repos/acme-eng/svc/topics", {
      body: { names: ["a"] },
    });
    expect(topics.status).toBe(403);
    const rename = await call(sandbox.emulator, "POST", "/repos/acme-eng/svc/branches/main/rename", {
      body: { new_name: "trunk" },
    });
    expect(rename.status).toBe(403);
    const unarchived = await patch("svc", { archived: false, description: "back" });
    expect(unarchived.body).toMatchObject({ archived: false, description: "back" });
  });

  it("deletes with delete_repo only; a new repository of the same name starts empty", async () => {
    await made({ name: "svc", auto_init: true });
    await call(sandbox.emulator, "POST", "/repos/acme-eng/svc/hooks", {
      body: { config: { url: "https://e.com/h" } },
    });
    const owner = await call(sandbox.emulator, "DELETE", "/repos/acme-eng/svc", { token: TOKENS.owner });
    expect(owner.status).toBe(403);
    expect(owner.headers.get("x-accepted-oauth-scopes")).toBe("delete_repo");
    expect((await call(sandbox.emulator, "DELETE", "/repos/acme-eng/svc")).status).toBe(204);
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/svc")).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", "/repos/acme-eng/svc")).status).toBe(404);
    await made({ name: "svc" });
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/svc/hooks")).body).toEqual([]);
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/svc/branches")).body).toEqual([]);
  });

  it("takes the teams' access, collaborators and invitations of a deleted repository with it", async () => {
    const svc = await made({ name: "svc", private: true });
    const grant = await call(sandbox.emulator, "PUT", "/orgs/acme-eng/teams/platform/repos/acme-eng/svc", {
      body: { permission: "push" },
    });
    expect(grant.status, grant.text).toBe(204);
    for (const login of ["octocat", "mona"]) {
      const added = await call(sandbox.emulator, "PUT", `/repos/acme-eng/svc/collaborators/${login}`, {
        body: { permission: "pull" },
      });
      expect(added.status, added.text).toBeLessThan(300);
    }
    const held = async () => {
      const state = await stateOf(sandbox.emulator);
      const of = (rows: Json[]) => rows.filter((row) => row.repoId === svc.id).length;
      return [of(state.teamRepos), of(state.collaborators), of(state.repoInvitations)];
    };
    expect(await held()).toEqual([1, 1, 1]);
    expect((await call(sandbox.emulator, "DELETE", "/repos/acme-eng/svc")).status).toBe(204);
    expect(await held()).toEqual([0, 0, 0]);
    const platform = await call(sandbox.emulator, "GET", "/orgs/acme-eng/teams/platform");
    expect(platform.body.repos_count).toBe(0);
  });
});

describe("topics", () => {
  it("replaces the set, lower-cased and once each, and reads it back", async () => {
    const put = await call(sandbox.emulator, "PUT", "/repos/acme-eng/web/topics", {
      body: { names: ["Backend", "api", "backend"] },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ names: ["backend", "api"] });
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/web/topics", { token: null })).body).toEqual(
      {
        names: ["backend", "api"],
      },
    );
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/web")).body.topics).toEqual([
      "backend",
      "api",
    ]);
    expect(
      (await call(sandbox.emulator, "PUT", "/repos/acme-eng/web/topics", { body: { names: [] } })).body,
    ).toEqual({
      names: [],
    });
  });

  it("refuses bad topics with the description's string errors", async () => {
    const response = await call(sandbox.emulator, "PUT", "/repos/acme-eng/web/topics", {
      body: { names: ["-bad", "ok", "x".repeat(51)] },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors).toHaveLength(2);
    expect(typeof response.body.errors[0]).toBe("string");
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`);
    expect(
      (await call(sandbox.emulator, "PUT", "/repos/acme-eng/web/topics", { body: { names: many } })).status,
    ).toBe(422);
    expect((await call(sandbox.emulator, "PUT", "/repos/acme-eng/web/topics", { body: {} })).status).toBe(
      422,
    );
  });
});
