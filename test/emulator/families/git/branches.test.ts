import { describe, expect, it } from "vitest";
import { defaultFixture } from "../../../../emulator/families";
import type { Fixture } from "../../../../emulator/index";
import {
  call,
  control,
  DOCS_URL,
  expectErrorBody,
  expectValidationFailed,
  type Json,
  parseLink,
  runJobs,
  stateOf,
  TOKENS,
  useSandbox,
} from "../../helpers";

/** The default fixture plus a fine-grained token of olivia with Contents write only. */
function fixture(): Fixture {
  const f = defaultFixture();
  f.tokens.svc_pat_contents = {
    kind: "fine_grained",
    user: "olivia",
    scopes: [],
    permissions: { contents: "write" },
  };
  return f;
}

const sandbox = useSandbox({ fixture: fixture() });
const API = "/repos/acme-eng/api";
const BRANCHES = `${API}/branches`;

const names = (body: Json) => body.map((b: { name: string }) => b.name);
const get = (path: string, token: string | null = TOKENS.member) =>
  call(sandbox.emulator, "GET", path, { token, redirect: "manual" });
const post = (path: string, body: unknown, token: string = TOKENS.member) =>
  call(sandbox.emulator, "POST", path, { token, body });
const push = (repo: string, branch: string, body: unknown = {}) =>
  control(sandbox.emulator, "POST", `/repos/${repo}/branches/${branch}/push`, body);
const setDelay = async (delayMs: number) =>
  expect((await control(sandbox.emulator, "PUT", "/jobs", { delayMs })).status).toBe(200);
const headOf = async (repo: string, branch: string): Promise<string> =>
  (await get(`/repos/${repo}/branches/${encodeURIComponent(branch)}`, TOKENS.siteAdmin)).body.commit.sha;

describe("GET /repos/{owner}/{repo}/branches", () => {
  it("lists the branches by name in the short form", async () => {
    const response = await get(BRANCHES);
    expect(response.status).toBe(200);
    expect(names(response.body)).toEqual(["develop", "main", "release/1.0"]);
    const main = response.body[1];
    expect(Object.keys(main).sort()).toEqual(["commit", "name", "protected", "protection", "protection_url"]);
    expect(main.commit).toEqual({
      sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      url: `${sandbox.emulator.url}${API}/commits/${main.commit.sha}`,
    });
    expect(main.protected).toBe(true);
    expect(main.protection).toEqual({
      enabled: true,
      required_status_checks: {
        enforcement_level: "non_admins",
        contexts: ["ci/build"],
        checks: [{ context: "ci/build", app_id: null }],
      },
    });
    expect(response.body[2].protection_url).toBe(
      `${sandbox.emulator.url}${BRANCHES}/release%2F1.0/protection`,
    );
    expect(response.headers.get("x-accepted-service-permissions")).toBe("contents=read");
  });

  it("restricts to protected or unprotected branches; another value is a 422", async () => {
    expect(names((await get(`${BRANCHES}?protected=true`)).body)).toEqual(["main"]);
    expect(names((await get(`${BRANCHES}?protected=false`)).body)).toEqual(["develop", "release/1.0"]);
    expectValidationFailed(await get(`${BRANCHES}?protected=yes`), "protected", "invalid", "Branch");
  });

  it("pages with per_page and Link", async () => {
    const first = await get(`${BRANCHES}?per_page=2`);
    expect(names(first.body)).toEqual(["develop", "main"]);
    const links = parseLink(first.headers.get("link"));
    expect(Object.keys(links).sort()).toEqual(["last", "next"]);
    expect(new URL(links.next as string).searchParams.get("page")).toBe("2");
    const second = await get(links.next as string);
    expect(names(second.body)).toEqual(["release/1.0"]);
    expect(Object.keys(parseLink(second.headers.get("link"))).sort()).toEqual(["first", "last", "prev"]);
  });

  it("is public for a public repository, 404 for a private one to outsiders and for an unknown one", async () => {
    expect(names((await get("/repos/acme-eng/web/branches", null)).body)).toEqual(["main"]);
    for (const token of [null, TOKENS.noScopes, TOKENS.install]) {
      const response = await get(BRANCHES, token);
      expect(response.status).toBe(404);
      expectErrorBody(response.body, "Not Found");
    }
    expect((await get("/repos/acme-eng/nope/branches")).status).toBe(404);
    expect((await get("/repos/acme-eng/empty/branches")).body).toEqual([]);
  });
});

