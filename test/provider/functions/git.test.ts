/** getBranches and getBranch against the sandbox: the protected filter, pages, the 301 of a rename. */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { getBranch, getBranches, getBranchesOutput, getBranchOutput } from "../../../provider/functions/git";
import { api, control } from "../resources/helpers";
import { counts, settle, useFunctionSandbox } from "./helpers";

let emulator: RunningEmulator;
useFunctionSandbox((e) => {
  emulator = e;
});

const LIST = "GET /repos/{owner}/{repo}/branches";
const GET = "GET /repos/{owner}/{repo}/branches/{branch}";
const api1 = { owner: "acme-eng", repository: "api" };

/** Renames a branch as someone would in the web UI; the old name answers 301 once the job ran. */
async function rename(from: string, to: string): Promise<void> {
  const path = `/repos/acme-eng/api/branches/${encodeURIComponent(from)}/rename`;
  const response = await api(emulator, "POST", path, { new_name: to });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

describe("getBranches", () => {
  it("reads every page", async () => {
    const result = await getBranches({ ...api1, perPage: 1 });
    expect(result.branches.map((b) => b.name)).toEqual(["develop", "main", "release/1.0"]);
    expect(result.branches[1]).toMatchObject({ name: "main", protected: true });
    expect(result.branches[1]?.commitSha).toMatch(/^[0-9a-f]{40}$/);
    expect(counts(emulator)[LIST]).toBe(3);
  });

  it("filters protected branches on the server", async () => {
    expect((await getBranches({ ...api1, protected: true })).branches.map((b) => b.name)).toEqual(["main"]);
    expect((await getBranches({ ...api1, protected: false })).branches.map((b) => b.name)).toEqual([
      "develop",
      "release/1.0",
    ]);
  });

  it.each([
    [{ ...api1, protected: "yes" }, "protected must be true or false"],
    [{ owner: "acme-eng" }, "repository is required"],
    [{ ...api1, perPage: 0 }, "perPage must be an integer from 1 to 100"],
  ])("refuses %j before any request", async (args, message) => {
    await expect(getBranches(args as never)).rejects.toThrow(message);
    expect(counts(emulator)[LIST]).toBeUndefined();
  });
});

describe("getBranch", () => {
  it("reads a branch whose name has a slash", async () => {
    const branch = await getBranch({ ...api1, branch: "release/1.0" });
    expect(branch).toMatchObject({ name: "release/1.0", requestedName: "release/1.0", renamed: false });
  });

  it("follows the 301 of a name a rename left and reports where it ended", async () => {
    // The fixture's develop was once called legacy.
    const branch = await getBranch({ ...api1, branch: "legacy" });
    expect(branch).toMatchObject({ name: "develop", requestedName: "legacy", renamed: true });
    expect(counts(emulator)[GET]).toBe(2);
  });

  it("follows a name renamed twice to where the branch is now", async () => {
    await control(emulator, "PUT", "/jobs", { delayMs: 0 });
    await rename("develop", "dev");
    await rename("dev", "trunk");
    await getBranches(api1); // the next request runs the rename jobs
    const branch = await getBranch({ ...api1, branch: "develop" });
    expect(branch).toMatchObject({ name: "trunk", requestedName: "develop", renamed: true });
  });

  it("fails on a name that never existed", async () => {
    await expect(getBranch({ ...api1, branch: "nope" })).rejects.toMatchObject({ code: "not_found" });
  });

  it.each([
    [{ ...api1, branch: "" }, "branch must not be empty"],
    [{ ...api1, branch: "a..b" }, "branch is not a valid branch name"],
    [{ ...api1 }, "branch is required"],
  ])("refuses %j before any request", async (args, message) => {
    await expect(getBranch(args as never)).rejects.toThrow(message);
    expect(counts(emulator)[GET]).toBeUndefined();
  });

  it("is secret in its Output forms when an input is", async () => {
    const secret = await settle(getBranchOutput({ ...api1, branch: pulumi.secret("legacy") }));
    expect(secret).toMatchObject({ secret: true, value: { name: "develop" } });
    const plain = await settle(getBranchesOutput(api1));
    expect(plain.secret).toBe(false);
    expect(plain.value.branches).toHaveLength(3);
  });
});
