/**
 * OrgMembership end to end with the real Pulumi CLI against the sandbox server: an invitation
 * (pending), acceptance outside Pulumi (not drift), a role changed outside Pulumi (drift, fixed by
 * up), the person who left (dropped by refresh, invited again by up), the last-admin guard on
 * create and on destroy, and each onDestroy mode on destroy.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { PulumiProgram, requirePulumi } from "./pulumi";

const TOKEN = "svcp_siteadmin";

interface Declared {
  name: string;
  org: string;
  username: string;
  role?: "member" | "admin";
  onDestroy?: "remove" | "downgrade" | "retain";
}

/** A program declaring these memberships and exporting each one's state. */
function programOf(memberships: Declared[]): string {
  const lines = memberships.map(({ name, ...args }) => {
    const props = JSON.stringify(args);
    return `exports[${JSON.stringify(name)}] = new hosting.OrgMembership(${JSON.stringify(name)}, ${props}).state;`;
  });
  return `const hosting = require("pulumi-hosting");\n${lines.join("\n")}\n`;
}

const MONA: Declared = { name: "mona", org: "acme-eng", username: "mona" };

let emulator: RunningEmulator;
let program: PulumiProgram;

function declare(...memberships: Declared[]): void {
  writeFileSync(join(program.dir, "index.js"), programOf(memberships));
}

/** The server's view of one person in one organisation. */
function serverView(org: string, login: string): { member?: string; invited?: string } {
  const state = emulator.store.state;
  const member = state.fixture.orgs.find((o) => o.login === org)?.members[login];
  const invitation = state.invitations.find((i) => i.org === org && i.login === login);
  return {
    ...(member ? { member: member.role } : {}),
    ...(invitation ? { invited: invitation.role } : {}),
  };
}

/** Membership resources in the stack's state: name -> {id, role, state, onDestroy}. */
function stackMemberships(): Record<string, Record<string, unknown>> {
  const found: Record<string, Record<string, unknown>> = {};
  for (const r of program.resources()) {
    if (!r.type.endsWith("hosting:OrgMembership")) continue;
    const urn = (r as { urn?: string }).urn ?? "";
    const { role, state, onDestroy } = r.outputs ?? {};
    found[urn.split("::").at(-1) ?? ""] = { id: r.id, role, state, onDestroy };
  }
  return found;
}

async function controlRoute(path: string): Promise<number> {
  const response = await fetch(`${emulator.origin}/_emulator${path}`, { method: "POST" });
  return response.status;
}

async function apiCall(method: string, path: string, body?: unknown): Promise<number> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await response.text();
  return response.status;
}

beforeAll(async () => {
  requirePulumi();
  emulator = await startEmulator({ port: 0 });
  program = new PulumiProgram("memberships", programOf([MONA]));
  await program.initStack(emulator.origin, TOKEN);
});

afterAll(async () => {
  await emulator?.close();
});

