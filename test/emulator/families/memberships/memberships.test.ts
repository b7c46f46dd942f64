/**
 * Organisation members and memberships (spec, endpoints "Organization members and memberships";
 * concepts, the membership state machine), and the control routes that stand in for what users do
 * on the web UI: accept or decline an invitation, leave an organisation.
 */
import { describe, expect, it } from "vitest";
import { defaultFixture } from "../../../../emulator/families";
import type { Fixture } from "../../../../emulator/index";
import { call, control, expectErrorBody, type Json, parseLink, TOKENS, useSandbox } from "../../helpers";

/** The default fixture plus tokens for people outside acme-eng, and one member with admin:org. */
function fixture(): Fixture {
  const f = defaultFixture();
  f.tokens.svcp_hubot = { kind: "classic", user: "hubot", scopes: ["read:org"], permissions: {} };
  f.tokens.svcp_mona = { kind: "classic", user: "mona", scopes: ["read:org"], permissions: {} };
  f.tokens.svcp_member_admin_scope = {
    kind: "classic",
    user: "octocat",
    scopes: ["admin:org"],
    permissions: {},
  };
  f.tokens.svc_pat_members_read = {
    kind: "fine_grained",
    user: "admin",
    scopes: [],
    permissions: { members: "read" },
  };
  const mona = f.users.find((u) => u.login === "mona");
  if (mona) mona.twoFactor = "insecure";
  return f;
}

const sandbox = useSandbox({ fixture: fixture() });
const ENG = "/orgs/acme-eng";
const OPS = "/orgs/acme-ops";

const logins = (body: Json): string[] => (body as Array<{ login: string }>).map((u) => u.login);

