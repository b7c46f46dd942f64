/**
 * Lifecycle of DeploymentProtectionRule: provider methods called directly against the sandbox
 * server, as the engine would call them. URL-encoded environment names in paths and ids, every
 * argument replacing, adoption of a rule already enabling the app, unavailable integrations,
 * creates that never duplicate, out-of-band deletes.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { UNKNOWN } from "../../../provider/internal/check";
import {
  type DeploymentProtectionRuleInputs,
  type DeploymentProtectionRuleOutputs,
  deploymentProtectionRuleProvider as provider,
} from "../../../provider/resources/environments";
import { api, control, requestCounts, useSandbox, useToken } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

afterEach(() => {
  vi.restoreAllMocks();
});

const COLLECTION = "/repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules";
const RELEASE = "/repos/acme-eng/api/environments/release%2Feu/deployment_protection_rules";
const base = { owner: "acme-eng", repository: "api", environment: "release/eu", integrationId: 101 };

async function checked(news: Record<string, unknown>): Promise<DeploymentProtectionRuleInputs> {
  const result = await provider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return provider.inputsOf(result.inputs as DeploymentProtectionRuleInputs);
}

/** The rules the server holds: [environment, app id] pairs. */
function serverRules(): Array<[string, number]> {
  return emulator.store.state.protectionRules.map((r) => [r.environment, r.appId]);
}

/** Adds an environment to acme-eng/api for this test, as an administrator would (the next reset drops it). */
async function addEnvironment(name: string): Promise<void> {
  const made = await api(emulator, "PUT", `/repos/acme-eng/api/environments/${encodeURIComponent(name)}`, {});
  expect(made.status).toBe(200);
}

describe("DeploymentProtectionRule check", () => {
  it("accepts the four arguments as they are", async () => {
    expect(await checked(base)).toEqual(base);
  });

  it.each([
    [{ ...base, owner: "" }, "owner", "must not be empty"],
    [{ ...base, repository: "a/b" }, "repository", "repository may hold only"],
    [{ ...base, environment: "" }, "environment", "environment must not be empty"],
    [{ ...base, environment: " production" }, "environment", "must not start or end with spaces"],
    [{ ...base, environment: "e".repeat(256) }, "environment", "at most 255 characters"],
    [{ ...base, environment: 7 }, "environment", "environment is required"],
    [{ ...base, integrationId: "101" }, "integrationId", "integer id of an app"],
    [{ ...base, integrationId: 1.5 }, "integrationId", "must be an integer"],
    [{ ...base, integrationId: 0 }, "integrationId", "must be positive"],
    [{ owner: "acme-eng", repository: "api", integrationId: 101 }, "environment", "environment is required"],
    [{ owner: "acme-eng", repository: "api", environment: "production" }, "integrationId", "is required"],
  ])("refuses %j naming %s, with no request", async (news, property, reason) => {
    emulator.controls.clearLog();
    const result = await provider.check({}, news);
    const failure = result.failures?.find((f) => f.property === property);
    expect(failure?.reason).toContain(reason);
    expect(emulator.controls.counts().total).toBe(0);
  });

  it("lets values unknown during preview through untouched", async () => {
    const result = await provider.check({}, { ...base, integrationId: UNKNOWN });
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs).toEqual({ ...base, integrationId: UNKNOWN });
  });
});

