/**
 * A repository's collaborators and invitations (the platform's description, `repos/*-collaborator*`,
 * `*-invitation*`, `list-teams`): members added at once, outsiders invited and collaborators once
 * they accept (a control), roles read in both of the API's shapes, who may read and change them,
 * and what a collaborator's role lets them do on the repository.
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

/** The default fixture plus a token for mona, outside every organisation. */
function fixture(): Fixture {
  const f = defaultFixture();
  f.tokens.svcp_mona = { kind: "classic", user: "mona", scopes: ["repo", "read:org"], permissions: {} };
  return f;
}

const sandbox = useSandbox({ fixture: fixture() });
const API = "/repos/acme-eng/api";
const INFRA = "/repos/acme-ops/infra";

const rows = (body: Json) => (body as Json[]).map((u) => [u.login, u.role_name]);

describe("collaborators", () => {
  it("adds a member of the organisation at once (204) and lists direct collaborators with their own role", async () => {
    const added = await call(sandbox.emulator, "PUT", `${API}/collaborators/octocat`, {
      body: { permission: "triage" },
    });
    expect(added.status, added.text).toBe(204);
    const direct = await call(sandbox.emulator, "GET", `${API}/collaborators?affiliation=direct`);
    expect(direct.body.map((u: Json) => [u.login, u.permissions])).toEqual([
      ["octocat", { pull: true, triage: true, push: false, maintain: false, admin: false }],
    ]);
    // role_name is the strongest role from every source: a member of acme-eng pushes.
    expect(direct.body[0].role_name).toBe("write");
    const all = await call(sandbox.emulator, "GET", `${API}/collaborators`);
    expect(rows(all.body)).toEqual([
      ["admin", "admin"],
      ["olivia", "admin"],
      ["octocat", "write"],
    ]);
    const outside = await call(sandbox.emulator, "GET", `${API}/collaborators?affiliation=outside`);
    expect(outside.body).toEqual([]);
    expect((await call(sandbox.emulator, "GET", `${API}/collaborators/octocat`)).status).toBe(204);
    expect((await call(sandbox.emulator, "GET", `${API}/collaborators/mona`)).status).toBe(404);
  });

  it("invites an outsider (201 with the invitation); the invitation accepted makes a collaborator", async () => {
    const invited = await call(sandbox.emulator, "PUT", `${INFRA}/collaborators/mona`, {
      body: { permission: "push" },
    });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body).toMatchObject({
      invitee: { login: "mona" },
      inviter: { login: "admin" },
      permissions: "write",
      repository: { full_name: "acme-ops/infra" },
    });
    const id = invited.body.id;
    // Pending: not a collaborator, and no access yet.
    expect((await call(sandbox.emulator, "GET", `${INFRA}/collaborators/mona`)).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", INFRA, { token: "svcp_mona" })).status).toBe(404);
    const open = await call(sandbox.emulator, "GET", `${INFRA}/invitations`);
    expect(open.body.map((i: Json) => [i.id, i.permissions])).toEqual([[id, "write"]]);
    const changed = await call(sandbox.emulator, "PATCH", `${INFRA}/invitations/${id}`, {
      body: { permissions: "maintain" },
    });
    expect(changed.body.permissions).toBe("maintain");
    expect((await control(sandbox.emulator, "POST", `/repository-invitations/${id}/accept`)).body).toEqual({
      repository: "acme-ops/infra",
      username: "mona",
      permission: "maintain",
    });
    expect((await call(sandbox.emulator, "GET", `${INFRA}/invitations`)).body).toEqual([]);
    const outside = await call(sandbox.emulator, "GET", `${INFRA}/collaborators?affiliation=outside`);
    expect(rows(outside.body)).toEqual([["mona", "maintain"]]);
    // Her role is enforced: she reads the private repository and may push to it.
    expect((await call(sandbox.emulator, "GET", INFRA, { token: "svcp_mona" })).status).toBe(200);
    const permission = await call(sandbox.emulator, "GET", `${INFRA}/collaborators/mona/permission`);
    expect(permission.body).toMatchObject({
      permission: "write",
      role_name: "maintain",
      user: { login: "mona" },
    });
    // Changing a collaborator's role answers 204.
    const demoted = await call(sandbox.emulator, "PUT", `${INFRA}/collaborators/mona`, {
      body: { permission: "pull" },
    });
    expect(demoted.status).toBe(204);
    expect((await call(sandbox.emulator, "DELETE", `${INFRA}/collaborators/mona`)).status).toBe(204);
    expect((await call(sandbox.emulator, "GET", INFRA, { token: "svcp_mona" })).status).toBe(404);
  });

  it("an invitation declined or deleted is gone; a person removes themselves", async () => {
    const first = await call(sandbox.emulator, "PUT", `${INFRA}/collaborators/mona`, { body: {} });
    expect(first.body.permissions).toBe("write"); // push, the default
    expect(
      (await control(sandbox.emulator, "POST", `/repository-invitations/${first.body.id}/decline`)).status,
    ).toBe(204);
    const second = await call(sandbox.emulator, "PUT", `${INFRA}/collaborators/mona`, { body: {} });
    expect(second.body.id).not.toBe(first.body.id);
    expect((await call(sandbox.emulator, "DELETE", `${INFRA}/invitations/${second.body.id}`)).status).toBe(
      204,
    );
    expect((await call(sandbox.emulator, "DELETE", `${INFRA}/invitations/${second.body.id}`)).status).toBe(
      404,
    );
    const third = await call(sandbox.emulator, "PUT", `${INFRA}/collaborators/mona`, { body: {} });
    await control(sandbox.emulator, "POST", `/repository-invitations/${third.body.id}/accept`);
    expect(
      (await call(sandbox.emulator, "DELETE", `${INFRA}/collaborators/mona`, { token: "svcp_mona" })).status,
    ).toBe(204);
    expect((await call(sandbox.emulator, "GET", `${INFRA}/collaborators?affiliation=direct`)).body).toEqual(
      [],
    );
  });

  it("refuses an unknown role, an unknown user, and callers who may not", async () => {
    expectValidationFailed(
      await call(sandbox.emulator, "PUT", `${API}/collaborators/octocat`, { body: { permission: "write" } }),
      "permission",
      "invalid",
      "Collaborator",
    );
    expect((await call(sandbox.emulator, "PUT", `${API}/collaborators/nobody`, { body: {} })).status).toBe(
      404,
    );
    // octocat pushes to acme-eng/api: he reads its collaborators, but may not change them.
    expect(
      (await call(sandbox.emulator, "GET", `${API}/collaborators`, { token: TOKENS.member })).status,
    ).toBe(200);
    const put = await call(sandbox.emulator, "PUT", `${API}/collaborators/mona`, {
      token: TOKENS.member,
      body: {},
    });
    expect(put.status).toBe(404);
    // acme-eng/web is public: an outsider sees it but reads no collaborators.
    const outsider = await call(sandbox.emulator, "GET", "/repos/acme-eng/web/collaborators", {
      token: "svcp_mona",
    });
    expect(outsider.status).toBe(403);
    expectErrorBody(outsider.body, "Must have push access to view repository collaborators.");
    expectValidationFailed(
      await call(sandbox.emulator, "GET", `${API}/collaborators?affiliation=friends`),
      "affiliation",
      "invalid",
      "Collaborator",
    );
    const invited = await call(sandbox.emulator, "PUT", `${INFRA}/collaborators/mona`, { body: {} });
    expectValidationFailed(
      await call(sandbox.emulator, "PATCH", `${INFRA}/invitations/${invited.body.id}`, {
        body: { permissions: "push" },
      }),
      "permissions",
      "invalid",
      "RepositoryInvitation",
    );
  });

  it("a collaborator's role is enforced (push lets them sync the fork, triage does not); the control changes a role", async () => {
    const sync = () =>
      call(sandbox.emulator, "POST", `${INFRA}/merge-upstream`, {
        token: TOKENS.member,
        body: { branch: "main" },
      });
    // octocat is outside acme-ops: its private repository is hidden from him.
    expect((await sync()).status).toBe(404);
    const triage = await control(sandbox.emulator, "PUT", `${INFRA}/collaborators/octocat`, {
      permission: "triage",
    });
    expect(triage.status, triage.text).toBe(200);
    expect(triage.body.invitationId).toBeTypeOf("number");
    await control(sandbox.emulator, "POST", `/repository-invitations/${triage.body.invitationId}/accept`);
    const refused = await sync();
    expect(refused.status).toBe(403);
    expectErrorBody(refused.body, "You must have push access to this repository");
    // A collaborator already: the role changes at once, with no invitation.
    const push = await control(sandbox.emulator, "PUT", `${INFRA}/collaborators/octocat`, {
      permission: "push",
    });
    expect(push.body.invitationId).toBeUndefined();
    const synced = await sync();
    expect(synced.status, synced.text).toBe(200);
    expect(synced.body.merge_type).toBe("fast-forward");
    const direct = await call(sandbox.emulator, "GET", `${INFRA}/collaborators?affiliation=direct`);
    expect(direct.body.map((u: Json) => [u.login, u.permissions.push, u.permissions.maintain])).toEqual([
      ["octocat", true, false],
    ]);
  });

  it("lists the teams with access to the repository, with their role", async () => {
    await call(sandbox.emulator, "PUT", "/orgs/acme-eng/teams/platform/repos/acme-eng/api", {
      body: { permission: "push" },
    });
    const teams = await call(sandbox.emulator, "GET", `${API}/teams`);
    expect(
      teams.body.map((t: Json) => [t.slug, t.permission, t.permissions.push, t.permissions.maintain]),
    ).toEqual([["platform", "push", true, false]]);
  });
});
