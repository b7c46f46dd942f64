/**
 * Shared set-up of the sandbox server suites: one server per file on port 0, reset before every
 * test, and thin helpers that drive it over real HTTP with `fetch`.
 */

import { generateKeyPairSync } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { deserialize, serialize } from "node:v8";
import type * as openpgp from "openpgp" with { "resolution-mode": "import" };
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { API_VERSION_2026, allRoutes } from "../../api";
import { sealBox } from "../../api/sealed-box";
import { createApp } from "../../emulator/core/app";
import { Controls } from "../../emulator/core/controls";
import { onlyVersionOf } from "../../emulator/core/guard";
import { API_PREFIX } from "../../emulator/core/http";
import { Store } from "../../emulator/core/store";
import { defaultFixture, FAMILIES, SANDBOX_MODEL } from "../../emulator/families";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../emulator/index";

export const DOCS_URL = "https://docs.hosting.invalid/rest";
export const MASK = "********";

/** The fixture tokens (DESIGN.md, default fixture). */
export const TOKENS = {
  siteAdmin: "svcp_siteadmin",
  owner: "svcp_owner",
  member: "svcp_member",
  noScopes: "svcp_noscopes",
  fineGrained: "svc_pat_admin",
  install: "svcs_install",
  billing: "svcp_billing",
} as const;

export interface Sandbox {
  readonly emulator: RunningEmulator;
  /** The world `seedWorld` made, when the file asked for it (`Dispatch.seeded`). */
  readonly world: World;
}

/** How `call` and `control` reach a server, and what each test starts from. */
export interface Dispatch {
  /**
   * Hands the requests to the server in process (`RunningEmulator.fetch`, `dispatchInProcess`):
   * for the files that sweep every route with hundreds of requests each.
   */
  inProcess?: boolean;
  /**
   * Every test starts from the fixture and the world of `seedWorld` (`sandbox.world`): seeded
   * once, its state is put back before each test through the store, as the reset control puts
   * the fixture back, instead of a reset and thirty requests making fresh keys every time.
   */
  seeded?: boolean;
}

/**
 * Starts one server for the calling file (beforeAll), resets it before every test (beforeEach) and
 * closes it afterwards (afterAll).
 */
export function useSandbox(options: EmulatorOptions = {}, dispatch: Dispatch = {}): Sandbox {
  let running: RunningEmulator | undefined;
  let seeded: { world: World; state: Buffer } | undefined;
  beforeAll(async () => {
    running = await startEmulator({ port: 0, ...options });
    if (dispatch.inProcess) dispatchInProcess(running);
    if (dispatch.seeded) {
      const world = await seedWorld(running);
      seeded = { world, state: serialize(running.store.raw) };
    }
  });
  afterAll(async () => {
    await running?.close();
  });
  beforeEach(async () => {
    if (seeded) {
      restoreState(sandbox.emulator, seeded.state);
      return;
    }
    const response = await control(sandbox.emulator, "POST", "/reset");
    expect(response.status).toBe(204);
  });
  const sandbox = {
    get emulator(): RunningEmulator {
      if (!running) throw new Error("the sandbox server is not running");
      return running;
    },
    get world(): World {
      if (!seeded) throw new Error("the sandbox was not seeded: useSandbox(options, { seeded: true })");
      return seeded.world;
    },
  };
  return sandbox;
}

/**
 * Puts back a state taken with `serialize(emulator.store.raw)` as `POST /_emulator/reset` puts
 * back the fixture (emulator/core/store.ts `reset`, control-routes.ts): every key of the state
 * replaced and committed, the controls reset. Between tests only: no request may be running.
 */
export function restoreState(emulator: RunningEmulator, state: Buffer): void {
  const taken = deserialize(state) as Record<string, unknown>;
  for (const key of emulator.store.model.slices.keys()) Reflect.set(emulator.store.state, key, taken[key]);
  emulator.store.save();
  emulator.controls.reset();
}

/** The servers whose requests `call` and `control` hand over in process. */
const IN_PROCESS = new WeakSet<RunningEmulator>();

/**
 * From now on, `call` and `control` hand `emulator` their requests in process
 * (`RunningEmulator.fetch`) instead of sending them over HTTP: the same answers, without the
 * sockets and the HTTP parsing on both sides, which were most of the time of a file that sweeps
 * every route. The files about HTTP itself (core/http.test.ts, slow bodies, dropped connections)
 * keep real sockets.
 */
export function dispatchInProcess(emulator: RunningEmulator): void {
  IN_PROCESS.add(emulator);
}

interface Sent {
  method: string;
  headers: Record<string, string>;
  body?: string;
  redirect?: "follow" | "manual" | "error";
}

/** Statuses whose `location` `fetch` follows. */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** The headers that describe a body, dropped with it when a redirect turns a request into a GET. */
const BODY_HEADERS = ["content-encoding", "content-language", "content-location", "content-type"];

/**
 * Sends a request as `fetch` does: over HTTP, or in process to a server of `dispatchInProcess`.
 * In process it does what `fetch` does beyond the server's answer: it sends a body's length
 * (the server refuses a large body by it) and follows redirects (the fetch standard's
 * HTTP-redirect fetch: at most 20; a 303, or a POST's 301 or 302, becomes a GET without a body;
 * a redirect to another origin goes over HTTP, without the `authorization` header).
 */
