/**
 * Lifecycle of OrgSettings: provider methods called directly against the sandbox server. Adopted by
 * construction with only the differences written, read back and compared for the declared settings
 * only, a change outside Pulumi named and repaired, a token that cannot see the settings told what
 * to use, and a destroy that sends nothing.
 */
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator/index";
import {
  type OrgSettingsInputs,
  type OrgSettingsOutputs,
  orgSettingsProvider as provider,
} from "../../../../provider/resources/org-config";
import { api, requestCounts, useSandbox, useToken } from "../helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

async function checked(news: Record<string, unknown>): Promise<OrgSettingsInputs> {
  const result = await provider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return provider.inputsOf(result.inputs as OrgSettingsInputs);
}

const settings = () => emulator.store.state.orgSettings["100"];

describe("OrgSettings check", () => {
  it.each([
    [{}, "org", "org is required"],
    [
      { org: "acme-eng", defaultRepositoryPermission: "owner" },
      "defaultRepositoryPermission",
      '"read", "write"',
    ],
    [{ org: "acme-eng", billingEmail: "nobody" }, "billingEmail", "an email address"],
    [{ org: "acme-eng", blog: "acme.example" }, "blog", "absolute http(s) URL"],
    [{ org: "acme-eng", description: "x".repeat(161) }, "description", "at most 160"],
    [
      { org: "acme-eng", membersCanCreateRepositories: "no" },
      "membersCanCreateRepositories",
      "true or false",
    ],
  ])("refuses %j naming %s, with no request", async (news, property, reason) => {
    const result = await provider.check({}, news);
    expect(result.failures?.find((f) => f.property === property)?.reason).toContain(reason);
    expect(emulator.controls.log).toEqual([]);
  });
});

describe("OrgSettings lifecycle", () => {
  it("adopts the organisation, writing only what differs, and reads back the declared settings only", async () => {
    const inputs = await checked({
      org: "acme-eng",
      defaultRepositoryPermission: "read",
      membersCanCreatePublicRepositories: false,
      company: "Acme",
    });
    const { id, outs } = await provider.create(inputs);
    expect(id).toBe("acme-eng");
    expect(outs).toEqual({
      org: "acme-eng",
      defaultRepositoryPermission: "read",
      membersCanCreatePublicRepositories: false,
      company: "Acme",
    });
    expect(requestCounts(emulator)).toEqual({ "GET /orgs/{org}": 1, "PATCH /orgs/{org}": 1 });
    expect(settings()).toMatchObject({ company: "Acme", membersCanCreatePublicRepositories: false });
    emulator.controls.clearLog();
    const read = await provider.read(id, outs);
    expect(read.inputs).toEqual(outs);
    // Nothing differs: no write.
    await provider.create(inputs);
    expect(requestCounts(emulator)).toEqual({ "GET /orgs/{org}": 2 });
  });

  it("names a change made outside Pulumi, repairs it, and ignores settings the program leaves out", async () => {
    const { id, outs } = await provider.create(await checked({ org: "acme-eng", location: "Lyon" }));
    await api(emulator, "PATCH", "/orgs/acme-eng", { location: "Paris", company: "Other" });
    const read = await provider.read(id, outs);
    expect(read.inputs).toEqual({ org: "acme-eng", location: "Paris" });
    const news = await checked({ org: "acme-eng", location: "Lyon" });
    expect((await provider.diff(id, read.props as OrgSettingsOutputs, news)).changes).toBe(true);
    await provider.update(id, read.props as OrgSettingsOutputs, news);
    expect(settings()).toMatchObject({ location: "Lyon", company: "Other" });
  });

  it("treats an emptied text as no text: no change, and recorded as the program wrote it", async () => {
    const { id, outs } = await provider.create(await checked({ org: "acme-eng", company: "" }));
    expect(outs).toMatchObject({ org: "acme-eng", company: null });
    expect((await provider.diff(id, outs, await checked({ org: "acme-eng", company: "" }))).changes).toBe(
      false,
    );
    const read = await provider.read(id, outs);
    expect(read.inputs).toEqual({ org: "acme-eng", company: "" });
  });

  it("tells a token that cannot see the settings what it needs, instead of a change", async () => {
    const { id, outs } = await provider.create(await checked({ org: "acme-eng", company: "Acme" }));
    useToken(emulator, "svcp_member");
    await expect(provider.read(id, outs)).rejects.toThrow(
      /cannot see the organisation's settings.*owner of acme-eng/,
    );
  });

  it("imports every setting, and destroys with no request", async () => {
    const read = await provider.read("acme-eng", {});
    expect(read.inputs).toEqual({
      org: "acme-eng",
      description: "Acme engineering",
      defaultRepositoryPermission: "read",
      membersCanCreateRepositories: true,
      membersCanCreatePublicRepositories: true,
      membersCanCreatePrivateRepositories: true,
      membersCanCreateInternalRepositories: true,
      membersCanForkPrivateRepositories: false,
      webCommitSignoffRequired: false,
    });
    emulator.controls.clearLog();
    await provider.delete("acme-eng", read.props as OrgSettingsOutputs);
    expect(emulator.controls.log).toEqual([]);
  });

  it("is gone when the organisation is", async () => {
    expect(await provider.read("nope", { org: "nope" } as OrgSettingsOutputs)).toEqual({});
    await expect(provider.create(await checked({ org: "nope" }))).rejects.toThrow(/OrgSettings nope/);
  });
});
