/**
 * Lifecycle of RepositoryCollaborator and RepositoryCollaborators against the sandbox server: a
 * member given a role at once, an outsider invited (`invitationId` while pending) and a
 * collaborator with no diff once they accept; a role changed outside Pulumi named and restored;
 * the authoritative list removes a person or team added by hand; adoption without a write.
 */
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { collectionReads } from "../../../provider/internal/collection-reads";
import {
  type RepositoryCollaboratorInputs,
  type RepositoryCollaboratorsInputs,
  repositoryCollaboratorProvider as single,
  repositoryCollaboratorsProvider as whole,
} from "../../../provider/resources/collaborators";
import { api, control, requestCounts, useSandbox } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

async function checkedOne(news: Record<string, unknown>): Promise<RepositoryCollaboratorInputs> {
  const result = await single.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return single.inputsOf(result.inputs as RepositoryCollaboratorInputs);
}

/** As check records them: as the program wrote them. */
async function writtenAll(news: Record<string, unknown>): Promise<RepositoryCollaboratorsInputs> {
  const result = await whole.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs as RepositoryCollaboratorsInputs;
}

function freshProcess(): void {
  collectionReads.clear();
  emulator.controls.clearLog();
}

const writes = () => Object.keys(requestCounts(emulator)).filter((r) => !r.startsWith("GET"));

