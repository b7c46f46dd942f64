/** getTeam against the sandbox: a team by slug with its id, nesting and counts; errors; Output. */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { getTeam, getTeamOutput } from "../../../provider/functions/teams";
import { api } from "../resources/helpers";
import { counts, settle, useEnvironmentToken, useFunctionSandbox } from "./helpers";

let emulator: RunningEmulator;
useFunctionSandbox((e) => {
  emulator = e;
});

const GET = "GET /orgs/{org}/teams/{team_slug}";

describe("getTeam", () => {
  it("reads the fixture's team: its id, privacy and counts", async () => {
    expect(await getTeam({ org: "acme-eng", slug: "platform" })).toEqual({
      org: "acme-eng",
      slug: "platform",
      teamId: 1,
      name: "Platform",
      description: "Platform engineering",
      privacy: "closed",
      notificationSetting: "notifications_enabled",
      membersCount: 1,
      reposCount: 0,
    });
    expect(counts(emulator)).toEqual({ [GET]: 1 });
  });

  it("names the parent of a nested team", async () => {
    const child = await api(emulator, "POST", "/orgs/acme-eng/teams", {
      name: "Platform API",
      parent_team_id: 1,
    });
    const result = await getTeam({ org: "acme-eng", slug: "platform-api" });
    expect(result).toMatchObject({
      teamId: (child.body as { id: number }).id,
      parentTeamId: 1,
      privacy: "closed",
    });
    expect(result.description).toBeUndefined();
  });

  it.each([
    [{ org: "acme-eng" }, "slug is required"],
    [{ org: "acme-eng", slug: "a/b" }, "slug may hold only"],
    [{ org: "acme-eng", slug: "platform", name: "x" }, "unknown argument(s): name"],
  ])("refuses %j before any request", async (args, message) => {
    await expect(getTeam(args as never)).rejects.toThrow(message);
    expect(counts(emulator)[GET]).toBeUndefined();
  });

  it("says what to check when the team is not there or hidden", async () => {
    await expect(getTeam({ org: "acme-eng", slug: "nope" })).rejects.toThrow(
      /has no team with the slug nope/,
    );
    await api(emulator, "POST", "/orgs/acme-eng/teams", { name: "Hidden" });
    useEnvironmentToken(emulator, "svcp_member");
    await expect(getTeam({ org: "acme-eng", slug: "hidden" })).rejects.toThrow(
      /secret team is seen by owners/,
    );
  });

  it("is secret in its Output form when an input is", async () => {
    const secret = await settle(getTeamOutput({ org: pulumi.secret("acme-eng"), slug: "platform" }));
    expect(secret.secret).toBe(true);
    expect(secret.value.teamId).toBe(1);
  });
});
