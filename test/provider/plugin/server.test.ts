/**
 * The native plugin's gRPC server driven as the engine drives it, in process, against the sandbox
 * server: configuration, check, the detailed diff, the lifecycle of a RepositoryWebhook with a
 * secret (kept wrapped both ways), a team and its authoritative member list (nested objects through
 * plain properties), read for import, invokes, and a wrong token failing once.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { CONFIG_KEYS, forgetConnectionChecks } from "../../../provider/plugin/config";
import { type RunningPlugin, startPlugin } from "../../../provider/plugin/server";
import { PROVIDERS } from "../../../provider/providers";
import { FUNCTIONS } from "../../../provider/registry";
import { VALUE_SET_OUTSIDE } from "../../../provider/resources/actions";
import { SECRET_SET_OUTSIDE } from "../../../provider/resources/webhooks";
import { control, requestCounts, useSandbox } from "../resources/helpers";
import { DIFF_NONE, DIFF_SOME, PluginClient, type Properties, secret, UNKNOWN } from "./helpers";

const HOOK = "hosting:index:RepositoryWebhook";
const ROOT = join(__dirname, "../../..");

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

let plugin: RunningPlugin;
let client: PluginClient;
beforeAll(async () => {
  plugin = await startPlugin();
  client = new PluginClient(plugin.port);
});
beforeEach(() => {
  // Each test is a new provider: no connection check of an earlier one answers for it.
  forgetConnectionChecks();
});
afterAll(async () => {
  client.close();
  await plugin.close();
});

const configureAs = (token: string) =>
  client.configure({ baseUrl: emulator.origin, token: secret(token), version: "0.2.0" });

const hookArgs: Properties = {
  owner: "acme-eng",
  repository: "api",
  url: "https://ci.example.com/hook",
  secret: secret("s3cr3t-value"),
};

/** check then create, as the engine does for a new resource. */
async function createHook(args: Properties = hookArgs) {
  const checked = await client.check(HOOK, args);
  expect(checked.failures).toEqual([]);
  return { inputs: checked.inputs, ...(await client.create(HOOK, checked.inputs)) };
}

describe("plugin info", () => {
  it("reports the package version", async () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(await client.pluginVersion()).toBe(manifest.version);
  });
});

describe("schema", () => {
  it("serves schema.json, and the schema names what the plugin serves", async () => {
    const text = await client.schema();
    expect(text).toBe(readFileSync(join(ROOT, "schema.json"), "utf8"));
    const schema = JSON.parse(text) as {
      name: string;
      resources: Record<string, { inputProperties: Record<string, { secret?: boolean }> }>;
      functions: Record<string, unknown>;
      provider: { inputProperties: Record<string, { secret?: boolean }> };
      config: { variables: Record<string, unknown> };
    };
    expect(schema.name).toBe("hosting");
    expect(Object.keys(schema.resources).sort()).toEqual(
      PROVIDERS.map((p) => `hosting:index:${p.kind}`).sort(),
    );
    expect(Object.keys(schema.functions).sort()).toEqual(
      FUNCTIONS.map((f) => `hosting:index:${f.name}`).sort(),
    );
    for (const provider of PROVIDERS) {
      const inputs = schema.resources[`hosting:index:${provider.kind}`]?.inputProperties ?? {};
      for (const name of provider.secrets)
        expect(inputs[name]?.secret, `${provider.kind}.${name}`).toBe(true);
    }
    expect(Object.keys(schema.provider.inputProperties).sort()).toEqual([...CONFIG_KEYS].sort());
    expect(schema.provider.inputProperties.token?.secret).toBe(true);
    expect(Object.keys(schema.config.variables).sort()).toEqual([...CONFIG_KEYS].sort());
  });
});

