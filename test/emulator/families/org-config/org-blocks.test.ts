/**
 * Users blocked by an organisation (spec, permission matrix "Blocking users"; bodies and statuses
 * from the platform's description): list, check, block, unblock, who may, and what cannot be
 * blocked.
 */
import { describe, expect, it } from "vitest";
import { defaultFixture } from "../../../../emulator/families";
import { startEmulator } from "../../../../emulator/index";
import {
  call,
  control,
  expectErrorBody,
  type Json,
  parseLink,
  stateOf,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();
const B = "/orgs/acme-eng/blocks";

async function block(login: string, org = "acme-eng", token: string = TOKENS.siteAdmin) {
  return call(sandbox.emulator, "PUT", `/orgs/${org}/blocks/${login}`, { token });
}

async function blockedLogins(org = "acme-eng"): Promise<string[]> {
  const response = await call(sandbox.emulator, "GET", `/orgs/${org}/blocks`);
  expect(response.status, response.text).toBe(200);
  return response.body.map((u: Json) => u.login);
}

describe("blocking a user", () => {
  it("starts with no blocks in any organisation", async () => {
    for (const org of ["acme-eng", "acme-ops", "solo"]) expect(await blockedLogins(org)).toEqual([]);
  });

  it("blocks with a 204 and no body; the check then answers 204, and 404 before", async () => {
    expect((await call(sandbox.emulator, "GET", `${B}/mona`)).status).toBe(404);
    const response = await block("mona", "acme-eng", TOKENS.owner);
    expect(response.status, response.text).toBe(204);
    expect(response.text).toBe("");
    const check = await call(sandbox.emulator, "GET", `${B}/mona`, { token: TOKENS.owner });
    expect(check.status).toBe(204);
    expect(check.text).toBe("");
    // The user's login is matched case-insensitively, as everywhere.
    expect((await call(sandbox.emulator, "GET", `${B}/MONA`)).status).toBe(204);
  });

  it("lists blocked users as user summaries, oldest block first", async () => {
    expect((await block("mona")).status).toBe(204);
    expect((await block("hubot")).status).toBe(204);
    const response = await call(sandbox.emulator, "GET", B);
    expect(response.status).toBe(200);
    expect(response.body.map((u: Json) => u.login)).toEqual(["mona", "hubot"]);
    const [mona] = response.body;
    expect(mona).toMatchObject({ login: "mona", id: 4, type: "User", site_admin: false });
    expect(mona.url).toBe(`${sandbox.emulator.url}/users/mona`);
    expect(typeof mona.node_id).toBe("string");
  });

  it("pages the list with per_page and Link", async () => {
    for (const login of ["mona", "hubot", "billie"]) expect((await block(login)).status).toBe(204);
    const first = await call(sandbox.emulator, "GET", `${B}?per_page=2`);
    expect(first.body.map((u: Json) => u.login)).toEqual(["mona", "hubot"]);
    const links = parseLink(first.headers.get("link"));
    expect(Object.keys(links).sort()).toEqual(["last", "next"]);
    const second = await call(sandbox.emulator, "GET", links.next as string);
    expect(second.body.map((u: Json) => u.login)).toEqual(["billie"]);
    expect(parseLink(second.headers.get("link")).prev).toBeDefined();
  });

  it("keeps blocks per organisation", async () => {
    expect((await block("mona", "solo")).status).toBe(204);
    expect(await blockedLogins("solo")).toEqual(["mona"]);
    expect(await blockedLogins("acme-eng")).toEqual([]);
    expect((await call(sandbox.emulator, "GET", `${B}/mona`)).status).toBe(404);
  });

  it("blocks a user twice as once: the second PUT is a 204 that changes nothing", async () => {
    expect((await block("mona")).status).toBe(204);
    const before = await stateOf(sandbox.emulator);
    expect((await block("mona")).status).toBe(204);
    expect(await stateOf(sandbox.emulator)).toEqual(before);
    expect(await blockedLogins()).toEqual(["mona"]);
  });

  it("refuses to block a member, a pending invitee or the caller (422 naming username), changing nothing", async () => {
    const invite = await call(sandbox.emulator, "PUT", "/orgs/acme-eng/memberships/mona", {
      body: { role: "member" },
    });
    expect(invite.status, invite.text).toBe(200);
    const before = await stateOf(sandbox.emulator);
    for (const [login, token, message] of [
      ["octocat", TOKENS.owner, /octocat is a member of acme-eng/],
      ["mona", TOKENS.owner, /pending invitation/],
      ["olivia", TOKENS.owner, /cannot block yourself/],
    ] as const) {
      const response = await block(login, "acme-eng", token);
      expect(response.status, `${login}: ${response.text}`).toBe(422);
      expectErrorBody(response.body, "Validation Failed");
      expect(response.body.errors).toEqual([
        {
          resource: "OrganizationBlock",
          field: "username",
          code: "invalid",
          message: expect.stringMatching(message),
        },
      ]);
    }
    expect(await stateOf(sandbox.emulator)).toEqual(before);
  });

  it("answers 404 for an unknown user or organisation on every route", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const user = await call(sandbox.emulator, method, `${B}/nobody`);
      expect(user.status, `${method} user`).toBe(404);
      expectErrorBody(user.body, "Not Found");
      expect((await call(sandbox.emulator, method, "/orgs/nowhere/blocks/mona")).status).toBe(404);
    }
    expect((await call(sandbox.emulator, "GET", "/orgs/nowhere/blocks")).status).toBe(404);
  });
});