async function invite(org: string, username: string, role?: string, token: string = TOKENS.owner) {
  const response = await call(sandbox.emulator, "PUT", `/orgs/${org}/memberships/${username}`, {
    token,
    body: role === undefined ? {} : { role },
  });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function accept(org: string, username: string) {
  const response = await control(sandbox.emulator, "POST", `/orgs/${org}/invitations/${username}/accept`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe("GET /orgs/{org}/members", () => {
  it("lists the active members as user summaries, in a stable order", async () => {
    const response = await call(sandbox.emulator, "GET", `${ENG}/members`, { token: TOKENS.member });
    expect(response.status).toBe(200);
    expect(logins(response.body)).toEqual(["admin", "olivia", "octocat"]);
    const octocat = response.body[2];
    expect(octocat).toMatchObject({ login: "octocat", id: 3, type: "User", site_admin: false });
    expect(octocat.url).toBe(`${sandbox.emulator.url}/users/octocat`);
    expect(response.headers.get("x-accepted-oauth-scopes")).toBe("read:org");
    expect(response.headers.get("x-accepted-service-permissions")).toBe("members=read");
  });

  it("leaves out pending invitations", async () => {
    await invite("acme-eng", "mona");
    const response = await call(sandbox.emulator, "GET", `${ENG}/members`);
    expect(logins(response.body)).toEqual(["admin", "olivia", "octocat"]);
  });

  it("filters by role", async () => {
    const admins = await call(sandbox.emulator, "GET", `${ENG}/members?role=admin`);
    expect(logins(admins.body)).toEqual(["admin", "olivia"]);
    const members = await call(sandbox.emulator, "GET", `${ENG}/members?role=member`);
    expect(logins(members.body)).toEqual(["octocat"]);
    const all = await call(sandbox.emulator, "GET", `${ENG}/members?role=all`);
    expect(logins(all.body)).toEqual(["admin", "olivia", "octocat"]);
  });

  it("answers 422 naming the parameter for an unknown role or filter", async () => {
    const role = await call(sandbox.emulator, "GET", `${ENG}/members?role=owner`);
    expect(role.status).toBe(422);
    expectErrorBody(role.body, "Validation Failed");
    expect(role.body.errors[0]).toMatchObject({ field: "role", code: "invalid" });
    const filter = await call(sandbox.emulator, "GET", `${ENG}/members?filter=everyone`);
    expect(filter.status).toBe(422);
    expect(filter.body.errors[0]).toMatchObject({ field: "filter", code: "invalid" });
  });

  it("lets owners filter by two-factor status", async () => {
    const disabled = await call(sandbox.emulator, "GET", `${ENG}/members?filter=2fa_disabled`, {
      token: TOKENS.owner,
    });
    expect(disabled.status).toBe(200);
    expect(logins(disabled.body)).toEqual(["octocat"]);
    await invite("acme-eng", "mona");
    await accept("acme-eng", "mona");
    const insecure = await call(sandbox.emulator, "GET", `${ENG}/members?filter=2fa_insecure`, {
      token: TOKENS.owner,
    });
    expect(logins(insecure.body)).toEqual(["mona"]);
    const both = await call(sandbox.emulator, "GET", `${ENG}/members?filter=2fa_disabled&role=admin`, {
      token: TOKENS.owner,
    });
    expect(both.body).toEqual([]);
  });

  it("answers 422 to a 2fa filter from anyone but an owner", async () => {
    for (const filter of ["2fa_disabled", "2fa_insecure"]) {
      const response = await call(sandbox.emulator, "GET", `${ENG}/members?filter=${filter}`, {
        token: TOKENS.member,
      });
      expect(response.status).toBe(422);
      expect(response.body.errors[0]).toMatchObject({ field: "filter" });
      expect(response.body.errors[0].message).toContain("Only owners of acme-eng");
    }
  });

  it("shows concealed members to members only", async () => {
    await invite("acme-eng", "mona");
    await accept("acme-eng", "mona");
    expect(sandbox.emulator.store.state.fixture.orgs[0]?.members.mona).toEqual({
      role: "member",
      state: "active",
      concealed: true,
    });
    const inside = await call(sandbox.emulator, "GET", `${ENG}/members`, { token: TOKENS.member });
    expect(logins(inside.body)).toEqual(["admin", "olivia", "octocat", "mona"]);
    const outside = await call(sandbox.emulator, "GET", `${ENG}/members`, { token: "svcp_hubot" });
    expect(outside.status).toBe(200);
    expect(logins(outside.body)).toEqual(["admin", "olivia", "octocat"]);
    // A member whose token may not read members sees the public view too.
    const noScope = await call(sandbox.emulator, "GET", `${ENG}/members`, { token: TOKENS.noScopes });
    expect(logins(noScope.body)).toEqual(["admin", "olivia", "octocat"]);
  });

  it("pages with per_page and Link", async () => {
    const first = await call(sandbox.emulator, "GET", `${ENG}/members?per_page=2`);
    expect(logins(first.body)).toEqual(["admin", "olivia"]);
    const links = parseLink(first.headers.get("link"));
    expect(links.next).toContain("page=2");
    const second = await call(sandbox.emulator, "GET", links.next as string);
    expect(logins(second.body)).toEqual(["octocat"]);
    expect(parseLink(second.headers.get("link")).next).toBeUndefined();
  });

  it("answers 404 for an unknown organisation, and 401 to an unknown token", async () => {
    expect((await call(sandbox.emulator, "GET", "/orgs/nope/members")).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", `${ENG}/members`, { token: "svcp_nope" })).status).toBe(401);
  });

  it("treats the organisation name case-insensitively", async () => {
    const response = await call(sandbox.emulator, "GET", "/orgs/ACME-Eng/members?role=admin");
    expect(logins(response.body)).toEqual(["admin", "olivia"]);
  });
});

describe("GET /orgs/{org}/members/{username}", () => {
  it("answers 204 for a member and 404 for anyone else, to a member", async () => {
    const member = await call(sandbox.emulator, "GET", `${ENG}/members/OctoCat`, { token: TOKENS.member });
    expect(member.status).toBe(204);
    expect(member.text).toBe("");
    expect((await call(sandbox.emulator, "GET", `${ENG}/members/mona`)).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", `${ENG}/members/nobody`)).status).toBe(404);
  });

  it("answers 404 while the invitation is pending and 204 once accepted", async () => {
    await invite("acme-eng", "mona");
    expect((await call(sandbox.emulator, "GET", `${ENG}/members/mona`)).status).toBe(404);
    await accept("acme-eng", "mona");
    expect((await call(sandbox.emulator, "GET", `${ENG}/members/mona`)).status).toBe(204);
  });

  it("answers 302 to a requester who is not a member, pointing at the public check", async () => {
    const response = await fetch(`${sandbox.emulator.url}${ENG}/members/octocat`, {
      headers: { authorization: "Bearer svcp_hubot" },
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    const location = response.headers.get("location");
    expect(location).toBe(`${sandbox.emulator.url}/orgs/acme-eng/public_members/octocat`);
    const publicCheck = await call(sandbox.emulator, "GET", location as string, { token: "svcp_hubot" });
    expect(publicCheck.status).toBe(204);
  });

  it("hides concealed members from the public check", async () => {
    await invite("acme-eng", "mona");
    await accept("acme-eng", "mona");
    const check = await call(sandbox.emulator, "GET", `${ENG}/public_members/mona`, { token: "svcp_hubot" });
    expect(check.status).toBe(404);
    const list = await call(sandbox.emulator, "GET", `${ENG}/public_members`, { token: "svcp_hubot" });
    expect(logins(list.body)).toEqual(["admin", "olivia", "octocat"]);
  });
});

describe("the public routes without a token (spec: members lists and check are public)", () => {
  it("lists the public members only, as to an outsider", async () => {
    await invite("acme-eng", "mona");
    await accept("acme-eng", "mona"); // concealed
    const anonymous = await call(sandbox.emulator, "GET", `${ENG}/members`, { token: null });
    expect(anonymous.status).toBe(200);
    expect(logins(anonymous.body)).toEqual(["admin", "olivia", "octocat"]);
    expect(anonymous.headers.get("x-accepted-service-permissions")).toBe("members=read");
    const list = await call(sandbox.emulator, "GET", `${ENG}/public_members`, { token: null });
    expect(list.status).toBe(200);
    expect(logins(list.body)).toEqual(["admin", "olivia", "octocat"]);
  });

  it("sends the member check to the public check with 302, which answers 204 or 404", async () => {
    const check = await call(sandbox.emulator, "GET", `${ENG}/members/octocat`, {
      token: null,
      redirect: "manual",
    });
    expect(check.status).toBe(302);
    const location = check.headers.get("location");
    expect(location).toBe(`${sandbox.emulator.url}/orgs/acme-eng/public_members/octocat`);
    expect((await call(sandbox.emulator, "GET", location as string, { token: null })).status).toBe(204);
    const outsider = await call(sandbox.emulator, "GET", `${ENG}/public_members/mona`, { token: null });
    expect(outsider.status).toBe(404);
  });

  it("refuses the 2fa filters (owners only) and leaves every other route at 401", async () => {
    const filter = await call(sandbox.emulator, "GET", `${ENG}/members?filter=2fa_disabled`, { token: null });
    expect(filter.status).toBe(422);
    for (const [method, path] of [
      ["GET", `${ENG}/memberships/octocat`],
      ["PUT", `${ENG}/memberships/hubot`],
      ["DELETE", `${ENG}/memberships/octocat`],
      ["DELETE", `${ENG}/members/octocat`],
    ] as const) {
      const response = await call(sandbox.emulator, method, path, { token: null });
      expect(response.status, `${method} ${path}`).toBe(401);
      expectErrorBody(response.body, "Requires authentication");
    }
  });
});

describe("DELETE /orgs/{org}/members/{username}", () => {
  it("removes the member (204); they are then no member and have no membership", async () => {
    const response = await call(sandbox.emulator, "DELETE", `${ENG}/members/octocat`, {
      token: TOKENS.owner,
    });
    expect(response.status).toBe(204);
    expect(sandbox.emulator.store.state.fixture.orgs[0]?.members.octocat).toBeUndefined();
    expect((await call(sandbox.emulator, "GET", `${ENG}/members/octocat`)).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", `${ENG}/memberships/octocat`)).status).toBe(404);
  });

  it("refuses callers who are not owners (403)", async () => {
    const scope = await call(sandbox.emulator, "DELETE", `${ENG}/members/octocat`, { token: TOKENS.member });
    expect(scope.status).toBe(403);
    expect(scope.headers.get("x-accepted-oauth-scopes")).toBe("admin:org");
    const notOwner = await call(sandbox.emulator, "DELETE", `${ENG}/members/olivia`, {
      token: "svcp_member_admin_scope",
    });
    expect(notOwner.status).toBe(403);
    expectErrorBody(notOwner.body, /must be an owner of acme-eng/);
    expect(sandbox.emulator.store.state.fixture.orgs[0]?.members.olivia?.role).toBe("admin");
  });

  it("refuses to remove the last owner (403) and answers 404 for a non-member", async () => {
    const last = await call(sandbox.emulator, "DELETE", `${OPS}/members/admin`);
    expect(last.status).toBe(403);
    expectErrorBody(last.body, /last owner of acme-ops/);
    expect((await call(sandbox.emulator, "DELETE", `${ENG}/members/mona`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `${ENG}/members/nobody`)).status).toBe(404);
  });
});

describe("GET /orgs/{org}/memberships/{username}", () => {
  it("returns the membership object of the spec", async () => {
    const response = await call(sandbox.emulator, "GET", `${ENG}/memberships/octocat`, {
      token: TOKENS.member,
    });
    expect(response.status).toBe(200);
    const root = sandbox.emulator.url;
    expect(response.body).toMatchObject({
      url: `${root}/orgs/acme-eng/memberships/octocat`,
      state: "active",
      role: "member",
      organization_url: `${root}/orgs/acme-eng`,
      organization: { login: "acme-eng", id: 100, description: "Acme engineering" },
      user: { login: "octocat", id: 3, type: "User" },
    });
    expect(Object.keys(response.body).sort()).toEqual([
      "organization",
      "organization_url",
      "role",
      "state",
      "url",
      "user",
    ]);
  });

  it("shows a pending invitation as state pending", async () => {
    await invite("acme-eng", "mona", "admin");
    const response = await call(sandbox.emulator, "GET", `${ENG}/memberships/mona`);
    expect(response.body).toMatchObject({ state: "pending", role: "admin", user: { login: "mona" } });
  });

  it("needs the caller to be a member, unless they ask about themselves", async () => {
    const outsider = await call(sandbox.emulator, "GET", `${ENG}/memberships/octocat`, {
      token: "svcp_hubot",
    });
    expect(outsider.status).toBe(403);
    expectErrorBody(outsider.body, /must be a member of acme-eng/);
    await invite("acme-eng", "hubot");
    const self = await call(sandbox.emulator, "GET", `${ENG}/memberships/hubot`, { token: "svcp_hubot" });
    expect(self.status).toBe(200);
    expect(self.body.state).toBe("pending");
  });

  it("checks scopes and permissions", async () => {
    const noScope = await call(sandbox.emulator, "GET", `${ENG}/memberships/octocat`, {
      token: TOKENS.noScopes,
    });
    expect(noScope.status).toBe(403);
    expect(noScope.headers.get("x-accepted-oauth-scopes")).toBe("read:org");
    const fineGrained = await call(sandbox.emulator, "GET", `${ENG}/memberships/octocat`, {
      token: TOKENS.fineGrained,
    });
    expect(fineGrained.status).toBe(200);
    expect(fineGrained.headers.get("x-accepted-service-permissions")).toBe("members=read");
    const app = await call(sandbox.emulator, "GET", `${ENG}/memberships/octocat`, { token: TOKENS.install });
    expect(app.status).toBe(403);
  });

  it("answers 404 for an unknown user or someone with no membership", async () => {
    expect((await call(sandbox.emulator, "GET", `${ENG}/memberships/nobody`)).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", `${ENG}/memberships/mona`)).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", "/orgs/nope/memberships/mona")).status).toBe(404);
  });
});

describe("PUT /orgs/{org}/memberships/{username}", () => {
  it("invites a non-member: pending, with an invitation recorded", async () => {
    const body = await invite("acme-eng", "Mona", "admin");
    expect(body).toMatchObject({ state: "pending", role: "admin", user: { login: "mona" } });
    const state = sandbox.emulator.store.state;
    expect(state.invitations).toHaveLength(1);
    expect(state.invitations[0]).toMatchObject({
      org: "acme-eng",
      login: "mona",
      role: "admin",
      inviter: "olivia",
    });
    expect(state.invitations[0]?.id).toBeTypeOf("number");
    expect(state.fixture.orgs[0]?.members.mona).toBeUndefined();
  });

  it("defaults the role to member", async () => {
    expect(await invite("acme-eng", "mona")).toMatchObject({ state: "pending", role: "member" });
  });

  it("changes the role of a pending invitation without a second invitation", async () => {
    await invite("acme-eng", "mona", "member");
    expect(await invite("acme-eng", "mona", "admin")).toMatchObject({ state: "pending", role: "admin" });
    expect(sandbox.emulator.store.state.invitations).toHaveLength(1);
    expect(sandbox.emulator.store.state.invitations[0]?.role).toBe("admin");
  });

  it("changes the role of an active member", async () => {
    expect(await invite("acme-eng", "octocat", "admin")).toMatchObject({ state: "active", role: "admin" });
    expect(sandbox.emulator.store.state.fixture.orgs[0]?.members.octocat?.role).toBe("admin");
    expect(await invite("acme-eng", "octocat", "member")).toMatchObject({ state: "active", role: "member" });
    expect(sandbox.emulator.store.state.invitations).toEqual([]);
  });

  it("answers 422 for a role that is not admin or member", async () => {
    const response = await call(sandbox.emulator, "PUT", `${ENG}/memberships/mona`, {
      body: { role: "owner" },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({ field: "role", code: "invalid" });
    expect(sandbox.emulator.store.state.invitations).toEqual([]);
  });

  it("refuses to demote the last owner (422)", async () => {
    const response = await call(sandbox.emulator, "PUT", `${OPS}/memberships/admin`, {
      body: { role: "member" },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].message).toContain("last owner of acme-ops");
    expect(sandbox.emulator.store.state.fixture.orgs[1]?.members.admin?.role).toBe("admin");
  });

  it("is for owners only (403) and answers 404 for an unknown user or organisation", async () => {
    const member = await call(sandbox.emulator, "PUT", `${ENG}/memberships/mona`, {
      token: TOKENS.member,
      body: { role: "member" },
    });
    expect(member.status).toBe(403);
    const notOwner = await call(sandbox.emulator, "PUT", `${ENG}/memberships/mona`, {
      token: "svcp_member_admin_scope",
      body: {},
    });
    expect(notOwner.status).toBe(403);
    expectErrorBody(notOwner.body, /must be an owner of acme-eng/);
    const olivia = await call(sandbox.emulator, "PUT", `${OPS}/memberships/mona`, {
      token: TOKENS.owner,
      body: {},
    });
    expect(olivia.status).toBe(403);
    const readOnly = await call(sandbox.emulator, "PUT", `${ENG}/memberships/mona`, {
      token: "svc_pat_members_read",
      body: {},
    });
    expect(readOnly.status).toBe(403);
    expect(readOnly.headers.get("x-accepted-service-permissions")).toBe("members=write");
    expect((await call(sandbox.emulator, "PUT", `${ENG}/memberships/nobody`, { body: {} })).status).toBe(404);
    expect((await call(sandbox.emulator, "PUT", "/orgs/nope/memberships/mona", { body: {} })).status).toBe(
      404,
    );
    expect(sandbox.emulator.store.state.invitations).toEqual([]);
  });

  it("obeys the secondary rate limit switched on through the controls", async () => {
    await control(sandbox.emulator, "PUT", "/rate-limit", {
      method: "PUT",
      path: "/orgs/*/memberships/*",
      retryAfter: 7,
      count: 1,
    });
    const limited = await call(sandbox.emulator, "PUT", `${ENG}/memberships/mona`, { body: {} });
    expect(limited.status).toBe(403);
    expectErrorBody(limited.body, /secondary rate limit/);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(sandbox.emulator.store.state.invitations).toEqual([]);
    expect((await call(sandbox.emulator, "GET", `${ENG}/memberships/octocat`)).status).toBe(200);
    expect((await call(sandbox.emulator, "PUT", `${ENG}/memberships/mona`, { body: {} })).status).toBe(200);
  });
});

describe("DELETE /orgs/{org}/memberships/{username}", () => {
  it("cancels a pending invitation", async () => {
    await invite("acme-eng", "mona");
    const response = await call(sandbox.emulator, "DELETE", `${ENG}/memberships/mona`, {
      token: TOKENS.owner,
    });
    expect(response.status).toBe(204);
    expect(sandbox.emulator.store.state.invitations).toEqual([]);
    expect((await call(sandbox.emulator, "GET", `${ENG}/memberships/mona`)).status).toBe(404);
  });

  it("removes an active member", async () => {
    const response = await call(sandbox.emulator, "DELETE", `${ENG}/memberships/octocat`);
    expect(response.status).toBe(204);
    expect(sandbox.emulator.store.state.fixture.orgs[0]?.members.octocat).toBeUndefined();
  });

  it("answers 404 without a membership, 403 to non-owners and for the last owner", async () => {
    expect((await call(sandbox.emulator, "DELETE", `${ENG}/memberships/mona`)).status).toBe(404);
    const member = await call(sandbox.emulator, "DELETE", `${ENG}/memberships/octocat`, {
      token: "svcp_member_admin_scope",
    });
    expect(member.status).toBe(403);
    const last = await call(sandbox.emulator, "DELETE", `${OPS}/memberships/admin`);
    expect(last.status).toBe(403);
    expectErrorBody(last.body, /last owner of acme-ops/);
    expect(sandbox.emulator.store.state.fixture.orgs[1]?.members.admin).toEqual({
      role: "admin",
      state: "active",
    });
  });
});

describe("control routes for what users do themselves", () => {
  it("accept makes the invitation an active membership with the invited role", async () => {
    await invite("acme-ops", "hubot", "admin", TOKENS.siteAdmin);
    const accepted = await accept("ACME-OPS", "Hubot");
    expect(accepted).toEqual({ org: "acme-ops", username: "hubot", state: "active", role: "admin" });
    expect(sandbox.emulator.store.state.invitations).toEqual([]);
    const membership = await call(sandbox.emulator, "GET", `${OPS}/memberships/hubot`);
    expect(membership.body).toMatchObject({ state: "active", role: "admin" });
  });

  it("accept and decline answer 404 without an invitation", async () => {
    for (const action of ["accept", "decline"]) {
      const missing = await control(sandbox.emulator, "POST", `/orgs/acme-eng/invitations/mona/${action}`);
      expect(missing.status).toBe(404);
      const unknown = await control(sandbox.emulator, "POST", `/orgs/nope/invitations/mona/${action}`);
      expect(unknown.status).toBe(404);
    }
  });

  it("decline drops the invitation and adds no member", async () => {
    await invite("acme-eng", "mona");
    const declined = await control(sandbox.emulator, "POST", "/orgs/acme-eng/invitations/mona/decline");
    expect(declined.status).toBe(204);
    expect(sandbox.emulator.store.state.invitations).toEqual([]);
    expect(sandbox.emulator.store.state.fixture.orgs[0]?.members.mona).toBeUndefined();
    expect((await call(sandbox.emulator, "GET", `${ENG}/memberships/mona`)).status).toBe(404);
  });

  it("leave removes an active member; the last owner cannot leave", async () => {
    const left = await control(sandbox.emulator, "POST", "/orgs/acme-eng/members/octocat/leave");
    expect(left.status).toBe(204);
    expect((await call(sandbox.emulator, "GET", `${ENG}/memberships/octocat`)).status).toBe(404);
    expect((await control(sandbox.emulator, "POST", "/orgs/acme-eng/members/octocat/leave")).status).toBe(
      404,
    );
    const last = await control(sandbox.emulator, "POST", "/orgs/acme-ops/members/admin/leave");
    expect(last.status).toBe(409);
    expect(last.body.message).toContain("last owner of acme-ops");
  });

  it("are not part of the API log", async () => {
    sandbox.emulator.controls.clearLog();
    await invite("acme-eng", "mona");
    await accept("acme-eng", "mona");
    expect(sandbox.emulator.controls.counts().byRoute).toEqual({
      "PUT /orgs/{org}/memberships/{username}": 1,
    });
  });
});
