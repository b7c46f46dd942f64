/**
 * Lifecycle of OrgMembership: provider methods called directly against the sandbox server, as the
 * engine would call them. Invitations, acceptance outside Pulumi, drift, the person who left, each
 * onDestroy mode and the last-admin guard.
 */
import { describe, expect, it, vi } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { UNKNOWN } from "../../../provider/internal/check";
import {
  type OrgMembershipInputs,
  type OrgMembershipOutputs,
  orgMembershipProvider as provider,
} from "../../../provider/resources/memberships";
import { timedOnFakeClock } from "../../fake-clock";
import { api, control, requestCounts, useSandbox, useToken } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

const PUT = "PUT /orgs/{org}/memberships/{username}";
const GET = "GET /orgs/{org}/memberships/{username}";
const DELETE = "DELETE /orgs/{org}/memberships/{username}";
const ADMINS = "GET /orgs/{org}/members";

async function checked(news: Record<string, unknown>): Promise<OrgMembershipInputs> {
  const result = await provider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return provider.inputsOf(result.inputs as OrgMembershipInputs);
}

/** What the server holds for a person: active role, pending invitation role, or nothing. */
function serverView(org: string, login: string): { member?: string; invited?: string } {
  const state = emulator.store.state;
  const record = state.fixture.orgs.find((o) => o.login === org);
  const member = record?.members[login];
  const invitation = state.invitations.find((i) => i.org === org && i.login === login);
  return {
    ...(member ? { member: member.role } : {}),
    ...(invitation ? { invited: invitation.role } : {}),
  };
}

/** Creates a membership and clears the request log, so each test counts only its own requests. */
/** Requests by route, without the one read of the token's own user a client makes once. */
function apiCounts(): Record<string, number> {
  const { ["GET /user"]: _user, ...counts } = requestCounts(emulator);
  return counts;
}

/** Created from the inputs as the program wrote them (what the engine passes), defaults left out. */
async function createdAsWritten(news: Record<string, unknown>) {
  const result = await provider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  const made = await provider.create(result.inputs as OrgMembershipInputs);
  emulator.controls.clearLog();
  return made;
}

async function created(news: Record<string, unknown>) {
  const inputs = await checked(news);
  const result = await provider.create(inputs);
  emulator.controls.clearLog();
  return { inputs, ...result };
}

const mona = { org: "acme-eng", username: "mona" };

describe("OrgMembership check", () => {
  it("applies the defaults", async () => {
    expect(await checked(mona)).toEqual({ ...mona, role: "member", onDestroy: "remove" });
  });

  it.each([
    [{ ...mona, role: "owner" }, "role", `"member", "admin"`],
    [{ ...mona, onDestroy: "keep" }, "onDestroy", `"remove", "downgrade", "retain"`],
    [{ ...mona, org: "" }, "org", "must not be empty"],
    [{ ...mona, username: "a/b" }, "username", "username may hold only"],
    [{ org: "acme-eng" }, "username", "username is required"],
    [{ ...mona, role: 3 }, "role", "role"],
    [{ ...mona, state: "active" }, "", "unknown argument state"],
  ])("refuses %j naming %s", async (news, property, reason) => {
    const result = await provider.check({}, news);
    const failure = result.failures?.find((f) => f.property === property);
    expect(failure?.reason).toContain(reason);
  });

  it("lets values unknown during preview through untouched", async () => {
    const result = await provider.check({}, { ...mona, username: UNKNOWN });
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs).toEqual({ ...mona, username: UNKNOWN });
    expect(provider.inputsOf(result.inputs as OrgMembershipInputs)).toEqual({
      ...mona,
      username: UNKNOWN,
      role: "member",
      onDestroy: "remove",
    });
  });
});

