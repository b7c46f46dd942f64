/**
 * What every API route runs before its handler (emulator/core/guard.ts): authentication, then the API
 * version, then the secondary rate limit, then the route's access rule; the request log and fault
 * injection come before all of them. Every answer names what the endpoint accepts
 * (`X-Accepted-Service-Permissions`, spec Authentication 8).
 */
import { describe, expect, it } from "vitest";
import { call, control, createGlobalHook, expectErrorBody, TOKENS, useSandbox } from "../helpers";

const sandbox = useSandbox();
const BOGUS = { "x-service-api-version": "bogus" };
const MEMBERSHIP = "/orgs/acme-eng/memberships/hubot";

describe("order: authentication, version, rate limit, route", () => {
  it("answers 401, not 400, to a request without a token and with an unknown version", async () => {
    const hook = await createGlobalHook(sandbox.emulator);
    for (const token of [null, "svcp_unknown"]) {
      const response = await call(sandbox.emulator, "GET", `/admin/hooks/${hook.id}`, {
        token,
        headers: BOGUS,
      });
      expect(response.status, String(token)).toBe(401);
      expect(response.headers.get("x-service-api-version-selected")).toBeNull();
    }
  });

  it("checks the version of an anonymous request on a public route", async () => {
    const response = await call(sandbox.emulator, "GET", "/orgs/acme-eng/members", {
      token: null,
      headers: BOGUS,
    });
    expect(response.status).toBe(400);
    expectErrorBody(response.body, /Unsupported API version/);
  });

  it("does not count an anonymous request against the secondary rate limit", async () => {
    await control(sandbox.emulator, "PUT", "/rate-limit", {
      method: "PUT",
      path: "/orgs/*/memberships/*",
      count: 1,
    });
    const anonymous = await call(sandbox.emulator, "PUT", MEMBERSHIP, { token: null, body: {} });
    expect(anonymous.status).toBe(401);
    const limited = await call(sandbox.emulator, "PUT", MEMBERSHIP, { token: TOKENS.owner, body: {} });
    expect(limited.status).toBe(403);
    expectErrorBody(limited.body, /secondary rate limit/);
    const served = await call(sandbox.emulator, "PUT", MEMBERSHIP, { token: TOKENS.owner, body: {} });
    expect(served.status).toBe(200);
  });

  it("does not count a request with an unknown version against the rate limit", async () => {
    await control(sandbox.emulator, "PUT", "/rate-limit", { count: 1 });
    const bogus = await call(sandbox.emulator, "PUT", MEMBERSHIP, { token: TOKENS.owner, headers: BOGUS });
    expect(bogus.status).toBe(400);
    const limited = await call(sandbox.emulator, "PUT", MEMBERSHIP, { token: TOKENS.owner, body: {} });
    expect(limited.status).toBe(403);
    expectErrorBody(limited.body, /secondary rate limit/);
  });

  it("applies the rate limit before the route's own refusals", async () => {
    await control(sandbox.emulator, "PUT", "/rate-limit", { count: 1 });
    const limited = await call(sandbox.emulator, "PUT", MEMBERSHIP, { token: TOKENS.noScopes, body: {} });
    expect(limited.status).toBe(403);
    expectErrorBody(limited.body, /secondary rate limit/);
    const refused = await call(sandbox.emulator, "PUT", MEMBERSHIP, { token: TOKENS.noScopes, body: {} });
    expect(refused.status).toBe(403);
    expectErrorBody(refused.body, /required scopes/);
  });

  it("logs and injects faults before authenticating", async () => {
    await control(sandbox.emulator, "POST", "/faults", { path: "/admin/hooks", status: 503 });
    const faulted = await call(sandbox.emulator, "GET", "/admin/hooks", { token: null });
    expect(faulted.status).toBe(503);
    const refused = await call(sandbox.emulator, "GET", "/admin/hooks", { token: null });
    expect(refused.status).toBe(401);
    const log = (await control(sandbox.emulator, "GET", "/requests")).body.requests;
    expect(log.map((r: { status: number; route: string }) => [r.route, r.status])).toEqual([
      ["/admin/hooks", 503],
      ["/admin/hooks", 401],
    ]);
  });

  it("answers 401 without a token on paths no route serves, 404 with one", async () => {
    expect((await call(sandbox.emulator, "GET", "/no/such/route", { token: null })).status).toBe(401);
    expect((await call(sandbox.emulator, "GET", "/no/such/route")).status).toBe(404);
    expect((await call(sandbox.emulator, "PUT", "/admin/hooks")).status).toBe(404);
  });
});

describe("X-Accepted-Service-Permissions", () => {
  const accepted = async (method: string, path: string, token: string | null) => {
    const response = await call(sandbox.emulator, method, path, {
      token,
      body: method === "GET" ? undefined : {},
    });
    return [response.status, response.headers.get("x-accepted-service-permissions")];
  };

  it("is on every /admin/hooks answer, empty: no fine-grained permission grants them", async () => {
    for (const token of [null, "svcp_unknown", TOKENS.siteAdmin, TOKENS.owner, TOKENS.fineGrained]) {
      const [status, value] = await accepted("GET", "/admin/hooks", token);
      expect(value, `${token} -> ${status}`).toBe("");
    }
  });

  it("is on every enterprise runner-group answer, empty, beside the classic scope", async () => {
    const path = "/enterprises/acme/actions/runner-groups";
    const expected: Array<[string | null, number]> = [
      [null, 401],
      [TOKENS.siteAdmin, 200],
      [TOKENS.owner, 403],
      [TOKENS.fineGrained, 403],
      [TOKENS.install, 403],
    ];
    for (const [token, status] of expected) {
      const response = await call(sandbox.emulator, "GET", path, { token });
      expect(response.status, String(token)).toBe(status);
      expect(response.headers.get("x-accepted-service-permissions"), String(token)).toBe("");
      expect(response.headers.get("x-accepted-oauth-scopes"), String(token)).toBe(
        "manage_runners:enterprise",
      );
    }
  });

  it("names the permission on 401s of routes that have one", async () => {
    expect(await accepted("GET", "/repos/acme-eng/api/hooks", null)).toEqual([401, "repository_hooks=read"]);
    expect(await accepted("PUT", MEMBERSHIP, "svcp_unknown")).toEqual([401, "members=write"]);
    expect(await accepted("GET", "/orgs/acme-eng/actions/runners", null)).toEqual([
      401,
      "organization_self_hosted_runners=read",
    ]);
  });
});
