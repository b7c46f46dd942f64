/**
 * Lifecycle of OrgPropertyValue and RepositoryPropertyValue: provider methods called directly
 * against the sandbox server. Check (names and value shapes, no request for bad input), diff (sets,
 * case, replacement), writes of one property only, the shared GET of a run, drift, the server's 422
 * naming the property, and destroy setting the value to null.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { UNKNOWN } from "../../../provider/internal/check";
import { sendNoticesTo } from "../../../provider/internal/context";
import {
  orgCustomPropertyProvider as definitionProvider,
  type OrgCustomPropertyInputs,
  type OrgPropertyValueInputs,
  orgPropertyValueProvider as orgProvider,
  type RepositoryPropertyValueInputs,
  repositoryPropertyValueProvider as repoProvider,
} from "../../../provider/resources/custom-properties";
import { forgetSharedReads } from "../../../provider/resources/custom-properties/shared";
import { control, requestCounts, useSandbox, useToken } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});
beforeEach(() => {
  // The sandbox server is reset before every test, behind the provider's back.
  forgetSharedReads();
});

const ORG_GET = "GET /organizations/{org}/org-properties/values";
const ORG_PATCH = "PATCH /organizations/{org}/org-properties/values";
const REPO_GET = "GET /repos/{owner}/{repo}/properties/values";
const REPO_PATCH = "PATCH /repos/{owner}/{repo}/properties/values";

/** Sets values as an administrator would on the web UI, outside Pulumi. */
async function setOutside(path: string, properties: unknown[], version = "2022-11-28"): Promise<void> {
  const response = await fetch(`${emulator.url}${path}`, {
    method: "PATCH",
    headers: {
      authorization: "Bearer svcp_siteadmin",
      "content-type": "application/json",
      "x-service-api-version": version,
    },
    body: JSON.stringify({ properties }),
  });
  expect(response.status, await response.text()).toBe(204);
}
const setOrgOutside = (org: string, properties: unknown[]) =>
  setOutside(`/organizations/${org}/org-properties/values`, properties, "2026-03-10");

/** The server's values of one organisation or repository (`owner/repo`), as name -> value. */
function serverValues(kind: "org" | "repo", target: string): Record<string, unknown> {
  const state = emulator.store.state;
  const list = kind === "org" ? state.orgPropertyValues : state.repoPropertyValues;
  return Object.fromEntries(list.filter((v) => v.target === target).map((v) => [v.name, v.value]));
}

async function checkedOrg(news: Record<string, unknown>): Promise<OrgPropertyValueInputs> {
  const result = await orgProvider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return orgProvider.inputsOf(result.inputs as OrgPropertyValueInputs);
}

async function checkedRepo(news: Record<string, unknown>): Promise<RepositoryPropertyValueInputs> {
  const result = await repoProvider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return repoProvider.inputsOf(result.inputs as RepositoryPropertyValueInputs);
}

const tier = { org: "acme-eng", propertyName: "tier", value: "gold" };
const regions = { org: "acme-eng", propertyName: "regions", value: ["eu", "us"] };
const repoTier = { owner: "acme-eng", repository: "api", propertyName: "tier", value: "silver" };