describe("GET /repos/{owner}/{repo}/branches/{branch}", () => {
  it("answers the detailed form", async () => {
    const response = await get(`${BRANCHES}/main`);
    expect(response.status).toBe(200);
    const { body } = response;
    const root = sandbox.emulator.url;
    const origin = sandbox.emulator.origin;
    expect(body.name).toBe("main");
    expect(body._links).toEqual({
      self: `${root}${BRANCHES}/main`,
      html: `${origin}/acme-eng/api/tree/main`,
    });
    expect(body.protection_url).toBe(`${root}${BRANCHES}/main/protection`);
    const commit = body.commit;
    expect(commit.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(commit.url).toBe(`${root}${API}/commits/${commit.sha}`);
    expect(commit.html_url).toBe(`${origin}/acme-eng/api/commit/${commit.sha}`);
    expect(commit.comments_url).toBe(`${root}${API}/commits/${commit.sha}/comments`);
    expect(commit.node_id).toEqual(expect.any(String));
    // api's main ends with a merge (every eighth commit), #47, by admin (authors take turns: 47 % 5 = 2).
    expect(commit.parents).toHaveLength(2);
    expect(commit.parents[0]).toEqual({
      sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      url: expect.stringContaining(`${API}/commits/`),
      html_url: expect.stringContaining("/acme-eng/api/commit/"),
    });
    expect(commit.author.login).toBe("admin");
    expect(commit.committer.login).toBe("admin");
    expect(commit.commit.message).toBe("Merge branch 'feature-47'");
    expect(commit.commit.author).toEqual({
      name: "Site Administrator",
      email: "admin@users.noreply.hosting.invalid",
      date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    expect(commit.commit.tree).toEqual({
      sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      url: expect.stringContaining(`${API}/git/trees/`),
    });
    expect(commit.commit.comment_count).toBe(0);
    expect(commit.commit.verification.verified).toBe(false);
  });

  it("takes a name with a slash percent-encoded or raw", async () => {
    const encoded = await get(`${BRANCHES}/release%2F1.0`);
    const raw = await get(`${BRANCHES}/release/1.0`);
    expect(encoded.status).toBe(200);
    expect(raw.status).toBe(200);
    expect(raw.body).toEqual(encoded.body);
    expect(raw.body.name).toBe("release/1.0");
    expect(raw.body.protected).toBe(false);
    const log = (await control(sandbox.emulator, "GET", "/requests")).body.requests as Array<{
      route: string;
    }>;
    expect(log.slice(-2).map((r) => r.route)).toEqual([
      "/repos/{owner}/{repo}/branches/{branch}",
      "/repos/{owner}/{repo}/branches/{branch}",
    ]);
  });

  it("answers 301 with Location for a name an earlier rename left", async () => {
    const response = await get(`${BRANCHES}/legacy`);
    expect(response.status).toBe(301);
    const url = `${sandbox.emulator.url}${BRANCHES}/develop`;
    expect(response.headers.get("location")).toBe(url);
    expect(response.body).toEqual({ message: "Moved Permanently", url, documentation_url: DOCS_URL });
    const followed = await call(sandbox.emulator, "GET", `${BRANCHES}/legacy`, { token: TOKENS.member });
    expect(followed.status).toBe(200);
    expect(followed.body.name).toBe("develop");
  });

  it("answers 404 for an unknown branch, and for a private repository to outsiders", async () => {
    for (const [path, token] of [
      [`${BRANCHES}/nope`, TOKENS.member],
      [`${BRANCHES}/main`, null],
      [`${BRANCHES}/main`, TOKENS.noScopes],
      ["/repos/acme-eng/empty/branches/main", TOKENS.member],
    ] as const) {
      const response = await get(path, token);
      expect(response.status, path).toBe(404);
      expectErrorBody(response.body, "Not Found");
    }
    expect((await get("/repos/acme-eng/web/branches/main", null)).status).toBe(200);
  });
});

describe("POST /repos/{owner}/{repo}/branches/{branch}/rename", () => {
  it("renames at once (201); the old name is locked until the job is done, then answers 301", async () => {
    await setDelay(60_000);
    const sha = await headOf("acme-eng/api", "develop");
    const response = await post(`${BRANCHES}/develop/rename`, { new_name: "dev2" });
    expect(response.status).toBe(201);
    expect(response.body.name).toBe("dev2");
    expect(response.body.commit.sha).toBe(sha);
    expect(response.body._links.self).toBe(`${sandbox.emulator.url}${BRANCHES}/dev2`);

    // Meanwhile: the new name answers, the old one does not yet redirect, pushes to it are refused.
    expect((await get(`${BRANCHES}/dev2`)).status).toBe(200);
    expect((await get(`${BRANCHES}/develop`)).status).toBe(404);
    const refused = await push("acme-eng/api", "develop");
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      "Branch develop is being renamed to dev2; pushes to develop are refused until the rename has finished",
    );
    expect((await push("acme-eng/api", "dev2")).status).toBe(201);
    // The earlier name follows the branch at once.
    expect((await get(`${BRANCHES}/legacy`)).headers.get("location")).toBe(
      `${sandbox.emulator.url}${BRANCHES}/dev2`,
    );

    await runJobs(sandbox.emulator);
    const moved = await get(`${BRANCHES}/develop`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(`${sandbox.emulator.url}${BRANCHES}/dev2`);
    expect((await push("acme-eng/api", "develop")).status).toBe(404);
    expect(names((await get(BRANCHES)).body)).toEqual(["dev2", "main", "release/1.0"]);
  });

  it("with jobs taking no time, the old name answers 301 from the next request", async () => {
    await setDelay(0);
    expect((await post(`${BRANCHES}/develop/rename`, { new_name: "feature/next" })).status).toBe(201);
    const moved = await get(`${BRANCHES}/develop`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(`${sandbox.emulator.url}${BRANCHES}/feature%2Fnext`);
    expect((await get(`${BRANCHES}/feature/next`)).body.name).toBe("feature/next");
  });

  it("takes a name with a slash raw or encoded", async () => {
    await setDelay(0);
    expect((await post(`${BRANCHES}/release/1.0/rename`, { new_name: "release/1.1" })).body.name).toBe(
      "release/1.1",
    );
    expect((await post(`${BRANCHES}/release%2F1.1/rename`, { new_name: "release/1.2" })).body.name).toBe(
      "release/1.2",
    );
    expect(names((await get(BRANCHES)).body)).toEqual(["develop", "main", "release/1.2"]);
    expect((await get(`${BRANCHES}/release/1.0`)).headers.get("location")).toBe(
      `${sandbox.emulator.url}${BRANCHES}/release%2F1.2`,
    );
  });

  it("the default branch: admins only (403 for a member; fine-grained tokens need Administration write)", async () => {
    await setDelay(0);
    const member = await post(`${BRANCHES}/main/rename`, { new_name: "trunk" });
    expect(member.status).toBe(403);
    expectErrorBody(member.body, "You must be an admin of this repository to rename its default branch");
    const contentsOnly = await post(`${BRANCHES}/main/rename`, { new_name: "trunk" }, "svc_pat_contents");
    expect(contentsOnly.status).toBe(403);
    expect(contentsOnly.body.message).toMatch(/Administration/);
    expect((await post(`${BRANCHES}/develop/rename`, { new_name: "dev" }, "svc_pat_contents")).status).toBe(
      201,
    );

    const owner = await post(`${BRANCHES}/main/rename`, { new_name: "trunk" }, TOKENS.owner);
    expect(owner.status).toBe(201);
    expect(owner.body.protected).toBe(true);
    // The default branch is now trunk: pushes to it reset the statistics, and main answers 301.
    expect((await push("acme-eng/api", "trunk")).body.branch).toBe("trunk");
    expect((await get(`${BRANCHES}/main`)).headers.get("location")).toBe(
      `${sandbox.emulator.url}${BRANCHES}/trunk`,
    );
    expect((await call(sandbox.emulator, "GET", `${API}/stats/code_frequency`)).status).toBe(202);
    // The dependency graph follows the default branch: a snapshot of trunk counts, one of main does not.
    const snapshot = (ref: string) => ({
      version: 0,
      job: { id: "rename-1", correlator: "rename", html_url: "https://ci.example.com/1" },
      sha: "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3",
      ref,
      detector: { name: "rename-check", version: "1.0.0", url: "https://example.com/rename-check" },
      scanned: "2026-01-10T09:00:00Z",
      manifests: {},
    });
    const submit = (ref: string) =>
      call(sandbox.emulator, "POST", `${API}/dependency-graph/snapshots`, {
        body: snapshot(ref),
        token: TOKENS.siteAdmin,
      });
    expect((await submit("refs/heads/trunk")).body.result).toBe("SUCCESS");
    const old = await submit("refs/heads/main");
    expect(old.body.result).toBe("ACCEPTED");
    expect(old.body.message).toContain("refs/heads/trunk only");
    expect((await control(sandbox.emulator, "GET", `${API}/dependency-graph`)).body.ref).toBe(
      "refs/heads/trunk",
    );
    // The repository's own page and its organisation's list name trunk too; acme-ops/infra is its fork.
    expect((await get(API, TOKENS.owner)).body).toMatchObject({ default_branch: "trunk", forks_count: 1 });
    const listed = (await get("/orgs/acme-eng/repos", TOKENS.owner)).body.find(
      (r: { name: string }) => r.name === "api",
    );
    expect(listed.default_branch).toBe("trunk");
  });

  it("refuses bad names with a 422 naming new_name, and changes nothing", async () => {
    const before = await stateOf(sandbox.emulator);
    expectValidationFailed(
      await post(`${BRANCHES}/develop/rename`, {}),
      "new_name",
      "missing_field",
      "Branch",
    );
    expectValidationFailed(
      await post(`${BRANCHES}/develop/rename`, { new_name: 7 }),
      "new_name",
      "invalid",
      "Branch",
    );
    for (const bad of [
      "",
      "a..b",
      "has space",
      "x.lock",
      "/lead",
      "trail/",
      "a//b",
      ".hidden",
      "q?",
      "HEAD",
      "-x",
    ]) {
      expectValidationFailed(
        await post(`${BRANCHES}/develop/rename`, { new_name: bad }),
        "new_name",
        "invalid",
        "Branch",
      );
    }
    expectValidationFailed(
      await post(`${BRANCHES}/develop/rename`, { new_name: "main" }),
      "new_name",
      "already_exists",
      "Branch",
    );
    expect(await stateOf(sandbox.emulator)).toEqual(before);
  });

  it("refuses a name holding a lone surrogate (422), and later renames, pushes and syncs work", async () => {
    await setDelay(60_000);
    const before = await stateOf(sandbox.emulator);
    const lone = await call(sandbox.emulator, "POST", `${BRANCHES}/develop/rename`, {
      rawBody: '{"new_name": "\\ud800"}',
    });
    expectValidationFailed(lone, "new_name", "invalid", "Branch");
    expect(lone.body.errors[0].message).toMatch(/lone surrogate/);
    const sync = await call(sandbox.emulator, "POST", "/repos/acme-ops/infra/merge-upstream", {
      rawBody: '{"branch": "\\ud800"}',
    });
    expectValidationFailed(sync, "branch", "invalid", "MergeUpstream");
    expect(await stateOf(sandbox.emulator)).toEqual(before);
    expect(sandbox.emulator.store.raw.jobs).toEqual([]);

    expect((await post(`${BRANCHES}/develop/rename`, { new_name: "dev2" })).status).toBe(201);
    expect((await push("acme-eng/api", "main")).status).toBe(201);
    const synced = await post("/repos/acme-ops/infra/merge-upstream", { branch: "main" }, TOKENS.siteAdmin);
    expect(synced.status, synced.text).toBe(200);
  });

  it("refuses a second rename while the first is finishing", async () => {
    await setDelay(60_000);
    expect((await post(`${BRANCHES}/develop/rename`, { new_name: "dev2" })).status).toBe(201);
    const again = await post(`${BRANCHES}/dev2/rename`, { new_name: "dev3" });
    expectValidationFailed(again, "new_name", "invalid", "Branch");
    expect(again.body.errors[0].message).toMatch(/rename of develop to dev2 has not finished/);
    expectValidationFailed(
      await post(`${BRANCHES}/release%2F1.0/rename`, { new_name: "develop" }),
      "new_name",
      "invalid",
      "Branch",
    );
  });

  it("answers 404 for an unknown branch or repository, 403 without the scope or permission", async () => {
    expect((await post(`${BRANCHES}/nope/rename`, { new_name: "x" })).status).toBe(404);
    expect((await post("/repos/acme-eng/nope/branches/main/rename", { new_name: "x" })).status).toBe(404);
    expect((await post(`${BRANCHES}/develop/rename`, { new_name: "x" }, TOKENS.noScopes)).status).toBe(403);
    expect((await post(`${BRANCHES}/develop/rename`, { new_name: "x" }, TOKENS.install)).status).toBe(403);
    // olivia is no member of acme-ops: its private repository is hidden from her.
    expect(
      (await post("/repos/acme-ops/infra/branches/main/rename", { new_name: "x" }, TOKENS.owner)).status,
    ).toBe(404);
  });
});

describe("POST /repos/{owner}/{repo}/merge-upstream", () => {
  const SYNC = "/repos/acme-ops/infra/merge-upstream";

  it("fast-forwards a fork's branch that is behind, then says it is not behind", async () => {
    const upstream = await headOf("acme-eng/api", "main");
    expect(await headOf("acme-ops/infra", "main")).not.toBe(upstream);
    const response = await post(SYNC, { branch: "main" }, TOKENS.siteAdmin);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: "Successfully fetched and fast-forwarded from upstream acme-eng:main.",
      merge_type: "fast-forward",
      base_branch: "acme-eng:main",
    });
    expect(await headOf("acme-ops/infra", "main")).toBe(upstream);
    const again = await post(SYNC, { branch: "main" }, TOKENS.siteAdmin);
    expect(again.body).toEqual({
      message: "This branch is not behind the upstream",
      merge_type: "none",
      base_branch: "acme-eng:main",
    });
  });

  it("merges diverged histories with a merge commit, or answers 409 when the conflict switch is on", async () => {
    const forkPush = await push("acme-ops/infra", "main");
    await push("acme-eng/api", "main");
    const upstream = await headOf("acme-eng/api", "main");

    const on = await control(sandbox.emulator, "PUT", "/repos/acme-ops/infra/merge-conflicts", {
      conflicts: true,
    });
    expect(on.body).toEqual({ repository: "acme-ops/infra", conflicts: true });
    const before = await stateOf(sandbox.emulator);
    const conflict = await post(SYNC, { branch: "main" }, TOKENS.siteAdmin);
    expect(conflict.status).toBe(409);
    expectErrorBody(conflict.body, "There are merge conflicts");
    expect(await stateOf(sandbox.emulator)).toEqual(before);

    await control(sandbox.emulator, "PUT", "/repos/acme-ops/infra/merge-conflicts", { conflicts: false });
    const merged = await post(SYNC, { branch: "main" }, TOKENS.siteAdmin);
    expect(merged.body).toEqual({
      message: "Successfully fetched and merged from upstream acme-eng:main.",
      merge_type: "merge",
      base_branch: "acme-eng:main",
    });
    const head = (await get("/repos/acme-ops/infra/branches/main", TOKENS.siteAdmin)).body.commit;
    expect(head.parents.map((p: { sha: string }) => p.sha)).toEqual([forkPush.body.sha, upstream]);
  });

  it("answers 422 for a repository that is no fork, an unknown branch or a missing one", async () => {
    const notFork = await post(`${API}/merge-upstream`, { branch: "main" }, TOKENS.siteAdmin);
    expect(notFork.status).toBe(422);
    expectErrorBody(notFork.body, "acme-eng/api is not a fork: it has no upstream repository to sync with");
    expectValidationFailed(
      await post(SYNC, { branch: "nope" }, TOKENS.siteAdmin),
      "branch",
      "invalid",
      "MergeUpstream",
    );
    expectValidationFailed(
      await post(SYNC, {}, TOKENS.siteAdmin),
      "branch",
      "missing_field",
      "MergeUpstream",
    );
    expectValidationFailed(
      await post(SYNC, { branch: ["main"] }, TOKENS.siteAdmin),
      "branch",
      "invalid",
      "MergeUpstream",
    );
    // Private acme-ops/infra is hidden from acme-eng's people.
    expect((await post(SYNC, { branch: "main" }, TOKENS.member)).status).toBe(404);
  });
});

describe("POST /repos/{owner}/{repo}/merges", () => {
  const MERGES = `${API}/merges`;

  it("merges a branch with a merge commit (201), then answers 204: already merged", async () => {
    const base = await headOf("acme-eng/api", "main");
    const head = await headOf("acme-eng/api", "develop");
    const response = await post(MERGES, { base: "main", head: "develop" });
    expect(response.status).toBe(201);
    const merge = response.body;
    expect(merge.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(merge.parents.map((p: { sha: string }) => p.sha)).toEqual([base, head]);
    expect(merge.commit.message).toBe("Merge develop into main");
    expect(merge.author.login).toBe("octocat");
    // develop's two commits: +12 -3 and +30 -8.
    expect(merge.stats).toEqual({ additions: 42, deletions: 11, total: 53 });
    expect(await headOf("acme-eng/api", "main")).toBe(merge.sha);

    const again = await post(MERGES, { base: "main", head: "develop" });
    expect(again.status).toBe(204);
    expect(again.text).toBe("");
    expect((await post(MERGES, { base: "develop", head: "release/1.0" })).status).toBe(204);
  });

  it("takes a sha (or a prefix of 7) as head and a commit message", async () => {
    const pushed = await push("acme-eng/api", "develop", { additions: 5, deletions: 1 });
    const response = await post(MERGES, {
      base: "release/1.0",
      head: pushed.body.sha.slice(0, 7),
      commit_message: "Ship it",
    });
    expect(response.status).toBe(201);
    expect(response.body.commit.message).toBe("Ship it");
    expect(response.body.parents[1].sha).toBe(pushed.body.sha);
  });

  it("resets the statistics when it merges into the default branch", async () => {
    await setDelay(0);
    await call(sandbox.emulator, "GET", `${API}/stats/contributors`);
    expect((await call(sandbox.emulator, "GET", `${API}/stats/contributors`)).status).toBe(200);
    expect((await post(MERGES, { base: "main", head: "develop" })).status).toBe(201);
    expect((await call(sandbox.emulator, "GET", `${API}/stats/contributors`)).status).toBe(202);
  });

  it("answers 409 on a conflict, 404 for an unknown base or head, 422 for bad fields; nothing changes", async () => {
    const before = await stateOf(sandbox.emulator);
    await control(sandbox.emulator, "PUT", "/repos/acme-eng/api/merge-conflicts", { conflicts: true });
    const switched = await stateOf(sandbox.emulator);
    const conflict = await post(MERGES, { base: "main", head: "develop" });
    expect(conflict.status).toBe(409);
    expectErrorBody(conflict.body, "Merge conflict");
    expect((await post(MERGES, { base: "main", head: "main" })).status).toBe(204);
    expect(await stateOf(sandbox.emulator)).toEqual(switched);
    await control(sandbox.emulator, "PUT", "/repos/acme-eng/api/merge-conflicts", { conflicts: false });
    expect(await stateOf(sandbox.emulator)).toEqual(before);

    const noBase = await post(MERGES, { base: "nope", head: "develop" });
    expect(noBase.status).toBe(404);
    expectErrorBody(noBase.body, "Base does not exist");
    const noHead = await post(MERGES, { base: "main", head: "0000000" });
    expect(noHead.status).toBe(404);
    expectErrorBody(noHead.body, "Head does not exist");
    expectValidationFailed(await post(MERGES, { head: "develop" }), "base", "missing_field", "Merge");
    expectValidationFailed(await post(MERGES, { base: "main" }), "head", "missing_field", "Merge");
    expectValidationFailed(await post(MERGES, { base: "main", head: 1 }), "head", "invalid", "Merge");
    expectValidationFailed(
      await post(MERGES, { base: "main", head: "develop", commit_message: false }),
      "commit_message",
      "invalid",
      "Merge",
    );
    expect((await post(MERGES, { base: "main", head: "develop" }, TOKENS.noScopes)).status).toBe(403);
    expect(await stateOf(sandbox.emulator)).toEqual(before);
  });
});

describe("control routes", () => {
  it("push: 404 for an unknown repository or branch, 422 for a bad field", async () => {
    expect((await push("acme-eng/nope", "main")).status).toBe(404);
    expect((await push("acme-eng/api", "nope")).status).toBe(404);
    expect((await push("acme-eng/empty", "develop")).status).toBe(404);
    expect((await push("acme-eng/api", "main", { author: "nobody" })).status).toBe(422);
    expect((await push("acme-eng/api", "main", { additions: -1 })).status).toBe(422);
    expect((await push("acme-eng/api", "release/1.0", { message: "Raw slash" })).body.branch).toBe(
      "release/1.0",
    );
  });

  it("merge-conflicts: conflicts is required, true or false", async () => {
    const response = await control(sandbox.emulator, "PUT", "/repos/acme-eng/api/merge-conflicts", {
      conflicts: "yes",
    });
    expect(response.status).toBe(422);
    expect(
      (await control(sandbox.emulator, "PUT", "/repos/acme-eng/nope/merge-conflicts", { conflicts: true }))
        .status,
    ).toBe(404);
  });
});
