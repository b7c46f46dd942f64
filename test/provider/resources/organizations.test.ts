/**
 * Lifecycle of Organization against the sandbox server: create (one request), read, the rename
 * waited for through the 202 job and resumed after a timeout, create-only fields refused at
 * preview, destroy that leaves the organisation, adoption by login, no duplicate after an
 * ambiguous failure, and the site-administration 404 explained instead of read as "gone".
 */
import { describe, expect, it, vi } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { UNKNOWN } from "../../../provider/internal/check";
import {
  type OrganizationInputs,
  type OrganizationOutputs,
  organizationProvider as provider,
} from "../../../provider/resources/organizations";
import { onFakeClock, timedOnFakeClock } from "../../fake-clock";
import { api, control, requestCounts, useSandbox, useToken } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

const platform = { login: "acme-platform", admin: "olivia", profileName: "ACME Platform" };

async function checked(
  news: Record<string, unknown>,
  olds: Record<string, unknown> = {},
): Promise<OrganizationInputs> {
  const result = await provider.check(olds, news);
  expect(result.failures ?? []).toEqual([]);
  return provider.inputsOf(result.inputs as OrganizationInputs);
}

const orgNamed = (login: string) => emulator.store.state.fixture.orgs.find((o) => o.login === login);

async function created(news: Record<string, unknown> = platform) {
  const made = await provider.create(await checked(news));
  emulator.controls.clearLog();
  return made;
}

describe("Organization check", () => {
  it("applies the defaults", async () => {
    expect(await checked(platform)).toEqual({ ...platform, renameTimeoutSeconds: 120 });
  });

  it.each([
    [{ ...platform, login: "-acme" }, "login", "letters, digits and single hyphens"],
    [{ ...platform, login: "a--b" }, "login", "single hyphens"],
    [{ ...platform, login: "x".repeat(40) }, "login", "at most 39"],
    [{ login: "acme-platform" }, "admin", "admin is required"],
    [{ ...platform, renameTimeoutSeconds: 0 }, "renameTimeoutSeconds", "at least 1"],
    [{ ...platform, renameTimeoutSeconds: 1.5 }, "renameTimeoutSeconds", "whole number"],
    [{ ...platform, importId: "a b" }, "importId", "letters, digits"],
  ])("refuses %j naming %s, with no request", async (news, property, reason) => {
    const result = await provider.check({}, news);
    expect(result.failures?.find((f) => f.property === property)?.reason).toContain(reason);
    expect(emulator.controls.log).toEqual([]);
  });

  it("lets values unknown during preview through untouched", async () => {
    const result = await provider.check({}, { login: UNKNOWN, admin: UNKNOWN });
    expect(result.failures ?? []).toEqual([]);
    expect(emulator.controls.log).toEqual([]);
  });

  it("needs no admin for one already in state (Pulumi's import: check gets the inputs read as olds)", async () => {
    const result = await provider.check(
      { login: "acme-eng", renameTimeoutSeconds: 120 },
      { login: "acme-eng" },
    );
    expect(result.failures ?? []).toEqual([]);
    expect(emulator.controls.log).toEqual([]);
  });

  it("needs no admin to adopt", async () => {
    expect(await checked({ login: "acme-eng", importId: "acme-eng" })).toMatchObject({
      importId: "acme-eng",
    });
  });

  it.each([
    ["admin", { admin: "mona" }, /admin is used only when the organisation is created.*OrgMembership/],
    ["profileName", { profileName: "Platform" }, /profileName is used only when the organisation is created/],
  ])(
    "refuses a change of %s after creation at preview, with no request",
    async (property, change, reason) => {
      const result = await provider.check({ ...platform }, { ...platform, ...change });
      expect(result.failures?.[0]?.property).toBe(property);
      expect(result.failures?.[0]?.reason).toMatch(reason);
      expect(emulator.controls.log).toEqual([]);
    },
  );

  it("a plain preview of an unchanged organisation sends nothing", async () => {
    await checked(platform, { ...platform });
    expect(emulator.controls.log).toEqual([]);
  });

  it("updates the login in place", async () => {
    const olds = { ...platform, renameTimeoutSeconds: 120, orgId: 9 } as never;
    expect(await provider.diff("9", olds, { ...platform, login: "acme-core" } as never)).toMatchObject({
      changes: true,
      replaces: [],
    });
  });
});

