/**
 * Routes the sandbox server does not model (emulator/families/unmodelled/routes.ts): the auth check, the
 * objects the path names, then a 501 that names the route. Every route's status per caller is in
 * auth-matrix.test.ts; this file checks the answer itself.
 */
import { describe, expect, it } from "vitest";
import { allRoutes, ROUTES } from "../../../../api";
import { NOT_MODELLED_HEADER, UNMODELLED_ACCESS } from "../../../../emulator/families/unmodelled/routes";
import { APP_USER_TOKEN, call, expectErrorBody, stateOf, TOKENS, useSandbox } from "../../helpers";

const sandbox = useSandbox();

describe("unmodelled routes", () => {
  it("answer 501 with the platform's error body naming the route, and the route in a header", async () => {
    const before = await stateOf(sandbox.emulator);
    const response = await call(sandbox.emulator, "POST", "/user/emails", {
      token: APP_USER_TOKEN,
      body: { emails: ["octocat@example.com"] },
    });
    expect(response.status).toBe(501);
    expectErrorBody(
      response.body,
      "The sandbox server does not model POST /user/emails: the route exists on the platform, but its request and response bodies are not specified",
    );
    expect(response.headers.get(NOT_MODELLED_HEADER)).toBe("POST /user/emails");
    expect(response.headers.get("x-accepted-service-permissions")).toBe("email_addresses=write");
    expect(await stateOf(sandbox.emulator)).toEqual(before);
  });

  it("name the scopes and permission they accept, refusals included", async () => {
    const response = await call(sandbox.emulator, "GET", "/orgs/acme-eng/campaigns", {
      token: TOKENS.noScopes,
    });
    expect(response.status).toBe(403);
    expectErrorBody(response.body, "Your token has not been granted the required scopes: security_events");
    expect(response.headers.get("x-accepted-oauth-scopes")).toBe("security_events");
    expect(response.headers.get("x-accepted-service-permissions")).toBe("organization_campaigns=read");
    expect(response.headers.get(NOT_MODELLED_HEADER)).toBeNull();
  });

  it("answer 404 for an organisation, user or repository that does not exist", async () => {
    for (const path of [
      "/orgs/no-such-org/campaigns",
      "/users/nobody/events/orgs/acme-eng",
      "/users/octocat/events/orgs/no-such-org",
      "/repos/acme-eng/no-such-repo/code-quality/findings",
      "/user/following/nobody",
    ]) {
      const response = await call(sandbox.emulator, "GET", path);
      expect(response.status, path).toBe(404);
      expectErrorBody(response.body, "Not Found");
      expect(response.headers.get(NOT_MODELLED_HEADER), path).toBeNull();
    }
  });

  it("serve public reads of a public repository to anyone, and hide a private one", async () => {
    const route = ROUTES.commitStatuses.combined;
    const publicRepo = route.path({ owner: "acme-eng", repo: "web", ref: "main" });
    const privateRepo = route.path({ owner: "acme-eng", repo: "api", ref: "main" });
    for (const token of [null, TOKENS.noScopes, TOKENS.install]) {
      expect((await call(sandbox.emulator, "GET", publicRepo, { token })).status, String(token)).toBe(501);
      expect((await call(sandbox.emulator, "GET", privateRepo, { token })).status, String(token)).toBe(404);
    }
    expect((await call(sandbox.emulator, "GET", privateRepo, { token: TOKENS.member })).status).toBe(501);
  });

  it("have a rule for every route of the table no family serves", () => {
    const served = new Set(Object.keys(UNMODELLED_ACCESS));
    const families = [
      "campaigns",
      "contentExclusion",
      "events",
      "workspaceAccess",
      "patRequests",
      "pats",
      "codeQuality",
      "workspacesMetadata",
      "commitStatuses",
      "agentConfiguration",
      "userBlocks",
      "emails",
      "followers",
      "gists",
      "interactionLimits",
      "billingUsage",
      "profile",
      "subscriptions",
    ] as const;
    const names = families.flatMap((f) => Object.values(ROUTES[f]).map((r) => r.name));
    expect(names).toHaveLength(63);
    expect([...served].sort()).toEqual([...names].sort());
    // Every rule names a route of the table.
    const table = new Set(allRoutes().map((r) => r.name));
    for (const name of served) expect(table.has(name), name).toBe(true);
  });
});