describe("a type the plugin does not serve", () => {
  it("fails naming it and the types served, and loads nothing for a token that is no kind", async () => {
    await configureAs("svcp_siteadmin");
    for (const type of ["hosting:index:Nope", "hosting:index:__proto__", "hosting:index:../kinds/budget"]) {
      const refused = client.check(type, {});
      await expect(refused).rejects.toThrow(`hosting: unknown resource type ${type}; this plugin serves `);
      await expect(refused).rejects.toThrow(HOOK);
    }
    // A kind it serves still loads after those.
    expect((await client.check("hosting:index:Budget", {})).failures.length).toBeGreaterThan(0);
  });
});

describe("provider configuration", () => {
  it("CheckConfig names a malformed input and keeps the token secret", async () => {
    const bad = await client.checkConfig({ baseUrl: "not a url", token: "t" });
    expect(bad.failures).toEqual([
      { property: "baseUrl", reason: expect.stringContaining("absolute http(s) URL") },
    ]);
    const version = await client.checkConfig({ baseUrl: emulator.origin, token: "t", apiVersion: "latest" });
    expect(version.failures.map((f) => f.property)).toEqual(["apiVersion"]);
    const good = await client.checkConfig({ baseUrl: emulator.origin, token: "svcp_siteadmin" });
    expect(good.failures).toEqual([]);
    expect(good.inputs.token).toEqual(secret("svcp_siteadmin"));
  });

  it("CheckConfig fails once on any refusal of the connection check but a 403, and never shows a token", async () => {
    const version = { baseUrl: emulator.origin, token: "svcp_siteadmin", apiVersion: "1999-01-01" };
    const refused = await client.checkConfig(version);
    expect(refused.failures).toEqual([{ property: "", reason: expect.stringContaining("400") }]);
    expect(requestCounts(emulator)).toEqual({ "GET /user": 1 });
    const typed = await client.checkConfig({ baseUrl: emulator.origin, token: 5 as never });
    expect(typed.failures).toEqual([{ property: "", reason: "token must be a string; got a number" }]);
  });

  it("CheckConfig lets unknown values through, without a request", async () => {
    const result = await client.checkConfig({ baseUrl: UNKNOWN, token: secret(UNKNOWN) });
    expect(result.failures).toEqual([]);
    expect(requestCounts(emulator)).toEqual({});
  });

  it("CheckConfig fails a refused token once, naming the token, and Configure reuses the check", async () => {
    const config = { baseUrl: emulator.origin, token: secret("svcp_wrong") };
    const checked = await client.checkConfig(config);
    // No property named: the engine would print the secret's placeholder beside it.
    expect(checked.failures).toEqual([{ property: "", reason: expect.stringContaining("401") }]);
    const reason = checked.failures[0]?.reason ?? "";
    expect(reason).toContain(`cannot use the API at ${emulator.url}`);
    expect(reason).toContain("hosting:token");
    expect(reason).not.toContain("svcp_wrong");
    expect(reason.split("\n")).toHaveLength(1);
    const configured = await client.configure(config).catch((e: Error) => e);
    expect((configured as Error).message).toContain("401");
    expect(requestCounts(emulator)).toEqual({ "GET /user": 1 });
  });

  it("CheckConfig fails an address that is not the API, saying what to set", async () => {
    const checked = await client.checkConfig({
      baseUrl: `${emulator.origin}/nothing-here`,
      token: "svcp_siteadmin",
    });
    expect(checked.failures).toEqual([{ property: "", reason: expect.stringContaining("not the API root") }]);
    expect(checked.failures[0]?.reason).toContain("hosting:baseUrl (or HOSTING_BASE_URL)");
  });

  it("CheckConfig falls back to the environment, and says where to set a missing input", async () => {
    const saved = { base: process.env.HOSTING_BASE_URL, token: process.env.HOSTING_TOKEN };
    delete process.env.HOSTING_BASE_URL;
    process.env.HOSTING_TOKEN = "svcp_siteadmin";
    try {
      const missing = await client.checkConfig({});
      expect(missing.failures).toEqual([
        { property: "", reason: expect.stringContaining("HOSTING_BASE_URL") },
      ]);
      process.env.HOSTING_BASE_URL = emulator.origin;
      expect((await client.checkConfig({})).failures).toEqual([]);
    } finally {
      if (saved.base === undefined) delete process.env.HOSTING_BASE_URL;
      else process.env.HOSTING_BASE_URL = saved.base;
      if (saved.token === undefined) delete process.env.HOSTING_TOKEN;
      else process.env.HOSTING_TOKEN = saved.token;
    }
  });

  it("DiffConfig shows a new base URL or token as an update that replaces nothing", async () => {
    const olds = { baseUrl: "https://a", token: secret("t1"), version: "0.2.0" };
    const same = await client.diffConfig(olds, { ...olds });
    expect(same.changes).toBe(DIFF_NONE);
    const moved = await client.diffConfig(olds, {
      baseUrl: "https://b",
      token: secret("t2"),
      apiVersion: "2022-11-28",
    });
    expect(moved).toMatchObject({
      changes: DIFF_SOME,
      replaces: [],
      detailed: { baseUrl: "update", token: "update", apiVersion: "add" },
    });
  });

  it("Configure accepts secrets and checks the connection with one request", async () => {
    expect(await configureAs("svcp_siteadmin")).toEqual({ acceptSecrets: true });
    expect(requestCounts(emulator)).toEqual({ "GET /user": 1 });
  });

  it("a wrong token fails Configure once, in one line, before any resource request", async () => {
    // Not the earlier test's token: this process's client for that one remembers its 401 and asks no more.
    const error = await configureAs("svcp_revoked").catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('hosting provider "default": cannot use the API at');
    expect(message).toContain("401");
    expect(message).toContain("hosting:token");
    expect(message).not.toContain("svcp_revoked");
    expect(message.split("\n")).toHaveLength(1);
    expect(requestCounts(emulator)).toEqual({ "GET /user": 1 });
  });

  it("a wrong base URL fails Configure naming the address", async () => {
    const error = await client
      .configure({ baseUrl: `${emulator.origin}/nothing-here`, token: secret("svcp_siteadmin") })
      .catch((e: Error) => e);
    expect((error as Error).message).toContain("not the API root");
  });

  it("a token refused /user (an app installation) still configures", async () => {
    await expect(configureAs("svcs_install")).resolves.toEqual({ acceptSecrets: true });
  });
});

