/** getOrgRoles against the sandbox: the predefined roles in camelCase, validation, Output, refusals. */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { getOrgRoles, getOrgRolesOutput } from "../../../provider/functions/org-roles";
import { counts, settle, useEnvironmentToken, useFunctionSandbox } from "./helpers";

let emulator: RunningEmulator;
useFunctionSandbox((e) => {
  emulator = e;
});

const LIST = "GET /orgs/{org}/organization-roles";

describe("getOrgRoles", () => {
  it("lists the organisation's roles with the ids OrgRoleAssignment takes", async () => {
    const result = await getOrgRoles({ org: "acme-eng" });
    expect(result.org).toBe("acme-eng");
    expect(result.roles.map((r) => r.name)).toEqual([
      "all_repo_read",
      "all_repo_triage",
      "all_repo_write",
      "all_repo_maintain",
      "all_repo_admin",
      "ci_cd_admin",
      "security_manager",
    ]);
    expect(result.roles[0]).toEqual({
      id: 8132,
      name: "all_repo_read",
      description: "Grants read access to all repositories in the organization.",
      baseRole: "read",
      source: "Predefined",
      permissions: [],
    });
    expect(counts(emulator)).toEqual({ [LIST]: 1 });
  });

  it.each([
    [{}, "org is required"],
    [{ org: "acme/eng" }, "org may hold only"],
    [{ org: "acme-eng", role: "x" }, "unknown argument(s): role"],
  ])("refuses %j before any request", async (args, message) => {
    await expect(getOrgRoles(args as never)).rejects.toThrow(message);
    expect(counts(emulator)).toEqual({});
  });

  it("fails for a member, naming the scope the endpoint needs", async () => {
    useEnvironmentToken(emulator, "svcp_member");
    await expect(getOrgRoles({ org: "acme-eng" })).rejects.toThrow("admin:org");
  });

  it("takes Inputs, and its result is secret when an input is", async () => {
    const { value, secret } = await settle(getOrgRolesOutput({ org: pulumi.secret("acme-eng") }));
    expect(value.roles).toHaveLength(7);
    expect(secret).toBe(true);
  });
});