describe("property value check", () => {
  it("takes a string, a list, or no value (null or omitted)", async () => {
    expect(await checkedOrg(tier)).toEqual(tier);
    expect(await checkedOrg(regions)).toEqual(regions);
    expect(await checkedOrg({ ...tier, value: null })).toEqual({ ...tier, value: null });
    const { value: _omitted, ...noValue } = tier;
    expect(await checkedOrg(noValue)).toEqual({ ...tier, value: null });
    expect(await checkedRepo(repoTier)).toEqual(repoTier);
  });

  it.each([
    [{ ...tier, value: "" }, "value", "value must not be an empty string; use null to remove the value"],
    [{ ...tier, value: [] }, "value", "value must not be an empty list; use null to remove the value"],
    [
      { ...tier, value: 42 },
      "value",
      "value must be a string, a list of strings (a multi select property), or null",
    ],
    [{ ...tier, value: { gold: true } }, "value", "value must be a string, a list of strings"],
    [{ ...tier, value: ["eu", 3] }, "value", "value must be a string, a list of strings"],
    [{ ...tier, value: ["eu", ""] }, "value", `value must not hold empty strings (value[1] is "")`],
    [
      { ...tier, propertyName: "cost center" },
      "propertyName",
      `may hold only letters, digits, "_", "-", "$" and "#"`,
    ],
    [{ ...tier, propertyName: "x".repeat(76) }, "propertyName", "at most 75 characters"],
    [{ org: "acme-eng", value: "gold" }, "propertyName", "propertyName is required"],
    [{ ...tier, org: "acme/eng" }, "org", "org may hold only"],
  ])("refuses %j naming %s, with no request", async (news, property, reason) => {
    emulator.controls.clearLog();
    const result = await orgProvider.check({}, news);
    const failure = result.failures?.find((f) => f.property === property);
    expect(failure?.reason, JSON.stringify(result.failures)).toContain(reason);
    expect(emulator.controls.counts().total).toBe(0);
  });

  it("refuses a repository value without its repository, naming it", async () => {
    const { repository: _r, ...rest } = repoTier;
    const result = await repoProvider.check({}, rest);
    expect(result.failures?.map((f) => f.property)).toEqual(["repository"]);
  });

  it("lets values unknown during preview through untouched", async () => {
    const result = await orgProvider.check({}, { ...regions, value: [UNKNOWN, "eu"] });
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs?.value).toEqual([UNKNOWN, "eu"]);
  });
});