describe("RepositoryWebhook through the plugin", () => {
  it("check names the failing field and applies nothing the program did not write", async () => {
    await configureAs("svcp_siteadmin");
    const bad = await client.check(HOOK, { ...hookArgs, url: "ftp://x.example", contentType: "xml" });
    expect(bad.failures.map((f) => f.property).sort()).toEqual(["contentType", "url"]);
    expect(bad.failures.find((f) => f.property === "url")?.reason).toContain("absolute http(s) URL");
  });

  it("check lets unknown values through and keeps secrets wrapped", async () => {
    await configureAs("svcp_siteadmin");
    const result = await client.check(HOOK, { ...hookArgs, url: UNKNOWN, events: [UNKNOWN, "push"] });
    expect(result.failures).toEqual([]);
    expect(result.inputs.url).toBe(UNKNOWN);
    expect(result.inputs.secret).toEqual(secret("s3cr3t-value"));
  });

  it("check marks the kind's secret inputs secret even when the program did not", async () => {
    await configureAs("svcp_siteadmin");
    const result = await client.check(HOOK, { ...hookArgs, secret: "plain" });
    expect(result.inputs.secret).toEqual(secret("plain"));
  });

  it("creates, diffs field by field, updates, reads and deletes, the secret wrapped throughout", async () => {
    await configureAs("svcp_siteadmin");
    const created = await createHook();
    expect(created.id).toMatch(/^acme-eng\/api\/\d+$/);
    expect(created.properties).toMatchObject({
      owner: "acme-eng",
      repository: "api",
      url: hookArgs.url,
      events: ["push"],
      active: true,
      secret: secret("s3cr3t-value"),
    });
    expect(JSON.stringify(created.properties)).not.toMatch(/"secret":"s3cr3t-value"/);

    // Nothing changed: no diff.
    const same = await client.diff(HOOK, created.id, created.properties, created.inputs);
    expect(same).toMatchObject({ changes: DIFF_NONE, replaces: [], hasDetailedDiff: true, detailed: {} });

    // Each field with its kind.
    const changedArgs: Properties = {
      ...hookArgs,
      url: "https://ci.example.com/v2",
      events: ["push", "pull_request"],
    };
    const { secret: _dropped, ...withoutSecret } = changedArgs;
    const news = (await client.check(HOOK, { ...withoutSecret, contentType: "json" }, created.inputs)).inputs;
    const changed = await client.diff(HOOK, created.id, created.properties, news);
    expect(changed).toMatchObject({
      changes: DIFF_SOME,
      replaces: [],
      deleteBeforeReplace: false,
      hasDetailedDiff: true,
      detailed: { url: "update", events: "update", contentType: "update", secret: "delete" },
    });
    const moved = await client.diff(HOOK, created.id, created.properties, {
      ...created.inputs,
      repository: "web",
    });
    expect(moved).toMatchObject({
      changes: DIFF_SOME,
      replaces: ["repository"],
      detailed: { repository: "update-replace" },
    });

    // Update with a new secret: it stays wrapped.
    const updateArgs = (
      await client.check(HOOK, { ...changedArgs, secret: secret("rotated") }, created.inputs)
    ).inputs;
    const updated = await client.update(HOOK, created.id, created.properties, updateArgs);
    expect(updated).toMatchObject({ url: "https://ci.example.com/v2", secret: secret("rotated") });

    // Refresh: the recorded outputs and inputs go in, the object as it is comes out, secret wrapped.
    const refreshed = await client.read(HOOK, created.id, updated, updateArgs);
    expect(refreshed.id).toBe(created.id);
    expect(refreshed.properties.secret).toEqual(secret("rotated"));
    expect(refreshed.inputs).toMatchObject({ url: "https://ci.example.com/v2", secret: secret("rotated") });

    await client.delete(HOOK, created.id, updated);
    const gone = await client.read(HOOK, created.id, updated, updateArgs);
    expect(gone).toEqual({ id: "", properties: {}, inputs: {} });
  });

  it("a secret sent wrapped for a field the kind does not declare secret comes back wrapped", async () => {
    await configureAs("svcp_siteadmin");
    const created = await createHook({ ...hookArgs, url: secret("https://ci.example.com/private") });
    expect(created.properties.url).toEqual(secret("https://ci.example.com/private"));
    expect(created.properties.owner).toBe("acme-eng");
  });

  it("read with only an id returns the inputs an import needs", async () => {
    await configureAs("svcp_siteadmin");
    const created = await createHook({ ...hookArgs, events: ["push", "issues"] });
    const imported = await client.read(HOOK, created.id);
    expect(imported.id).toBe(created.id);
    expect(imported.inputs).toMatchObject({
      owner: "acme-eng",
      repository: "api",
      url: hookArgs.url,
      events: ["push", "issues"],
    });
    // The API never shows a secret: an import learns only that one is set (as the dynamic kind
    // reports it), still as a secret, and never the value.
    expect(imported.inputs.secret).toEqual(secret(SECRET_SET_OUTSIDE));
    expect(JSON.stringify(imported)).not.toContain("s3cr3t-value");
    expect(imported.properties).toMatchObject({ hookId: expect.any(Number) });
  });

  it("a hook that the token may not create fails with the API's reason", async () => {
    await configureAs("svcp_member");
    const error = await client
      .create(HOOK, (await client.check(HOOK, hookArgs)).inputs)
      .catch((e: Error) => e);
    expect((error as Error).message).toMatch(/40[34]/);
  });

  it("refuses a type it does not serve, naming the ones it does", async () => {
    await configureAs("svcp_siteadmin");
    const error = await client.check("hosting:index:Nope", {}).catch((e: Error) => e);
    expect((error as Error).message).toContain("hosting:index:RepositoryWebhook");
  });
});

