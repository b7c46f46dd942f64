/**
 * Lifecycle of Team, TeamMembership, TeamMembers and TeamRepository: provider methods called
 * directly against the sandbox server, as the engine would call them. A team keeps its id across a
 * rename (here and outside Pulumi); drift is named field by field and restored; the authoritative
 * list removes who was added by hand; an owner declared a member converges; an outsider is pending
 * until they accept; nesting is checked at preview.
 */
import { describe, expect, it, vi } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { collectionReads } from "../../../provider/internal/collection-reads";
import { sendNoticesTo } from "../../../provider/internal/context";
import {
  type TeamInputs,
  type TeamMembersInputs,
  type TeamRepositoryInputs,
  teamMembershipProvider,
  teamMembersProvider,
  teamProvider,
  teamRepositoryProvider,
} from "../../../provider/resources/teams";
import { api, control, requestCounts, useSandbox, useToken } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

type Provider<I> = {
  check(
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ): Promise<{ inputs?: I; failures?: Array<{ property: string; reason: string }> }>;
  inputsOf(written: I): I;
};

async function checked<I>(
  provider: Provider<I>,
  news: Record<string, unknown>,
  olds: Record<string, unknown> = {},
): Promise<I> {
  const result = await provider.check(olds, news);
  expect(result.failures ?? []).toEqual([]);
  return provider.inputsOf(result.inputs as I);
}

/** The inputs as check records them, as the program wrote them (what the engine passes on). */
async function written<I>(provider: Provider<I>, news: Record<string, unknown>): Promise<I> {
  const result = await provider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs as I;
}

/** Reads as a new provider process would: no list of an earlier step answers. */
function freshProcess(): void {
  collectionReads.clear();
  emulator.controls.clearLog();
}

/** The notices the provider sends while `run` runs. */
async function noticesOf(run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  sendNoticesTo((m) => seen.push(m));
  try {
    await run();
  } finally {
    sendNoticesTo(undefined);
  }
  return seen;
}

const platform = { org: "acme-eng", name: "Platform Ops", description: "Runs the platform" };

describe("Team", () => {
  it("applies the defaults, and refuses a nested secret team at check with no request", async () => {
    expect(await checked(teamProvider, { org: "acme-eng", name: "Web" })).toEqual({
      org: "acme-eng",
      name: "Web",
      privacy: "secret",
      notificationSetting: "notifications_enabled",
    });
    const nested = await teamProvider.check({}, { org: "acme-eng", name: "Web", parentTeamId: 1 });
    expect(nested.failures).toEqual([
      { property: "privacy", reason: expect.stringContaining("a nested team must be closed") },
    ]);
    const blank = await teamProvider.check({}, { org: "acme-eng", name: "!!" });
    expect(blank.failures?.[0]?.reason).toContain("at least one letter or digit");
    expect(emulator.controls.log).toEqual([]);
  });

  it("refuses a secret parent at preview, with one read of the parent", async () => {
    const secret = await teamProvider.create(
      await checked(teamProvider, { org: "acme-eng", name: "Secret" }),
    );
    emulator.controls.clearLog();
    collectionReads.clear();
    const result = await teamProvider.check(
      {},
      { org: "acme-eng", name: "Child", privacy: "closed", parentTeamId: secret.outs.teamId },
    );
    expect(result.failures).toEqual([
      {
        property: "parentTeamId",
        reason: expect.stringContaining("is secret: only closed teams can have child teams"),
      },
    ]);
    expect(requestCounts(emulator)).toEqual({ "GET /orgs/{org}/teams": 1 });
  });

  it("creates with one request, renames in place keeping its id, and follows a rename made outside Pulumi", async () => {
    const made = await teamProvider.create(await checked(teamProvider, platform));
    expect(requestCounts(emulator)).toEqual({
      "GET /orgs/{org}/teams/{team_slug}": 1,
      "GET /orgs/{org}/teams": 1,
      "POST /orgs/{org}/teams": 1,
    });
    expect(made.id).toBe(`acme-eng/${made.outs.teamId}`);
    expect(made.outs).toMatchObject({ ...platform, slug: "platform-ops", privacy: "secret" });

    const renamed = await teamProvider.update(
      made.id,
      made.outs,
      await checked(teamProvider, { ...platform, name: "Platform Core" }),
    );
    expect(renamed.outs).toMatchObject({
      teamId: made.outs.teamId,
      slug: "platform-core",
      name: "Platform Core",
    });
    const diff = await teamProvider.diff(
      made.id,
      made.outs,
      await checked(teamProvider, { ...platform, name: "Other" }),
    );
    expect(diff).toMatchObject({ changes: true, replaces: [] });

    // Renamed in the web UI: found by its id, and the name is drift.
    await api(emulator, "PATCH", "/orgs/acme-eng/teams/platform-core", {
      name: "Renamed By Hand",
      privacy: "closed",
    });
    freshProcess();
    const read = await teamProvider.read(made.id, renamed.outs);
    expect(read.id).toBe(made.id);
    expect(read.props).toMatchObject({ slug: "renamed-by-hand", teamId: made.outs.teamId });
    expect(read.inputs).toMatchObject({ name: "Renamed By Hand", privacy: "closed" });
    const restored = await teamProvider.update(
      made.id,
      read.props as never,
      await checked(teamProvider, { ...platform, name: "Platform Core" }),
    );
    expect(restored.outs).toMatchObject({
      slug: "platform-core",
      privacy: "secret",
      teamId: made.outs.teamId,
    });

    await teamProvider.delete(made.id, restored.outs);
    freshProcess();
    expect(await teamProvider.read(made.id, restored.outs)).toEqual({});
  });

  it("nests a closed team, unnests it, and adopts a team of the same name without a write", async () => {
    const child = await teamProvider.create(
      await checked(teamProvider, { org: "acme-eng", name: "Infra", privacy: "closed", parentTeamId: 1 }),
    );
    expect(child.outs.parentTeamId).toBe(1);
    const top = await teamProvider.update(
      child.id,
      child.outs,
      await checked(teamProvider, { org: "acme-eng", name: "Infra", privacy: "closed" }),
    );
    expect(top.outs.parentTeamId).toBeUndefined();
    freshProcess();
    const notices = await noticesOf(async () => {
      const adopted = await teamProvider.create(
        await checked(teamProvider, {
          org: "acme-eng",
          name: "Platform",
          description: "Platform engineering",
          privacy: "closed",
        }),
      );
      expect(adopted.id).toBe("acme-eng/1");
    });
    expect(notices).toEqual([expect.stringContaining("adopted the existing team of that name (id 1)")]);
    expect(Object.keys(requestCounts(emulator)).filter((r) => !r.startsWith("GET"))).toEqual([]);
  });
});

