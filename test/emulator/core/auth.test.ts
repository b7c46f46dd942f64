/**
 * Authentication and authorisation (spec, Authentication; DESIGN.md, default tokens) and the
 * X-Service-Api-Version check (spec, Versioning), driven over HTTP.
 */
import { describe, expect, it } from "vitest";
import { API_VERSION_2026 } from "../../../api";
import { defaultFixture } from "../../../emulator/families";
import type { Fixture } from "../../../emulator/index";
import {
  APP_USER_TOKEN,
  call,
  createGlobalHook,
  createRepoHook,
  expectErrorBody,
  TOKENS,
  useSandbox,
} from "../helpers";

/** The default fixture plus classic tokens holding only one webhook scope each. */
function fixtureWithHookScopes(): Fixture {
  const fixture = defaultFixture();
  fixture.tokens.svcp_hookread = {
    kind: "classic",
    user: "olivia",
    scopes: ["read:repo_hook"],
    permissions: {},
  };
  fixture.tokens.svcp_hookwrite = {
    kind: "classic",
    user: "olivia",
    scopes: ["write:repo_hook"],
    permissions: {},
  };
  fixture.tokens.svcp_hookadmin = {
    kind: "classic",
    user: "olivia",
    scopes: ["admin:repo_hook"],
    permissions: {},
  };
  fixture.tokens.svc_pat_hookread = {
    kind: "fine_grained",
    user: "admin",
    scopes: [],
    permissions: { repository_hooks: "read" },
  };
  // App tokens holding the permissions of "UAT only" routes: only the user token may use them.
  fixture.tokens.svcs_userperms = {
    kind: "app_installation",
    user: "deploy-gate[bot]",
    scopes: [],
    permissions: { email_addresses: "write", organization_events: "read" },
    installationOrg: "acme-eng",
  };
  fixture.tokens.svcu_events = {
    kind: "app_user",
    user: "octocat",
    app: "deploy-gate",
    scopes: [],
    permissions: { organization_events: "read", followers: "read" },
  };
  return fixture;
}

const sandbox = useSandbox({ fixture: fixtureWithHookScopes() });
const HOOKS = "/repos/acme-eng/api/hooks";

describe("authentication", () => {
  it("answers 401 Requires authentication without a token", async () => {
    const response = await call(sandbox.emulator, "GET", HOOKS, { token: null });
    expect(response.status).toBe(401);
    expectErrorBody(response.body, "Requires authentication");
  });

  it("answers 401 to an unknown token", async () => {
    const response = await call(sandbox.emulator, "GET", HOOKS, { token: "svcp_doesnotexist" });
    expect(response.status).toBe(401);
    expectErrorBody(response.body, "Bad credentials");
  });

  it("answers 401 to a malformed Authorization header", async () => {
    const response = await call(sandbox.emulator, "GET", HOOKS, {
      token: null,
      headers: { authorization: "Basic dXNlcjpwYXNz" },
    });
    expect(response.status).toBe(401);
  });

  it("answers 401 on every API route, including unknown ones and site-admin routes", async () => {
    for (const path of ["/admin/hooks", "/user", "/no/such/route"]) {
      const response = await call(sandbox.emulator, "GET", path, { token: null });
      expect(response.status, path).toBe(401);
    }
  });

  it("accepts the token scheme as well as Bearer", async () => {
    const response = await call(sandbox.emulator, "GET", "/user", {
      token: null,
      headers: { authorization: `token ${TOKENS.owner}` },
    });
    expect(response.status).toBe(200);
    expect(response.body.login).toBe("olivia");
  });

  it("identifies the user behind each classic token", async () => {
    const expected = { svcp_siteadmin: "admin", svcp_owner: "olivia", svcp_member: "octocat" } as const;
    for (const [token, login] of Object.entries(expected)) {
      const response = await call(sandbox.emulator, "GET", "/user", { token });
      expect(response.status).toBe(200);
      expect(response.body.login).toBe(login);
      expect(response.body.site_admin).toBe(login === "admin");
    }
  });
});