describe("RepositoryActionsSecret through the plugin", { timeout: 60_000 }, () => {
  const SECRET = "hosting:index:RepositoryActionsSecret";
  const VALUE = "plugin-actions-s3cret";
  const args: Properties = {
    owner: "acme-eng",
    repository: "api",
    secretName: "ci_token",
    value: secret(VALUE),
  };
  const held = () => emulator.store.state.actionsSecrets.find((s) => s.name === "CI_TOKEN")?.value;

  it("keeps the value a wrapped digest, and names value alone after a change made on the web UI", async () => {
    await configureAs("svcp_siteadmin");
    const checked = await client.check(SECRET, args);
    expect(checked.failures).toEqual([]);
    expect(JSON.stringify(checked.inputs)).not.toContain(VALUE);
    const created = { inputs: checked.inputs, ...(await client.create(SECRET, checked.inputs)) };
    expect(created.id).toBe("acme-eng/api/CI_TOKEN");
    expect(created.properties.value).toEqual(checked.inputs.value);
    expect(held()).toBe(VALUE);

    // Unchanged: no diff (the same digest), the name as the program wrote it.
    const again = await client.check(SECRET, args, created.inputs);
    expect(await client.diff(SECRET, created.id, created.properties, again.inputs)).toMatchObject({
      changes: DIFF_NONE,
      detailed: {},
    });

    await control(emulator, "PUT", "/repos/acme-eng/api/actions/secrets/CI_TOKEN/value", { value: "web" });
    const refreshed = await client.read(SECRET, created.id, created.properties, created.inputs);
    expect(refreshed.properties.value).toEqual(secret(VALUE_SET_OUTSIDE));
    expect(refreshed.inputs.secretName).toBe("ci_token");
    const news = (await client.check(SECRET, args, refreshed.inputs)).inputs;
    expect(await client.diff(SECRET, created.id, refreshed.properties, news)).toMatchObject({
      changes: DIFF_SOME,
      replaces: [],
      detailed: { value: "update" },
    });
    const updated = await client.update(SECRET, created.id, refreshed.properties, news);
    expect(updated.value).toEqual(news.value);
    expect(held()).toBe(VALUE);
  });
});