async function send(emulator: RunningEmulator, url: string, sent: Sent): Promise<Response> {
  const init = (s: Sent): RequestInit => ({
    method: s.method,
    headers: s.headers,
    ...(s.body === undefined ? {} : { body: s.body }),
    ...(s.redirect ? { redirect: s.redirect } : {}),
  });
  if (!IN_PROCESS.has(emulator)) return fetch(url, init(sent));
  let at = url;
  let request = sent;
  for (let redirects = 0; ; redirects++) {
    const headers =
      request.body === undefined
        ? request.headers
        : { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) };
    const response = await emulator.fetch(new Request(at, { ...init(request), headers }));
    const location = response.headers.get("location");
    if (request.redirect === "manual" || !REDIRECTS.has(response.status) || location === null) {
      return response;
    }
    if (request.redirect === "error" || redirects === 20) {
      throw new TypeError("fetch failed", { cause: new Error(`redirect to ${location}`) });
    }
    const next = new URL(location, at);
    const status = response.status;
    if (
      (status === 303 && request.method !== "HEAD") ||
      ((status === 301 || status === 302) && request.method === "POST")
    ) {
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !BODY_HEADERS.includes(name.toLowerCase())),
      );
      request = { method: "GET", headers, ...(request.redirect ? { redirect: request.redirect } : {}) };
    }
    if (next.origin !== new URL(at).origin) {
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== "authorization"),
      );
      return fetch(next, init({ ...request, headers }));
    }
    at = next.href;
  }
}

/**
 * A JSON body as the tests read it: assertions check its fields one by one, so it is left untyped
 * rather than cast at every use.
 */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions themselves
export type Json = any;

export interface ApiResponse<T = Json> {
  status: number;
  headers: Headers;
  /** Parsed JSON body; undefined when the body is empty. */
  body: T;
  text: string;
}

export interface CallOptions {
  /** Bearer token; `null` sends no Authorization header. Default: the site administrator's. */
  token?: string | null;
  body?: unknown;
  /** Raw request body, sent as is (for malformed JSON). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** `manual` to see a 302 instead of following it. */
  redirect?: "follow" | "manual" | "error";
}

/** Calls the API (`path` below the API root, or an absolute URL). */
export async function call<T = Json>(
  emulator: RunningEmulator,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const token = options.token === undefined ? TOKENS.siteAdmin : options.token;
  const headers: Record<string, string> = {
    accept: "application/vnd.service+json",
    ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    ...(options.body !== undefined || options.rawBody !== undefined
      ? { "content-type": "application/json" }
      : {}),
    ...options.headers,
  };
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const url = /^https?:\/\//.test(path) ? path : `${emulator.url}${path}`;
  const response = await send(emulator, url, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    ...(options.redirect ? { redirect: options.redirect } : {}),
  });
  return readResponse<T>(response);
}