describe("Organization lifecycle", () => {
  it("creates with one request and reads with one", async () => {
    const made = await provider.create(await checked(platform));
    expect(requestCounts(emulator)).toEqual({ "POST /admin/organizations": 1 });
    const org = orgNamed("acme-platform");
    expect(made.id).toBe(String(org?.id));
    expect(org?.members.olivia?.role).toBe("admin");
    expect(made.outs).toEqual({ ...platform, renameTimeoutSeconds: 120, orgId: org?.id });
    emulator.controls.clearLog();
    const read = await provider.read(made.id, made.outs);
    expect(read.props).toEqual(made.outs);
    expect(read.inputs).toEqual({ ...platform, renameTimeoutSeconds: 120 });
    expect(requestCounts(emulator)).toEqual({ "GET /orgs/{org}": 1 });
  });

  it("renames in place and waits for the job", async () => {
    await control(emulator, "PUT", "/jobs", { delayMs: 600 });
    const made = await created();
    const wanted = await checked({ ...platform, login: "acme-core" });
    const {
      result: { outs },
      waited,
    } = await timedOnFakeClock(() => provider.update(made.id, made.outs, wanted));
    expect(waited).toBeGreaterThanOrEqual(500);
    expect(outs).toEqual({ ...made.outs, login: "acme-core" });
    expect(orgNamed("acme-core")?.id).toBe(made.outs.orgId);
    expect(requestCounts(emulator)["PATCH /admin/organizations/{org}"]).toBe(1);
  });

  it("fails naming the pending rename when the job outlasts the timeout, and the next run waits for it", async () => {
    await control(emulator, "PUT", "/jobs", { delayMs: 2_500 });
    const made = await created();
    const wanted = await checked({ ...platform, login: "acme-core", renameTimeoutSeconds: 1 });
    await onFakeClock(() =>
      expect(provider.update(made.id, made.outs, wanted)).rejects.toThrow(
        /Organization acme-platform \(id \d+\): the rename to acme-core was accepted, but acme-core did not answer within 1 s.*Run pulumi up again later/,
      ),
    );
    const again = await onFakeClock(() =>
      provider.update(made.id, made.outs, { ...wanted, renameTimeoutSeconds: 10 }),
    );
    expect(again.outs.login).toBe("acme-core");
    // The second run queued no second rename: it found the first one in progress.
    expect(requestCounts(emulator)["PATCH /admin/organizations/{org}"]).toBe(2);
    expect(emulator.store.state.jobs).toHaveLength(0);
  });

  it("recognises a rename an earlier run finished", async () => {
    await control(emulator, "PUT", "/jobs", { delayMs: 0 });
    const made = await created();
    await api(emulator, "PATCH", "/admin/organizations/acme-platform", { login: "acme-core" });
    await api(emulator, "GET", "/orgs/acme-core");
    const { outs } = await provider.update(
      made.id,
      made.outs,
      await checked({ ...platform, login: "acme-core" }),
    );
    expect(outs.login).toBe("acme-core");
  });

  it("destroy leaves the organisation and says so", async () => {
    const made = await created();
    const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await provider.delete(made.id, made.outs);
      expect(told.mock.calls.map((c) => String(c[0])).join("")).toContain(
        "Organization acme-platform: the API cannot delete organisations; it is left in place",
      );
    } finally {
      told.mockRestore();
    }
    expect(orgNamed("acme-platform")).toBeDefined();
    expect(emulator.controls.log).toEqual([]);
  });

  it("reads an organisation renamed outside Pulumi, or gone, as gone", async () => {
    await control(emulator, "PUT", "/jobs", { delayMs: 0 });
    const made = await created();
    await api(emulator, "PATCH", "/admin/organizations/acme-platform", { login: "acme-core" });
    expect(await provider.read(made.id, made.outs)).toEqual({});
  });

  it("adopts by login, shows at preview what it will change, and renames to converge", async () => {
    await control(emulator, "PUT", "/jobs", { delayMs: 0 });
    const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await provider.check({}, { login: "acme-core", importId: "acme-ops" });
      expect(told.mock.calls.map((c) => String(c[0])).join("")).toContain(
        `adopting it will change login: "acme-ops" => "acme-core"`,
      );
    } finally {
      told.mockRestore();
    }
    const id = orgNamed("acme-ops")?.id;
    const adopted = await provider.create(await checked({ login: "acme-core", importId: "acme-ops" }));
    expect(adopted.id).toBe(String(id));
    expect(orgNamed("acme-core")?.id).toBe(id);
    const same = await provider.create(await checked({ login: "acme-eng", importId: "acme-eng" }));
    expect((same.outs as OrganizationOutputs).login).toBe("acme-eng");
  });

  it("reads by login alone (static get), and refuses a numeric id without state", async () => {
    const read = await provider.read("acme-eng", undefined);
    expect(read.id).toBe(String(orgNamed("acme-eng")?.id));
    expect(read.props).toMatchObject({ login: "acme-eng" });
    await expect(provider.read("100", undefined)).rejects.toThrow(/finds organisations by login only/);
  });

  it("names importId when there is no such organisation", async () => {
    const preview = await provider.check({}, { login: "nowhere", importId: "nowhere" });
    expect(preview.failures?.[0]?.property).toBe("importId");
  });

  it("names importId to set when the login is taken", async () => {
    await expect(provider.create(await checked({ ...platform, login: "acme-eng" }))).rejects.toThrow(
      /login acme-eng is already taken.*set importId to "acme-eng"/,
    );
  });

  it.each([
    ["answered 502 after the write", { status: 502, when: "after" }],
    ["dropped after the write", { drop: true, when: "after" }],
  ])("never makes a second organisation when the create is %s", async (_label, fault) => {
    await control(emulator, "POST", "/faults", {
      method: "POST",
      path: "/admin/organizations",
      count: 1,
      ...fault,
    });
    const before = emulator.store.state.fixture.orgs.length;
    const made = await provider.create(await checked(platform));
    expect(emulator.store.state.fixture.orgs.length).toBe(before + 1);
    expect(made.outs.orgId).toBe(orgNamed("acme-platform")?.id);
  });

  it("explains the 404 of a token that is not a site administrator's classic token", async () => {
    useToken(emulator, "svcp_owner");
    await expect(provider.create(await checked(platform))).rejects.toThrow(
      /needs the classic personal access token of a site administrator; the server answered 404 to the token of olivia \(not a site administrator\)/,
    );
    useToken(emulator, "svcp_siteadmin");
    const made = await created();
    useToken(emulator, "svcp_owner");
    await expect(
      provider.update(made.id, made.outs, await checked({ ...platform, login: "acme-core" })),
    ).rejects.toThrow(/site administrator/);
  });
});
