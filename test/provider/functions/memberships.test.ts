/** getOrgMembers against the sandbox: filters, every page, validation before any request, Output. */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { getOrgMembers, getOrgMembersOutput } from "../../../provider/functions/memberships";
import { counts, settle, useEnvironmentToken, useFunctionSandbox } from "./helpers";

let emulator: RunningEmulator;
useFunctionSandbox((e) => {
  emulator = e;
});

const LIST = "GET /orgs/{org}/members";

describe("getOrgMembers", () => {
  it("reads every page and returns the members in camelCase", async () => {
    const result = await getOrgMembers({ org: "acme-eng", perPage: 1 });
    expect(result.members.map((m) => m.login).sort()).toEqual(["admin", "octocat", "olivia"]);
    expect(result.members.find((m) => m.login === "admin")).toMatchObject({ type: "User", siteAdmin: true });
    expect(result).toMatchObject({ org: "acme-eng", role: "all", filter: "all" });
    // One request per page of one member.
    expect(counts(emulator)[LIST]).toBe(3);
  });

  it("filters by role on the server", async () => {
    const admins = await getOrgMembers({ org: "acme-eng", role: "admin" });
    expect(admins.members.map((m) => m.login).sort()).toEqual(["admin", "olivia"]);
    expect(counts(emulator)[LIST]).toBe(1);
  });

  it.each([
    [{ org: "acme-eng", role: "owner" }, 'role must be one of "all", "admin", "member"'],
    [{ org: "acme-eng", filter: "2fa" }, "filter must be one of"],
    [{ org: "" }, "org must not be empty"],
    [{}, "org is required"],
    [{ org: "acme-eng", perPage: 101 }, "perPage must be an integer from 1 to 100"],
    [{ org: "acme-eng", colour: "red" }, "unknown argument(s): colour"],
  ])("refuses %j before any request", async (args, message) => {
    await expect(getOrgMembers(args as never)).rejects.toThrow(message);
    expect(counts(emulator)[LIST]).toBeUndefined();
  });

  it("tells a member that the 2fa filters are for owners (the API's 422)", async () => {
    useEnvironmentToken(emulator, "svcp_member");
    await expect(getOrgMembers({ org: "acme-eng", filter: "2fa_disabled" })).rejects.toThrow(
      /filter members/,
    );
  });

  it("takes the settings from opts over the environment", async () => {
    process.env.HOSTING_TOKEN = "svcp_not_a_token";
    const result = await getOrgMembers({ org: "acme-eng" }, { token: "svcp_siteadmin" });
    expect(result.members).toHaveLength(3);
  });

  it("is secret in its Output form when an input is", async () => {
    const plain = await settle(getOrgMembersOutput({ org: "acme-eng" }));
    expect(plain.secret).toBe(false);
    expect(plain.value.members).toHaveLength(3);
    const secret = await settle(getOrgMembersOutput({ org: pulumi.secret("acme-eng"), role: "admin" }));
    expect(secret.secret).toBe(true);
    expect(secret.value.members.map((m) => m.login).sort()).toEqual(["admin", "olivia"]);
  });
});