describe("TeamMembership", () => {
  const octocat = { org: "acme-eng", teamSlug: "platform", username: "octocat" };

  it("adopts an existing membership without a write; a role changed by hand is drift, restored", async () => {
    const made = await teamMembershipProvider.create(await checked(teamMembershipProvider, octocat));
    expect(made.outs).toEqual({ ...octocat, role: "member", state: "active" });
    // Preview looked for octocat among the owners (a member role asked of an owner is worth a warning).
    expect(requestCounts(emulator)).toEqual({
      "GET /orgs/{org}/members": 1,
      "GET /orgs/{org}/teams/{team_slug}/memberships/{username}": 1,
    });
    await control(emulator, "PUT", "/orgs/acme-eng/teams/platform/members/octocat", { role: "maintainer" });
    freshProcess();
    const read = await teamMembershipProvider.read(made.id, made.outs);
    expect(read.inputs).toEqual({ ...octocat, role: "maintainer" });
    const restored = await teamMembershipProvider.update(
      made.id,
      read.props as never,
      await checked(teamMembershipProvider, octocat),
    );
    expect(restored.outs.role).toBe("member");
    await control(emulator, "POST", "/orgs/acme-eng/teams/platform/members/octocat/leave");
    expect(await teamMembershipProvider.read(made.id, made.outs)).toEqual({});
  });

  it("an owner declared a member converges: a warning at preview, read as a member, no second write", async () => {
    const olivia = { org: "acme-eng", teamSlug: "platform", username: "olivia", role: "member" };
    const notices = await noticesOf(() => teamMembershipProvider.check({}, olivia));
    expect(notices).toEqual([
      expect.stringContaining(
        "olivia is an owner of acme-eng, and the platform reports organisation owners as maintainers",
      ),
    ]);
    const made = await teamMembershipProvider.create(await checked(teamMembershipProvider, olivia));
    expect(made.outs.role).toBe("member");
    freshProcess();
    const read = await teamMembershipProvider.read(made.id, made.outs);
    expect(read.inputs).toEqual(olivia);
    const diff = await teamMembershipProvider.diff(
      made.id,
      read.props as never,
      await checked(teamMembershipProvider, olivia),
    );
    expect(diff.changes).toBe(false);
    // Created again (a new stack): taken as it is, with no write.
    freshProcess();
    await teamMembershipProvider.create(await checked(teamMembershipProvider, olivia));
    expect(Object.keys(requestCounts(emulator)).filter((r) => !r.startsWith("GET"))).toEqual([]);
    // A plain preview of the unchanged membership warns no more, and reads nothing, whether the
    // program wrote the role or left it to its default.
    const { role: _left, ...leftOut } = olivia;
    emulator.controls.clearLog();
    expect(await noticesOf(() => teamMembershipProvider.check(olivia, olivia))).toEqual([]);
    expect(await noticesOf(() => teamMembershipProvider.check(leftOut, leftOut))).toEqual([]);
    expect(requestCounts(emulator)).toEqual({});
  });

  it("invites someone outside the organisation: pending, then active once they accept, with no diff", async () => {
    const mona = { org: "acme-eng", teamSlug: "platform", username: "mona", role: "maintainer" };
    const made = await teamMembershipProvider.create(await checked(teamMembershipProvider, mona));
    expect(made.outs).toEqual({ ...mona, state: "pending" });
    await control(emulator, "POST", "/orgs/acme-eng/invitations/mona/accept");
    const read = await teamMembershipProvider.read(made.id, made.outs);
    expect(read.props).toEqual({ ...mona, state: "active" });
    expect(
      (
        await teamMembershipProvider.diff(
          made.id,
          read.props as never,
          await checked(teamMembershipProvider, mona),
        )
      ).changes,
    ).toBe(false);
    await teamMembershipProvider.delete(made.id, read.props as never);
    expect(await teamMembershipProvider.read(made.id, made.outs)).toEqual({});
  });

  it("says what to check for a team that is not there", async () => {
    await expect(
      teamMembershipProvider.create(await checked(teamMembershipProvider, { ...octocat, teamSlug: "nope" })),
    ).rejects.toThrow(/acme-eng has no team with the slug nope/);
  });
});