describe("RepositoryEnvironment through the plugin: lists of objects and a nested object", () => {
  const ENV = "hosting:index:RepositoryEnvironment";
  const args: Properties = {
    owner: "acme-eng",
    repository: "api",
    environment: "release/canary",
    reviewers: [
      { type: "User", id: 3 },
      { type: "Team", id: 1 },
    ],
    deploymentBranchPolicy: { protectedBranches: false, customBranchPolicies: true },
    branchPolicies: [{ name: "main" }, { name: "v*", type: "tag" }],
  };

  it("creates, sees reordered sets as no change, names a changed set, and reads for import", async () => {
    await configureAs("svcp_siteadmin");
    const checked = await client.check(ENV, args);
    expect(checked.failures).toEqual([]);
    const created = await client.create(ENV, checked.inputs);
    expect(created.id).toBe("acme-eng/api/release%2Fcanary");
    expect(created.properties).toMatchObject({
      reviewers: args.reviewers,
      deploymentBranchPolicy: args.deploymentBranchPolicy,
      branchPolicies: [
        { name: "main", type: "branch" },
        { name: "v*", type: "tag" },
      ],
    });
    const reordered = (
      await client.check(ENV, {
        ...args,
        reviewers: [
          { type: "Team", id: 1 },
          { type: "User", id: 3 },
        ],
        branchPolicies: [{ name: "v*", type: "tag" }, { name: "main" }],
      })
    ).inputs;
    expect(await client.diff(ENV, created.id, created.properties, reordered)).toMatchObject({
      changes: DIFF_NONE,
      detailed: {},
    });
    const more = (await client.check(ENV, { ...args, reviewers: [{ type: "User", id: 2 }] })).inputs;
    expect(await client.diff(ENV, created.id, created.properties, more)).toMatchObject({
      changes: DIFF_SOME,
      replaces: [],
      detailed: { reviewers: "update" },
    });
    const imported = await client.read(ENV, created.id);
    expect(imported.inputs).toMatchObject({
      environment: "release/canary",
      reviewers: args.reviewers,
      branchPolicies: [
        { name: "main", type: "branch" },
        { name: "v*", type: "tag" },
      ],
    });
    await client.delete(ENV, created.id, created.properties);
    expect(emulator.store.state.environments.map((e) => e.name)).not.toContain("release/canary");
  });

  it("check refuses the platform's limits naming the field", async () => {
    await configureAs("svcp_siteadmin");
    const checked = await client.check(ENV, { ...args, waitTimer: 50_000 });
    expect(checked.failures).toEqual([
      { property: "waitTimer", reason: "waitTimer must be between 0 and 43200 minutes (30 days)" },
    ]);
  });
});