describe("classic scopes on repository webhooks", () => {
  it("refuses a token without scopes with 403 naming the accepted scopes and permissions", async () => {
    const response = await call(sandbox.emulator, "GET", HOOKS, { token: TOKENS.noScopes });
    expect(response.status).toBe(403);
    expectErrorBody(response.body, /required scopes/);
    expect(response.headers.get("x-accepted-oauth-scopes")).toBe("read:repo_hook, repo");
    expect(response.headers.get("x-accepted-service-permissions")).toBe("repository_hooks=read");
    expect(response.headers.get("x-oauth-scopes")).toBe("");
  });

  it("refuses a token without scopes on every route of table H", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    const routes: Array<[string, string, unknown?]> = [
      ["GET", HOOKS],
      ["POST", HOOKS, { config: { url: "https://example.com/other" } }],
      ["GET", `${HOOKS}/${hook.id}`],
      ["PATCH", `${HOOKS}/${hook.id}`, { active: false }],
      ["DELETE", `${HOOKS}/${hook.id}`],
      ["GET", `${HOOKS}/${hook.id}/config`],
      ["PATCH", `${HOOKS}/${hook.id}/config`, { content_type: "json" }],
      ["GET", `${HOOKS}/${hook.id}/deliveries`],
      ["POST", `${HOOKS}/${hook.id}/pings`],
    ];
    for (const [method, path, body] of routes) {
      const response = await call(sandbox.emulator, method, path, { token: TOKENS.noScopes, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.headers.get("x-accepted-oauth-scopes"), `${method} ${path}`).toMatch(/repo/);
      expect(response.headers.get("x-accepted-service-permissions"), `${method} ${path}`).toMatch(
        /^repository_hooks=(read|write)$/,
      );
    }
    const after = await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`);
    expect(after.body.active).toBe(true);
    expect(after.body.config.content_type).toBe("form");
  });

  it("names write scopes on writes and the admin scope on delete", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    const post = await call(sandbox.emulator, "POST", HOOKS, { token: TOKENS.noScopes, body: {} });
    expect(post.headers.get("x-accepted-oauth-scopes")).toBe("write:repo_hook, repo");
    expect(post.headers.get("x-accepted-service-permissions")).toBe("repository_hooks=write");
    const del = await call(sandbox.emulator, "DELETE", `${HOOKS}/${hook.id}`, { token: TOKENS.noScopes });
    expect(del.headers.get("x-accepted-oauth-scopes")).toBe("admin:repo_hook, repo");
  });

  it("lets read:repo_hook read but not write", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    const token = "svcp_hookread";
    expect((await call(sandbox.emulator, "GET", HOOKS, { token })).status).toBe(200);
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`, { token })).status).toBe(200);
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/config`, { token })).status).toBe(200);
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}/deliveries`, { token })).status).toBe(
      200,
    );
    const post = await call(sandbox.emulator, "POST", HOOKS, {
      token,
      body: { config: { url: "https://example.com/x" } },
    });
    expect(post.status).toBe(403);
    expect(post.headers.get("x-oauth-scopes")).toBe("read:repo_hook");
    expect((await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, { token, body: {} })).status).toBe(
      403,
    );
    expect(
      (await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}/config`, { token, body: {} })).status,
    ).toBe(403);
    expect((await call(sandbox.emulator, "DELETE", `${HOOKS}/${hook.id}`, { token })).status).toBe(403);
  });

  it("lets write:repo_hook create and update but not delete", async () => {
    const token = "svcp_hookwrite";
    const hook = await createRepoHook(
      sandbox.emulator,
      { config: { url: "https://example.com/w" } },
      undefined,
      token,
    );
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`, { token })).status).toBe(200);
    const patch = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, {
      token,
      body: { active: false },
    });
    expect(patch.status).toBe(200);
    expect(patch.body.active).toBe(false);
    const del = await call(sandbox.emulator, "DELETE", `${HOOKS}/${hook.id}`, { token });
    expect(del.status).toBe(403);
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`)).status).toBe(200);
  });

  it("lets admin:repo_hook delete (it implies write and read)", async () => {
    const token = "svcp_hookadmin";
    const hook = await createRepoHook(
      sandbox.emulator,
      { config: { url: "https://example.com/a" } },
      undefined,
      token,
    );
    expect((await call(sandbox.emulator, "GET", HOOKS, { token })).status).toBe(200);
    expect((await call(sandbox.emulator, "DELETE", `${HOOKS}/${hook.id}`, { token })).status).toBe(204);
    expect((await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`)).status).toBe(404);
  });
});