describe("OrgMembership diff", () => {
  const olds: OrgMembershipOutputs = { ...mona, role: "member", onDestroy: "remove", state: "pending" };
  const diff = (news: Partial<OrgMembershipOutputs>) =>
    provider.diff("acme-eng/mona", olds, { ...olds, ...news } as OrgMembershipInputs);

  it("updates the role in place", async () => {
    expect(await diff({ role: "admin" })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("updates onDestroy in place", async () => {
    expect(await diff({ onDestroy: "retain" })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("replaces on an org or username change", async () => {
    expect((await diff({ org: "acme-ops" })).replaces).toEqual(["org"]);
    const user = await diff({ username: "hubot" });
    expect(user.changes).toBe(true);
    expect(user.replaces).toEqual(["username"]);
  });

  it("never compares state: an accepted invitation is not drift", async () => {
    const news = { ...mona, role: "member", onDestroy: "remove" } as OrgMembershipInputs;
    const result = await provider.diff("acme-eng/mona", { ...olds, state: "active" }, news);
    expect(result.changes).toBe(false);
  });

  it("treats names case-insensitively, so a spelling change never removes the person", async () => {
    const result = await diff({ org: "ACME-Eng", username: "Mona" });
    expect(result).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });
});

describe("OrgMembership lifecycle", () => {
  it("invites a non-member: pending, id org/username, one write", async () => {
    const inputs = await checked(mona);
    emulator.controls.clearLog();
    const result = await provider.create(inputs);
    expect(result.id).toBe("acme-eng/mona");
    expect(result.outs).toEqual({ ...mona, role: "member", onDestroy: "remove", state: "pending" });
    expect(serverView("acme-eng", "mona")).toEqual({ invited: "member" });
    // The admin list is the last-admin guard (role member could demote an admin).
    expect(requestCounts(emulator)).toEqual({ [GET]: 1, [PUT]: 1, [ADMINS]: 1 });
  });

  it("creates an admin membership with the write alone (after the read)", async () => {
    const inputs = await checked({ ...mona, role: "admin" });
    emulator.controls.clearLog();
    const result = await provider.create(inputs);
    expect(result.outs.state).toBe("pending");
    expect(requestCounts(emulator)).toEqual({ [GET]: 1, [PUT]: 1 });
  });

  it("adopts an existing member by name and gives them the role", async () => {
    const { outs } = await created({ org: "acme-eng", username: "octocat", role: "admin" });
    expect(outs).toMatchObject({ role: "admin", state: "active" });
    expect(serverView("acme-eng", "octocat")).toEqual({ member: "admin" });
    expect(emulator.store.state.invitations).toEqual([]);
  });

  it("reads an invitation accepted outside Pulumi as active, with no diff", async () => {
    const { id, outs, inputs } = await created(mona);
    await control(emulator, "POST", "/orgs/acme-eng/invitations/mona/accept");
    const read = await provider.read(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual({ ...mona, role: "member", onDestroy: "remove", state: "active" });
    expect(read.inputs).toEqual({ ...mona, role: "member", onDestroy: "remove" });
    expect(await provider.diff(id, read.props as OrgMembershipOutputs, inputs)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(requestCounts(emulator)).toEqual({ [GET]: 1 });
  });

  it("shows a role changed outside Pulumi as drift, and update fixes it", async () => {
    const { id, outs, inputs } = await created(mona);
    await control(emulator, "POST", "/orgs/acme-eng/invitations/mona/accept");
    await api(emulator, "PUT", "/orgs/acme-eng/memberships/mona", { role: "admin" });
    const read = await provider.read(id, outs);
    expect(read.props?.role).toBe("admin");
    const diff = await provider.diff(id, read.props as OrgMembershipOutputs, inputs);
    expect(diff).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    const updated = await provider.update(id, read.props as OrgMembershipOutputs, inputs);
    expect(updated.outs).toEqual({ ...mona, role: "member", onDestroy: "remove", state: "active" });
    expect(serverView("acme-eng", "mona")).toEqual({ member: "member" });
  });

  it("changes the role of a pending invitation on update", async () => {
    const { id, outs } = await created(mona);
    const news = await checked({ ...mona, role: "admin" });
    const updated = await provider.update(id, outs, news);
    expect(updated.outs).toMatchObject({ role: "admin", state: "pending" });
    expect(serverView("acme-eng", "mona")).toEqual({ invited: "admin" });
    expect(emulator.store.state.invitations).toHaveLength(1);
  });

  it("updates onDestroy without any request", async () => {
    const { id, outs } = await created(mona);
    const news = await checked({ ...mona, onDestroy: "retain" });
    const updated = await provider.update(id, outs, news);
    expect(updated.outs).toEqual({ ...mona, role: "member", onDestroy: "retain", state: "pending" });
    expect(emulator.controls.counts().total).toBe(0);
  });

  it.each([
    ["declined", "/orgs/acme-eng/invitations/mona/decline"],
    ["left", "/orgs/acme-eng/members/mona/leave"],
  ])("reads a person who %s as gone; the next create invites them again", async (what, route) => {
    const { id, outs, inputs } = await created(mona);
    if (what === "left") await control(emulator, "POST", "/orgs/acme-eng/invitations/mona/accept");
    expect((await control(emulator, "POST", route)) ?? "done").toBe("done");
    expect(await provider.read(id, outs)).toEqual({});
    const again = await provider.create(inputs);
    expect(again.outs.state).toBe("pending");
    expect(serverView("acme-eng", "mona")).toEqual({ invited: "member" });
  });

  it("reads an invitation cancelled outside Pulumi as gone", async () => {
    const { id, outs } = await created(mona);
    await api(emulator, "DELETE", "/orgs/acme-eng/memberships/mona");
    expect(await provider.read(id, outs)).toEqual({});
  });

  it("reads with only an id (pulumi import, the static get) as a member who was there before: onDestroy retain", async () => {
    const read = await provider.read("acme-eng/octocat");
    const before = { org: "acme-eng", username: "octocat", role: "member", onDestroy: "retain" };
    expect(read.props).toEqual({ ...before, state: "active" });
    // What `pulumi import` writes into the program's code: a later destroy keeps the person.
    expect(read.inputs).toEqual(before);
  });

  it("fails a read it is not allowed to make instead of dropping the membership", async () => {
    const { id, outs } = await created(mona);
    useToken(emulator, "svcp_noscopes");
    await expect(provider.read(id, outs)).rejects.toThrow(/read:org/);
  });

  it("says clearly when the user does not exist", async () => {
    const inputs = await checked({ org: "acme-eng", username: "nobody", role: "admin" });
    await expect(provider.create(inputs)).rejects.toThrow(
      /OrgMembership acme-eng\/nobody: not found, or not allowed to this token\. Likely causes, in order: \(1\) there is no user nobody, or no organisation acme-eng; \(2\)/,
    );
  });

  it("says clearly when the organisation does not exist, and deletes from it as done", async () => {
    const inputs = await checked({ org: "nope", username: "mona" });
    await expect(provider.create(inputs)).rejects.toThrow(
      /OrgMembership of nope: not found, or not allowed to this token\. Likely causes, in order: \(1\) there is no organisation nope/,
    );
    const outs: OrgMembershipOutputs = { ...inputs, state: "active" };
    await expect(provider.delete("nope/mona", outs)).resolves.toBeUndefined();
    await expect(provider.delete("nope/mona", { ...outs, onDestroy: "downgrade" })).resolves.toBeUndefined();
  });

  it("waits out the secondary rate limit on setting memberships", async () => {
    await control(emulator, "PUT", "/rate-limit", {
      method: "PUT",
      path: "/orgs/*/memberships/*",
      retryAfter: 1,
      count: 1,
    });
    const inputs = await checked({ ...mona, role: "admin" });
    emulator.controls.clearLog();
    const { result, waited } = await timedOnFakeClock(() => provider.create(inputs));
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(result.outs.state).toBe("pending");
    expect(emulator.controls.log.map((r) => r.status)).toEqual([404, 403, 200]);
    expect(emulator.store.state.invitations).toHaveLength(1);
  });
});

describe("OrgMembership onDestroy", () => {
  it("remove cancels a pending invitation", async () => {
    const { id, outs } = await created(mona);
    await provider.delete(id, outs);
    expect(serverView("acme-eng", "mona")).toEqual({});
    expect(apiCounts()).toEqual({ [GET]: 1, [DELETE]: 1 });
  });

  it("remove removes an active member from the organisation", async () => {
    const { id, outs } = await created({ org: "acme-eng", username: "octocat" });
    await provider.delete(id, outs);
    expect(serverView("acme-eng", "octocat")).toEqual({});
  });

  it("remove treats a membership already gone as done", async () => {
    const { id, outs } = await created(mona);
    await control(emulator, "POST", "/orgs/acme-eng/invitations/mona/decline");
    await provider.delete(id, outs);
    expect(serverView("acme-eng", "mona")).toEqual({});
  });

  it("downgrade makes an admin a plain member and keeps them", async () => {
    const { id, outs } = await created({
      org: "acme-eng",
      username: "octocat",
      role: "admin",
      onDestroy: "downgrade",
    });
    await provider.delete(id, outs);
    expect(serverView("acme-eng", "octocat")).toEqual({ member: "member" });
  });

  it("downgrade leaves a pending admin invitation as a member invitation", async () => {
    const { id, outs } = await created({ ...mona, role: "admin", onDestroy: "downgrade" });
    await provider.delete(id, outs);
    expect(serverView("acme-eng", "mona")).toEqual({ invited: "member" });
  });

  it("downgrade sends nothing for a member who is already plain, and never re-invites", async () => {
    const plain = await created({ org: "acme-eng", username: "octocat", onDestroy: "downgrade" });
    await provider.delete(plain.id, plain.outs);
    expect(requestCounts(emulator)).toEqual({ [GET]: 1 });
    const gone = await created({ ...mona, role: "admin", onDestroy: "downgrade" });
    await control(emulator, "POST", "/orgs/acme-eng/invitations/mona/decline");
    await provider.delete(gone.id, gone.outs);
    expect(serverView("acme-eng", "mona")).toEqual({});
    expect(requestCounts(emulator)).toEqual({ [GET]: 1 });
  });

  it("retain changes nothing and sends nothing", async () => {
    const { id, outs } = await created({
      org: "acme-eng",
      username: "octocat",
      role: "admin",
      onDestroy: "retain",
    });
    await provider.delete(id, outs);
    expect(serverView("acme-eng", "octocat")).toEqual({ member: "admin" });
    expect(emulator.controls.counts().total).toBe(0);
  });
});

describe("OrgMembership of the token's own user", () => {
  it("is kept on destroy unless the program sets onDestroy: remove itself", async () => {
    const left = await createdAsWritten({ org: "acme-eng", username: "admin", role: "admin" });
    const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await provider.delete(left.id, left.outs);
    const said = told.mock.calls.map((c) => String(c[0])).join("");
    told.mockRestore();
    expect(said).toContain("kept admin in acme-eng: it is the membership of the token's own user");
    expect(serverView("acme-eng", "admin")).toEqual({ member: "admin" });
    const asked = await created({ org: "acme-eng", username: "admin", role: "admin", onDestroy: "remove" });
    await provider.delete(asked.id, asked.outs);
    expect(serverView("acme-eng", "admin")).toEqual({});
  });
});

describe("OrgMembership onDestroy written out", () => {
  it("is a change (with no request) when the program writes out the default it left out, and back", async () => {
    const made = await createdAsWritten({ org: "acme-eng", username: "octocat" });
    const explicit = (await provider.check({}, { org: "acme-eng", username: "octocat", onDestroy: "remove" }))
      .inputs as OrgMembershipInputs;
    expect((await provider.diff(made.id, made.outs, explicit)).changes).toBe(true);
    const updated = await provider.update(made.id, made.outs, explicit);
    expect(apiCounts()).toEqual({});
    expect((await provider.diff(made.id, updated.outs, explicit)).changes).toBe(false);
    const left = (await provider.check({}, { org: "acme-eng", username: "octocat" }))
      .inputs as OrgMembershipInputs;
    expect((await provider.diff(made.id, updated.outs, left)).changes).toBe(true);
  });
});

describe("OrgMembership last-admin guard", () => {
  const lastAdmin = { org: "acme-ops", username: "admin" };
  const refusal = (action: string) =>
    new RegExp(
      `refusing to ${action} admin, the last admin of acme-ops; an organisation must keep at least one admin`,
    );

  it("refuses to create a membership that demotes the last admin, before any write", async () => {
    const inputs = await checked({ ...lastAdmin, role: "member" });
    emulator.controls.clearLog();
    await expect(provider.create(inputs)).rejects.toThrow(refusal("demote"));
    expect(requestCounts(emulator)).toEqual({ [GET]: 1, [ADMINS]: 1 });
    expect(serverView("acme-ops", "admin")).toEqual({ member: "admin" });
  });

  it("refuses to demote the last admin on update", async () => {
    const { id, outs } = await created({ ...lastAdmin, role: "admin" });
    const news = await checked({ ...lastAdmin, role: "member" });
    await expect(provider.update(id, outs, news)).rejects.toThrow(refusal("demote"));
    expect(requestCounts(emulator)).toEqual({ [ADMINS]: 1 });
    expect(serverView("acme-ops", "admin")).toEqual({ member: "admin" });
  });

  it("keeps the last admin on destroy, with a warning and no write", async () => {
    const { id, outs } = await created({
      org: "acme-ops",
      username: "admin",
      role: "admin",
      onDestroy: "remove",
    });
    const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    emulator.controls.clearLog();
    await provider.delete(id, outs);
    const said = told.mock.calls.map((c) => String(c[0])).join("");
    told.mockRestore();
    expect(said).toContain(
      "kept admin as an admin of acme-ops: the last admin of an organisation is never removed",
    );
    expect(apiCounts()).toEqual({ [GET]: 1, [ADMINS]: 1 });
    expect(serverView("acme-ops", "admin")).toEqual({ member: "admin" });
  });

  it("keeps the last admin on a downgrade at destroy", async () => {
    const { id, outs } = await created({ ...lastAdmin, role: "admin", onDestroy: "downgrade" });
    const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await provider.delete(id, outs);
    told.mockRestore();
    expect(serverView("acme-ops", "admin")).toEqual({ member: "admin" });
  });

  it("lets an admin be demoted or removed while another admin remains", async () => {
    const { id, outs } = await created({ org: "acme-eng", username: "olivia", role: "admin" });
    const demoted = await provider.update(id, outs, await checked({ org: "acme-eng", username: "olivia" }));
    expect(demoted.outs.role).toBe("member");
    expect(serverView("acme-eng", "olivia")).toEqual({ member: "member" });
    const again = await created({ org: "acme-eng", username: "olivia", role: "admin" });
    await provider.delete(again.id, again.outs);
    expect(serverView("acme-eng", "olivia")).toEqual({});
  });

  it("decides one organisation's deletes one after another: two admins removed at once leave one", async () => {
    const olivia = await created({ org: "acme-eng", username: "olivia", role: "admin", onDestroy: "remove" });
    const admin = await created({ org: "acme-eng", username: "admin", role: "admin", onDestroy: "remove" });
    const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await Promise.all([provider.delete(olivia.id, olivia.outs), provider.delete(admin.id, admin.outs)]);
    const said = told.mock.calls.map((c) => String(c[0])).join("");
    told.mockRestore();
    const left = ["olivia", "admin"].filter((u) => serverView("acme-eng", u).member === "admin");
    expect(left).toHaveLength(1);
    expect(said).toContain("the last admin of an organisation is never removed");
  });

  it("lets the last admin go when they are retained", async () => {
    const { id, outs } = await created({ ...lastAdmin, role: "admin", onDestroy: "retain" });
    await provider.delete(id, outs);
    expect(serverView("acme-ops", "admin")).toEqual({ member: "admin" });
  });
});
