/**
 * Every request is one transaction of the store (emulator/core/app.ts `transact`, emulator/core/store.ts):
 * a body that arrives slowly acts on the state as it is when it has arrived, not as it was when
 * the request began; hostile bodies are refused with a 422 naming the field and the limit, never a
 * 500, and a request that fails leaves the server's memory (state and controls) as it was, but for
 * its metering. (A server killed with SIGKILL while it creates: persistence.test.ts.)
 */
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { API_VERSION_2026 } from "../../../api";
import type { RunningEmulator } from "../../../emulator/index";
import {
  call,
  fillRoute,
  gpgKeyWithForgedSignatures,
  hostileSshKeys,
  memoryChanges,
  memoryOf,
  ORG_BUDGET,
  requiredHeaders,
  seedWorld,
  servedRoutes,
  TOKENS,
  UNMODELLED_PARAMS,
  useSandbox,
  type World,
} from "../helpers";

const HOOKS = "/repos/acme-eng/api/hooks";
const BUDGETS = "/enterprises/acme/settings/billing/budgets";
const GROUPS = "/enterprises/acme/actions/runner-groups";
const V2026 = { "x-service-api-version": API_VERSION_2026 };

/**
 * Sends a request whose body arrives in two halves: the second once `meanwhile` has finished.
 * Resolves with the status once the answer is in.
 */
function slowRequest(
  emulator: RunningEmulator,
  method: string,
  path: string,
  body: unknown,
  meanwhile: () => Promise<void>,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const text = JSON.stringify(body);
  const half = Math.floor(text.length / 2);
  return new Promise((resolvePromise, reject) => {
    const req = request(
      `${emulator.url}${path}`,
      {
        method,
        headers: {
          authorization: `Bearer ${TOKENS.siteAdmin}`,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(text)),
          ...headers,
        },
      },
      (res) => {
        let answer = "";
        res.on("data", (chunk: Buffer) => {
          answer += chunk.toString();
        });
        res.on("end", () => resolvePromise({ status: res.statusCode ?? 0, text: answer }));
      },
    );
    req.on("error", reject);
    req.write(text.slice(0, half));
    // Long enough for the server to have begun the request and be waiting for the rest.
    setTimeout(() => {
      meanwhile().then(() => req.end(text.slice(half)), reject);
    }, 100);
  });
}

describe("a request whose body arrives slowly", () => {
  const sandbox = useSandbox();

  it("does not give two hooks one URL: a PATCH to X and a POST of X", async () => {
    const emulator = sandbox.emulator;
    const hook = (await call(emulator, "POST", HOOKS, { body: { config: { url: "https://example.com/a" } } }))
      .body;
    const patch = await slowRequest(
      emulator,
      "PATCH",
      `${HOOKS}/${hook.id}`,
      { config: { url: "https://example.com/x" } },
      async () => {
        const post = await call(emulator, "POST", HOOKS, {
          body: { config: { url: "https://example.com/x" } },
        });
        expect(post.status).toBe(201);
      },
    );
    expect(patch.status).toBe(422);
    const hooks = (await call(emulator, "GET", HOOKS)).body as Array<{ config: { url: string } }>;
    expect(hooks.filter((h) => h.config.url === "https://example.com/x")).toHaveLength(1);
  });

  it("loses no update: a PATCH of the amount and one of the alerting both stay", async () => {
    const emulator = sandbox.emulator;
    const created = await call(emulator, "POST", BUDGETS, { body: ORG_BUDGET, headers: V2026 });
    expect(created.status, created.text).toBe(200);
    const id = created.body.budget.id;
    const amount = await slowRequest(
      emulator,
      "PATCH",
      `${BUDGETS}/${id}`,
      { budget_amount: 500 },
      async () => {
        const alerting = await call(emulator, "PATCH", `${BUDGETS}/${id}`, {
          body: { budget_alerting: { will_alert: true, alert_recipients: ["billie", "admin"] } },
          headers: V2026,
        });
        expect(alerting.status, alerting.text).toBe(200);
      },
      V2026,
    );
    expect(amount.status, amount.text).toBe(200);
    const budget = (await call(emulator, "GET", `${BUDGETS}/${id}`, { headers: V2026 })).body;
    expect(budget.budget_amount).toBe(500);
    expect(budget.budget_alerting.alert_recipients).toEqual(["billie", "admin"]);
  });

  it("leaves no runner in a deleted group: a PUT of runners racing the group's DELETE", async () => {
    const emulator = sandbox.emulator;
    const group = (await call(emulator, "POST", GROUPS, { body: { name: "doomed", runners: [7] } })).body;
    const put = await slowRequest(
      emulator,
      "PUT",
      `${GROUPS}/${group.id}/runners`,
      { runners: [7, 8] },
      async () => {
        expect((await call(emulator, "DELETE", `${GROUPS}/${group.id}`)).status).toBe(204);
      },
    );
    expect(put.status).toBe(404);
    const live = new Set(emulator.store.state.runnerGroups.map((g) => g.id));
    for (const runner of ["7", "8"])
      expect(live.has(emulator.store.state.runnerGroupOf[runner] ?? -1)).toBe(true);
  });
});