describe("OrgMembership end to end", () => {
  it("up invites a non-member: the membership is pending", async () => {
    await program.ok("up", "--yes");
    expect(serverView("acme-eng", "mona")).toEqual({ invited: "member" });
    expect(stackMemberships()).toEqual({
      mona: { id: "acme-eng/mona", role: "member", state: "pending", onDestroy: "remove" },
    });
    const file = program.stateFile();
    expect(file).not.toContain(TOKEN);
    const provider = program.resources().find((r) => r.type.endsWith("hosting:OrgMembership"))
      ?.outputs?.__provider;
    expect(typeof provider).toBe("string");
    expect((provider as string).length).toBeLessThanOrEqual(512);
  });

  it("an invitation accepted outside Pulumi is not drift; refresh records it as active", async () => {
    expect(await controlRoute("/orgs/acme-eng/invitations/mona/accept")).toBe(200);
    expect(serverView("acme-eng", "mona")).toEqual({ member: "member" });
    const preview = await program.run("preview", "--refresh", "--expect-no-changes", "--diff");
    expect(preview.code, preview.output).toBe(0);
    // The refreshed output is shown, but as no change to make.
    expect(preview.output).toMatch(/state\s*:\s*"pending"\s*=>\s*"active"/);
    const refreshOnly = await program.run("refresh", "--preview-only", "--expect-no-changes");
    expect(refreshOnly.code, refreshOnly.output).toBe(0);
    await program.ok("refresh", "--yes");
    expect(stackMemberships().mona).toMatchObject({ role: "member", state: "active" });
    const again = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(again.code, again.output).toBe(0);
  });

  it("a role changed outside Pulumi is drift, naming role", async () => {
    expect(await apiCall("PUT", "/orgs/acme-eng/memberships/mona", { role: "admin" })).toBe(200);
    const drift = await program.run("preview", "--refresh", "--expect-no-changes", "--diff");
    expect(drift.code).not.toBe(0);
    // The refresh shows the server's change; the update sets back the default the program leaves.
    expect(drift.output).toMatch(/role\s*:\s*"member"\s*=>\s*"admin"/);
    expect(drift.output).toMatch(/-\s*role\s*:\s*"admin"/);
    expect(drift.output).not.toMatch(/state\s*:.*=>/);
    const refreshOnly = await program.run("refresh", "--preview-only", "--expect-no-changes");
    expect(refreshOnly.code).not.toBe(0);
  });

  it("up converges the role and previews clean again", async () => {
    await program.ok("up", "--refresh", "--yes");
    expect(serverView("acme-eng", "mona")).toEqual({ member: "member" });
    expect(stackMemberships().mona).toMatchObject({ role: "member", state: "active" });
    const clean = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
  });

  it("a person who left is dropped by refresh and invited again by up", async () => {
    expect(await controlRoute("/orgs/acme-eng/members/mona/leave")).toBe(204);
    const drift = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(drift.code).not.toBe(0);
    await program.ok("refresh", "--yes");
    expect(stackMemberships()).toEqual({});
    await program.ok("up", "--yes");
    expect(serverView("acme-eng", "mona")).toEqual({ invited: "member" });
    expect(stackMemberships().mona).toMatchObject({ state: "pending" });
    expect(await controlRoute("/orgs/acme-eng/invitations/mona/accept")).toBe(200);
  });

  it("refuses to demote the only admin of acme-ops, with a clear error", async () => {
    declare(MONA, { name: "ops-admin", org: "acme-ops", username: "admin", role: "member" });
    const failed = await program.run("up", "--yes");
    expect(failed.code).not.toBe(0);
    expect(failed.output).toContain(
      "refusing to demote admin, the last admin of acme-ops; an organisation must keep at least one admin",
    );
    expect(failed.output).toContain("Make another member of acme-ops an admin first");
    expect(serverView("acme-ops", "admin")).toEqual({ member: "admin" });
    expect(Object.keys(stackMemberships())).toEqual(["mona"]);
  });

  it("refuses to remove the only admin on destroy until onDestroy says retain", async () => {
    const opsAdmin: Declared = { name: "ops-admin", org: "acme-ops", username: "admin", role: "admin" };
    declare(MONA, opsAdmin);
    await program.ok("up", "--yes");
    expect(stackMemberships()["ops-admin"]).toMatchObject({ state: "active", onDestroy: "remove" });

    declare(MONA);
    const refused = await program.run("up", "--yes");
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain("refusing to remove admin, the last admin of acme-ops");
    expect(refused.output).toContain('set onDestroy to "retain"');
    expect(serverView("acme-ops", "admin")).toEqual({ member: "admin" });
    expect(Object.keys(stackMemberships()).sort()).toEqual(["mona", "ops-admin"]);

    declare(MONA, { ...opsAdmin, onDestroy: "retain" });
    emulator.controls.clearLog();
    await program.ok("up", "--yes");
    // Changing onDestroy writes nothing to the server.
    expect(emulator.controls.log.filter((r) => r.method !== "GET")).toEqual([]);
    expect(stackMemberships()["ops-admin"]).toMatchObject({ onDestroy: "retain" });
    declare(MONA);
    await program.ok("up", "--yes");
    expect(Object.keys(stackMemberships())).toEqual(["mona"]);
    expect(serverView("acme-ops", "admin")).toEqual({ member: "admin" });
  });

  it("destroy applies each resource's onDestroy: remove, downgrade, retain", async () => {
    declare(
      { ...MONA, onDestroy: "remove" },
      { name: "octocat", org: "acme-eng", username: "octocat", role: "admin", onDestroy: "downgrade" },
      { name: "hubot", org: "acme-ops", username: "hubot", onDestroy: "retain" },
    );
    await program.ok("up", "--yes");
    expect(serverView("acme-eng", "octocat")).toEqual({ member: "admin" });
    expect(serverView("acme-ops", "hubot")).toEqual({ invited: "member" });
    expect(await controlRoute("/orgs/acme-ops/invitations/hubot/accept")).toBe(200);
    await program.ok("refresh", "--yes");
    expect(stackMemberships()).toEqual({
      mona: { id: "acme-eng/mona", role: "member", state: "active", onDestroy: "remove" },
      octocat: { id: "acme-eng/octocat", role: "admin", state: "active", onDestroy: "downgrade" },
      hubot: { id: "acme-ops/hubot", role: "member", state: "active", onDestroy: "retain" },
    });

    await program.ok("destroy", "--yes");
    expect(stackMemberships()).toEqual({});
    expect(serverView("acme-eng", "mona")).toEqual({});
    expect(serverView("acme-eng", "octocat")).toEqual({ member: "member" });
    expect(serverView("acme-ops", "hubot")).toEqual({ member: "member" });
    expect(serverView("acme-ops", "admin")).toEqual({ member: "admin" });
    expect(emulator.store.state.invitations).toEqual([]);
  });
});
