/**
 * Lifecycle of OrgBlock: provider methods called directly against the sandbox server. A block made,
 * adopted by construction, removed outside Pulumi (drift: gone), refused for a member, unblocked.
 */
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator/index";
import { type OrgBlockInputs, orgBlockProvider as provider } from "../../../../provider/resources/org-config";
import { api, requestCounts, useSandbox } from "../helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

const mona = { org: "acme-eng", username: "mona" };

async function checked(news: Record<string, unknown>): Promise<OrgBlockInputs> {
  const result = await provider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return provider.inputsOf(result.inputs as OrgBlockInputs);
}

const blocked = () => emulator.store.state.orgBlocks.map((b) => `${b.org}/${b.login}`);

describe("OrgBlock check and diff", () => {
  it.each([
    [{ org: "acme-eng" }, "username", "username is required"],
    [{ ...mona, org: "" }, "org", "must not be empty"],
    [{ ...mona, username: "a/b" }, "username", "may hold only"],
  ])("refuses %j naming %s, with no request", async (news, property, reason) => {
    const result = await provider.check({}, news);
    expect(result.failures?.find((f) => f.property === property)?.reason).toContain(reason);
    expect(emulator.controls.log).toEqual([]);
  });

  it("replaces on either name, and a respelling is no change", async () => {
    const olds = { ...mona } as never;
    expect((await provider.diff("acme-eng/mona", olds, { ...mona, username: "hubot" })).replaces).toEqual([
      "username",
    ]);
    expect((await provider.diff("acme-eng/mona", olds, { org: "ACME-eng", username: "Mona" })).changes).toBe(
      false,
    );
  });
});

describe("OrgBlock lifecycle", () => {
  it("blocks with a check and a write, adopts a block with no write, reads with one, and unblocks", async () => {
    const { id, outs } = await provider.create(await checked(mona));
    expect(id).toBe("acme-eng/mona");
    expect(outs).toEqual(mona);
    expect(blocked()).toEqual(["acme-eng/mona"]);
    expect(requestCounts(emulator)).toEqual({
      "GET /orgs/{org}/blocks/{username}": 1,
      "PUT /orgs/{org}/blocks/{username}": 1,
    });
    emulator.controls.clearLog();
    await provider.create(await checked(mona));
    expect(requestCounts(emulator)).toEqual({ "GET /orgs/{org}/blocks/{username}": 1 });
    emulator.controls.clearLog();
    const read = await provider.read(id, outs);
    expect(read.props).toEqual(mona);
    expect(read.inputs).toEqual(mona);
    expect(requestCounts(emulator)).toEqual({ "GET /orgs/{org}/blocks/{username}": 1 });
    await provider.delete(id, outs);
    expect(blocked()).toEqual([]);
    // Gone already: delete is done.
    await provider.delete(id, outs);
  });

  it("adopts a block made outside Pulumi without a second one", async () => {
    await api(emulator, "PUT", "/orgs/acme-eng/blocks/mona");
    await provider.create(await checked(mona));
    expect(blocked()).toEqual(["acme-eng/mona"]);
  });

  it("reads a block removed outside Pulumi as gone", async () => {
    const { id, outs } = await provider.create(await checked(mona));
    await api(emulator, "DELETE", "/orgs/acme-eng/blocks/mona");
    expect(await provider.read(id, outs)).toEqual({});
  });

  it("shows the platform's refusal to block a member, with what to do", async () => {
    await expect(provider.create(await checked({ org: "acme-eng", username: "octocat" }))).rejects.toThrow(
      /acme-eng cannot block octocat: octocat is a member of acme-eng.*removed from acme-eng/,
    );
    expect(blocked()).toEqual([]);
  });

  it("names the likely causes of a 404", async () => {
    await expect(provider.create(await checked({ org: "acme-eng", username: "nobody" }))).rejects.toThrow(
      /OrgBlock acme-eng\/nobody.*there is no user nobody/,
    );
  });
});