/** The JSON text of an array nested `depth` levels deep (too deep for `JSON.stringify` here). */
const deepText = (depth: number) => `${"[".repeat(depth)}"x"${"]".repeat(depth)}`;

/** An array nested `depth` levels deep. */
function nested(depth: number): unknown {
  let value: unknown = "x";
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe("a hostile body", () => {
  // Thousands of requests: answered in process (the slow bodies above use real sockets).
  const sandbox = useSandbox({}, { inProcess: true });

  it.each([
    [
      "a 5,000-deep property value",
      "PATCH",
      "/repos/acme-eng/api/properties/values",
      `{"properties":[{"property_name":"tier","value":${deepText(5000)}}]}`,
      {},
      /nests deeper than 32 levels/,
    ],
    [
      "a 5,000-deep budget user",
      "POST",
      BUDGETS,
      `${JSON.stringify(ORG_BUDGET).slice(0, -1)},"user":${deepText(5000)}}`,
      V2026,
      /nests deeper than 32 levels/,
    ],
    [
      "130,000 properties",
      "PATCH",
      "/repos/acme-eng/api/properties/values",
      { properties: new Array(130_000).fill(0) },
      {},
      /properties has 130000 items; at most 10000 are allowed/,
    ],
    [
      "200,000 alert recipients",
      "POST",
      BUDGETS,
      {
        ...ORG_BUDGET,
        budget_alerting: { will_alert: true, alert_recipients: new Array(200_000).fill("a") },
      },
      V2026,
      /budget_alerting.alert_recipients has 200000 items/,
    ],
  ])(
    "is refused with a 422 naming the field and the limit: %s",
    async (_, method, path, body, headers, message) => {
      const rawBody = typeof body === "string" ? body : JSON.stringify(body);
      const response = await call(sandbox.emulator, method, path, { rawBody, headers });
      expect(response.status, response.text.slice(0, 300)).toBe(422);
      expect(response.body.errors[0].message).toMatch(message);
      expect(response.text.length).toBeLessThan(2_000);
    },
  );

  it("gets at most 100 errors and a count of the rest", async () => {
    const properties = Array.from({ length: 5_000 }, (_, i) => ({ property_name: `nope-${i}`, value: "x" }));
    const response = await call(sandbox.emulator, "PATCH", "/repos/acme-eng/api/properties/values", {
      body: { properties },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors).toHaveLength(101);
    expect(response.body.errors[100].message).toMatch(/^\d+ more errors not shown$/);
    expect(response.text.length).toBeLessThan(30_000);
  });

  const odd: unknown[] = [
    null,
    0,
    -1,
    1e308,
    "",
    // A lone surrogate: text JSON can carry that has no UTF-8 form (nor a URL).
    "\ud800",
    "x".repeat(10_000),
    [],
    [null],
    {},
    { "": [] },
    true,
    nested(40),
  ];

  /**
   * The fields of the families whose handlers read more than the common fields below, with a body
   * that passes their checks of the other fields, so the hostile value reaches its own check, and
   * values hostile to those fields in particular (`hostile`, sent to each of them beside `odd`).
   */
  const FAMILY_FIELDS: Array<{
    route: RegExp;
    base?: Record<string, unknown>;
    fields: string[];
    hostile?: () => Promise<unknown[]>;
  }> = [
    {
      route: /^POST \/admin\/organizations$/,
      base: { admin: "olivia" },
      fields: ["login", "admin", "profile_name"],
    },
    { route: /^PATCH \/admin\/organizations\//, fields: ["login"] },
    { route: /\/rename$/, fields: ["new_name"] },
    { route: /\/merge-upstream$/, fields: ["branch"] },
    {
      route: /\/merges$/,
      base: { base: "main", head: "develop" },
      fields: ["base", "head", "commit_message"],
    },
    {
      route: /\/dependency-graph\/snapshots$/,
      base: {
        version: 0,
        job: { id: "hostile", correlator: "hostile" },
        sha: "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3",
        ref: "refs/heads/main",
        detector: { name: "hostile", version: "1.0.0", url: "https://example.com/hostile" },
        scanned: "2026-01-10T09:00:00Z",
      },
      fields: ["version", "job", "sha", "ref", "detector", "scanned", "manifests", "metadata"],
    },
    {
      route: /\/depwatch\/alerts\//,
      base: { state: "dismissed", dismissed_reason: "not_used" },
      fields: ["state", "dismissed_reason", "dismissed_comment", "assignees"],
    },
    { route: /\/requested_reviewers$/, fields: ["reviewers", "team_reviewers"] },
    { route: /\/issue-types/, base: { name: "Hostile" }, fields: ["is_enabled", "description", "color"] },
    {
      route: /\/issue-fields/,
      base: { name: "Hostile", data_type: "single_select", options: [{ name: "One" }] },
      fields: ["data_type", "description", "options"],
    },
    { route: /^PUT \/notifications$/, fields: ["last_read_at", "read"] },
    {
      route: /\/rulesets/,
      base: { name: "hostile", enforcement: "active", conditions: { ref_name: { include: ["~ALL"] } } },
      fields: ["target", "enforcement", "bypass_actors", "conditions", "rules"],
      hostile: async () => [
        [{ type: "pull_request", parameters: { required_approving_review_count: "2" } }],
        [{ type: "constructor" }],
        [{ actor_type: "Team", actor_id: 1e308 }],
        {
          ref_name: { include: [null] },
          repository_property: { include: [{ name: "__proto__", property_values: [] }] },
        },
      ],
    },
    {
      route: /\/branches\/.*\/protection$/,
      base: {
        required_status_checks: null,
        enforce_admins: null,
        required_pull_request_reviews: null,
        restrictions: null,
      },
      fields: [
        "required_status_checks",
        "enforce_admins",
        "required_pull_request_reviews",
        "restrictions",
        "required_linear_history",
        "lock_branch",
      ],
      hostile: async () => [
        { users: ["constructor"], teams: ["__proto__"], apps: [] },
        { strict: true, contexts: [1] },
      ],
    },
    {
      route: /\/properties\/schema\//,
      base: { value_type: "single_select", allowed_values: ["a"] },
      fields: [
        "value_type",
        "required",
        "default_value",
        "description",
        "allowed_values",
        "values_editable_by",
      ],
      hostile: async () => [["a", "a"], new Array(201).fill("x")],
    },
    {
      route: /^POST \/user\/(keys|ssh_signing_keys)$/,
      fields: ["title", "key"],
      hostile: async () => hostileSshKeys().map(([, line]) => line),
    },
    {
      route: /^POST \/user\/gpg_keys$/,
      fields: ["armored_public_key"],
      hostile: async () => [await gpgKeyWithForgedSignatures(600, 600)],
    },
  ];

  /** Fields the routes of many families read, sent to every route. */
  const COMMON_FIELDS = [
    "name",
    "config",
    "url",
    "events",
    "active",
    "runners",
    "visibility",
    "selected_repository_ids",
    "selected_organization_ids",
    "selected_workflows",
    "properties",
    "budget_amount",
    "budget_alerting",
    "budget_scope",
    "user",
    "role",
    "integration_id",
    "registry_type",
    "encrypted_value",
    "key_id",
  ];
  let world: World;
  const WRITES = servedRoutes().filter((r) => /^(POST|PUT|PATCH) /.test(r));

  it("never gets a 500 from any route, whatever the type of any field: the world is seeded", async () => {
    world = await seedWorld(sandbox.emulator);
    expect(world.repoHook).toBeGreaterThan(0);
  });

  // One test per route, each with its own time: the routes share the seeded world, in order.
  it.each(WRITES)(
    "never gets a 500 from any route, whatever the type of any field: %s",
    async (route) => {
      const [method, template] = route.split(" ") as [string, string];
      const path = fillRoute(template, world, UNMODELLED_PARAMS);
      const family = FAMILY_FIELDS.find((f) => f.route.test(route));
      const fields = [...COMMON_FIELDS, ...(family?.fields ?? [])];
      const hostile = (await family?.hostile?.()) ?? [];
      const failures: string[] = [];
      // The memory after one request is the memory before the next: one snapshot per request.
      let before = memoryOf(sandbox.emulator);
      sweep: for (const field of fields) {
        const values = family?.fields.includes(field) ? [...odd, ...hostile] : odd;
        for (const value of values) {
          const response = await call(sandbox.emulator, method, path, {
            body: { ...family?.base, [field]: value },
            headers: requiredHeaders(route),
          });
          const after = memoryOf(sandbox.emulator);
          const changed = response.status >= 400 ? memoryChanges(before, sandbox.emulator, after) : [];
          before = after;
          if (changed.length > 0) {
            failures.push(
              `{${field}: ${JSON.stringify(value).slice(0, 40)}} left ${changed.join(", ")} changed`,
            );
          }
          // A route the sandbox does not model reads no body: its 501 names it, whatever the body.
          if (
            response.status === 501 &&
            response.headers.get("x-sandbox-not-modelled") ===
              route.replace(/:([a-z_]+)(\{[^}]*\})?/g, "{$1}")
          )
            break sweep;
          if (response.status >= 500) failures.push(`{${field}: ${JSON.stringify(value).slice(0, 40)}}`);
        }
      }
      expect(failures).toEqual([]);
    },
    60_000,
  );
});
