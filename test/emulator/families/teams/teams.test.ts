/**
 * Teams (the platform's description, `teams/*` in an organisation): slugs from names and renames,
 * nesting and privacy, who sees and changes a team, memberships (owners reported as maintainers,
 * outsiders pending until they join the organisation), repository access and what it lets members
 * do on the repository, and the controls standing in for changes made on the web pages.
 */
import { describe, expect, it } from "vitest";
import { defaultFixture } from "../../../../emulator/families";
import type { Fixture } from "../../../../emulator/index";
import {
  call,
  control,
  expectErrorBody,
  expectValidationFailed,
  type Json,
  TOKENS,
  useSandbox,
} from "../../helpers";

/** The default fixture plus a token for mona (outside every organisation until invited). */
function fixture(): Fixture {
  const f = defaultFixture();
  f.tokens.svcp_mona = { kind: "classic", user: "mona", scopes: ["repo", "read:org"], permissions: {} };
  f.tokens.svcp_member_admin = { kind: "classic", user: "octocat", scopes: ["admin:org"], permissions: {} };
  return f;
}

const sandbox = useSandbox({ fixture: fixture() });
const TEAMS = "/orgs/acme-eng/teams";

async function createTeam(body: Json, token: string = TOKENS.siteAdmin): Promise<Json> {
  const response = await call(sandbox.emulator, "POST", TEAMS, { body, token });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const slugs = (body: Json): string[] => (body as Array<{ slug: string }>).map((t) => t.slug);
const logins = (body: Json): string[] => (body as Array<{ login: string }>).map((u) => u.login);

describe("teams", () => {
  it("makes the slug from the name; a rename changes it, keeps the id, and the old slug is gone", async () => {
    const made = await createTeam({ name: "Site Reliability!", description: "On call" });
    expect(made).toMatchObject({
      name: "Site Reliability!",
      slug: "site-reliability",
      description: "On call",
      privacy: "secret",
      notification_setting: "notifications_enabled",
      parent: null,
      members_count: 1, // the creator, as maintainer
      organization: { login: "acme-eng" },
    });
    const renamed = await call(sandbox.emulator, "PATCH", `${TEAMS}/site-reliability`, {
      body: { name: "SRE Core" },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ id: made.id, slug: "sre-core", name: "SRE Core" });
    expect((await call(sandbox.emulator, "GET", `${TEAMS}/site-reliability`)).status).toBe(404);
    const byNewSlug = await call(sandbox.emulator, "GET", `${TEAMS}/SRE-Core`);
    expect(byNewSlug.body.id).toBe(made.id);
  });

  it("lists the fixture's team and the created ones; names are unique per organisation", async () => {
    await createTeam({ name: "Web" });
    const list = await call(sandbox.emulator, "GET", TEAMS);
    expect(slugs(list.body)).toEqual(["platform", "web"]);
    expectValidationFailed(
      await call(sandbox.emulator, "POST", TEAMS, { body: { name: "web" } }),
      "name",
      "invalid",
      "Team",
    );
    expectValidationFailed(
      await call(sandbox.emulator, "POST", TEAMS, { body: {} }),
      "name",
      "missing_field",
      "Team",
    );
    expectValidationFailed(
      await call(sandbox.emulator, "POST", TEAMS, { body: { name: "x", privacy: "public" } }),
      "privacy",
      "invalid",
      "Team",
    );
  });

  it("nests closed teams only, refuses cycles, and deleting a parent deletes its children", async () => {
    const parent = await createTeam({ name: "Engineering", privacy: "closed" });
    const child = await createTeam({ name: "Backend", parent_team_id: parent.id });
    expect(child).toMatchObject({ privacy: "closed", parent: { id: parent.id, slug: "engineering" } });
    const secretChild = await call(sandbox.emulator, "POST", TEAMS, {
      body: { name: "Hidden", parent_team_id: parent.id, privacy: "secret" },
    });
    expectValidationFailed(secretChild, "privacy", "invalid", "Team");
    const secret = await createTeam({ name: "Secretive" });
    const underSecret = await call(sandbox.emulator, "POST", TEAMS, {
      body: { name: "Nested", parent_team_id: secret.id },
    });
    expectValidationFailed(underSecret, "parent_team_id", "invalid", "Team");
    const cycle = await call(sandbox.emulator, "PATCH", `${TEAMS}/engineering`, {
      body: { parent_team_id: child.id },
    });
    expectValidationFailed(cycle, "parent_team_id", "invalid", "Team");
    const parentSecret = await call(sandbox.emulator, "PATCH", `${TEAMS}/engineering`, {
      body: { privacy: "secret" },
    });
    expectValidationFailed(parentSecret, "privacy", "invalid", "Team");
    const children = await call(sandbox.emulator, "GET", `${TEAMS}/engineering/teams`);
    expect(slugs(children.body)).toEqual(["backend"]);
    // Unnesting with parent_team_id null.
    const freed = await call(sandbox.emulator, "PATCH", `${TEAMS}/backend`, {
      body: { parent_team_id: null },
    });
    expect(freed.body.parent).toBeNull();
    await call(sandbox.emulator, "PATCH", `${TEAMS}/backend`, { body: { parent_team_id: parent.id } });
    expect((await call(sandbox.emulator, "DELETE", `${TEAMS}/engineering`)).status).toBe(204);
    expect((await call(sandbox.emulator, "GET", `${TEAMS}/backend`)).status).toBe(404);
  });

  it("shows secret teams to owners and their members only; members create, owners and maintainers change", async () => {
    await createTeam({ name: "Secret Club" });
    const asMember = await call(sandbox.emulator, "GET", TEAMS, { token: TOKENS.member });
    expect(slugs(asMember.body)).toEqual(["platform"]);
    expect(
      (await call(sandbox.emulator, "GET", `${TEAMS}/secret-club`, { token: TOKENS.member })).status,
    ).toBe(404);
    // octocat's token holds read:org only: writing needs admin:org.
    const refused = await call(sandbox.emulator, "PATCH", `${TEAMS}/platform`, {
      token: TOKENS.member,
      body: { description: "x" },
    });
    expect(refused.status).toBe(403);
    // Outside the organisation: the list is refused.
    const outside = await call(sandbox.emulator, "GET", TEAMS, { token: "svcp_mona" });
    expect(outside.status).toBe(403);
    expectErrorBody(outside.body, "You must be a member of acme-eng to list its teams");
    expect((await call(sandbox.emulator, "GET", "/orgs/nope/teams")).status).toBe(404);
  });
});

describe("team memberships", () => {
  const MEMBERSHIP = `${TEAMS}/platform/memberships`;

  it("adds a member, reports an owner as maintainer whatever role was asked, lists roles", async () => {
    const octocat = await call(sandbox.emulator, "PUT", `${MEMBERSHIP}/octocat`, {
      body: { role: "maintainer" },
    });
    expect(octocat.body).toMatchObject({ role: "maintainer", state: "active" });
    const olivia = await call(sandbox.emulator, "PUT", `${MEMBERSHIP}/olivia`, { body: { role: "member" } });
    expect(olivia.status).toBe(200);
    expect(olivia.body).toMatchObject({ role: "maintainer", state: "active" });
    const members = await call(sandbox.emulator, "GET", `${TEAMS}/platform/members`);
    expect(members.body.map((m: Json) => [m.login, m.role, m.inherited])).toEqual([
      ["octocat", "maintainer", false],
      ["olivia", "maintainer", false],
    ]);
    const plain = await call(sandbox.emulator, "GET", `${TEAMS}/platform/members?role=member`);
    expect(logins(plain.body)).toEqual([]);
    expectValidationFailed(
      await call(sandbox.emulator, "PUT", `${MEMBERSHIP}/octocat`, { body: { role: "owner" } }),
      "role",
      "invalid",
      "TeamMembership",
    );
  });

  it("invites someone outside the organisation: pending until they accept, then active", async () => {
    const mona = await call(sandbox.emulator, "PUT", `${MEMBERSHIP}/mona`, { body: {} });
    expect(mona.body).toMatchObject({ role: "member", state: "pending" });
    expect(logins((await call(sandbox.emulator, "GET", `${TEAMS}/platform/members`)).body)).toEqual([
      "octocat",
    ]);
    const invitations = await call(sandbox.emulator, "GET", "/orgs/acme-eng/invitations");
    expect(invitations.body.map((i: Json) => i.login)).toEqual(["mona"]);
    expect((await control(sandbox.emulator, "POST", "/orgs/acme-eng/invitations/mona/accept")).status).toBe(
      200,
    );
    const active = await call(sandbox.emulator, "GET", `${MEMBERSHIP}/mona`);
    expect(active.body).toMatchObject({ role: "member", state: "active" });
    // Leaving the organisation leaves its teams.
    expect((await control(sandbox.emulator, "POST", "/orgs/acme-eng/members/mona/leave")).status).toBe(204);
    expect((await call(sandbox.emulator, "GET", `${MEMBERSHIP}/mona`)).status).toBe(404);
    // Invited to the organisation again, she is not back in its teams.
    await call(sandbox.emulator, "PUT", "/orgs/acme-eng/memberships/mona", { body: {} });
    expect((await call(sandbox.emulator, "GET", `${MEMBERSHIP}/mona`)).status).toBe(404);
    // A pending member whose invitation is cancelled leaves the team with it.
    await call(sandbox.emulator, "PUT", `${MEMBERSHIP}/mona`, { body: {} });
    expect((await call(sandbox.emulator, "GET", `${MEMBERSHIP}/mona`)).body.state).toBe("pending");
    expect((await call(sandbox.emulator, "DELETE", "/orgs/acme-eng/memberships/mona")).status).toBe(204);
    await call(sandbox.emulator, "PUT", "/orgs/acme-eng/memberships/mona", { body: {} });
    expect((await call(sandbox.emulator, "GET", `${MEMBERSHIP}/mona`)).status).toBe(404);
  });

  it("lists members of child teams as inherited; removes a membership", async () => {
    await call(sandbox.emulator, "PATCH", `${TEAMS}/platform`, { body: { privacy: "closed" } });
    const child = await createTeam({ name: "Platform Infra", parent_team_id: 1 });
    await call(sandbox.emulator, "PUT", `${TEAMS}/${child.slug}/memberships/octocat`, { body: {} });
    await call(sandbox.emulator, "DELETE", `${MEMBERSHIP}/octocat`);
    const members = await call(sandbox.emulator, "GET", `${TEAMS}/platform/members`);
    // admin made the child team, so is its maintainer; octocat is in the child team only.
    expect(members.body.map((m: Json) => [m.login, m.inherited])).toEqual([
      ["admin", true],
      ["octocat", true],
    ]);
    expect((await call(sandbox.emulator, "GET", `${MEMBERSHIP}/octocat`)).status).toBe(404);
    expect((await call(sandbox.emulator, "DELETE", `${MEMBERSHIP}/octocat`)).status).toBe(404);
  });

  it("controls: a member added and one leaving on the web pages", async () => {
    const added = await control(sandbox.emulator, "PUT", "/orgs/acme-eng/teams/platform/members/olivia", {
      role: "member",
    });
    expect(added.status, added.text).toBe(200);
    expect(logins((await call(sandbox.emulator, "GET", `${TEAMS}/platform/members`)).body)).toEqual([
      "octocat",
      "olivia",
    ]);
    expect(
      (await control(sandbox.emulator, "POST", "/orgs/acme-eng/teams/platform/members/octocat/leave")).status,
    ).toBe(204);
    expect(logins((await call(sandbox.emulator, "GET", `${TEAMS}/platform/members`)).body)).toEqual([
      "olivia",
    ]);
  });
});

describe("team repository access", () => {
  const REPOS = `${TEAMS}/platform/repos`;

  it("gives, checks, lists and removes a role", async () => {
    expect((await call(sandbox.emulator, "GET", `${REPOS}/acme-eng/api`)).status).toBe(404);
    const given = await call(sandbox.emulator, "PUT", `${REPOS}/acme-eng/api`, {
      body: { permission: "maintain" },
    });
    expect(given.status, given.text).toBe(204);
    expect((await call(sandbox.emulator, "GET", `${REPOS}/acme-eng/api`)).status).toBe(204);
    const list = await call(sandbox.emulator, "GET", REPOS);
    expect(list.body.map((r: Json) => [r.full_name, r.role_name])).toEqual([["acme-eng/api", "maintain"]]);
    expect(list.body[0].permissions).toEqual({
      admin: false,
      maintain: true,
      push: true,
      triage: true,
      pull: true,
    });
    const teams = await call(sandbox.emulator, "GET", "/repos/acme-eng/api/teams");
    expect(teams.body.map((t: Json) => [t.slug, t.permission])).toEqual([["platform", "maintain"]]);
    expect((await call(sandbox.emulator, "DELETE", `${REPOS}/acme-eng/api`)).status).toBe(204);
    expect((await call(sandbox.emulator, "GET", REPOS)).body).toEqual([]);
  });

  it("refuses another organisation's repository (422), an unknown role (422), a non-admin (403)", async () => {
    expectValidationFailed(
      await call(sandbox.emulator, "PUT", `${REPOS}/acme-ops/infra`, { body: {} }),
      "repository",
      "invalid",
      "Team",
    );
    expectValidationFailed(
      await call(sandbox.emulator, "PUT", `${REPOS}/acme-eng/api`, { body: { permission: "write" } }),
      "permission",
      "invalid",
      "Team",
    );
    // A member of acme-eng with admin:org is still no admin of the (public) repository.
    const refused = await call(sandbox.emulator, "PUT", `${REPOS}/acme-eng/web`, {
      token: "svcp_member_admin",
      body: { permission: "admin" },
    });
    expect(refused.status).toBe(403);
  });

  it("a team's admin role on a repository is enforced for its members; inherited by child teams", async () => {
    // octocat (a member of acme-eng) administers no repository: adding a protection rule to
    // acme-eng/api is a 404 to him, which hides the repository's settings.
    const rules = "/repos/acme-eng/api/environments/production/deployment_protection_rules";
    const addRule = () =>
      call(sandbox.emulator, "POST", rules, { token: TOKENS.member, body: { integration_id: 102 } });
    expect((await addRule()).status).toBe(404);
    await call(sandbox.emulator, "PATCH", `${TEAMS}/platform`, { body: { privacy: "closed" } });
    const child = await createTeam({ name: "Platform API", parent_team_id: 1 });
    await call(sandbox.emulator, "PUT", `${TEAMS}/${child.slug}/memberships/octocat`, { body: {} });
    await call(sandbox.emulator, "DELETE", `${TEAMS}/platform/memberships/octocat`);
    // Given to the parent team: the child team's member administers the repository.
    await call(sandbox.emulator, "PUT", `${REPOS}/acme-eng/api`, { body: { permission: "admin" } });
    expect((await call(sandbox.emulator, "GET", `${TEAMS}/${child.slug}/repos/acme-eng/api`)).status).toBe(
      204,
    );
    const added = await addRule();
    expect(added.status, added.text).toBe(201);
    // Taken away again: back to a member's push.
    await call(sandbox.emulator, "DELETE", `${REPOS}/acme-eng/api`);
    expect((await call(sandbox.emulator, "GET", rules, { token: TOKENS.member })).status).toBe(200);
    expect(
      (await call(sandbox.emulator, "DELETE", `${rules}/${added.body.id}`, { token: TOKENS.member })).status,
    ).toBe(404);
  });

  it("controls: a team's role changed on the repository's settings page", async () => {
    const changed = await control(
      sandbox.emulator,
      "PUT",
      "/orgs/acme-eng/teams/platform/repos/acme-eng/web",
      {
        permission: "triage",
      },
    );
    expect(changed.status, changed.text).toBe(200);
    const list = await call(sandbox.emulator, "GET", REPOS);
    expect(list.body.map((r: Json) => [r.full_name, r.role_name])).toEqual([["acme-eng/web", "triage"]]);
    expect(
      (
        await control(sandbox.emulator, "PUT", "/orgs/acme-eng/teams/platform/repos/acme-ops/infra", {
          permission: "pull",
        })
      ).status,
    ).toBe(404);
  });
});