describe("property value diff", () => {
  const diff = (news: Partial<OrgPropertyValueInputs>, olds: OrgPropertyValueInputs = regions) =>
    orgProvider.diff("acme-eng/regions", olds, { ...olds, ...news });

  it("compares a multi select as a set", async () => {
    expect(await diff({ value: ["us", "eu", "us"] })).toMatchObject({ changes: false });
    expect(await diff({ value: ["eu"] })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("sees a value removed (null) as a change in place", async () => {
    expect(await diff({ value: null })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect(await diff({ value: null }, { ...regions, value: null })).toMatchObject({ changes: false });
  });

  it("replaces on another organisation or property, never on the organisation's spelling", async () => {
    expect((await diff({ org: "acme-ops" })).replaces).toEqual(["org"]);
    expect((await diff({ propertyName: "tier", value: "gold" })).replaces).toEqual(["propertyName"]);
    expect(await diff({ org: "ACME-Eng" })).toMatchObject({ changes: false });
    const repo = await repoProvider.diff("acme-eng/api/tier", repoTier, {
      ...repoTier,
      owner: "Acme-Eng",
      repository: "API",
    });
    expect(repo.changes).toBe(false);
  });
});

describe("OrgPropertyValue lifecycle", () => {
  it("creates with one PATCH of that property only, leaving the others as they are", async () => {
    await setOrgOutside("acme-eng", [{ property_name: "cost_center", value: "cc-1" }]);
    emulator.controls.clearLog();
    const result = await orgProvider.create(await checkedOrg(tier));
    expect(result).toEqual({ id: "acme-eng/tier", outs: tier });
    expect(serverValues("org", "acme-eng")).toEqual({ cost_center: "cc-1", tier: "gold" });
    // The collection's values first: a value already set is adopted without a write.
    expect(requestCounts(emulator)).toEqual({ [ORG_GET]: 1, [ORG_PATCH]: 1 });
    // Its X-Service-Api-Version: the route exists in 2026-03-10 only.
    expect(emulator.controls.log.map((r) => r.status)).toEqual([200, 204]);
  });

  it("adopts an existing value by construction: create sets it whatever it was", async () => {
    await setOrgOutside("acme-eng", [{ property_name: "tier", value: "bronze" }]);
    await orgProvider.create(await checkedOrg(tier));
    expect(serverValues("org", "acme-eng")).toEqual({ tier: "gold" });
  });

  it("creates two values of one organisation at once without either clobbering the other", async () => {
    const [a, b] = await Promise.all([
      orgProvider.create(await checkedOrg(tier)),
      orgProvider.create(await checkedOrg(regions)),
    ]);
    expect([a.id, b.id]).toEqual(["acme-eng/tier", "acme-eng/regions"]);
    expect(serverValues("org", "acme-eng")).toEqual({ tier: "gold", regions: ["eu", "us"] });
  });

  it("shares one GET among the reads of one organisation, and asks again after a write", async () => {
    const made = await Promise.all([tier, regions].map(async (v) => orgProvider.create(await checkedOrg(v))));
    emulator.controls.clearLog();
    const reads = await Promise.all(made.map((m) => orgProvider.read(m.id, m.outs)));
    expect(reads.map((r) => r.props)).toEqual([tier, regions]);
    const later = await orgProvider.read("acme-eng/cost_center", { ...tier, propertyName: "cost_center" });
    expect(later.props).toEqual({ org: "acme-eng", propertyName: "cost_center", value: null });
    expect(requestCounts(emulator)).toEqual({ [ORG_GET]: 1 });

    // Another organisation is another collection.
    await orgProvider.read("acme-ops/tier");
    expect(requestCounts(emulator)[ORG_GET]).toBe(2);

    // This process's own write makes the shared answer stale.
    await orgProvider.update("acme-eng/tier", tier, { ...tier, value: "silver" });
    const after = await orgProvider.read("acme-eng/tier", tier);
    expect(after.props?.value).toBe("silver");
    expect(requestCounts(emulator)).toEqual({ [ORG_GET]: 3, [ORG_PATCH]: 1 });
  });

  it("reads a value changed or removed outside Pulumi as drift on value", async () => {
    const { id, outs } = await orgProvider.create(await checkedOrg(regions));
    await setOrgOutside("acme-eng", [{ property_name: "regions", value: ["apac"] }]);
    const changed = await orgProvider.read(id, outs);
    expect(changed.props).toEqual({ ...regions, value: ["apac"] });
    expect(changed.inputs).toEqual({ ...regions, value: ["apac"] });
    expect((await orgProvider.diff(id, changed.props as OrgPropertyValueInputs, regions)).changes).toBe(true);

    forgetSharedReads();
    await setOrgOutside("acme-eng", [{ property_name: "regions", value: null }]);
    const removed = await orgProvider.read(id, outs);
    expect(removed).toMatchObject({ id, props: { ...regions, value: null } });
    const update = await orgProvider.update(id, removed.props as OrgPropertyValueInputs, regions);
    expect(update.outs).toEqual(regions);
    expect(serverValues("org", "acme-eng")).toEqual({ regions: ["eu", "us"] });
  });

  it("reads by id alone (static get) and keeps the program's spelling from state", async () => {
    await setOrgOutside("acme-eng", [{ property_name: "tier", value: "bronze" }]);
    expect((await orgProvider.read("acme-eng/tier")).props).toEqual({ ...tier, value: "bronze" });
    const recorded = { ...tier, org: "Acme-Eng" };
    expect((await orgProvider.read("acme-eng/tier", recorded)).props).toEqual({
      ...recorded,
      value: "bronze",
    });
  });

  it("finds nothing to import for a property without a value, or one that is not defined", async () => {
    // Both read the same from the list (it leaves out properties without a value): not found, as
    // every other kind answers `pulumi import` for an id that names nothing.
    expect(await orgProvider.read("acme-eng/no_such_prop")).toEqual({});
    expect(await orgProvider.read("acme-eng/cost_center")).toEqual({});
    expect(await repoProvider.read("acme-eng/api/no_such_prop")).toEqual({});
  });

  it("drops the resource when the organisation is gone", async () => {
    expect(await orgProvider.read("gone-org/tier", { ...tier, org: "gone-org" })).toEqual({});
  });

  it("fails clearly for an organisation outside any enterprise (solo), changing nothing", async () => {
    const inputs = await checkedOrg({ ...tier, org: "solo" });
    await expect(orgProvider.create(inputs)).rejects.toThrow(
      "OrgPropertyValue solo/tier: not found, or not allowed to this token. Likely causes, in order: (1) there is no organisation solo, or it does not belong to an enterprise",
    );
    expect(emulator.store.state.orgPropertyValues).toEqual([]);
  });

  it("passes on the server's refusal of a value, naming the property and what it allows", async () => {
    const platinum = orgProvider.create(await checkedOrg({ ...tier, value: "platinum" }));
    await expect(platinum).rejects.toThrow('tier: "platinum" is not one of gold, silver, bronze');
    const list = orgProvider.create(await checkedOrg({ ...tier, value: ["gold"] }));
    await expect(list).rejects.toThrow("tier takes one value (a string)");
    const unknown = orgProvider.create(await checkedOrg({ ...tier, propertyName: "colour", value: "red" }));
    await expect(unknown).rejects.toThrow("colour is not a custom property of the enterprise acme");
    expect(emulator.store.state.orgPropertyValues).toEqual([]);
  });

  it("destroys by setting the value to null, leaving the other properties", async () => {
    await setOrgOutside("acme-eng", [{ property_name: "cost_center", value: "cc-1" }]);
    const { id, outs } = await orgProvider.create(await checkedOrg(tier));
    emulator.controls.clearLog();
    await orgProvider.delete(id, outs);
    expect(serverValues("org", "acme-eng")).toEqual({ cost_center: "cc-1" });
    expect(requestCounts(emulator)).toEqual({ [ORG_PATCH]: 1 });
    // Already without a value, or the organisation gone: nothing to do.
    await orgProvider.delete(id, outs);
    await orgProvider.delete("gone-org/tier", { ...tier, org: "gone-org" });
  });

  it("destroys a value whose property definition was deleted (the server refuses even null)", async () => {
    const { id, outs } = await orgProvider.create(await checkedOrg(tier));
    const acme = emulator.store.state.fixture.enterprises[0];
    if (!acme) throw new Error("fixture without enterprise acme");
    acme.properties = acme.properties.filter((p) => p.name !== "tier");
    emulator.store.state.orgPropertyValues = [];
    await orgProvider.delete(id, outs);
    // One read by create, one by delete after the refusal (create's own write made the first stale).
    expect(requestCounts(emulator)[ORG_GET]).toBe(2);
  });

  it("fails to destroy when the server refuses null and the value is still there", async () => {
    const { id, outs } = await orgProvider.create(await checkedOrg(tier));
    const path = "/organizations/acme-eng/org-properties/values";
    await control(emulator, "POST", "/faults", { method: "PATCH", path, status: 422 });
    await expect(orgProvider.delete(id, outs)).rejects.toThrow("Injected fault (status 422)");
    expect(serverValues("org", "acme-eng")).toEqual({ tier: "gold" });
  });
});

describe("RepositoryPropertyValue lifecycle", () => {
  it("creates, reads with one shared GET per repository, updates and destroys", async () => {
    const inputs = await checkedRepo(repoTier);
    const cost = await checkedRepo({ ...repoTier, propertyName: "cost_center", value: "cc-7" });
    emulator.controls.clearLog();
    const made = await Promise.all([repoProvider.create(inputs), repoProvider.create(cost)]);
    expect(made.map((m) => m.id)).toEqual(["acme-eng/api/tier", "acme-eng/api/cost_center"]);
    expect(serverValues("repo", "acme-eng/api")).toEqual({ tier: "silver", cost_center: "cc-7" });

    const reads = await Promise.all(made.map((m) => repoProvider.read(m.id, m.outs)));
    expect(reads.map((r) => r.props)).toEqual([inputs, cost]);
    // One GET shared by both creates, one shared by both reads (the writes made the first stale).
    expect(requestCounts(emulator)).toEqual({ [REPO_PATCH]: 2, [REPO_GET]: 2 });

    const updated = await repoProvider.update("acme-eng/api/tier", inputs, { ...inputs, value: "gold" });
    expect(updated.outs.value).toBe("gold");
    await repoProvider.delete("acme-eng/api/tier", updated.outs);
    expect(serverValues("repo", "acme-eng/api")).toEqual({ cost_center: "cc-7" });
  });

  it("reads a value removed outside Pulumi as null, and a deleted repository as gone", async () => {
    const { id, outs } = await repoProvider.create(await checkedRepo(repoTier));
    await setOutside("/repos/acme-eng/api/properties/values", [{ property_name: "tier", value: null }]);
    expect((await repoProvider.read(id, outs)).props).toEqual({ ...repoTier, value: null });
    expect(await repoProvider.read("acme-eng/gone/tier")).toEqual({});
  });

  it("fails clearly when the token cannot administer the repository", async () => {
    useToken(emulator, "svcp_member");
    const inputs = await checkedRepo(repoTier);
    await expect(repoProvider.create(inputs)).rejects.toThrow(
      "RepositoryPropertyValue acme-eng/api/tier: not found, or not allowed to this token. Likely causes, in order: (1) there is no repository acme-eng/api; (2) the token's user cannot administer the repository",
    );
  });

  it("passes on the server's refusal of a property the organisation does not define", async () => {
    const inputs = await checkedRepo({ ...repoTier, propertyName: "regions", value: ["eu"] });
    await expect(repoProvider.create(inputs)).rejects.toThrow(
      "regions is not a custom property of the organisation acme-eng",
    );
  });
});

describe("OrgCustomProperty", () => {
  const ENVIRONMENT = {
    org: "acme-eng",
    propertyName: "environment",
    valueType: "single_select",
    required: true,
    defaultValue: "dev",
    allowedValues: ["prod", "dev"],
  };

  async function checkedDefinition(news: Record<string, unknown>): Promise<OrgCustomPropertyInputs> {
    const result = await definitionProvider.check({}, news);
    expect(result.failures ?? []).toEqual([]);
    return result.inputs as OrgCustomPropertyInputs;
  }

  const definitionOf = (name: string) =>
    emulator.store.state.fixture.orgs
      .find((o) => o.login === "acme-eng")
      ?.repositoryProperties.find((d) => d.name === name);

  it.each([
    [
      { ...ENVIRONMENT, allowedValues: undefined },
      "allowedValues",
      "allowedValues are required by a single_select property",
    ],
    [
      { ...ENVIRONMENT, valueType: "string" },
      "allowedValues",
      "a string property takes no allowedValues; leave them out",
    ],
    [{ ...ENVIRONMENT, defaultValue: undefined }, "defaultValue", "a required property needs a defaultValue"],
    [
      { ...ENVIRONMENT, defaultValue: "staging" },
      "defaultValue",
      'defaultValue: "staging" is not one of prod, dev',
    ],
    [{ ...ENVIRONMENT, allowedValues: ["a", "a"] }, "allowedValues", "allowedValues must not repeat a value"],
    [
      { ...ENVIRONMENT, valueType: "boolean" },
      "valueType",
      'valueType must be one of "string", "single_select", "multi_select", "true_false"',
    ],
    [
      { org: "acme-eng", propertyName: "ok", valueType: "true_false", defaultValue: "yes" },
      "defaultValue",
      'takes "true" or "false"',
    ],
  ])("refuses %j naming %s, with no request", async (news, property, reason) => {
    const result = await definitionProvider.check({}, news);
    expect(
      result.failures?.find((f) => f.property === property)?.reason,
      JSON.stringify(result.failures),
    ).toContain(reason);
    expect(emulator.controls.counts().total).toBe(0);
  });

  it("creates a definition, reads it back unchanged, updates and deletes it with its values", async () => {
    const written = await checkedDefinition(ENVIRONMENT);
    const { id, outs } = await definitionProvider.create(written);
    expect(id).toBe("acme-eng/environment");
    expect(definitionOf("environment")).toMatchObject({
      valueType: "single_select",
      required: true,
      defaultValue: "dev",
    });
    const read = await definitionProvider.read(id, outs);
    expect(read.inputs).toEqual(written);
    expect(await definitionProvider.diff(id, read.props as OrgCustomPropertyInputs, written)).toMatchObject({
      changes: false,
    });

    await repoProvider.create(await checkedRepo({ ...repoTier, propertyName: "environment", value: "prod" }));
    const wider = { ...written, allowedValues: ["prod", "dev", "qa"] };
    expect(
      (await definitionProvider.update(id, outs, definitionProvider.inputsOf(wider))).outs.allowedValues,
    ).toEqual(["prod", "dev", "qa"]);
    expect(serverValues("repo", "acme-eng/api")).toEqual({ environment: "prod" });
    await definitionProvider.delete(id, outs);
    expect(definitionOf("environment")).toBeUndefined();
    expect(serverValues("repo", "acme-eng/api")).toEqual({});
    expect(await definitionProvider.read(id, outs)).toEqual({});
  });

  it("adopts the fixture's definition without a write when it says the same", async () => {
    emulator.controls.clearLog();
    const tierDefinition = {
      org: "acme-eng",
      propertyName: "tier",
      valueType: "single_select",
      allowedValues: ["gold", "silver", "bronze"],
    };
    await definitionProvider.create(definitionProvider.inputsOf(await checkedDefinition(tierDefinition)));
    expect(requestCounts(emulator)).toEqual({
      "GET /orgs/{org}/properties/schema/{custom_property_name}": 1,
    });
  });

  it("reads a definition changed outside Pulumi as drift on the field that changed", async () => {
    const written = await checkedDefinition(ENVIRONMENT);
    const { id, outs } = await definitionProvider.create(written);
    await setOutside("/repos/acme-eng/api/properties/values", []);
    const response = await fetch(`${emulator.url}/orgs/acme-eng/properties/schema/environment`, {
      method: "PUT",
      headers: { authorization: "Bearer svcp_siteadmin", "content-type": "application/json" },
      body: JSON.stringify({
        value_type: "single_select",
        required: true,
        default_value: "prod",
        allowed_values: ["prod", "dev"],
      }),
    });
    expect(response.status).toBe(200);
    const read = await definitionProvider.read(id, outs);
    expect(definitionProvider.changedFields(read.props as OrgCustomPropertyInputs, written)).toEqual([
      "defaultValue",
    ]);
  });
});

describe("RepositoryPropertyValue and its definition", () => {
  it("refuses at preview a value outside the known definition's allowed values, naming them", async () => {
    const result = await repoProvider.check({}, { ...repoTier, value: "platinum" });
    expect(result.failures).toEqual([
      { property: "value", reason: 'tier: "platinum" is not one of gold, silver, bronze' },
    ]);
    // One read of the organisation's definitions, shared by the values of a run.
    await repoProvider.check({}, { ...repoTier, repository: "web", value: "gold" });
    expect(requestCounts(emulator)).toEqual({ "GET /orgs/{org}/properties/schema": 1 });
  });

  it("sends nothing at preview for an unchanged value, or one whose property name is still unknown", async () => {
    emulator.controls.clearLog();
    await repoProvider.check(repoTier, repoTier);
    await repoProvider.check({}, { ...repoTier, propertyName: UNKNOWN });
    expect(emulator.controls.counts().total).toBe(0);
  });

  it("tells at preview of a property not defined yet, and its create fails clearly", async () => {
    const notices: string[] = [];
    sendNoticesTo((m) => notices.push(m));
    try {
      const result = await repoProvider.check(
        {},
        { ...repoTier, propertyName: "environment", value: "prod" },
      );
      expect(result.failures ?? []).toEqual([]);
    } finally {
      sendNoticesTo(undefined);
    }
    expect(notices).toEqual([
      "RepositoryPropertyValue acme-eng/api/environment: acme-eng defines no property environment yet; if an OrgCustomProperty of this program defines it, pass its propertyName output so the value waits for it",
    ]);
    const inputs = repoProvider.inputsOf({ ...repoTier, propertyName: "environment", value: "prod" });
    await expect(repoProvider.create(inputs)).rejects.toThrow(
      "environment is not a custom property of the organisation acme-eng",
    );
  });
});
