/**
 * Organisation roles: the predefined roles every organisation has, assigning one to a team or a
 * user and revoking it, the lists of a role's teams and users, and the 404s and 422s of unknown
 * roles, teams, users and non-members.
 */
import { describe, expect, it } from "vitest";
import { call, expectErrorBody, expectValidationFailed, type Json, TOKENS, useSandbox } from "../../helpers";

const sandbox = useSandbox();
const ROLES = "/orgs/acme-eng/organization-roles";

async function roleId(name: string): Promise<number> {
  const response = await call(sandbox.emulator, "GET", ROLES);
  return response.body.roles.find((r: Json) => r.name === name).id;
}

describe("organisation roles", () => {
  it("are the platform's predefined roles, in every organisation", async () => {
    for (const org of ["acme-eng", "acme-ops", "solo"]) {
      const response = await call(sandbox.emulator, "GET", `/orgs/${org}/organization-roles`);
      expect(response.status).toBe(200);
      expect(response.body.roles.map((r: Json) => r.name)).toEqual([
        "all_repo_read",
        "all_repo_triage",
        "all_repo_write",
        "all_repo_maintain",
        "all_repo_admin",
        "ci_cd_admin",
        "security_manager",
      ]);
      expect(response.body.total_count).toBe(7);
    }
    const id = await roleId("all_repo_write");
    const one = await call(sandbox.emulator, "GET", `${ROLES}/${id}`);
    expect(one.body).toMatchObject({
      id,
      name: "all_repo_write",
      base_role: "write",
      source: "Predefined",
      organization: null,
    });
    expect((await call(sandbox.emulator, "GET", `${ROLES}/1`)).status).toBe(404);
  });

  it("are assigned to a team and a user (204, twice changes nothing) and listed per role", async () => {
    const id = await roleId("security_manager");
    for (let i = 0; i < 2; i++) {
      expect((await call(sandbox.emulator, "PUT", `${ROLES}/teams/platform/${id}`)).status).toBe(204);
      expect((await call(sandbox.emulator, "PUT", `${ROLES}/users/octocat/${id}`)).status).toBe(204);
    }
    const teams = await call(sandbox.emulator, "GET", `${ROLES}/${id}/teams`);
    expect(teams.body).toEqual([expect.objectContaining({ slug: "platform", assignment: "direct" })]);
    const users = await call(sandbox.emulator, "GET", `${ROLES}/${id}/users`);
    expect(users.body).toEqual([expect.objectContaining({ login: "octocat", assignment: "direct" })]);
    // Another role's lists are unchanged; revoking removes only that assignment.
    expect(
      (await call(sandbox.emulator, "GET", `${ROLES}/${await roleId("all_repo_read")}/users`)).body,
    ).toEqual([]);
    expect((await call(sandbox.emulator, "DELETE", `${ROLES}/users/octocat/${id}`)).status).toBe(204);
    expect((await call(sandbox.emulator, "GET", `${ROLES}/${id}/users`)).body).toEqual([]);
    expect((await call(sandbox.emulator, "GET", `${ROLES}/${id}/teams`)).body).toHaveLength(1);
    expect((await call(sandbox.emulator, "DELETE", `${ROLES}/users/octocat/${id}`)).status).toBe(204);
  });

  it("are held by teams of the teams family: made through the API, kept by a rename, gone with the team", async () => {
    const id = await roleId("ci_cd_admin");
    const made = await call(sandbox.emulator, "POST", "/orgs/acme-eng/teams", {
      body: { name: "Release Crew" },
    });
    expect(made.status).toBe(201);
    expect((await call(sandbox.emulator, "PUT", `${ROLES}/teams/release-crew/${id}`)).status).toBe(204);
    const renamed = await call(sandbox.emulator, "PATCH", "/orgs/acme-eng/teams/release-crew", {
      body: { name: "Deploy Crew" },
    });
    expect(renamed.body.slug).toBe("deploy-crew");
    const teams = async () => (await call(sandbox.emulator, "GET", `${ROLES}/${id}/teams`)).body;
    expect(await teams()).toEqual([expect.objectContaining({ id: made.body.id, slug: "deploy-crew" })]);
    // The old slug names no team: a team made later with it holds nothing.
    expect((await call(sandbox.emulator, "PUT", `${ROLES}/teams/release-crew/${id}`)).status).toBe(404);
    await call(sandbox.emulator, "POST", "/orgs/acme-eng/teams", { body: { name: "Release Crew" } });
    expect(await teams()).toHaveLength(1);
    expect((await call(sandbox.emulator, "DELETE", "/orgs/acme-eng/teams/deploy-crew")).status).toBe(204);
    expect(await teams()).toEqual([]);
  });

  it("refuse an unknown team, user or role (404) and a user outside the organisation (422)", async () => {
    const id = await roleId("all_repo_read");
    for (const path of [
      `${ROLES}/teams/nope/${id}`,
      `${ROLES}/users/nobody/${id}`,
      `${ROLES}/users/octocat/42`,
    ]) {
      const response = await call(sandbox.emulator, "PUT", path);
      expect(response.status, path).toBe(404);
      expectErrorBody(response.body, "Not Found");
    }
    const outsider = await call(sandbox.emulator, "PUT", `${ROLES}/users/mona/${id}`);
    expectValidationFailed(outsider, "username", "invalid", "OrganizationRole");
  });

  it("are the owners': a member gets 403", async () => {
    const response = await call(sandbox.emulator, "GET", ROLES, { token: TOKENS.member });
    expect(response.status).toBe(403);
    expect((await call(sandbox.emulator, "GET", ROLES, { token: TOKENS.owner })).status).toBe(200);
  });
});