describe("TeamMembers (authoritative)", () => {
  const declared = {
    org: "acme-eng",
    teamSlug: "platform",
    members: [{ username: "octocat", role: "maintainer" }, { username: "olivia" }],
  };

  it("converges the list, names a member added by hand and removes them; an owner declared a member converges", async () => {
    const made = await teamMembersProvider.create(
      await written<TeamMembersInputs>(teamMembersProvider, declared),
    );
    expect(made.outs.members).toEqual([
      { username: "octocat", role: "maintainer" },
      { username: "olivia", role: "member" },
    ]);
    freshProcess();
    const clean = await teamMembersProvider.read(made.id, made.outs);
    expect(clean.inputs).toEqual(declared);
    // Someone added in the web UI, and a role changed there: both named.
    await control(emulator, "PUT", "/orgs/acme-eng/teams/platform/members/admin", { role: "member" });
    await control(emulator, "PUT", "/orgs/acme-eng/teams/platform/members/octocat", { role: "member" });
    freshProcess();
    const drifted = await teamMembersProvider.read(made.id, made.outs);
    expect(drifted.props?.members).toEqual(
      expect.arrayContaining([
        { username: "admin", role: "maintainer" },
        { username: "octocat", role: "member" },
        { username: "olivia", role: "member" },
      ]),
    );
    const diff = await teamMembersProvider.diff(
      made.id,
      drifted.props as never,
      await checked<TeamMembersInputs>(teamMembersProvider, declared),
    );
    expect(diff.changes).toBe(true);
    await teamMembersProvider.update(
      made.id,
      drifted.props as never,
      await checked<TeamMembersInputs>(teamMembersProvider, declared),
    );
    const members = await api(emulator, "GET", "/orgs/acme-eng/teams/platform/members");
    expect((members.body as Array<{ login: string; role: string }>).map((m) => [m.login, m.role])).toEqual([
      ["octocat", "maintainer"],
      ["olivia", "maintainer"], // an owner, as the platform reports owners
    ]);
    freshProcess();
    expect((await teamMembersProvider.read(made.id, made.outs)).inputs).toEqual(declared);
  });

  it("removes the team's creator from a new team, counts an invited person, and destroy removes the listed members", async () => {
    const team = await teamProvider.create(
      await checked<TeamInputs>(teamProvider, { org: "acme-eng", name: "Web" }),
    );
    const spec = { org: "acme-eng", teamSlug: team.outs.slug, members: [{ username: "mona" }] };
    const made = await teamMembersProvider.create(
      await checked<TeamMembersInputs>(teamMembersProvider, spec),
    );
    freshProcess();
    const read = await teamMembersProvider.read(made.id, made.outs);
    // admin made the team (its maintainer), and is not declared: removed. mona is invited.
    expect(read.props?.members).toEqual([{ username: "mona", role: "member" }]);
    expect(requestCounts(emulator)["GET /orgs/{org}/teams/{team_slug}/memberships/{username}"]).toBe(1);
    await teamMembersProvider.delete(made.id, made.outs);
    expect(
      (await api(emulator, "GET", `/orgs/acme-eng/teams/${team.outs.slug}/memberships/mona`)).status,
    ).toBe(404);
  });

  it("says what to check for a person who is not there", async () => {
    const spec = { org: "acme-eng", teamSlug: "platform", members: [{ username: "nobody" }] };
    await expect(
      teamMembersProvider.create(await written<TeamMembersInputs>(teamMembersProvider, spec)),
    ).rejects.toThrow(/there is no user nobody/);
  });

  it("refuses a person listed twice, and warns at preview about an owner declared a member", async () => {
    const twice = await teamMembersProvider.check(
      {},
      { ...declared, members: [{ username: "Mona" }, { username: "mona" }] },
    );
    expect(twice.failures).toEqual([{ property: "members", reason: "members lists mona twice" }]);
    const notices = await noticesOf(() => teamMembersProvider.check({}, declared));
    expect(notices).toEqual([expect.stringContaining("olivia is an owner of acme-eng")]);
    // Unchanged (olivia's role left to its default as written): no warning and no request.
    emulator.controls.clearLog();
    expect(await noticesOf(() => teamMembersProvider.check(declared, declared))).toEqual([]);
    expect(requestCounts(emulator)).toEqual({});
  });
});

