/**
 * Lifecycle of OrgRoleAssignment against the sandbox server: exactly one of team and username at
 * preview, assigning to a team and to a user, the role's name, adoption by construction, a revoke
 * outside Pulumi dropped by refresh, destroy revoking that assignment only, and clear failures.
 */
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import {
  orgRoleAssignmentProvider as assignments,
  type OrgRoleAssignmentInputs,
  type OrgRoleAssignmentOutputs,
} from "../../../provider/resources/org-roles";
import { api, useSandbox } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

/** Predefined roles of the sandbox (getOrgRoles lists them). */
const ALL_REPO_READ = 8132;
const SECURITY_MANAGER = 8138;

async function checked(news: Record<string, unknown>): Promise<OrgRoleAssignmentInputs> {
  const result = await assignments.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs as OrgRoleAssignmentInputs;
}

const held = () => emulator.store.state.orgRoleAssignments.map((a) => ({ ...a }));

describe("role assignment check", () => {
  it.each([
    [
      { org: "acme-eng", roleId: ALL_REPO_READ },
      "team",
      "exactly one of team (a team's slug) and username (a member's login)",
    ],
    [
      { org: "acme-eng", roleId: ALL_REPO_READ, team: "platform", username: "octocat" },
      "username",
      "exactly one of team",
    ],
    [{ org: "acme-eng", roleId: "8132", team: "platform" }, "roleId", "roleId"],
    [{ org: "acme-eng", roleId: -1, team: "platform" }, "roleId", "roleId must be a positive id"],
  ])("refuses %j naming %s, with no request", async (news, property, reason) => {
    const result = await assignments.check({}, news);
    expect(
      result.failures?.find((f) => f.property === property)?.reason,
      JSON.stringify(result.failures),
    ).toContain(reason);
    expect(emulator.controls.counts().total).toBe(0);
  });
});

describe("OrgRoleAssignment lifecycle", () => {
  it("assigns a role to a team and to a user, each with its id and the role's name", async () => {
    const team = await assignments.create(
      await checked({ org: "acme-eng", roleId: SECURITY_MANAGER, team: "platform" }),
    );
    expect(team).toEqual({
      id: `acme-eng/teams/platform/${SECURITY_MANAGER}`,
      outs: { org: "acme-eng", roleId: SECURITY_MANAGER, team: "platform", roleName: "security_manager" },
    });
    const user = await assignments.create(
      await checked({ org: "acme-eng", roleId: ALL_REPO_READ, username: "octocat" }),
    );
    expect(user.id).toBe(`acme-eng/users/octocat/${ALL_REPO_READ}`);
    expect(user.outs.roleName).toBe("all_repo_read");
    // The sandbox keeps the team by its id (platform's is 1).
    expect(held()).toEqual([
      { org: "acme-eng", roleId: SECURITY_MANAGER, teamId: 1 },
      { org: "acme-eng", roleId: ALL_REPO_READ, user: "octocat" },
    ]);
    for (const made of [team, user]) {
      const read = await assignments.read(made.id, made.outs);
      expect(read.props).toEqual(made.outs);
      expect(
        await assignments.diff(made.id, read.props as OrgRoleAssignmentOutputs, made.outs),
      ).toMatchObject({ changes: false });
    }
    // Read by id alone (static get, import).
    expect((await assignments.read(user.id)).props).toEqual(user.outs);
  });

  it("adopts an assignment that exists already, and replaces on any change", async () => {
    await api(emulator, "PUT", `/orgs/acme-eng/organization-roles/teams/platform/${ALL_REPO_READ}`);
    emulator.controls.clearLog();
    const made = await assignments.create(
      await checked({ org: "acme-eng", roleId: ALL_REPO_READ, team: "platform" }),
    );
    expect(held()).toHaveLength(1);
    // Adopted without a write.
    expect(emulator.controls.log.filter((r) => r.method !== "GET")).toEqual([]);
    const other = { ...made.outs, roleId: SECURITY_MANAGER };
    expect((await assignments.diff(made.id, made.outs, other)).replaces).toEqual(["roleId"]);
    expect(await assignments.diff(made.id, made.outs, { ...made.outs, team: "Platform" })).toMatchObject({
      changes: false,
    });
  });

  it("destroys that assignment only, and refresh drops one revoked outside Pulumi", async () => {
    const a = await assignments.create(
      await checked({ org: "acme-eng", roleId: ALL_REPO_READ, username: "octocat" }),
    );
    const b = await assignments.create(
      await checked({ org: "acme-eng", roleId: SECURITY_MANAGER, username: "octocat" }),
    );
    await assignments.delete(a.id, a.outs);
    expect(held()).toEqual([{ org: "acme-eng", roleId: SECURITY_MANAGER, user: "octocat" }]);
    await api(emulator, "DELETE", `/orgs/acme-eng/organization-roles/users/octocat/${SECURITY_MANAGER}`);
    expect(await assignments.read(b.id, b.outs)).toEqual({});
    await assignments.delete(b.id, b.outs);
  });

  it("fails clearly for an unknown team or role, and for a user outside the organisation", async () => {
    await expect(
      assignments.create(await checked({ org: "acme-eng", roleId: ALL_REPO_READ, team: "nope" })),
    ).rejects.toThrow(
      "OrgRoleAssignment acme-eng/teams/nope/8132: not found, or not allowed to this token. Likely causes, in order: (1) acme-eng has no role 8132 (getOrgRoles lists its roles); (2) acme-eng has no team nope",
    );
    await expect(
      assignments.create(await checked({ org: "acme-eng", roleId: ALL_REPO_READ, username: "mona" })),
    ).rejects.toThrow("mona is not a member of acme-eng");
    expect(held()).toEqual([]);
  });
});