describe("unblocking a user", () => {
  it("unblocks with a 204; the check is then a 404", async () => {
    expect((await block("mona")).status).toBe(204);
    const response = await call(sandbox.emulator, "DELETE", `${B}/mona`, { token: TOKENS.owner });
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect((await call(sandbox.emulator, "GET", `${B}/mona`)).status).toBe(404);
    expect(await blockedLogins()).toEqual([]);
  });

  it("answers 204 for a user who is not blocked, changing nothing", async () => {
    expect((await block("hubot")).status).toBe(204);
    const before = await stateOf(sandbox.emulator);
    expect((await call(sandbox.emulator, "DELETE", `${B}/mona`)).status).toBe(204);
    expect(await stateOf(sandbox.emulator)).toEqual(before);
  });

  it("leaves the user's blocks by other organisations", async () => {
    expect((await block("mona")).status).toBe(204);
    expect((await block("mona", "solo")).status).toBe(204);
    expect((await call(sandbox.emulator, "DELETE", `${B}/mona`)).status).toBe(204);
    expect(await blockedLogins("solo")).toEqual(["mona"]);
  });
});

describe("who may", () => {
  it("lets only owners read blocks: a member gets 403, with the accepted permission named", async () => {
    expect((await block("mona")).status).toBe(204);
    for (const path of [B, `${B}/mona`]) {
      const response = await call(sandbox.emulator, "GET", path, { token: TOKENS.member });
      expect(response.status, path).toBe(403);
      expectErrorBody(response.body, "Must be an organization owner to manage blocked users");
      expect(response.headers.get("x-accepted-service-permissions")).toBe("organization_user_blocking=read");
      expect(response.headers.get("x-accepted-oauth-scopes")).toBe("read:org");
    }
  });

  it("refuses writes to a non-owner and to tokens without admin:org, changing nothing", async () => {
    const before = await stateOf(sandbox.emulator);
    const member = await block("mona", "acme-eng", TOKENS.member);
    expect(member.status).toBe(403);
    expect(member.headers.get("x-accepted-service-permissions")).toBe("organization_user_blocking=write");
    expect(member.body.message).toBe("Your token has not been granted the required scopes: admin:org");
    // olivia owns acme-eng only.
    const elsewhere = await block("mona", "acme-ops", TOKENS.owner);
    expect(elsewhere.status).toBe(403);
    expectErrorBody(elsewhere.body, "Must be an organization owner to manage blocked users");
    expect((await block("mona", "acme-eng", TOKENS.install)).status).toBe(403);
    expect(await stateOf(sandbox.emulator)).toEqual(before);
  });

  it("lets a fine-grained token with organization_user_blocking act", async () => {
    expect((await block("mona", "acme-ops", TOKENS.fineGrained)).status).toBe(204);
    expect(await blockedLogins("acme-ops")).toEqual(["mona"]);
  });

  it("lets an installation with the permission act for its own organisation only", async () => {
    // The fixture's installation holds no blocking permission: a server started with one that does.
    const fixture = defaultFixture();
    const install = fixture.tokens[TOKENS.install];
    if (install) install.permissions.organization_user_blocking = "write";
    const other = await startEmulator({ port: 0, fixture });
    try {
      const own = await call(other, "PUT", "/orgs/acme-eng/blocks/mona", { token: TOKENS.install });
      expect(own.status, own.text).toBe(204);
      const foreign = await call(other, "PUT", "/orgs/acme-ops/blocks/mona", { token: TOKENS.install });
      expect(foreign.status).toBe(403);
    } finally {
      await other.close();
    }
  });

  it("is logged under the route templates", async () => {
    await control(sandbox.emulator, "DELETE", "/requests");
    await call(sandbox.emulator, "GET", `${B}/mona`);
    const log = (await control(sandbox.emulator, "GET", "/requests")).body.requests;
    expect(log.map((r: Json) => r.route)).toEqual(["/orgs/{org}/blocks/{username}"]);
  });
});