describe("a Repository through the plugin", () => {
  const REPO = "hosting:index:Repository";

  it("a rename is an update the detailed diff names; refresh gives the resource its new id", async () => {
    await configureAs("svcp_siteadmin");
    const args = { org: "acme-eng", name: "svc", topics: ["api"] };
    const checked = await client.check(REPO, args);
    expect(checked.failures).toEqual([]);
    const created = await client.create(REPO, checked.inputs);
    expect(created.id).toBe("acme-eng/svc");
    const news = (await client.check(REPO, { ...args, name: "service" }, checked.inputs)).inputs;
    const diff = await client.diff(REPO, created.id, created.properties, news);
    expect(diff).toMatchObject({ changes: DIFF_SOME, replaces: [], detailed: { name: "update" } });
    const updated = await client.update(REPO, created.id, created.properties, news);
    expect(updated).toMatchObject({ name: "service", repositoryId: created.properties.repositoryId });
    // The engine keeps the id an update cannot change; the read of a refresh answers the new one.
    const refreshed = await client.read(REPO, created.id, updated, news);
    expect(refreshed.id).toBe("acme-eng/service");
    expect(refreshed.inputs).toMatchObject({ org: "acme-eng", name: "service", topics: ["api"] });
  });

  it("an import reads every setting, and getRepository and getUser answer as invokes", async () => {
    await configureAs("svcp_siteadmin");
    const imported = await client.read(REPO, "acme-eng/web");
    expect(imported.inputs).toMatchObject({
      org: "acme-eng",
      name: "web",
      visibility: "public",
      hasWiki: true,
    });
    const repo = await client.invoke("hosting:index:getRepository", { owner: "acme-eng", repository: "web" });
    expect(repo).toMatchObject({ id: 1001, fullName: "acme-eng/web" });
    const user = await client.invoke("hosting:index:getUser", { username: "mona" });
    expect(user).toMatchObject({ id: 4, type: "User" });
  });
});

