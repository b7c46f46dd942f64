/**
 * The lists the spec's excerpt leaves out but the platform has, which bringing an installation
 * under code walks: an organisation's repositories, a repository's environments, and an
 * organisation's pending invitations.
 */
import { describe, expect, it } from "vitest";
import { call, expectErrorBody, parseLink, TOKENS, useSandbox } from "./helpers";

const sandbox = useSandbox();

describe("GET /orgs/{org}/repos", () => {
  it("lists the organisation's repositories by name, private ones to members only", async () => {
    const inside = await call(sandbox.emulator, "GET", "/orgs/acme-eng/repos", { token: TOKENS.member });
    expect(inside.status).toBe(200);
    expect(inside.body.map((r: { full_name: string }) => r.full_name)).toEqual([
      "acme-eng/api",
      "acme-eng/empty",
      "acme-eng/web",
    ]);
    expect(inside.body[0]).toMatchObject({
      private: true,
      owner: { login: "acme-eng" },
      default_branch: "main",
    });
    // Without `repo`, a classic token sees the public repository only.
    const outside = await call(sandbox.emulator, "GET", "/orgs/acme-eng/repos", { token: TOKENS.noScopes });
    expect(outside.body.map((r: { name: string }) => r.name)).toEqual(["web"]);
  });

  it("pages with per_page and Link, and answers 404 for an unknown organisation", async () => {
    const first = await call(sandbox.emulator, "GET", "/orgs/acme-eng/repos?per_page=1", {
      token: TOKENS.owner,
    });
    expect(first.body).toHaveLength(1);
    expect(parseLink(first.headers.get("link")).next).toContain("page=2");
    const missing = await call(sandbox.emulator, "GET", "/orgs/nope/repos", { token: TOKENS.owner });
    expect(missing.status).toBe(404);
    expectErrorBody(missing.body, "Not Found");
  });
});

describe("GET /repos/{owner}/{repo}/environments", () => {
  it("lists the environments with stable ids, names that may hold a slash", async () => {
    const res = await call(sandbox.emulator, "GET", "/repos/acme-eng/api/environments", {
      token: TOKENS.member,
    });
    expect(res.status).toBe(200);
    expect(res.body.total_count).toBe(3);
    const names = res.body.environments.map((e: { name: string }) => e.name);
    expect(names).toEqual(["production", "staging", "release/eu"]);
    const again = await call(sandbox.emulator, "GET", "/repos/acme-eng/api/environments", {
      token: TOKENS.owner,
    });
    expect(again.body.environments.map((e: { id: number }) => e.id)).toEqual(
      res.body.environments.map((e: { id: number }) => e.id),
    );
    expect(res.body.environments[2].url).toMatch(/\/environments\/release%2Feu$/);
  });

  it("hides a private repository from a token without repo", async () => {
    const res = await call(sandbox.emulator, "GET", "/repos/acme-eng/api/environments", {
      token: TOKENS.noScopes,
    });
    expect(res.status).toBe(404);
  });
});

describe("GET /orgs/{org}/invitations", () => {
  it("lists pending invitations to owners, with the role as invitations name it", async () => {
    for (const [username, role] of [
      ["mona", "member"],
      ["hubot", "admin"],
    ] as const) {
      const put = await call(sandbox.emulator, "PUT", `/orgs/acme-eng/memberships/${username}`, {
        token: TOKENS.owner,
        body: { role },
      });
      expect(put.body.state).toBe("pending");
    }
    const res = await call(sandbox.emulator, "GET", "/orgs/acme-eng/invitations", { token: TOKENS.owner });
    expect(res.status).toBe(200);
    expect(res.body.map((i: { login: string; role: string }) => [i.login, i.role])).toEqual([
      ["mona", "direct_member"],
      ["hubot", "admin"],
    ]);
    expect(res.body[0].inviter.login).toBe("olivia");
  });

  it("refuses a member who is not an owner", async () => {
    const res = await call(sandbox.emulator, "GET", "/orgs/acme-eng/invitations", { token: TOKENS.member });
    expect(res.status).toBe(403);
    expectErrorBody(res.body, /owner of acme-eng/);
  });
});