describe("RepositoryCollaborator", () => {
  it("applies the default role and refuses an unknown one at check", async () => {
    const inputs = await checkedOne({ owner: "acme-eng", repository: "api", username: "octocat" });
    expect(inputs.permission).toBe("push");
    const bad = await single.check(
      {},
      { owner: "acme-eng", repository: "api", username: "octocat", permission: "write" },
    );
    expect(bad.failures?.[0]).toMatchObject({
      property: "permission",
      reason: expect.stringContaining('"pull", "triage", "push"'),
    });
  });

  it("gives a member the role at once; a role changed outside Pulumi is drift, restored; destroy removes it", async () => {
    const octocat = { owner: "acme-eng", repository: "api", username: "octocat", permission: "triage" };
    const made = await single.create(await checkedOne(octocat));
    expect(made.id).toBe("acme-eng/api/octocat");
    expect(made.outs).toEqual(octocat);
    await control(emulator, "PUT", "/repos/acme-eng/api/collaborators/octocat", { permission: "maintain" });
    freshProcess();
    const drifted = await single.read(made.id, made.outs);
    expect(drifted.inputs).toEqual({ ...octocat, permission: "maintain" });
    expect(requestCounts(emulator)).toEqual({ "GET /repos/{owner}/{repo}/collaborators": 1 });
    const restored = await single.update(made.id, drifted.props as never, await checkedOne(octocat));
    expect(restored.outs).toEqual(octocat);
    freshProcess();
    expect((await single.read(made.id, made.outs)).inputs).toEqual(octocat);
    await single.delete(made.id, made.outs);
    freshProcess();
    expect(await single.read(made.id, made.outs)).toEqual({});
  });

  it("invites an outsider: invitationId while pending, a role change patches the invitation, accepted it is a collaborator with no diff", async () => {
    const mona = { owner: "acme-ops", repository: "infra", username: "mona", permission: "push" };
    const made = await single.create(await checkedOne(mona));
    expect(made.outs).toEqual({ ...mona, invitationId: expect.any(Number) });
    const invitationId = made.outs.invitationId;
    const changed = await single.update(
      made.id,
      made.outs,
      await checkedOne({ ...mona, permission: "maintain" }),
    );
    expect(changed.outs).toEqual({ ...mona, permission: "maintain", invitationId });
    const open = await api(emulator, "GET", "/repos/acme-ops/infra/invitations");
    expect(
      (open.body as Array<{ id: number; permissions: string }>).map((i) => [i.id, i.permissions]),
    ).toEqual([[invitationId, "maintain"]]);
    await control(emulator, "POST", `/repository-invitations/${invitationId}/accept`);
    freshProcess();
    const accepted = await single.read(made.id, changed.outs);
    expect(accepted.props).toEqual({ ...mona, permission: "maintain" });
    const diff = await single.diff(
      made.id,
      accepted.props as never,
      await checkedOne({ ...mona, permission: "maintain" }),
    );
    expect(diff.changes).toBe(false);
  });

  it("a declined invitation drops the resource at refresh; destroy cancels an open one", async () => {
    const mona = { owner: "acme-ops", repository: "infra", username: "mona" };
    const made = await single.create(await checkedOne(mona));
    await control(emulator, "POST", `/repository-invitations/${made.outs.invitationId}/decline`);
    freshProcess();
    expect(await single.read(made.id, made.outs)).toEqual({});
    const again = await single.create(await checkedOne(mona));
    await single.delete(again.id, again.outs);
    expect((await api(emulator, "GET", "/repos/acme-ops/infra/invitations")).body).toEqual([]);
  });

  it("adopts a collaborator that already has the role without a write, and says what to check for a repository not there", async () => {
    await api(emulator, "PUT", "/repos/acme-eng/web/collaborators/octocat", { permission: "admin" });
    freshProcess();
    await single.create(
      await checkedOne({ owner: "acme-eng", repository: "web", username: "octocat", permission: "admin" }),
    );
    expect(writes()).toEqual([]);
    await expect(
      single.create(await checkedOne({ owner: "acme-eng", repository: "nope", username: "octocat" })),
    ).rejects.toThrow(/the token's user is not an admin of the repository/);
  });
});

describe("RepositoryCollaborators (authoritative)", () => {
  const declared = {
    owner: "acme-eng",
    repository: "api",
    users: [{ username: "octocat", permission: "triage" }, { username: "mona" }],
    teams: [{ teamSlug: "platform", permission: "maintain" }],
  };

  it("converges people and teams, names who was added by hand and removes them, restores a role changed by hand", async () => {
    const made = await whole.create(await writtenAll(declared));
    expect(made.id).toBe("acme-eng/api");
    freshProcess();
    const clean = await whole.read(made.id, made.outs);
    expect(clean.inputs).toEqual(declared);
    // mona is outside acme-eng: invited. The invitation is her access.
    const invitations = await api(emulator, "GET", "/repos/acme-eng/api/invitations");
    expect((invitations.body as Array<{ invitee: { login: string } }>).map((i) => i.invitee.login)).toEqual([
      "mona",
    ]);

    // By hand: olivia made a collaborator, a new team given access, octocat's role changed.
    await api(emulator, "PUT", "/repos/acme-eng/api/collaborators/olivia", { permission: "pull" });
    const team = await api(emulator, "POST", "/orgs/acme-eng/teams", { name: "Interlopers" });
    expect(team.status).toBe(201);
    await api(emulator, "PUT", "/orgs/acme-eng/teams/interlopers/repos/acme-eng/api", {
      permission: "admin",
    });
    await control(emulator, "PUT", "/repos/acme-eng/api/collaborators/octocat", { permission: "admin" });
    freshProcess();
    const drifted = await whole.read(made.id, made.outs);
    expect(drifted.props).toMatchObject({
      users: expect.arrayContaining([
        { username: "olivia", permission: "pull" },
        { username: "octocat", permission: "admin" },
        { username: "mona", permission: "push" },
      ]),
      teams: expect.arrayContaining([
        { teamSlug: "interlopers", permission: "admin" },
        { teamSlug: "platform", permission: "maintain" },
      ]),
    });
    expect(whole.changedFields(drifted.props as never, await writtenAll(declared))).toEqual([
      "users",
      "teams",
    ]);
    await whole.update(made.id, drifted.props as never, await writtenAll(declared));
    freshProcess();
    expect((await whole.read(made.id, made.outs)).inputs).toEqual(declared);
    // The team lost its access; octocat, a member of acme-eng, keeps his member's push.
    expect((await api(emulator, "GET", "/orgs/acme-eng/teams/interlopers/repos")).body).toEqual([]);
  });

  it("adopts what is there without a write, and destroy removes only what it lists", async () => {
    await api(emulator, "PUT", "/repos/acme-eng/web/collaborators/octocat", { permission: "push" });
    await api(emulator, "PUT", "/orgs/acme-eng/teams/platform/repos/acme-eng/web", { permission: "pull" });
    freshProcess();
    const adopted = {
      owner: "acme-eng",
      repository: "web",
      users: [{ username: "octocat" }],
      teams: [{ teamSlug: "platform" }],
    };
    const made = await whole.create(await writtenAll(adopted));
    expect(writes()).toEqual([]);
    await api(emulator, "PUT", "/repos/acme-eng/web/collaborators/olivia", { permission: "pull" });
    await whole.delete(made.id, made.outs);
    const left = await api(emulator, "GET", "/repos/acme-eng/web/collaborators?affiliation=direct");
    expect((left.body as Array<{ login: string }>).map((u) => u.login)).toEqual(["olivia"]);
    expect((await api(emulator, "GET", "/repos/acme-eng/web/teams")).body).toEqual([]);
  });

  it("says what to check for a team that is not there", async () => {
    const spec = { owner: "acme-eng", repository: "api", users: [], teams: [{ teamSlug: "nope" }] };
    await expect(whole.create(await writtenAll(spec))).rejects.toThrow(
      /acme-eng has no team with the slug nope/,
    );
  });

  it("requires both lists, and refuses a person or team listed twice", async () => {
    const missing = await whole.check({}, { owner: "acme-eng", repository: "api", users: [] });
    expect(missing.failures?.[0]?.property).toBe("teams");
    const twice = await whole.check(
      {},
      {
        ...declared,
        users: [{ username: "Mona" }, { username: "mona" }],
        teams: [{ teamSlug: "a" }, { teamSlug: "A" }],
      },
    );
    expect(twice.failures).toEqual([
      { property: "users", reason: "users lists mona twice" },
      { property: "teams", reason: "teams lists a twice" },
    ]);
  });
});