describe("rulesets and branch protection through the plugin", () => {
  const RULESET = "hosting:index:RepositoryRuleset";
  const rulesetArgs: Properties = {
    owner: "acme-eng",
    repository: "api",
    name: "plugin",
    enforcement: "active",
    conditions: { refName: { include: ["~DEFAULT_BRANCH"] } },
    rules: [
      { type: "deletion" },
      {
        type: "required_status_checks",
        parameters: {
          requiredStatusChecks: [{ context: "a" }, { context: "b" }],
          strictRequiredStatusChecksPolicy: false,
        },
      },
    ],
  };

  it("check names the rule and the parameter the description refuses", async () => {
    await configureAs("svcp_siteadmin");
    const checked = await client.check(RULESET, {
      ...rulesetArgs,
      rules: [{ type: "max_file_size", parameters: { maxFileSize: 0 } }],
    });
    expect(checked.failures).toContainEqual({
      property: "rules",
      reason: "rules[0] (max_file_size): parameters.maxFileSize must be at least 1",
    });
  });

  it("a ruleset written once diffs as no change, reordered or read back; a rule changed is named", async () => {
    await configureAs("svcp_siteadmin");
    const checked = await client.check(RULESET, rulesetArgs);
    const created = await client.create(RULESET, checked.inputs);
    const read = await client.read(RULESET, created.id, created.properties, checked.inputs);
    const reordered = (
      await client.check(
        RULESET,
        { ...rulesetArgs, rules: [...(rulesetArgs.rules as Properties[])].reverse() },
        checked.inputs,
      )
    ).inputs;
    expect(await client.diff(RULESET, created.id, read.properties, reordered)).toMatchObject({
      changes: DIFF_NONE,
      detailed: {},
    });
    const other = (
      await client.check(
        RULESET,
        { ...rulesetArgs, enforcement: "evaluate", rules: [{ type: "deletion" }] },
        checked.inputs,
      )
    ).inputs;
    expect(await client.diff(RULESET, created.id, read.properties, other)).toMatchObject({
      changes: DIFF_SOME,
      detailed: { enforcement: "update", rules: "update" },
    });
    await client.delete(RULESET, created.id, read.properties);
  });

  it("a branch protection diffs as no change against what the platform answers", async () => {
    await configureAs("svcp_siteadmin");
    const kind = "hosting:index:BranchProtection";
    const args: Properties = {
      owner: "acme-eng",
      repository: "api",
      branch: "release/1.0",
      restrictions: { users: ["octocat"], teams: ["platform"] },
    };
    const checked = await client.check(kind, args);
    const created = await client.create(kind, checked.inputs);
    expect(created.id).toBe("acme-eng/api/release%2F1.0");
    const read = await client.read(kind, created.id, created.properties, checked.inputs);
    expect(await client.diff(kind, created.id, read.properties, checked.inputs)).toMatchObject({
      changes: DIFF_NONE,
    });
    await client.delete(kind, created.id, read.properties);
  });
});

describe("import of a kind found by another key than its id", () => {
  const ORG = "hosting:index:Organization";

  it("an Organization imported by login records the login as importId, so its inputs pass check", async () => {
    await configureAs("svcp_siteadmin");
    const imported = await client.read(ORG, "acme-ops");
    expect(imported.id).toMatch(/^\d+$/);
    expect(imported.inputs).toEqual({ login: "acme-ops", renameTimeoutSeconds: 120, importId: "acme-ops" });
    expect(imported.properties).toMatchObject({ importId: "acme-ops", orgId: Number(imported.id) });
    // What the engine checks at import and at the next preview: no admin needed for an adopted one.
    const checked = await client.check(ORG, imported.inputs, imported.inputs);
    expect(checked.failures).toEqual([]);
    // A refresh (outputs recorded) reads the same inputs back, so it shows no change.
    const refreshed = await client.read(ORG, imported.id, imported.properties, imported.inputs);
    expect(refreshed.inputs).toEqual(imported.inputs);
  });

  it("an Organization asked for by its numeric id says to use the login", async () => {
    await configureAs("svcp_siteadmin");
    const error = await client.read(ORG, "100").catch((e: Error) => e);
    expect((error as Error).message).toContain("Pass the organisation's login as the id (to pulumi import");
  });

  it("a kind imported by its id records no importId", async () => {
    await configureAs("svcp_siteadmin");
    const created = await createHook();
    const imported = await client.read(HOOK, created.id);
    expect(imported.inputs).not.toHaveProperty("importId");
  });
});

