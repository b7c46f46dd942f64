/** getUser against the sandbox: a user's and an organisation's ids, the public read, the Output form. */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { getUser, getUserOutput } from "../../../provider/functions/meta";
import { counts, settle, useEnvironmentToken, useFunctionSandbox } from "./helpers";

let emulator: RunningEmulator;
useFunctionSandbox((e) => {
  emulator = e;
});

describe("getUser", () => {
  it("reads a user's id and type, by any spelling of the login", async () => {
    expect(await getUser({ username: "OctoCat" })).toEqual({
      username: "OctoCat",
      id: 3,
      nodeId: expect.any(String),
      login: "octocat",
      type: "User",
      siteAdmin: false,
      name: "Octocat",
    });
    expect(counts(emulator)["GET /users/{username}"]).toBe(1);
  });

  it("reads an organisation as an account, with any token", async () => {
    useEnvironmentToken(emulator, "svcp_noscopes");
    expect(await getUser({ username: "acme-eng" })).toMatchObject({ id: 100, type: "Organization" });
  });

  it("names a login no one has, and refuses a bad one before any request", async () => {
    await expect(getUser({ username: "nobody" })).rejects.toThrow(/404/);
    await expect(getUser({ username: "" })).rejects.toThrow("must not be empty");
  });

  it("is secret in its Output form when an input is", async () => {
    const secret = await settle(getUserOutput({ username: pulumi.secret("mona") }));
    expect(secret).toMatchObject({ secret: true, value: { id: 4, login: "mona" } });
  });
});