describe("repository access", () => {
  it("answers 404 to an organisation member who is not an admin (svcp_member)", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    for (const [method, path] of [
      ["GET", HOOKS],
      ["GET", `${HOOKS}/${hook.id}`],
      ["DELETE", `${HOOKS}/${hook.id}`],
    ] as const) {
      const response = await call(sandbox.emulator, method, path, { token: TOKENS.member });
      expect(response.status, `${method} ${path}`).toBe(404);
      expectErrorBody(response.body, "Not Found");
    }
    const post = await call(sandbox.emulator, "POST", HOOKS, {
      token: TOKENS.member,
      body: { config: { url: "https://example.com/member" } },
    });
    expect(post.status).toBe(404);
    expect((await call(sandbox.emulator, "GET", HOOKS)).body).toHaveLength(1);
  });

  it("lets an organisation owner (svcp_owner) manage hooks of its organisation only", async () => {
    const created = await createRepoHook(sandbox.emulator, undefined, "acme-eng/api", TOKENS.owner);
    expect(created.config.url).toBe("https://example.com/hook");
    const other = await call(sandbox.emulator, "GET", "/repos/acme-ops/infra/hooks", { token: TOKENS.owner });
    expect(other.status).toBe(404);
  });

  it("lets the fine-grained token svc_pat_admin manage repository hooks", async () => {
    const token = TOKENS.fineGrained;
    const hook = await createRepoHook(sandbox.emulator, undefined, "acme-eng/api", token);
    const list = await call(sandbox.emulator, "GET", HOOKS, { token });
    expect(list.status).toBe(200);
    expect(list.headers.get("x-accepted-service-permissions")).toBe("repository_hooks=read");
    expect(list.body.map((h: { id: number }) => h.id)).toEqual([hook.id]);
    const patch = await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}`, {
      token,
      body: { events: ["pull_request"] },
    });
    expect(patch.status).toBe(200);
    expect(patch.body.events).toEqual(["pull_request"]);
    expect((await call(sandbox.emulator, "DELETE", `${HOOKS}/${hook.id}`, { token })).status).toBe(204);
  });

  it("refuses a read-only fine-grained permission on writes", async () => {
    const token = "svc_pat_hookread";
    expect((await call(sandbox.emulator, "GET", HOOKS, { token })).status).toBe(200);
    const post = await call(sandbox.emulator, "POST", HOOKS, {
      token,
      body: { config: { url: "https://example.com/fg" } },
    });
    expect(post.status).toBe(403);
    expectErrorBody(post.body, "Resource not accessible by personal access token");
    expect(post.headers.get("x-accepted-service-permissions")).toBe("repository_hooks=write");
  });

  it("refuses the app installation token on repository hooks", async () => {
    const response = await call(sandbox.emulator, "GET", HOOKS, { token: TOKENS.install });
    expect(response.status).toBe(403);
    expectErrorBody(response.body, "Resource not accessible by integration");
    expect(response.headers.get("x-accepted-service-permissions")).toBe("repository_hooks=read");
    const post = await call(sandbox.emulator, "POST", HOOKS, {
      token: TOKENS.install,
      body: { config: { url: "https://example.com/app" } },
    });
    expect(post.status).toBe(403);
    expect((await call(sandbox.emulator, "GET", HOOKS)).body).toEqual([]);
  });
});

describe("site-administration routes (global webhooks)", () => {
  it("answers 404 to an organisation owner's classic token (svcp_owner)", async () => {
    const hook = await createGlobalHook(sandbox.emulator);
    const routes: Array<[string, string, unknown?]> = [
      ["GET", "/admin/hooks"],
      ["POST", "/admin/hooks", { name: "web", config: { url: "https://example.com/g2" } }],
      ["GET", `/admin/hooks/${hook.id}`],
      ["PATCH", `/admin/hooks/${hook.id}`, { active: false }],
      ["DELETE", `/admin/hooks/${hook.id}`],
      ["POST", `/admin/hooks/${hook.id}/pings`],
    ];
    for (const [method, path, body] of routes) {
      const response = await call(sandbox.emulator, method, path, { token: TOKENS.owner, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expectErrorBody(response.body, "Not Found");
    }
    const list = await call(sandbox.emulator, "GET", "/admin/hooks");
    expect(list.body).toHaveLength(1);
    expect(list.body[0].active).toBe(true);
  });

  it("answers 404 to the fine-grained token of the site administrator (svc_pat_admin)", async () => {
    const hook = await createGlobalHook(sandbox.emulator);
    expect((await call(sandbox.emulator, "GET", "/admin/hooks", { token: TOKENS.fineGrained })).status).toBe(
      404,
    );
    expect(
      (await call(sandbox.emulator, "GET", `/admin/hooks/${hook.id}`, { token: TOKENS.fineGrained })).status,
    ).toBe(404);
    const post = await call(sandbox.emulator, "POST", "/admin/hooks", {
      token: TOKENS.fineGrained,
      body: { name: "web", config: { url: "https://example.com/fg" } },
    });
    expect(post.status).toBe(404);
  });

  it("answers 404 to the app installation token and to members", async () => {
    for (const token of [TOKENS.install, TOKENS.member, TOKENS.noScopes]) {
      const response = await call(sandbox.emulator, "GET", "/admin/hooks", { token });
      expect(response.status, token).toBe(404);
    }
  });

  it("serves the site administrator's classic token", async () => {
    const response = await call(sandbox.emulator, "GET", "/admin/hooks");
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });
});

describe("X-Service-Api-Version", () => {
  it.each(["2022-11-28", "2026-03-10"])("accepts %s", async (version) => {
    const response = await call(sandbox.emulator, "GET", HOOKS, {
      headers: { "x-service-api-version": version },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
    expect(response.headers.get("x-service-api-version-selected")).toBe(version);
  });

  it("accepts a request without the header", async () => {
    const response = await call(sandbox.emulator, "GET", HOOKS);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-service-api-version-selected")).toBe("2022-11-28");
  });

  it.each(["2023-01-01", "2022-11-27", "latest", ""])(
    "refuses %j with 400 and an error body",
    async (version) => {
      const response = await call(sandbox.emulator, "GET", HOOKS, {
        headers: { "x-service-api-version": version },
      });
      expect(response.status).toBe(400);
      expectErrorBody(response.body, /Unsupported API version/);
      expect(response.body.message).toContain("2022-11-28");
      expect(response.body.message).toContain("2026-03-10");
    },
  );

  it("refuses an unknown version on writes without performing them", async () => {
    const response = await call(sandbox.emulator, "POST", HOOKS, {
      headers: { "x-service-api-version": "1999-01-01" },
      body: { config: { url: "https://example.com/v" } },
    });
    expect(response.status).toBe(400);
    expect((await call(sandbox.emulator, "GET", HOOKS)).body).toEqual([]);
  });
});

describe("app user access tokens (UAT)", () => {
  const UAT = APP_USER_TOKEN;

  it("act as their user", async () => {
    const response = await call(sandbox.emulator, "GET", "/user", { token: UAT });
    expect(response.status).toBe(200);
    expect(response.body.login).toBe("octocat");
    // Permissions, not scopes, govern them: no X-OAuth-Scopes.
    expect(response.headers.get("x-oauth-scopes")).toBeNull();
  });

  it("are served on UAT-only routes where an installation token with the same permission is refused", async () => {
    const routes: Array<[string, string, string]> = [
      ["GET", "/user/emails", "email_addresses=read"],
      ["GET", "/users/octocat/events/orgs/acme-eng", "organization_events=read"],
    ];
    for (const [method, path, permission] of routes) {
      const refused = await call(sandbox.emulator, method, path, { token: "svcs_userperms" });
      expect(refused.status, path).toBe(403);
      expectErrorBody(refused.body, "Resource not accessible by integration");
      expect(refused.headers.get("x-accepted-service-permissions"), path).toBe(permission);
    }
    expect((await call(sandbox.emulator, "GET", "/user/emails", { token: UAT })).status).toBe(501);
    const events = await call(sandbox.emulator, "GET", "/users/octocat/events/orgs/acme-eng", {
      token: "svcu_events",
    });
    expect(events.status).toBe(501);
    expect(events.headers.get("x-sandbox-not-modelled")).toBe("GET /users/{username}/events/orgs/{org}");
  });

  it("are refused without the route's permission, or with read where it writes", async () => {
    const missing = await call(sandbox.emulator, "GET", "/users/octocat/events/orgs/acme-eng", {
      token: UAT,
    });
    expect(missing.status).toBe(403);
    expectErrorBody(missing.body, "Resource not accessible by integration");
    const hooks = await call(sandbox.emulator, "GET", HOOKS, { token: UAT });
    expect(hooks.status).toBe(403);
    expectErrorBody(hooks.body, "Resource not accessible by integration");
    const read = await call(sandbox.emulator, "GET", "/user/following/mona", { token: "svcu_events" });
    expect(read.status).toBe(501);
    const write = await call(sandbox.emulator, "PUT", "/user/following/mona", { token: "svcu_events" });
    expect(write.status).toBe(403);
    expectErrorBody(write.body, "Resource not accessible by integration");
    expect(write.headers.get("x-accepted-service-permissions")).toBe("followers=write");
  });

  it("are refused where the spec refuses app tokens, and get 404 on site administration", async () => {
    for (const path of [
      "/enterprises/acme/actions/runner-groups",
      "/enterprises/acme/settings/billing/budgets",
      "/enterprises/acme/depwatch/alerts",
      "/notifications",
    ]) {
      const response = await call(sandbox.emulator, "GET", path, {
        token: UAT,
        headers: { "x-service-api-version": API_VERSION_2026 },
      });
      expect(response.status, path).toBe(403);
      expectErrorBody(response.body, "Resource not accessible by integration");
    }
    const hooks = await call(sandbox.emulator, "GET", "/admin/hooks", { token: UAT });
    expect(hooks.status).toBe(404);
    const rename = await call(sandbox.emulator, "PATCH", "/admin/organizations/acme-eng", {
      token: UAT,
      body: { login: "acme-renamed" },
    });
    expect(rename.status).toBe(404);
  });

  it("read what their user may read, as far as the app's permissions go", async () => {
    // deploy-gate holds actions read; octocat is a member of acme-eng: the private repository's rules.
    const rules = await call(
      sandbox.emulator,
      "GET",
      "/repos/acme-eng/api/environments/production/deployment_protection_rules",
      { token: UAT },
    );
    expect(rules.status).toBe(200);
    // acme-ops/infra is private and octocat is no member of acme-ops.
    const other = await call(sandbox.emulator, "GET", "/repos/acme-ops/infra", { token: UAT });
    expect(other.status).toBe(404);
  });
});
