/**
 * Lifecycle of the Actions kinds (OrgActionsSecret, RepositoryActionsSecret,
 * EnvironmentActionsSecret, OrgActionsVariable, RepositoryActionsVariable,
 * EnvironmentActionsVariable): provider methods called directly against the sandbox server, as
 * the engine calls them. Secret values are sealed on the client, opened by the server (which the
 * tests read through a control) and never kept: check leaves their digest, and a value changed
 * outside Pulumi is seen through `updatedAt`. Names as the platform keeps them, selected
 * repositories as sets, environments that go away, keys that rotate.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { ROUTES } from "../../../api";
import { dropEnvironmentActions } from "../../../emulator/families/actions";
import type { RunningEmulator } from "../../../emulator/index";
import { UNKNOWN } from "../../../provider/internal/check";
import { client } from "../../../provider/internal/context";
import type { AnyHostingProvider } from "../../../provider/internal/lifecycle";
import { forgetPublicKey } from "../../../provider/internal/sealed-box";
import { digestOf, isDigest } from "../../../provider/internal/secret-digest";
import {
  environmentActionsSecretProvider,
  environmentActionsVariableProvider,
  orgActionsSecretProvider,
  orgActionsVariableProvider,
  repositoryActionsSecretProvider,
  repositoryActionsVariableProvider,
  VALUE_SET_OUTSIDE,
} from "../../../provider/resources/actions";
import { api, control, requestCounts, useSandbox, useToken } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

beforeEach(() => {
  // Every test starts from a fresh server, hence fresh keys: forget those this process fetched.
  if (!emulator) return;
  const c = client();
  forgetPublicKey(c, ROUTES.orgActionsSecrets.publicKey, { org: "acme-eng" });
  forgetPublicKey(c, ROUTES.repoActionsSecrets.publicKey, { owner: "acme-eng", repo: "api" });
  for (const environment_name of ["release/eu", "production"]) {
    forgetPublicKey(c, ROUTES.envActionsSecrets.publicKey, {
      owner: "acme-eng",
      repo: "api",
      environment_name,
    });
  }
});

/** check digests every secret value with scrypt (at the lowered cost of test/in-process.ts; a busy machine slows it). */
const SCRYPT_TIMEOUT_MS = 60_000;

const VALUE = "deploy-s3cret-9c2e-plaintext";
const ORG = { org: "acme-eng" };
const REPO = { owner: "acme-eng", repository: "api" };
const ENV = { ...REPO, environment: "release/eu" };
const ENV_PATH = "/repos/acme-eng/api/environments/release%2Feu";

type Outputs = Record<string, unknown>;

/** What the engine records: check's inputs as the program wrote them (the value as its digest). */
async function checked(
  provider: AnyHostingProvider,
  news: Record<string, unknown>,
  olds: Record<string, unknown> = {},
): Promise<Outputs> {
  const result = await provider.check(olds, news);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs as Outputs;
}

function counts(): Record<string, number> {
  const byRoute = requestCounts(emulator);
  emulator.controls.clearLog();
  return byRoute;
}

/** The plaintext the server holds for a secret of a scope (`/orgs/acme-eng/actions`, ...). */
function held(scope: string, name: string): string | undefined {
  const state = emulator.store.state;
  return state.actionsSecrets.find((s) => s.scope === scope && s.name === name)?.value;
}

const SECRETS = [
  {
    kind: "OrgActionsSecret",
    provider: orgActionsSecretProvider as AnyHostingProvider,
    args: { ...ORG, visibility: "private" },
    scope: "org:100",
    path: "/orgs/acme-eng/actions/secrets",
    route: "/orgs/{org}/actions/secrets",
    id: "acme-eng",
  },
  {
    kind: "RepositoryActionsSecret",
    provider: repositoryActionsSecretProvider as AnyHostingProvider,
    args: REPO,
    scope: "repo:1000",
    path: "/repos/acme-eng/api/actions/secrets",
    route: "/repos/{owner}/{repo}/actions/secrets",
    id: "acme-eng/api",
  },
  {
    kind: "EnvironmentActionsSecret",
    provider: environmentActionsSecretProvider as AnyHostingProvider,
    args: ENV,
    scope: "env:1000:release/eu",
    path: `${ENV_PATH}/secrets`,
    route: "/repos/{owner}/{repo}/environments/{environment_name}/secrets",
    id: "acme-eng/api/release%2Feu",
  },
] as const;