describe("DeploymentProtectionRule diff", () => {
  const olds: DeploymentProtectionRuleOutputs = {
    ...base,
    ruleId: 5,
    enabled: true,
    app: { id: 101, slug: "deploy-gate", integrationUrl: "https://x.example/apps/deploy-gate" },
  };
  const id = "acme-eng/api/release%2Feu/5";

  it.each([
    [{ owner: "acme-ops" }, "owner"],
    [{ repository: "web" }, "repository"],
    [{ environment: "production" }, "environment"],
    [{ integrationId: 102 }, "integrationId"],
  ])("replaces on %j", async (change, field) => {
    const result = await provider.diff(id, olds, { ...base, ...change });
    expect(result).toEqual({ changes: true, replaces: [field], deleteBeforeReplace: false });
  });

  it("sees no change for the same arguments, or names respelled in another case", async () => {
    expect((await provider.diff(id, olds, base)).changes).toBe(false);
    const respelled = { ...base, owner: "Acme-Eng", repository: "API", environment: "Release/EU" };
    expect(await provider.diff(id, olds, respelled)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("reports a change when a value is still unknown", async () => {
    const result = await provider.diff(id, olds, { ...base, integrationId: UNKNOWN as never });
    expect(result.changes).toBe(true);
    expect(result.replaces).toEqual(["integrationId"]);
  });
});

describe("DeploymentProtectionRule lifecycle", () => {
  it("creates with one write (after looking for the app) and reads the rule back with no change", async () => {
    const inputs = await checked(base);
    emulator.controls.clearLog();
    const created = await provider.create(inputs);
    // The list first: an app already enabled there is adopted without a write.
    expect(emulator.controls.log.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${RELEASE}`,
      `POST ${RELEASE}`,
    ]);
    expect(created.id).toBe(`acme-eng/api/release%2Feu/${created.outs.ruleId}`);
    expect(created.outs).toEqual({
      ...base,
      ruleId: expect.any(Number),
      enabled: true,
      app: { id: 101, slug: "deploy-gate", integrationUrl: `${emulator.url}/apps/deploy-gate` },
    });
    const read = await provider.read(created.id, created.outs);
    expect(read).toEqual({ id: created.id, props: created.outs, inputs: base });
    expect((await provider.diff(created.id, read.props as never, inputs)).changes).toBe(false);
  });

  it("round-trips an environment name holding ':' and '/' through the id", async () => {
    await addEnvironment("canary:eu/1");
    const created = await provider.create(await checked({ ...base, environment: "canary:eu/1" }));
    expect(created.id).toBe(`acme-eng/api/canary%3Aeu%2F1/${created.outs.ruleId}`);
    const read = await provider.read(created.id);
    expect(read.props).toMatchObject({ environment: "canary:eu/1", ruleId: created.outs.ruleId });
    expect(serverRules()).toEqual([["canary:eu/1", 101]]);
  });

  it("reads by id alone (static get), taking the names from the id", async () => {
    const created = await provider.create(await checked(base));
    const read = await provider.read(created.id);
    expect(read.props).toEqual(created.outs);
  });

  it("refuses an id of the wrong form", async () => {
    await expect(provider.read("acme-eng/api/5")).rejects.toThrow(/owner\/repository\/environment\/ruleId/);
    await expect(provider.read("acme-eng/api/release%2Feu/x")).rejects.toThrow(/ruleId must be a positive/);
  });

  it("drops a rule deleted outside Pulumi on read, and delete of a gone rule succeeds", async () => {
    const created = await provider.create(await checked(base));
    await api(emulator, "DELETE", `${RELEASE}/${created.outs.ruleId}`);
    expect(await provider.read(created.id, created.outs)).toEqual({});
    await expect(provider.delete(created.id, created.outs)).resolves.toBeUndefined();
  });

  it("deletes the rule", async () => {
    const created = await provider.create(await checked(base));
    await provider.delete(created.id, created.outs);
    expect(serverRules()).toEqual([]);
  });

  it("update sends nothing and records the new spelling", async () => {
    const created = await provider.create(await checked(base));
    emulator.controls.clearLog();
    const news = await checked({ ...base, owner: "Acme-Eng" });
    const updated = await provider.update(created.id, created.outs, news);
    expect(updated.outs).toEqual({ ...created.outs, owner: "Acme-Eng" });
    expect(emulator.controls.counts().total).toBe(0);
  });

  it("adopts a rule already enabling the app on the environment, and says so", async () => {
    const existing = await api(emulator, "POST", RELEASE, { integration_id: 101 });
    const ruleId = (existing.body as { id: number }).id;
    const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const created = await provider.create(await checked(base));
    expect(created.outs.ruleId).toBe(ruleId);
    expect(serverRules()).toEqual([["release/eu", 101]]);
    expect(String(told.mock.calls[0]?.[0])).toMatch(
      new RegExp(`deploy-gate \\(101\\) was already enabled .* as rule ${ruleId}`),
    );
  });

  it("fails for an integration not available, listing those that are, with nothing created", async () => {
    const failure = provider.create(await checked({ ...base, integrationId: 999 }));
    await expect(failure).rejects.toThrow(
      /integrationId 999 is not available to environment "release\/eu" of acme-eng\/api; available: deploy-gate \(101\), change-window \(102\)/,
    );
    expect(serverRules()).toEqual([]);
    expect(requestCounts(emulator)).toEqual({
      [`POST ${COLLECTION}`]: 1,
      [`GET ${COLLECTION}`]: 2,
      [`GET ${COLLECTION}/apps`]: 1,
    });
  });

  it("names the environment when it does not exist", async () => {
    await expect(provider.create(await checked({ ...base, environment: "nowhere" }))).rejects.toThrow(
      /there is no environment "nowhere" in acme-eng\/api/,
    );
  });

  it.each([
    ["answered 502 after the write", { status: 502, when: "after" }],
    ["dropped after the write", { drop: true, when: "after" }],
    ["answered 502 before the write", { status: 502, when: "before" }],
  ])("never leaves a duplicate when the create is %s", async (_label, fault) => {
    await control(emulator, "POST", "/faults", { method: "POST", path: RELEASE, count: 1, ...fault });
    const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const created = await provider.create(await checked(base));
    expect(serverRules()).toEqual([["release/eu", 101]]);
    expect(emulator.store.state.protectionRules[0]?.id).toBe(created.outs.ruleId);
    // Finding its own rule after an ambiguous failure is no adoption worth telling.
    expect(told).not.toHaveBeenCalled();
  });

  it("gives up after repeated ambiguous failures without creating anything", async () => {
    await control(emulator, "POST", "/faults", { method: "POST", path: RELEASE, status: 503, count: 10 });
    await expect(provider.create(await checked(base))).rejects.toThrow(/503/);
    expect(serverRules()).toEqual([]);
    expect(requestCounts(emulator)[`POST ${COLLECTION}`]).toBe(3);
  });

  it("explains a token that may not administer the repository", async () => {
    useToken(emulator, "svcs_install");
    await expect(provider.create(await checked(base))).rejects.toThrow(/administration=write/);
    useToken(emulator, "svcp_member");
    await expect(provider.create(await checked(base))).rejects.toThrow(
      /\(2\) the token's user does not administer the repository/,
    );
    expect(serverRules()).toEqual([]);
  });
});
