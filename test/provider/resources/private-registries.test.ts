/**
 * Lifecycle of PrivateRegistry: provider methods called directly against the sandbox server, as
 * the engine would call them. The value is sealed on the client, opened by the server (which the
 * tests read through a control), and never kept: check leaves only its digest.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { ROUTES } from "../../../api";
import type { RunningEmulator } from "../../../emulator/index";
import { UNKNOWN } from "../../../provider/internal/check";
import { client } from "../../../provider/internal/context";
import { forgetPublicKey } from "../../../provider/internal/sealed-box";
import { digestOf, isDigest } from "../../../provider/internal/secret-digest";
import {
  type PrivateRegistryInputs,
  type PrivateRegistryOutputs,
  privateRegistryProvider as provider,
} from "../../../provider/resources/private-registries";
import { api, control, requestCounts, useSandbox, useToken } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

beforeEach(() => {
  // Every test starts from a fresh server, hence a fresh key: forget the one this process fetched.
  if (emulator) forgetPublicKey(client(), ROUTES.privateRegistries.publicKey, { org: "acme-eng" });
});

/** check digests every value with scrypt (at the lowered cost of test/in-process.ts; a busy machine slows it). */
const SCRYPT_TIMEOUT_MS = 60_000;

const VALUE = "npm-token-5b7c-plaintext";
const base = {
  org: "acme-eng",
  registryType: "npm_registry",
  url: "https://npm.example.com",
  visibility: "all",
};
const azure = { ...base, authType: "oidc_azure", tenantId: "tenant-1", clientId: "client-1" };

async function checked(news: Record<string, unknown>, olds: Record<string, unknown> = {}) {
  const result = await provider.check(olds, news);
  expect(result.failures ?? []).toEqual([]);
  return provider.inputsOf(result.inputs as PrivateRegistryInputs);
}

function held(name: string): string | null | undefined {
  return emulator.store.state.privateRegistries.find((r) => r.name === name)?.value;
}

function counts(): Record<string, number> {
  const byRoute = requestCounts(emulator);
  emulator.controls.clearLog();
  return byRoute;
}

const KEY = "GET /orgs/{org}/private-registries/public-key";
const POST = "POST /orgs/{org}/private-registries";
const PATCH = "PATCH /orgs/{org}/private-registries/{secret_name}";
const GET = "GET /orgs/{org}/private-registries/{secret_name}";

describe("PrivateRegistry check", { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it("applies the defaults and replaces the value by its digest", async () => {
    const inputs = await checked({ ...base, value: VALUE });
    expect(inputs).toEqual({ ...base, replacesBase: false, authType: "token", value: expect.any(String) });
    expect(isDigest(inputs.value)).toBe(true);
    expect(JSON.stringify(inputs)).not.toContain(VALUE);
  });

  it("keeps the recorded digest while the value is unchanged, and makes a new one when it changes", async () => {
    const first = await checked({ ...base, value: VALUE });
    expect((await checked({ ...base, value: VALUE }, first)).value).toBe(first.value);
    const changed = await checked({ ...base, value: "another" }, first);
    expect(changed.value).not.toBe(first.value);
    expect(isDigest(changed.value)).toBe(true);
  });

  it("keeps a recorded digest the engine hands back (ignoreChanges on value)", async () => {
    const first = await checked({ ...base, value: VALUE });
    expect((await checked({ ...base, value: first.value }, first)).value).toBe(first.value);
  });

  it.each([
    [{ ...base, registryType: "apt" }, "registryType", '"npm_registry"'],
    [{ ...base, visibility: "internal" }, "visibility", '"all", "private", "selected"'],
    [{ ...base, url: "npm.example.com" }, "url", "absolute http(s) URL"],
    [{ ...base, authType: "basic" }, "authType", '"token", "username_password"'],
    [{ ...base, username: "" }, "username", "must not be empty"],
    [{ ...base, replacesBase: "yes" }, "replacesBase", "boolean"],
    [{ ...base, org: "a/b" }, "org", "org may hold only"],
    [{ ...base, importId: "npm registry" }, "importId", "secret name"],
    [{ ...base, selectedRepositoryIds: [1000] }, "selectedRepositoryIds", 'only with visibility "selected"'],
    [{ ...base }, "value", 'required with authType "token"'],
    [{ ...base, authType: "username_password", username: "ci" }, "value", "required"],
    [{ ...azure, value: VALUE }, "value", "not used with"],
    [{ ...azure, tenantId: undefined }, "tenantId", 'required with authType "oidc_azure"'],
    [{ ...azure, serviceSlug: "s" }, "serviceSlug", '"oidc_cloudsmith"'],
    [{ ...base, value: VALUE, audience: "a" }, "audience", 'authType is "token"'],
    [{ ...base, authType: "oidc_cloudsmith", namespace: "n", serviceSlug: "s" }, "audience", "required"],
    [{ ...base, value: 42 }, "value", "value must be a string"],
  ])("refuses %j naming %s, with no request", async (news, property, reason) => {
    emulator.controls.clearLog();
    const result = await provider.check({}, news);
    // A secret field is named in the reason, not as the property whose value the engine prints.
    const named = property === "value" ? "" : property;
    const failure = result.failures?.find((f) => f.property === named && f.reason.startsWith(property));
    expect(failure?.reason, JSON.stringify(result.failures)).toContain(reason);
    expect(emulator.controls.counts().total).toBe(0);
    expect(JSON.stringify(result)).not.toContain(VALUE);
  });

  it("lets unknown values through untouched and skips the rules that need them", async () => {
    const result = await provider.check({}, { ...base, value: UNKNOWN, authType: UNKNOWN, url: UNKNOWN });
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs).toMatchObject({ value: UNKNOWN, authType: UNKNOWN, url: UNKNOWN });
  });

  it("defaults selectedRepositoryIds to [] with visibility selected", async () => {
    expect((await checked({ ...azure, visibility: "selected" })).selectedRepositoryIds).toEqual([]);
  });
});