describe("TeamRepository", () => {
  const access = { org: "acme-eng", teamSlug: "platform", repository: "api", permission: "push" };

  it("gives the role, reads N repositories of a team with one list, names a role changed outside Pulumi", async () => {
    const made = await teamRepositoryProvider.create(
      await checked<TeamRepositoryInputs>(teamRepositoryProvider, access),
    );
    const web = await teamRepositoryProvider.create(
      await checked<TeamRepositoryInputs>(teamRepositoryProvider, { ...access, repository: "web" }),
    );
    expect(made.id).toBe("acme-eng/platform/api");
    freshProcess();
    const [a, b] = await Promise.all([
      teamRepositoryProvider.read(made.id, made.outs),
      teamRepositoryProvider.read(web.id, web.outs),
    ]);
    expect(a.inputs).toEqual(access);
    expect(b.inputs).toEqual({ ...access, repository: "web" });
    expect(requestCounts(emulator)).toEqual({ "GET /orgs/{org}/teams/{team_slug}/repos": 1 });
    await control(emulator, "PUT", "/orgs/acme-eng/teams/platform/repos/acme-eng/api", {
      permission: "maintain",
    });
    freshProcess();
    const drifted = await teamRepositoryProvider.read(made.id, made.outs);
    expect(drifted.inputs).toEqual({ ...access, permission: "maintain" });
    await teamRepositoryProvider.update(
      made.id,
      drifted.props as never,
      await checked<TeamRepositoryInputs>(teamRepositoryProvider, access),
    );
    freshProcess();
    expect((await teamRepositoryProvider.read(made.id, made.outs)).inputs).toEqual(access);
    await teamRepositoryProvider.delete(made.id, made.outs);
    freshProcess();
    expect(await teamRepositoryProvider.read(made.id, made.outs)).toEqual({});
  });

  it("defaults to pull, and the team's members hold the role on the repository", async () => {
    expect(
      (
        await checked<TeamRepositoryInputs>(teamRepositoryProvider, {
          org: "acme-eng",
          teamSlug: "platform",
          repository: "api",
        })
      ).permission,
    ).toBe("pull");
    const rule = { integration_id: 102 };
    const rules = "/repos/acme-eng/api/environments/production/deployment_protection_rules";
    expect((await api(emulator, "POST", rules, rule, "svcp_member")).status).toBe(404);
    await teamRepositoryProvider.create(
      await checked<TeamRepositoryInputs>(teamRepositoryProvider, { ...access, permission: "admin" }),
    );
    expect((await api(emulator, "POST", rules, rule, "svcp_member")).status).toBe(201);
  });

  it("says what to check for a team that is not there", async () => {
    useToken(emulator, "svcp_siteadmin");
    const spy = vi.fn();
    await teamRepositoryProvider
      .create(await checked<TeamRepositoryInputs>(teamRepositoryProvider, { ...access, teamSlug: "nope" }))
      .catch((e: Error) => spy(e.message));
    expect(spy).toHaveBeenCalledWith(expect.stringMatching(/acme-eng has no team with the slug nope/));
  });
});