describe("a team and its members through the plugin", () => {
  const TEAM = "hosting:index:Team";
  const MEMBERS = "hosting:index:TeamMembers";

  it("creates a team and its authoritative member list; a member added by hand is named, removed on update", async () => {
    await configureAs("svcp_siteadmin");
    const team = await client.check(TEAM, { org: "acme-eng", name: "Plugin Team" });
    expect(team.failures).toEqual([]);
    const madeTeam = await client.create(TEAM, team.inputs);
    expect(madeTeam.properties).toMatchObject({ slug: "plugin-team", privacy: "secret" });
    // An owner declared a member: the platform reports a maintainer, read as the member declared.
    const args: Properties = {
      org: "acme-eng",
      teamSlug: madeTeam.properties.slug as string,
      members: [{ username: "octocat" }, { username: "olivia", role: "member" }],
    };
    const checked = await client.check(MEMBERS, args);
    expect(checked.failures).toEqual([]);
    const made = await client.create(MEMBERS, checked.inputs);
    const clean = await client.read(MEMBERS, made.id, made.properties, checked.inputs);
    expect(await client.diff(MEMBERS, made.id, clean.properties, checked.inputs)).toMatchObject({
      changes: DIFF_NONE,
    });
    await fetch(`${emulator.origin}/_emulator/orgs/acme-eng/teams/plugin-team/members/mona`, {
      method: "PUT",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    await fetch(`${emulator.origin}/_emulator/orgs/acme-eng/invitations/mona/accept`, { method: "POST" });
    const drifted = await client.read(MEMBERS, made.id, made.properties, checked.inputs);
    const diff = await client.diff(MEMBERS, made.id, drifted.properties, checked.inputs);
    expect(diff).toMatchObject({ changes: DIFF_SOME, replaces: [], detailed: { members: "update" } });
    await client.update(MEMBERS, made.id, drifted.properties, checked.inputs);
    const restored = await client.read(MEMBERS, made.id, made.properties, checked.inputs);
    expect(await client.diff(MEMBERS, made.id, restored.properties, checked.inputs)).toMatchObject({
      changes: DIFF_NONE,
    });
  });

  it("invokes getTeam", async () => {
    await configureAs("svcp_siteadmin");
    const result = await client.invoke("hosting:index:getTeam", { org: "acme-eng", slug: "platform" });
    expect(result).toMatchObject({ teamId: 1, name: "Platform", privacy: "closed" });
  });
});

describe("invoke", () => {
  it("runs a function with the provider's settings", async () => {
    await configureAs("svcp_siteadmin");
    const result = await client.invoke("hosting:index:getBranches", { owner: "acme-eng", repository: "api" });
    const names = (result.branches as Array<{ name: string }>).map((b) => b.name);
    expect(names).toEqual(expect.arrayContaining(["main", "develop", "release/1.0"]));
  });

  it("returns a secret result for a secret argument", async () => {
    await configureAs("svcp_siteadmin");
    const result = await client.invoke("hosting:index:getBranch", {
      owner: "acme-eng",
      repository: secret("api"),
      branch: "legacy",
    });
    expect(result.name).toEqual(secret("develop"));
    expect(result.renamed).toEqual(secret(true));
  });

  it("runs getBranchRules and getOrgRoles", async () => {
    await configureAs("svcp_siteadmin");
    const rules = await client.invoke("hosting:index:getBranchRules", {
      owner: "acme-eng",
      repository: "api",
      branch: "main",
    });
    expect(rules).toMatchObject({
      branch: "main",
      rules: [],
      protection: { requiredStatusChecks: { contexts: ["ci/build"] } },
    });
    const roles = await client.invoke("hosting:index:getOrgRoles", { org: "acme-eng" });
    expect((roles.roles as Array<{ name: string }>).map((r) => r.name)).toContain("security_manager");
  });

  it("fails an invalid call naming the argument", async () => {
    await configureAs("svcp_siteadmin");
    const error = await client
      .invoke("hosting:index:getBranches", { owner: "acme-eng" })
      .catch((e: Error) => e);
    expect((error as Error).message).toContain("repository");
  });
});