describe("PrivateRegistry diff", { timeout: SCRYPT_TIMEOUT_MS }, () => {
  const olds = async () => ({
    ...(await checked({
      ...base,
      value: VALUE,
      visibility: "selected",
      selectedRepositoryIds: [1000, 1001],
    })),
    name: "NPM_REGISTRY_SECRET",
    createdAt: "",
    updatedAt: "",
  });

  it("sees no change for the same inputs, reordered ids or the org respelled", async () => {
    const before = await olds();
    const news = await checked(
      { ...base, org: "ACME-ENG", value: VALUE, visibility: "selected", selectedRepositoryIds: [1001, 1000] },
      before,
    );
    expect(await provider.diff("acme-eng/NPM_REGISTRY_SECRET", before, news)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("updates on a value changed in code, and replaces on authType or registryType", async () => {
    const before = await olds();
    const selected = { visibility: "selected", selectedRepositoryIds: [1000, 1001] };
    const value = await checked({ ...base, ...selected, value: "new" }, before);
    expect(await provider.diff("id", before, value)).toMatchObject({ changes: true, replaces: [] });
    const auth = await checked(
      { ...base, ...selected, authType: "username_password", username: "u", value: VALUE },
      before,
    );
    expect((await provider.diff("id", before, auth)).replaces).toEqual(["authType"]);
    const type = await checked(
      { ...base, ...selected, registryType: "maven_repository", value: VALUE },
      before,
    );
    expect((await provider.diff("id", before, type)).replaces).toEqual(["registryType"]);
  });
});

describe("PrivateRegistry lifecycle", { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it("creates with the public key and one POST; the server holds exactly the value, state only its digest", async () => {
    const inputs = await checked({ ...base, value: VALUE, username: "ci" });
    emulator.controls.clearLog();
    const created = await provider.create(inputs);
    expect(counts()).toEqual({ [KEY]: 1, [POST]: 1 });
    expect(created.id).toBe("acme-eng/NPM_REGISTRY_SECRET");
    expect(created.outs).toMatchObject({
      ...inputs,
      name: "NPM_REGISTRY_SECRET",
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(held("NPM_REGISTRY_SECRET")).toBe(VALUE);
    expect(JSON.stringify(created)).not.toContain(VALUE);

    // A second registry of the organisation in the same run reuses the key.
    await provider.create(
      await checked({ ...base, registryType: "docker_registry", value: "docker-secret" }),
    );
    expect(counts()).toEqual({ [POST]: 1 });
    expect(held("DOCKER_REGISTRY_SECRET")).toBe("docker-secret");
  });

  it("reads back with no change, and sees url and visibility changed outside Pulumi", async () => {
    const inputs = await checked({ ...base, value: VALUE });
    const created = await provider.create(inputs);
    const clean = await provider.read(created.id, created.outs);
    expect(clean.inputs).toEqual(inputs);
    expect((await provider.diff(created.id, clean.props as PrivateRegistryOutputs, inputs)).changes).toBe(
      false,
    );

    await api(emulator, "PATCH", "/orgs/acme-eng/private-registries/NPM_REGISTRY_SECRET", {
      url: "https://elsewhere.example.com",
      visibility: "private",
    });
    const drifted = await provider.read(created.id, created.outs);
    expect(drifted.props).toMatchObject({
      url: "https://elsewhere.example.com",
      visibility: "private",
      value: inputs.value,
    });
    expect((await provider.diff(created.id, drifted.props as PrivateRegistryOutputs, inputs)).changes).toBe(
      true,
    );

    emulator.controls.clearLog();
    const updated = await provider.update(created.id, drifted.props as PrivateRegistryOutputs, inputs);
    expect(counts()).toEqual({ [PATCH]: 1, [GET]: 1 });
    expect(updated.outs).toMatchObject({ url: base.url, visibility: "all", value: inputs.value });
    expect(held("NPM_REGISTRY_SECRET")).toBe(VALUE);
  });

  it("sends a value changed in code, sealed, and the server holds the new one", async () => {
    const first = await checked({ ...base, value: VALUE });
    const created = await provider.create(first);
    const next = await checked({ ...base, value: "rotated-token" }, first);
    const updated = await provider.update(created.id, created.outs, next);
    expect(held("NPM_REGISTRY_SECRET")).toBe("rotated-token");
    expect(updated.outs.value).toBe(next.value);
    expect(JSON.stringify(updated)).not.toContain("rotated-token");
  });

  it("fetches the key again when it was rotated since, and sends once more", async () => {
    const first = await checked({ ...base, value: VALUE });
    const created = await provider.create(first);
    await control(emulator, "POST", "/orgs/acme-eng/private-registries/public-key/rotate");
    emulator.controls.clearLog();
    const next = await checked({ ...base, value: "after-rotation" }, first);
    await provider.update(created.id, created.outs, next);
    expect(counts()).toEqual({ [PATCH]: 2, [KEY]: 1, [GET]: 1 });
    expect(held("NPM_REGISTRY_SECRET")).toBe("after-rotation");
  });

  it("fails clearly when the value to send is not known to this run", async () => {
    const inputs = { ...(await checked({ ...base, value: VALUE })), value: await digestOf("made elsewhere") };
    emulator.controls.clearLog();
    const error = await provider.create(inputs).catch((e: unknown) => e);
    expect(String(error)).toMatch(/not known to this run/);
    expect(emulator.controls.counts().total).toBe(0);
  });

  it("runs an OIDC registry without any key request, and clears an optional setting left out", async () => {
    const inputs = await checked({
      ...base,
      authType: "oidc_gcp",
      workloadIdentityProvider: "wip",
      audience: "a",
    });
    emulator.controls.clearLog();
    const created = await provider.create(inputs);
    expect(counts()).toEqual({ [POST]: 1 });
    expect(held(created.outs.name)).toBeNull();
    const next = await checked({ ...base, authType: "oidc_gcp", workloadIdentityProvider: "wip" }, inputs);
    expect((await provider.diff(created.id, created.outs, next)).changes).toBe(true);
    const updated = await provider.update(created.id, created.outs, next);
    expect(updated.outs.audience).toBeUndefined();
    expect(counts()).toEqual({ [PATCH]: 1, [GET]: 1 });
  });

  it("manages selected repositories as a set", async () => {
    const inputs = await checked({ ...azure, visibility: "selected", selectedRepositoryIds: [1001, 1000] });
    const created = await provider.create(inputs);
    expect(created.outs.selectedRepositoryIds).toEqual([1001, 1000]);
    await api(emulator, "PATCH", `/orgs/acme-eng/private-registries/${created.outs.name}`, {
      selected_repository_ids: [1000],
    });
    const read = await provider.read(created.id, created.outs);
    expect(read.props?.selectedRepositoryIds).toEqual([1000]);
    expect((await provider.diff(created.id, read.props as PrivateRegistryOutputs, inputs)).changes).toBe(
      true,
    );
  });

  it("drops a registry deleted outside Pulumi on read; delete of a gone one succeeds", async () => {
    const created = await provider.create(await checked({ ...base, value: VALUE }));
    await api(emulator, "DELETE", "/orgs/acme-eng/private-registries/NPM_REGISTRY_SECRET");
    expect(await provider.read(created.id, created.outs)).toEqual({});
    await expect(provider.delete(created.id, created.outs)).resolves.toBeUndefined();
  });

  it("deletes the registry", async () => {
    const created = await provider.create(await checked({ ...base, value: VALUE }));
    await provider.delete(created.id, created.outs);
    expect(emulator.store.state.privateRegistries).toEqual([]);
  });

  it("reads by id alone (static get)", async () => {
    const created = await provider.create(await checked({ ...azure, username: "u" }));
    const read = await provider.read(created.id);
    expect(read.props).toMatchObject({
      org: "acme-eng",
      registryType: "npm_registry",
      username: "u",
      tenantId: "tenant-1",
    });
  });

  it("adopts an existing registry with importId, converging it and sending the value", async () => {
    await provider.create(await checked({ ...base, value: "old", url: "https://old.example.com" }));
    const inputs = await checked({ ...base, value: VALUE, importId: "NPM_REGISTRY_SECRET" });
    const adopted = await provider.create(inputs);
    expect(adopted.id).toBe("acme-eng/NPM_REGISTRY_SECRET");
    expect(adopted.outs.url).toBe(base.url);
    expect(held("NPM_REGISTRY_SECRET")).toBe(VALUE);
    expect(emulator.store.state.privateRegistries).toHaveLength(1);
  });

  it("refuses to adopt a registry of another auth type, before any write", async () => {
    await provider.create(await checked(azure));
    emulator.controls.clearLog();
    const inputs = await checked({ ...base, value: VALUE, importId: "NPM_REGISTRY_SECRET" });
    await expect(provider.create(inputs)).rejects.toThrow(/authType is "oidc_azure".*cannot change/);
    // One read by check (what adopting changes), one by create.
    expect(emulator.controls.counts().byMethod).toEqual({ GET: 2 });
  });

  it("names importId when there is no such registry, at preview and at create", async () => {
    const news = { ...base, value: VALUE, importId: "NOPE_SECRET" };
    const preview = await provider.check({}, news);
    expect(preview.failures?.[0]).toMatchObject({
      property: "importId",
      reason: expect.stringMatching(/NOPE_SECRET/),
    });
    // check puts the value's digest in its place; create then finds no registry to adopt.
    const checkedValue = await checked({ ...base, value: VALUE });
    await expect(provider.create({ ...checkedValue, importId: "NOPE_SECRET" })).rejects.toThrow(
      /importId NOPE_SECRET/,
    );
  });

  it.each([
    ["answered 502 after the write", { status: 502, when: "after" }],
    ["dropped after the write", { drop: true, when: "after" }],
    ["answered 502 before the write", { status: 502, when: "before" }],
  ])("never leaves a duplicate when the create is %s", async (_label, fault) => {
    await control(emulator, "POST", "/faults", {
      method: "POST",
      path: "/orgs/acme-eng/private-registries",
      count: 1,
      ...fault,
    });
    const created = await provider.create(await checked({ ...base, value: VALUE }));
    expect(emulator.store.state.privateRegistries).toHaveLength(1);
    expect(created.outs.name).toBe("NPM_REGISTRY_SECRET");
    expect(held("NPM_REGISTRY_SECRET")).toBe(VALUE);
  });

  it("keeps the value out of errors, naming what the endpoint needs", async () => {
    const inputs = await checked({ ...base, value: VALUE });
    useToken(emulator, "svcp_member");
    const error = await provider.create(inputs).catch((e: unknown) => e);
    expect(String(error)).toMatch(/admin:org/);
    expect(`${String(error)} ${JSON.stringify(error)}`).not.toContain(VALUE);
  });
});