describe.each(SECRETS)("$kind", { timeout: SCRYPT_TIMEOUT_MS }, (kind) => {
  const { provider } = kind;
  const args = { ...kind.args, secretName: "deploy_token", value: VALUE };
  const KEY = `GET ${kind.route}/public-key`;
  const PUT = `PUT ${kind.route}/{secret_name}`;
  const GET = `GET ${kind.route}/{secret_name}`;

  it("check replaces the value by its digest, kept while the value is the same", async () => {
    const first = await checked(provider, args);
    expect(isDigest(first.value)).toBe(true);
    expect(JSON.stringify(first)).not.toContain(VALUE);
    expect((await checked(provider, args, first)).value).toBe(first.value);
    const other = await checked(provider, { ...args, value: "another" }, first);
    expect(other.value).not.toBe(first.value);
  });

  it.each([
    ["secretName", "DEPLOY-KEY", "letters, digits and underscores"],
    ["secretName", "2FA_SEED", "must not start with a digit"],
    ["secretName", "service_token", "reserved prefix SERVICE_"],
    ["secretName", "", "must not be empty"],
    ["secretName", undefined, "secretName is required"],
    ["value", "", "value must not be empty"],
    ["value", "x".repeat(48 * 1024 + 1), "at most 48 KB"],
    ["value", undefined, "value is required"],
  ])("refuses %s %j naming it, with no request and no value in the message", async (field, given, reason) => {
    emulator.controls.clearLog();
    const result = await provider.check({}, { ...args, [field]: given });
    // A secret field is named in the reason, not as the property whose value the engine prints.
    const named = field === "value" ? "" : field;
    const failure = result.failures?.find((f) => f.property === named && f.reason.startsWith(field));
    expect(failure?.reason, JSON.stringify(result.failures)).toContain(reason);
    expect(emulator.controls.counts().total).toBe(0);
    expect(JSON.stringify(result)).not.toContain(VALUE);
  });

  it("lets a value unknown at preview through untouched", async () => {
    const result = await provider.check({}, { ...args, value: UNKNOWN });
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs).toMatchObject({ value: UNKNOWN });
  });

  it("creates with the key and one PUT: the server holds the value, state its digest, the id the stored name", async () => {
    const inputs = await checked(provider, args);
    emulator.controls.clearLog();
    const created = await provider.create(inputs);
    expect(counts()).toEqual({ [KEY]: 1, [PUT]: 1, [GET]: 1 });
    expect(created.id).toBe(`${kind.id}/DEPLOY_TOKEN`);
    expect(created.outs).toMatchObject({
      secretName: "DEPLOY_TOKEN",
      value: inputs.value,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect(held(kind.scope, "DEPLOY_TOKEN")).toBe(VALUE);
    expect(JSON.stringify(created)).not.toContain(VALUE);

    // A second secret of the scope in the same run reuses the key.
    await provider.create(await checked(provider, { ...args, secretName: "OTHER", value: "other" }));
    expect(counts()).toEqual({ [PUT]: 1, [GET]: 1 });
  });

  it("reads back unchanged: the name as the program wrote it, in any case, and no change of value", async () => {
    const inputs = await checked(provider, args);
    const created = await provider.create(inputs);
    const read = await provider.read(created.id, created.outs);
    expect(read.inputs).toEqual(inputs);
    for (const spelling of ["deploy_token", "DEPLOY_TOKEN", "Deploy_Token"]) {
      const news = await checked(provider, { ...args, secretName: spelling }, read.inputs as Outputs);
      expect(provider.changedFields(read.props, news), spelling).toEqual([]);
      expect((await provider.diff(created.id, read.props, news)).changes).toBe(false);
    }
  });

  it("sees a value changed outside Pulumi through updatedAt, names value, and sends the program's again", async () => {
    const inputs = await checked(provider, args);
    const created = await provider.create(inputs);
    const changed = (await control(emulator, "PUT", `${kind.path}/DEPLOY_TOKEN/value`, {
      value: "from the web",
    })) as { updated_at: string };
    expect(changed.updated_at).not.toBe(created.outs.updatedAt);

    // Refresh: the value is reported changed (a mark, never the value).
    const refreshed = await provider.read(created.id, created.outs);
    expect(refreshed.props?.value).toBe(VALUE_SET_OUTSIDE);
    expect(refreshed.props?.updatedAt).toBe(changed.updated_at);
    // The program's check after the refresh, then the drift check's diff: `value`, nothing else.
    const news = await checked(provider, args, refreshed.inputs as Outputs);
    expect(isDigest(news.value)).toBe(true);
    expect(provider.changedFields(refreshed.props, news)).toEqual(["value"]);
    expect(await provider.diff(created.id, refreshed.props, news)).toMatchObject({
      changes: true,
      replaces: [],
    });

    // up --refresh sends it again, sealed; the next refresh is clean.
    emulator.controls.clearLog();
    const updated = await provider.update(created.id, refreshed.props, news);
    expect(counts()).toEqual({ [PUT]: 1, [GET]: 1 });
    expect(held(kind.scope, "DEPLOY_TOKEN")).toBe(VALUE);
    expect(JSON.stringify(updated)).not.toContain(VALUE);
    const clean = await provider.read(created.id, updated.outs);
    expect(clean.props?.value).toBe(news.value);
    expect(
      provider.changedFields(clean.props, await checked(provider, args, clean.inputs as Outputs)),
    ).toEqual([]);
  });

  it("keeps the mark the engine hands back under ignoreChanges, and sends nothing for it", async () => {
    const created = await provider.create(await checked(provider, args));
    await control(emulator, "PUT", `${kind.path}/DEPLOY_TOKEN/value`, { value: "from the web" });
    const refreshed = await provider.read(created.id, created.outs);
    const kept = await checked(provider, { ...args, value: VALUE_SET_OUTSIDE }, refreshed.inputs as Outputs);
    expect(kept.value).toBe(VALUE_SET_OUTSIDE);
    expect(provider.changedFields(refreshed.props, kept)).toEqual([]);
  });

  it("sends a value changed in code, and seals again for a key rotated since", async () => {
    const first = await checked(provider, args);
    const created = await provider.create(first);
    await control(emulator, "POST", `${kind.path}/public-key/rotate`);
    emulator.controls.clearLog();
    const next = await checked(provider, { ...args, value: "after rotation" }, first);
    expect(provider.changedFields(created.outs, next)).toEqual(["value"]);
    await provider.update(created.id, created.outs, next);
    // The first PUT is refused (sealed for the old key), the key fetched again, the PUT sent once more.
    expect(counts()).toEqual({ [PUT]: 2, [KEY]: 1, [GET]: 1 });
    expect(held(kind.scope, "DEPLOY_TOKEN")).toBe("after rotation");
  });

  it("fails clearly, sending nothing, when the value to send is not known to this run", async () => {
    const inputs = { ...(await checked(provider, args)), value: await digestOf("made elsewhere") };
    emulator.controls.clearLog();
    await expect(provider.create(inputs)).rejects.toThrow(/not known to this run/);
    expect(emulator.controls.counts().total).toBe(0);
  });

  it("drops a secret deleted outside Pulumi; delete of a gone one succeeds; delete removes it", async () => {
    const created = await provider.create(await checked(provider, args));
    await api(emulator, "DELETE", `${kind.path}/DEPLOY_TOKEN`);
    expect(await provider.read(created.id, created.outs)).toEqual({});
    await expect(provider.delete(created.id, created.outs)).resolves.toBeUndefined();
    const again = await provider.create(await checked(provider, args));
    await provider.delete(again.id, again.outs);
    expect(held(kind.scope, "DEPLOY_TOKEN")).toBeUndefined();
  });

  it("reads by id alone (import, static get) with the placeholder, which is kept and never sent", async () => {
    const created = await provider.create(await checked(provider, args));
    const imported = await provider.read(created.id);
    expect(imported.props).toMatchObject({
      ...kind.args,
      secretName: "DEPLOY_TOKEN",
      value: VALUE_SET_OUTSIDE,
    });
    // The code `pulumi import` writes holds the placeholder: no change, nothing sent.
    const { createdAt: _c, updatedAt: _u, ...code } = imported.inputs as Outputs;
    const kept = await checked(provider, code, imported.inputs as Outputs);
    expect(kept.value).toBe(VALUE_SET_OUTSIDE);
    expect(provider.changedFields(imported.props, kept)).toEqual([]);
    // A value given in its place is an update that sends it.
    const given = await checked(provider, { ...code, value: "given" }, imported.inputs as Outputs);
    expect(provider.changedFields(imported.props, given)).toEqual(["value"]);
    await provider.update(created.id, imported.props as Outputs, given);
    expect(held(kind.scope, "DEPLOY_TOKEN")).toBe("given");
  });

  it("keeps the value out of errors, naming what the token needs", async () => {
    const inputs = await checked(provider, args);
    useToken(emulator, "svcp_noscopes");
    const error = await provider.create(inputs).catch((e: unknown) => e);
    expect(String(error)).toMatch(kind.kind === "OrgActionsSecret" ? /admin:org/ : /repo/);
    expect(`${String(error)} ${JSON.stringify(error)}`).not.toContain(VALUE);
  });
});

describe("Actions secrets", { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it("adopt a secret already there by its name, setting the program's value (the fixture's DEPLOY_KEY)", async () => {
    const provider: AnyHostingProvider = repositoryActionsSecretProvider;
    const created = await provider.create(
      await checked(provider, { ...REPO, secretName: "deploy_key", value: VALUE }),
    );
    expect(created.id).toBe("acme-eng/api/DEPLOY_KEY");
    expect(created.outs.createdAt).toBe("2026-01-05T10:00:00Z");
    expect(held("repo:1000", "DEPLOY_KEY")).toBe(VALUE);
    expect(emulator.store.state.actionsSecrets.filter((s) => s.scope === "repo:1000")).toHaveLength(1);
  });

  it("of an organisation: selected repositories as a set, refused with another visibility", async () => {
    const provider: AnyHostingProvider = orgActionsSecretProvider;
    const base = { ...ORG, secretName: "CI", value: VALUE };
    const refused = await provider.check({}, { ...base, visibility: "all", selectedRepositoryIds: [1000] });
    expect(refused.failures).toEqual([
      {
        property: "selectedRepositoryIds",
        reason: 'selectedRepositoryIds is allowed only with visibility "selected"; got visibility "all"',
      },
    ]);
    expect(
      (await checked(provider, { ...base, visibility: "selected" })).selectedRepositoryIds,
    ).toBeUndefined();
    expect(provider.inputsOf(await checked(provider, { ...base, visibility: "selected" }))).toMatchObject({
      selectedRepositoryIds: [],
    });

    const inputs = await checked(provider, {
      ...base,
      visibility: "selected",
      selectedRepositoryIds: [1001, 1000],
    });
    const created = await provider.create(inputs);
    expect(emulator.store.state.actionsSecrets.find((s) => s.name === "CI")?.selectedRepositoryIds).toEqual([
      1001, 1000,
    ]);
    // Read lists them; another order is the same set.
    const read = await provider.read(created.id, created.outs);
    expect(read.props?.selectedRepositoryIds).toEqual([1001, 1000]);
    const reordered = await checked(
      provider,
      { ...base, visibility: "selected", selectedRepositoryIds: [1000, 1001, 1000] },
      read.inputs as Outputs,
    );
    expect(provider.changedFields(read.props, reordered)).toEqual([]);

    // One removed outside Pulumi is drift of that field alone; the update puts it back.
    await api(emulator, "DELETE", "/orgs/acme-eng/actions/secrets/CI/repositories/1001");
    const drifted = await provider.read(created.id, created.outs);
    expect(drifted.props?.selectedRepositoryIds).toEqual([1000]);
    expect(provider.changedFields(drifted.props, reordered)).toEqual(["selectedRepositoryIds"]);
    await provider.update(created.id, drifted.props as Outputs, reordered);
    expect(
      emulator.store.state.actionsSecrets.find((s) => s.name === "CI")?.selectedRepositoryIds?.sort(),
    ).toEqual([1000, 1001]);
  });

  it("of an organisation: a visibility changed outside Pulumi is drift of visibility (and of value: the write cannot be told apart)", async () => {
    const provider: AnyHostingProvider = orgActionsSecretProvider;
    const args = { ...ORG, secretName: "CI", value: VALUE, visibility: "all" };
    const created = await provider.create(await checked(provider, args));
    await api(emulator, "PUT", "/orgs/acme-eng/actions/secrets/CI", { visibility: "private" });
    const drifted = await provider.read(created.id, created.outs);
    const news = await checked(provider, args, drifted.inputs as Outputs);
    expect(provider.changedFields(drifted.props, news)).toEqual(["value", "visibility"]);
    await provider.update(created.id, drifted.props as Outputs, news);
    expect(emulator.store.state.actionsSecrets.find((s) => s.name === "CI")).toMatchObject({
      visibility: "all",
      value: VALUE,
    });
  });

  it("of an environment: gone with its environment (read drops it), and a missing environment is named at create", async () => {
    const provider: AnyHostingProvider = environmentActionsSecretProvider;
    const created = await provider.create(
      await checked(provider, { ...ENV, secretName: "TOKEN", value: VALUE }),
    );
    // What deleting the environment does on the server.
    const repo = emulator.store.state.fixture.repos.find((r) => r.id === 1000);
    if (repo) repo.environments = repo.environments.filter((e) => e !== "release/eu");
    dropEnvironmentActions(emulator.store.state, "acme-eng", "api", "release/eu");
    expect(await provider.read(created.id, created.outs)).toEqual({});
    await expect(provider.delete(created.id, created.outs)).resolves.toBeUndefined();

    const error = await provider
      .create(await checked(provider, { ...ENV, environment: "nowhere", secretName: "TOKEN", value: VALUE }))
      .catch((e: unknown) => e);
    expect(String(error)).toMatch(/there is no environment "nowhere" in acme-eng\/api/);
    expect(String(error)).not.toContain(VALUE);
  });
});

// ---------------------------------------------------------------------------------------------
// Variables
// ---------------------------------------------------------------------------------------------

const VARIABLES = [
  {
    kind: "OrgActionsVariable",
    provider: orgActionsVariableProvider as AnyHostingProvider,
    args: { ...ORG, visibility: "private" },
    path: "/orgs/acme-eng/actions/variables",
    route: "/orgs/{org}/actions/variables",
    id: "acme-eng",
    body: { visibility: "private" },
  },
  {
    kind: "RepositoryActionsVariable",
    provider: repositoryActionsVariableProvider as AnyHostingProvider,
    args: REPO,
    path: "/repos/acme-eng/api/actions/variables",
    route: "/repos/{owner}/{repo}/actions/variables",
    id: "acme-eng/api",
    body: {},
  },
  {
    kind: "EnvironmentActionsVariable",
    provider: environmentActionsVariableProvider as AnyHostingProvider,
    args: ENV,
    path: `${ENV_PATH}/variables`,
    route: "/repos/{owner}/{repo}/environments/{environment_name}/variables",
    id: "acme-eng/api/release%2Feu",
    body: {},
  },
] as const;

describe.each(VARIABLES)("$kind", (kind) => {
  const { provider } = kind;
  const args = { ...kind.args, name: "region", value: "eu-west-1" };
  const POST = `POST ${kind.route}`;
  const PATCH = `PATCH ${kind.route}/{name}`;
  const GET = `GET ${kind.route}/{name}`;

  it.each([
    ["name", "deploy-region", "letters, digits and underscores"],
    ["name", "SERVICE_REGION", "reserved prefix SERVICE_"],
    ["value", "", "value must not be empty"],
    ["value", undefined, "value is required"],
  ])("refuses %s %j naming it", async (field, given, reason) => {
    const result = await provider.check({}, { ...args, [field]: given });
    expect(result.failures?.find((f) => f.property === field)?.reason).toContain(reason);
  });

  it("creates with a read, a POST and a read; the id and output name as stored; reads back unchanged", async () => {
    const inputs = await checked(provider, args);
    emulator.controls.clearLog();
    const created = await provider.create(inputs);
    expect(counts()).toEqual({ [GET]: 2, [POST]: 1 });
    expect(created.id).toBe(`${kind.id}/REGION`);
    expect(created.outs).toMatchObject({ name: "REGION", value: "eu-west-1" });
    const read = await provider.read(created.id, created.outs);
    expect(read.inputs).toEqual(inputs);
    for (const spelling of ["region", "REGION"]) {
      const news = await checked(provider, { ...args, name: spelling }, read.inputs as Outputs);
      expect(provider.changedFields(read.props, news), spelling).toEqual([]);
    }
  });

  it("adopts a variable already there: no write when it is as the program says, a PATCH when not", async () => {
    expect(
      (await api(emulator, "POST", kind.path, { name: "REGION", value: "eu-west-1", ...kind.body })).status,
    ).toBe(201);
    emulator.controls.clearLog();
    const same = await provider.create(await checked(provider, args));
    expect(counts()).toEqual({ [GET]: 1 });
    expect(same.outs.value).toBe("eu-west-1");

    await provider.create(await checked(provider, { ...args, value: "us-east-1" }));
    // Reads (single, or from the collection's list shared within the run) and one write.
    expect(Object.entries(counts()).filter(([r]) => !r.startsWith("GET "))).toEqual([[PATCH, 1]]);
    expect((await api(emulator, "GET", `${kind.path}/REGION`)).body).toMatchObject({ value: "us-east-1" });
  });

  it("sees a value changed outside Pulumi and puts it back with one PATCH", async () => {
    const inputs = await checked(provider, args);
    const created = await provider.create(inputs);
    await control(emulator, "PUT", `${kind.path}/REGION/value`, { value: "ap-south-1" });
    const drifted = await provider.read(created.id, created.outs);
    expect(drifted.props?.value).toBe("ap-south-1");
    expect(provider.changedFields(drifted.props, inputs)).toEqual(["value"]);
    emulator.controls.clearLog();
    const updated = await provider.update(created.id, drifted.props as Outputs, inputs);
    expect(counts()).toEqual({ [PATCH]: 1, [GET]: 1 });
    expect(updated.outs.value).toBe("eu-west-1");
  });

  it("drops a variable deleted outside Pulumi; delete of a gone one succeeds", async () => {
    const created = await provider.create(await checked(provider, args));
    await api(emulator, "DELETE", `${kind.path}/REGION`);
    expect(await provider.read(created.id, created.outs)).toEqual({});
    await expect(provider.delete(created.id, created.outs)).resolves.toBeUndefined();
  });
});

describe("Actions variables", () => {
  it("of an organisation: selected repositories as a set; a variable adopted keeps the server's list", async () => {
    const provider: AnyHostingProvider = orgActionsVariableProvider;
    const base = { ...ORG, name: "TIER", value: "gold", visibility: "selected" };
    const inputs = await checked(provider, { ...base, selectedRepositoryIds: [1001, 1000] });
    const created = await provider.create(inputs);
    expect(created.outs.selectedRepositoryIds).toEqual([1001, 1000]);
    await api(emulator, "PUT", "/orgs/acme-eng/actions/variables/TIER/repositories", {
      selected_repository_ids: [1000],
    });
    const drifted = await provider.read(created.id, created.outs);
    expect(provider.changedFields(drifted.props, inputs)).toEqual(["selectedRepositoryIds"]);
    await provider.update(created.id, drifted.props as Outputs, inputs);
    const back = await provider.read(created.id, created.outs);
    expect(provider.changedFields(back.props, inputs)).toEqual([]);

    // Adopting it as it is writes nothing and records the server's list.
    emulator.controls.clearLog();
    const adopted = await provider.create(
      await checked(provider, { ...base, selectedRepositoryIds: [1000, 1001] }),
    );
    expect(Object.keys(counts()).filter((r) => !r.startsWith("GET "))).toEqual([]);
    expect([...((adopted.outs.selectedRepositoryIds as number[]) ?? [])].sort()).toEqual([1000, 1001]);
  });

  it("of an environment: gone with its environment, and a missing environment is named at create", async () => {
    const provider: AnyHostingProvider = environmentActionsVariableProvider;
    const created = await provider.create(await checked(provider, { ...ENV, name: "A", value: "v" }));
    const repo = emulator.store.state.fixture.repos.find((r) => r.id === 1000);
    if (repo) repo.environments = repo.environments.filter((e) => e !== "release/eu");
    dropEnvironmentActions(emulator.store.state, "acme-eng", "api", "release/eu");
    expect(await provider.read(created.id, created.outs)).toEqual({});
    const error = await provider
      .create(await checked(provider, { ...ENV, environment: "nowhere", name: "A", value: "v" }))
      .catch((e: unknown) => e);
    expect(String(error)).toMatch(/there is no environment "nowhere" in acme-eng\/api/);
  });
});