/** Calls a control route (`/_emulator${path}`). */
export async function control<T = Json>(
  emulator: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiResponse<T>> {
  const response = await send(emulator, `${emulator.origin}/_emulator${path}`, {
    method,
    ...(body === undefined
      ? { headers: {} }
      : {
          body: typeof body === "string" ? body : JSON.stringify(body),
          headers: { "content-type": "application/json" },
        }),
  });
  return readResponse<T>(response);
}

/**
 * Runs every queued background job now (`POST /_emulator/jobs/run`), as if its delay had passed: a
 * test that needs a job pending sets a long delay and steps past it with this, never by sleeping.
 */
export async function runJobs(emulator: RunningEmulator): Promise<Json[]> {
  const response = await control(emulator, "POST", "/jobs/run");
  expect(response.status, response.text).toBe(200);
  return response.body.ran;
}

/** Creates a repository webhook as the site administrator and returns its JSON (asserting 201). */
export async function createRepoHook(
  emulator: RunningEmulator,
  body: Record<string, unknown> = { config: { url: "https://example.com/hook" } },
  repo = "acme-eng/api",
  token: string = TOKENS.siteAdmin,
): Promise<Json> {
  const response = await call(emulator, "POST", `/repos/${repo}/hooks`, { body, token });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** Creates a global webhook as the site administrator and returns its JSON (asserting 201). */
export async function createGlobalHook(
  emulator: RunningEmulator,
  body: Record<string, unknown> = { name: "web", config: { url: "https://example.com/global" } },
): Promise<Json> {
  const response = await call(emulator, "POST", "/admin/hooks", { body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/**
 * Every API route the sandbox server serves, as `METHOD /template` below the API root (e.g.
 * `GET /repos/:owner/:repo/hooks`), read from the hono app's registered routes. Control routes
 * (`/_emulator/`) and the catch-all are not API routes.
 */
export function servedRoutes(): string[] {
  const app = createApp(FAMILIES, new Store(SANDBOX_MODEL, defaultFixture(), undefined), new Controls());
  const routes = app.routes
    .filter((r) => r.method !== "ALL" && r.path.startsWith(`${API_PREFIX}/`))
    .map((r) => `${r.method} ${r.path.slice(API_PREFIX.length)}`);
  return [...new Set(routes)].sort();
}

/** `requiredHeaders`' version by route ("" for none), worked out once: sweeps ask thousands of times. */
const versions = new Map<string, string>();

/**
 * Headers a served route needs beyond the token (`METHOD /template`, as `servedRoutes` lists it):
 * the `X-Service-Api-Version` of a route that exists in one version only.
 */
export function requiredHeaders(route: string): Record<string, string> {
  let version = versions.get(route);
  if (version === undefined) {
    version = onlyVersionOf(allRoutes().find((r) => `${r.method} ${r.pattern}` === route)) ?? "";
    versions.set(route, version);
  }
  return version ? { "x-service-api-version": version } : {};
}

/** Objects created by `seedWorld`, so every route template has something to act on. */
export interface World {
  repoHook: number;
  globalHook: number;
  /** A webhook of acme-eng. */
  orgHook: number;
  /** A branch policy (`main`) of acme-eng/api's `release/eu`, which `seedWorld` gives custom policies. */
  branchPolicy: number;
  enterpriseGroup: number;
  orgGroup: number;
  /** The rule enabling deploy-gate (101) on acme-eng/api's environment `release/eu`. */
  protectionRule: number;
  /** A budget of acme; routes name a budget no one made when absent. */
  budget?: string;
  /** The secret name of a private registry of acme-eng. */
  registry: string;
  /** admin's GPG key, SSH key and SSH signing key (`seedUserKeys`). */
  gpgKey?: number;
  sshKey?: number;
  sshSigningKey?: number;
  /**
   * An issue type and a single-select issue field of acme-eng (hubot is blocked by acme-eng);
   * routes name ids no one made when absent.
   */
  issueType?: number;
  issueField?: number;
  /** A deploy key of acme-eng/api; routes name an id no one made when absent. */
  deployKey?: number;
  /** mona's invitation to acme-eng/api (`seedAccess`); routes name an id no one made when absent. */
  repoInvitation?: number;
  /** A ruleset of acme-eng and one of acme-eng/api (`seedRulesets`). */
  orgRuleset?: number;
  repoRuleset?: number;
}

/**
 * Creates, as the site administrator: a webhook on acme-eng/api, a global webhook, a webhook of
 * acme-eng, custom branch policies with the pattern `main` on acme-eng/api's `release/eu`, and a runner
 * group with visibility `selected` in enterprise acme (organisation acme-eng, runner 8) and in
 * organisation acme-eng (repository api, runner 1); deploy-gate as a protection rule of
 * acme-eng/api's environment `release/eu`; a budget of acme for organisation acme-eng; an OIDC
 * private registry of acme-eng (no sealed value needed); and in acme-eng an issue type, a
 * single-select issue field and a block of hubot (`seedOrgConfig`); and a deploy key of acme-eng/api.
 */
export async function seedWorld(emulator: RunningEmulator): Promise<World> {
  const post = async (path: string, body: unknown): Promise<number> => {
    const response = await call(emulator, "POST", path, { body });
    expect(response.status, `${path}: ${response.text}`).toBe(201);
    return response.body.id;
  };
  return {
    repoHook: await post("/repos/acme-eng/api/hooks", { config: { url: "https://example.com/seed" } }),
    globalHook: await post("/admin/hooks", { name: "web", config: { url: "https://example.com/seed" } }),
    orgHook: await post("/orgs/acme-eng/hooks", { name: "web", config: { url: "https://example.com/seed" } }),
    branchPolicy: await seedBranchPolicy(emulator),
    enterpriseGroup: await post("/enterprises/acme/actions/runner-groups", {
      name: "seed",
      visibility: "selected",
      selected_organization_ids: [100],
      runners: [8],
    }),
    orgGroup: await post("/orgs/acme-eng/actions/runner-groups", {
      name: "seed",
      visibility: "selected",
      selected_repository_ids: [1000],
      runners: [1],
    }),
    protectionRule: await post("/repos/acme-eng/api/environments/release%2Feu/deployment_protection_rules", {
      integration_id: 101,
    }),
    budget: await seedBudget(emulator),
    registry: await seedRegistry(emulator),
    ...(await seedUserKeys(emulator)),
    ...(await seedOrgConfig(emulator)),
    ...(await seedActions(emulator)),
    deployKey: await post("/repos/acme-eng/api/keys", { title: "seed", key: sshPublicKey() }),
    ...(await seedAccess(emulator)),
    ...(await seedRulesets(emulator)),
  };
}

/** Creates, as the site administrator, a ruleset of acme-eng (every repository's default branch) and one of acme-eng/api. */
export async function seedRulesets(
  emulator: RunningEmulator,
): Promise<{ orgRuleset: number; repoRuleset: number }> {
  const made = async (path: string, body: unknown): Promise<number> => {
    const response = await call(emulator, "POST", path, { body });
    expect(response.status, `${path}: ${response.text}`).toBe(201);
    return response.body.id;
  };
  const refs = { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } };
  return {
    orgRuleset: await made("/orgs/acme-eng/rulesets", {
      name: "seed",
      enforcement: "active",
      conditions: { ...refs, repository_name: { include: ["~ALL"], exclude: [] } },
      rules: [{ type: "deletion" }],
    }),
    repoRuleset: await made("/repos/acme-eng/api/rulesets", {
      name: "seed",
      enforcement: "active",
      conditions: refs,
      rules: [{ type: "non_fast_forward" }],
    }),
  };
}

/** The name of the Actions secret and variable `seedWorld` makes in each scope. */
export const ACTIONS_SEED_NAME = "MATRIX_SEED";

/** The scopes of Actions secrets and variables, as paths: acme-eng, acme-eng/api, its `release/eu`. */
export const ACTIONS_SCOPES = [
  "/orgs/acme-eng/actions",
  "/repos/acme-eng/api/actions",
  "/repos/acme-eng/api/environments/release%2Feu",
] as const;

/** Puts `value` as the secret `name` of a scope (`ACTIONS_SCOPES`), sealed for its key; the status. */
export async function putSecret(
  emulator: RunningEmulator,
  scope: string,
  name: string,
  value: string,
  more: Record<string, unknown> = {},
): Promise<number> {
  const key = await call(emulator, "GET", `${scope}/secrets/public-key`);
  expect(key.status, key.text).toBe(200);
  const encrypted_value = await sealBox(value, key.body.key);
  const response = await call(emulator, "PUT", `${scope}/secrets/${name}`, {
    body: { encrypted_value, key_id: key.body.key_id, ...more },
  });
  expect(response.status, response.text).toBeLessThan(300);
  return response.status;
}

/**
 * Makes a secret and a variable named `ACTIONS_SEED_NAME` in each scope; the organisation's for
 * the repository acme-eng/api alone (visibility `selected`), so its repository routes answer.
 */
async function seedActions(emulator: RunningEmulator): Promise<Record<never, never>> {
  const selected = { visibility: "selected", selected_repository_ids: [1000] };
  for (const scope of ACTIONS_SCOPES) {
    const org = scope.startsWith("/orgs/");
    await putSecret(emulator, scope, ACTIONS_SEED_NAME, "seed", org ? selected : {});
    const response = await call(emulator, "POST", `${scope}/variables`, {
      body: { name: ACTIONS_SEED_NAME, value: "seed", ...(org ? selected : {}) },
    });
    expect(response.status, response.text).toBe(201);
  }
  return {};
}

/** Gives acme-eng/api's `release/eu` custom branch policies and the pattern `main`; its id. */
async function seedBranchPolicy(emulator: RunningEmulator): Promise<number> {
  const release = "/repos/acme-eng/api/environments/release%2Feu";
  const custom = await call(emulator, "PUT", release, {
    body: { deployment_branch_policy: { protected_branches: false, custom_branch_policies: true } },
  });
  expect(custom.status, custom.text).toBe(200);
  const policy = await call(emulator, "POST", `${release}/deployment-branch-policies`, {
    body: { name: "main" },
  });
  expect(policy.status, policy.text).toBe(200);
  return policy.body.id;
}

/** The body of a budget of enterprise acme for organisation acme-eng, covering Actions. */
export const ORG_BUDGET = {
  budget_amount: 100,
  prevent_further_usage: false,
  budget_alerting: { will_alert: true, alert_recipients: ["billie"] },
  budget_scope: "organization",
  budget_entity_name: "acme-eng",
  budget_type: "ProductPricing",
  budget_product_sku: "actions",
};

/** Creates a budget of acme (answer 200 `{message, budget}`) and returns its id. */
export async function seedBudget(
  emulator: RunningEmulator,
  body: Record<string, unknown> = ORG_BUDGET,
  token: string = TOKENS.siteAdmin,
): Promise<string> {
  const response = await call(emulator, "POST", "/enterprises/acme/settings/billing/budgets", {
    body,
    token,
    headers: { "x-service-api-version": API_VERSION_2026 },
  });
  expect(response.status, response.text).toBe(200);
  return response.body.budget.id;
}

async function seedRegistry(emulator: RunningEmulator): Promise<string> {
  const response = await call(emulator, "POST", "/orgs/acme-eng/private-registries", {
    body: {
      registry_type: "maven_repository",
      url: "https://maven.example.com/seed",
      visibility: "all",
      auth_type: "oidc_azure",
      tenant_id: "seed-tenant",
      client_id: "seed-client",
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.name;
}

/**
 * The path of a route template with every parameter filled with a value that names something in
 * the default fixture or in `world`; `overrides` replace single parameters (raw, not escaped).
 */
export function fillRoute(template: string, world: World, overrides: Record<string, string> = {}): string {
  const enterprise = template.startsWith("/enterprises/");
  const values: Record<string, string> = {
    owner: "acme-eng",
    repo: "api",
    org: "acme-eng",
    enterprise: "acme",
    username: "octocat",
    hook_id: String(
      template.startsWith("/admin/")
        ? world.globalHook
        : template.startsWith("/orgs/")
          ? world.orgHook
          : world.repoHook,
    ),
    runner_group_id: String(enterprise ? world.enterpriseGroup : world.orgGroup),
    runner_id: enterprise ? "8" : "1",
    org_id: "100",
    environment_name: "release%2Feu",
    protection_rule_id: String(world.protectionRule),
    branch_policy_id: String(world.branchPolicy),
    budget_id: world.budget ?? "00000000-0000-4000-8000-000000000000",
    secret_name: world.registry,
    gpg_key_id: String(world.gpgKey ?? 1),
    key_id: String(world.sshKey ?? 1),
    ssh_signing_key_id: String(world.sshSigningKey ?? 1),
    thread_id: "1",
    branch: "main",
    // Seed facts: pull request #7, alert #1 and issue #1 of acme-eng/api.
    pull_number: "7",
    alert_number: "1",
    issue_number: "1",
    issue_type_id: String(world.issueType ?? 999_999),
    issue_field_id: String(world.issueField ?? 999_999),
    // The fixture's team of acme-eng, and mona's invitation to acme-eng/api.
    team_slug: "platform",
    invitation_id: String(world.repoInvitation ?? 999_999),
    ruleset_id: String((template.startsWith("/orgs/") ? world.orgRuleset : world.repoRuleset) ?? 999_999),
    custom_property_name: "tier",
    // all_repo_read, a predefined role.
    role_id: "8132",
  };
  // Actions secrets and variables: the ones `seedWorld` made in each scope; acme-eng/web to select.
  if (/\/(actions|environments\/:environment_name)\/(secrets|variables)(\/|$)/.test(template)) {
    values.secret_name = ACTIONS_SEED_NAME;
    values.name = ACTIONS_SEED_NAME;
    values.repository_id = "1001";
  }
  // octocat is a member of acme-eng, whom the organisation cannot block: its block routes act on
  // hubot, whom `seedWorld` blocked.
  if (template.startsWith("/orgs/:org/blocks/")) values.username = BLOCKED_USER;
  // A repository's keys are its deploy keys, not the signed-in user's.
  if (template.startsWith("/repos/")) values.key_id = String(world.deployKey ?? 999_999);
  // A parameter that takes slashes is registered as `:branch{.+}`: the pattern goes with the name.
  return template.replace(/:([a-z_]+)(?:\{[^}]*\})?/g, (_, name: string) => {
    const value = Object.hasOwn(overrides, name) ? overrides[name] : values[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${template}`);
    return value;
  });
}

/** The whole state, as `GET /_emulator/state` shows it. */
export async function stateOf(emulator: RunningEmulator): Promise<Json> {
  return (await control(emulator, "GET", "/state")).body;
}

/** The JSON text of `GET /_emulator/state`, unparsed: two equal texts are two equal states. */
export async function stateText(emulator: RunningEmulator): Promise<string> {
  const response = await send(emulator, `${emulator.origin}/_emulator/state`, { method: "GET", headers: {} });
  expect(response.status).toBe(200);
  return response.text();
}

/**
 * What a server holds in memory: its state (the store) and its controls, the only other things it
 * keeps (emulator/core/controls.ts), copied so that holes and lengths of arrays count. The request log
 * and the rate-limit counts are the metering of requests, which a failed request changes too: the
 * counts are kept apart, to be compared by `memoryChanges`, and the log is left out.
 */
export interface Memory {
  state: Buffer;
  controls: Buffer;
  rateLimit: number;
  counts: Map<string, number>;
}

/** The fields of `Controls` that meter requests (compared apart, or not at all). */
const METERING = ["entries", "seq", "primaryRateLimit"];

export function memoryOf(emulator: RunningEmulator): Memory {
  const controls: Record<string, unknown> = { ...emulator.controls };
  for (const key of METERING) delete controls[key];
  const { limit, windows } = emulator.controls.primaryRateLimit;
  return {
    state: serialize(emulator.store.raw),
    controls: serialize(controls),
    rateLimit: limit,
    counts: new Map([...windows].map(([token, window]) => [token, window.used])),
  };
}

/**
 * How the server's memory differs from `before` beyond the metering of one request (its count
 * against one token's rate limit): the keys of the state and the controls that changed, and a
 * count that moved otherwise. Empty when nothing else changed. `after` is the memory as it is now,
 * when the caller took it already (a sweep keeps it as the next request's `before`).
 *
 * Equal serialisations are equal memories, so only a state or controls whose bytes differ are
 * compared key by key (to name the keys, and to let pass what differs in bytes only, such as the
 * order of an object's keys): the comparison of an unchanged memory costs one `Buffer.equals`.
 */
export function memoryChanges(
  before: Memory,
  emulator: RunningEmulator,
  after: Memory = memoryOf(emulator),
): string[] {
  const changes: string[] = [
    ...changedKeys("state", before.state, after.state),
    ...changedKeys("controls", before.controls, after.controls),
  ];
  if (after.rateLimit !== before.rateLimit) changes.push("the rate limit");
  let metered = 0;
  for (const [token, used] of after.counts) {
    const added = used - (before.counts.get(token) ?? 0);
    if (added === 1) metered++;
    else if (added !== 0) changes.push(`the rate-limit count of ${token}`);
  }
  if (metered > 1) changes.push("the rate-limit counts of several tokens");
  return changes;
}

/** The top-level keys (as `name.key`) whose values differ between two serialised objects. */
function changedKeys(name: string, was: Buffer, is: Buffer): string[] {
  if (was.equals(is)) return [];
  const a = deserialize(was) as Record<string, unknown>;
  const b = deserialize(is) as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((key) => !isDeepStrictEqual(a[key], b[key]))
    .map((key) => `${name}.${key}`);
}

/** Parses a `Link` header into rel -> URL. */
export function parseLink(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  if (!header) return links;
  for (const part of header.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part.trim());
    if (match?.[1] && match[2]) links[match[2]] = match[1];
  }
  return links;
}

/** Asserts the platform's error body: `{message, documentation_url, errors?}` and nothing else. */
export function expectErrorBody(body: unknown, message?: string | RegExp): void {
  expect(body).toBeTypeOf("object");
  const record = body as Record<string, unknown>;
  expect(record.message).toBeTypeOf("string");
  expect(record.documentation_url).toBe(DOCS_URL);
  for (const key of Object.keys(record)) expect(["message", "documentation_url", "errors"]).toContain(key);
  if (typeof message === "string") expect(record.message).toBe(message);
  else if (message) expect(record.message).toMatch(message);
}

/** Asserts a 422 naming the field (and code) in `errors[]`. */
export function expectValidationFailed(
  response: ApiResponse,
  field: string | undefined,
  code?: string,
  resource = "Hook",
): void {
  expect(response.status, response.text).toBe(422);
  expectErrorBody(response.body, "Validation Failed");
  const errors = response.body.errors as Array<Record<string, unknown>>;
  expect(Array.isArray(errors)).toBe(true);
  expect(errors.length).toBeGreaterThan(0);
  const item = errors.find((e) => field === undefined || e.field === field);
  expect(item, JSON.stringify(errors)).toBeDefined();
  expect(item?.resource).toBe(resource);
  if (code) expect(item?.code).toBe(code);
}

/** Status, headers, the raw text and the parsed JSON body of a response. */
async function readResponse<T>(response: Response): Promise<ApiResponse<T>> {
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as T,
    text,
  };
}

/** The key types `sshPublicKey` makes, by their OpenSSH names. */
export type SshKeyKind =
  | "ssh-ed25519"
  | "ssh-rsa"
  | "ecdsa-sha2-nistp256"
  | "ecdsa-sha2-nistp384"
  | "ecdsa-sha2-nistp521";

/** The SSH wire format (RFC 4251 5), for key lines built by hand. */
export const sshWire = {
  string(b: Buffer): Buffer {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length);
    return Buffer.concat([length, b]);
  },
  text(t: string): Buffer {
    return sshWire.string(Buffer.from(t, "latin1"));
  },
  /** An mpint of unsigned big-endian bytes: signed, so a leading 1 bit needs a zero byte in front. */
  mpint(b: Buffer): Buffer {
    return sshWire.string((b[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.alloc(1), b]) : b);
  },
  /** `<type> <base64>` of the wire form: the type string, then `fields`. */
  line(type: string, ...fields: Buffer[]): string {
    return `${type} ${Buffer.concat([sshWire.text(type), ...fields]).toString("base64")}`;
  },
};

/**
 * A fresh public key line as OpenSSH writes it (`<type> <base64> <comment>`): a key pair from
 * `node:crypto`, its public key written in the SSH wire format (RFC 4253 6.6, RFC 5656 3.1).
 */
export function sshPublicKey(type: SshKeyKind = "ssh-ed25519", comment = "test@sandbox"): string {
  const b64 = (v: string | undefined) => Buffer.from(v ?? "", "base64url");
  let line: string;
  if (type === "ssh-ed25519") {
    const jwk = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" });
    line = sshWire.line(type, sshWire.string(b64(jwk.x)));
  } else if (type === "ssh-rsa") {
    const { e, n } = rsaPublicNumbers();
    line = sshWire.line(type, sshWire.mpint(e), sshWire.mpint(n));
  } else {
    const curve = type.slice("ecdsa-sha2-".length);
    const namedCurve = `P-${curve.slice("nistp".length)}`;
    const jwk = generateKeyPairSync("ec", { namedCurve }).publicKey.export({ format: "jwk" });
    const point = Buffer.concat([Buffer.from([4]), b64(jwk.x), b64(jwk.y)]);
    line = sshWire.line(type, sshWire.text(curve), sshWire.string(point));
  }
  return comment ? `${line} ${comment}` : line;
}

/** The exponent and modulus (unsigned big-endian bytes) of a fresh 2048-bit RSA key. */
export function rsaPublicNumbers(): { e: Buffer; n: Buffer } {
  const jwk = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ format: "jwk" });
  return { e: Buffer.from(jwk.e ?? "", "base64url"), n: Buffer.from(jwk.n ?? "", "base64url") };
}

/** A security key (FIDO) public key line: type, (curve,) key, then the application. */
export function securityKeyLine(kind: "ed25519" | "ecdsa" = "ed25519", application = "ssh:"): string {
  const b64 = (v: string | undefined) => Buffer.from(v ?? "", "base64url");
  const app = sshWire.string(Buffer.from(application, "latin1"));
  if (kind === "ed25519") {
    const jwk = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" });
    return sshWire.line("sk-ssh-ed25519@openssh.com", sshWire.string(b64(jwk.x)), app);
  }
  const jwk = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ format: "jwk" });
  const point = Buffer.concat([Buffer.from([4]), b64(jwk.x), b64(jwk.y)]);
  return sshWire.line(
    "sk-ecdsa-sha2-nistp256@openssh.com",
    sshWire.text("nistp256"),
    sshWire.string(point),
    app,
  );
}

/**
 * The same key line with the unused low bits of its last base64 character set: another text that
 * decodes to the same bytes. Only a line whose base64 ends in `=` has such bits.
 */
export function withPaddingBits(line: string): string {
  const [type, data = ""] = line.split(" ");
  const padding = data.length - data.replace(/=+$/, "").length;
  if (padding === 0) throw new Error(`${type} ${data.slice(0, 20)}... has no padding bits`);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const at = data.length - padding - 1;
  const value = alphabet.indexOf(data[at] ?? "A") | 1;
  return `${type} ${data.slice(0, at)}${alphabet[value]}${data.slice(at + 1)}`;
}

/**
 * The key lines OpenSSH refuses though they are well-formed, by what is wrong with them, and the
 * words of the refusal: RSA keys too small, too large or with an unusable exponent, the all-zero
 * Ed25519 point (of small order), and security keys whose application is empty or binary.
 */
export function hostileSshKeys(): Array<[string, string, RegExp]> {
  const { e, n } = rsaPublicNumbers();
  const rsa = (exponent: Buffer, modulus: Buffer) =>
    sshWire.line("ssh-rsa", sshWire.mpint(exponent), sshWire.mpint(modulus));
  const odd = (b: Buffer) => Buffer.from(b.map((byte, i) => (i === b.length - 1 ? byte | 1 : byte)));
  const even = (b: Buffer) => Buffer.from(b.map((byte, i) => (i === b.length - 1 ? byte & 0xfe : byte)));
  const huge = Buffer.alloc(700_000, 0xa5); // 5.6 Mbit
  return [
    [
      "ssh-rsa with a 64-bit modulus",
      rsa(e, odd(Buffer.from("c3a5e1f0d2b4a6f7", "hex"))),
      /modulus has 64 bits; at least 1024/,
    ],
    ["ssh-rsa with e=0", rsa(Buffer.alloc(0), n), /public exponent is 0; it must be odd and at least 3/],
    ["ssh-rsa with e=2 and an even modulus", rsa(Buffer.from([2]), even(n)), /modulus is even/],
    ["ssh-rsa with e=2", rsa(Buffer.from([2]), n), /public exponent is 2/],
    ["ssh-rsa with a 5.6-Mbit modulus", rsa(e, odd(huge)), /modulus has 5600000 bits; at most 16384/],
    [
      "ssh-ed25519 with an all-zero point",
      sshWire.line("ssh-ed25519", sshWire.string(Buffer.alloc(32))),
      /point is of small order/,
    ],
    ["sk-ssh-ed25519 with an empty application", securityKeyLine("ed25519", ""), /application is empty/],
    [
      "sk-ssh-ed25519 with a binary application",
      securityKeyLine("ed25519", "ssh:\u0000\u0001\u00ff"),
      /application holds characters other than printable ASCII/,
    ],
    [
      "sk-ecdsa with a binary application",
      securityKeyLine("ecdsa", "\u001b[31m"),
      /application holds characters other than printable ASCII/,
    ],
  ];
}

/** `openpgp` is an ES module: loaded with `import()` from these CommonJS-typed files. */
export function loadOpenpgp(): Promise<typeof openpgp> {
  return import("openpgp");
}

/** A fresh ASCII-armored GPG public key (Curve25519, fast) with the given user IDs. */
export async function gpgPublicKey(
  emails: string[] = ["admin@acme.example"],
  options: { keyExpirationTime?: number } = {},
): Promise<string> {
  const { generateKey } = await loadOpenpgp();
  const { publicKey } = await generateKey({
    type: "ecc",
    curve: "curve25519Legacy",
    userIDs: emails.map((email) => ({ name: email.split("@")[0] ?? email, email })),
    format: "armored",
    ...options,
  });
  return publicKey;
}

/**
 * A fresh Ed25519 GPG public key whose user ID carries, beside its genuine self-certification,
 * `certifications` copies of it and `revocations` copies of a revocation of that user ID, each
 * copy with one byte of its signature flipped: they parse, and never verify.
 */
export async function gpgKeyWithForgedSignatures(
  certifications: number,
  revocations: number,
): Promise<string> {
  const lib = await loadOpenpgp();
  const { privateKey } = await lib.generateKey({
    type: "ecc",
    curve: "ed25519Legacy",
    userIDs: [{ name: "admin", email: "admin@acme.example" }],
    format: "object",
  });
  const [user] = privateKey.users;
  const [certification] = user?.selfCertifications ?? [];
  if (!user || !certification || !(privateKey.keyPacket instanceof lib.SecretKeyPacket)) {
    throw new Error("openpgp made no user ID");
  }
  const revocation = (
    await user.revoke(privateKey.keyPacket, { flag: lib.enums.reasonForRevocation.userIDInvalid })
  ).revocationSignatures[0];
  if (!revocation) throw new Error("openpgp made no revocation");
  const forged = (signature: openpgp.SignaturePacket, i: number) => {
    const bytes = signature.write();
    // The last bytes are the signature's own (the MPI of s): the digest prefix still matches.
    const at = bytes.length - 1 - (i % 16);
    bytes[at] = (bytes[at] ?? 0) ^ (1 + (Math.floor(i / 16) % 255));
    const copy = new lib.SignaturePacket();
    copy.read(bytes);
    return copy;
  };
  const publicKey = privateKey.toPublic();
  const [target] = publicKey.users;
  if (!target) throw new Error("openpgp lost the user ID");
  // The genuine certification first, then the forged copies: openpgp tries the last ones first.
  target.selfCertifications = [
    certification,
    ...Array.from({ length: certifications }, (_, i) => forged(certification, i)),
  ];
  target.revocationSignatures = Array.from({ length: revocations }, (_, i) => forged(revocation, i));
  return publicKey.armor();
}

/** A fresh GPG public key on a Brainpool curve, with the given user ID's self-certification. */
export async function brainpoolGpgKey(
  curve: "brainpoolP256r1" | "brainpoolP384r1" | "brainpoolP512r1" = "brainpoolP512r1",
  email = "admin@acme.example",
): Promise<string> {
  const { generateKey } = await loadOpenpgp();
  const { publicKey } = await generateKey({
    type: "ecc",
    curve,
    userIDs: [{ name: email.split("@")[0] ?? email, email }],
    format: "armored",
  });
  return publicKey;
}

/** Adds a GPG key, an SSH key and an SSH signing key to admin; returns their ids. */
export async function seedUserKeys(
  emulator: RunningEmulator,
): Promise<{ gpgKey: number; sshKey: number; sshSigningKey: number }> {
  const post = async (path: string, body: unknown): Promise<number> => {
    const response = await call(emulator, "POST", path, { body });
    expect(response.status, `${path}: ${response.text}`).toBe(201);
    return response.body.id;
  };
  return {
    gpgKey: await post("/user/gpg_keys", { name: "seed", armored_public_key: await gpgPublicKey() }),
    sshKey: await post("/user/keys", { title: "seed", key: sshPublicKey() }),
    sshSigningKey: await post("/user/ssh_signing_keys", { title: "seed", key: sshPublicKey() }),
  };
}

/** The user `seedWorld` blocks in acme-eng. */
export const BLOCKED_USER = "hubot";

/**
 * Creates, as the site administrator, an issue type and a single-select issue field of acme-eng
 * (both answer 200) and blocks hubot there.
 */
export async function seedOrgConfig(
  emulator: RunningEmulator,
): Promise<{ issueType: number; issueField: number }> {
  const type = await call(emulator, "POST", "/orgs/acme-eng/issue-types", {
    body: { name: "Seed", is_enabled: true, color: "gray" },
  });
  expect(type.status, type.text).toBe(200);
  const field = await call(emulator, "POST", "/orgs/acme-eng/issue-fields", {
    body: {
      name: "Seed",
      data_type: "single_select",
      options: [{ name: "One", color: "blue", priority: 1 }],
    },
  });
  expect(field.status, field.text).toBe(200);
  const block = await call(emulator, "PUT", `/orgs/acme-eng/blocks/${BLOCKED_USER}`);
  expect(block.status, block.text).toBe(204);
  return { issueType: type.body.id, issueField: field.body.id };
}
/**
 * Gives the fixture's team `platform` pull on acme-eng/api and invites mona (outside acme-eng) to
 * collaborate on it, as the site administrator.
 */
export async function seedAccess(emulator: RunningEmulator): Promise<{ repoInvitation: number }> {
  const access = await call(emulator, "PUT", "/orgs/acme-eng/teams/platform/repos/acme-eng/api", {
    body: { permission: "pull" },
  });
  expect(access.status, access.text).toBe(204);
  const invited = await call(emulator, "PUT", "/repos/acme-eng/api/collaborators/mona", { body: {} });
  expect(invited.status, invited.text).toBe(201);
  return { repoInvitation: invited.body.id };
}

/**
 * The fixture's app user access token (UAT): deploy-gate acting for octocat, with the app's
 * repository permissions and its user permissions (README, "Fixture").
 */
export const APP_USER_TOKEN = "svcu_user";

/**
 * Values for `fillRoute` of the parameters of objects the sandbox does not model (campaigns, gists,
 * statuses...): routes naming them answer 501 (emulator/families/unmodelled/routes.ts) and never look them up.
 */
export const UNMODELLED_PARAMS: Record<string, string> = {
  campaign_number: "1",
  pat_request_id: "1",
  pat_id: "1",
  finding_number: "1",
  workspace_name: "octocat-workspace",
  sha: "0123456789abcdef0123456789abcdef01234567",
  ref: "main",
  gist_id: "aa5a315d61ae9438b18d",
  comment_id: "1",
};
