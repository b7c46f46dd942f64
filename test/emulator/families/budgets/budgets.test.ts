/**
 * Enterprise billing budgets over real HTTP: the spec's table "Enterprise billing budgets", the
 * Budget resource (UUID ids; `budget_product_skus` in lists, `budget_product_sku` in single answers;
 * the create, update and delete envelopes), the create body's rules, Errors ("user scope without
 * user" is a 400 naming budget_entity_name), Authentication 5 and 7, Versioning (2026-03-10), the
 * feature switch and the fault controls.
 *
 * Fixture: enterprise `acme` (owner admin, billing manager billie) with organisations acme-eng
 * (owner olivia; repositories api, web) and acme-ops; `solo` is outside the enterprise.
 */
import { describe, expect, it } from "vitest";
import { API_VERSION_2026 } from "../../../../api";
import {
  type ApiResponse,
  type CallOptions,
  call,
  control,
  expectErrorBody,
  expectValidationFailed,
  ORG_BUDGET,
  parseLink,
  seedBudget,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();

const B = "/enterprises/acme/settings/billing/budgets";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

const USER_BUDGET = {
  budget_amount: 30,
  prevent_further_usage: true,
  budget_alerting: { will_alert: false, alert_recipients: [] },
  budget_scope: "user",
  budget_entity_name: "",
  budget_type: "BundlePricing",
  budget_product_sku: "ai_credits",
  user: "mona",
};

/** Budget routes exist in API version 2026-03-10 only: every call names it unless a test says otherwise. */
const budgets = (method: string, path = "", options: CallOptions = {}) =>
  call(sandbox.emulator, method, `${B}${path}`, {
    ...options,
    headers: { "x-service-api-version": API_VERSION_2026, ...options.headers },
  });

const create = (body: Record<string, unknown>, token: string = TOKENS.siteAdmin) =>
  budgets("POST", "", { body, token });

/** Asserts a 422 naming the field in `errors[]` (resource Budget). */
const expectInvalid = (response: ApiResponse, field: string | undefined, code = "invalid") =>
  expectValidationFailed(response, field, code, "Budget");

function expectBadRequest(response: ApiResponse, message: string | RegExp): void {
  expect(response.status, response.text).toBe(400);
  expectErrorBody(response.body, message);
}

describe("create, read, list, update, delete", () => {
  it("creates with 200 {message, budget}: a UUID id and budget_product_sku as a string", async () => {
    const response = await create(ORG_BUDGET);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      message: expect.any(String),
      budget: {
        id: expect.stringMatching(UUID),
        budget_type: "ProductPricing",
        budget_product_sku: "actions",
        budget_scope: "organization",
        budget_entity_name: "acme-eng",
        budget_amount: 100,
        prevent_further_usage: false,
        budget_alerting: { will_alert: true, alert_recipients: ["billie"] },
      },
    });
    const read = await budgets("GET", `/${response.body.budget.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body.budget);
  });

  it("lists {budgets, has_next_page, total_count} whose items carry budget_product_skus", async () => {
    const id = await seedBudget(sandbox.emulator);
    const list = await budgets("GET");
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      budgets: [
        {
          id,
          budget_type: "ProductPricing",
          budget_product_skus: ["actions"],
          budget_scope: "organization",
          budget_entity_name: "acme-eng",
          budget_amount: 100,
          prevent_further_usage: false,
          budget_alerting: { will_alert: true, alert_recipients: ["billie"] },
        },
      ],
      has_next_page: false,
      total_count: 1,
    });
  });

  it("a user-scoped budget carries its user; its entity name may be empty", async () => {
    const response = await create(USER_BUDGET);
    expect(response.status, response.text).toBe(200);
    expect(response.body.budget).toMatchObject({
      budget_scope: "user",
      budget_entity_name: "",
      user: "mona",
    });
  });

  it("updates with 200 {message, budget}; omitted fields keep their values", async () => {
    const id = await seedBudget(sandbox.emulator);
    const response = await budgets("PATCH", `/${id}`, {
      body: { budget_amount: 250, budget_alerting: { alert_recipients: ["admin", "billie"] } },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      message: expect.any(String),
      budget: expect.objectContaining({
        id,
        budget_amount: 250,
        prevent_further_usage: false,
        budget_product_sku: "actions",
        budget_alerting: { will_alert: true, alert_recipients: ["admin", "billie"] },
      }),
    });
  });

  it("changes scope, entity, type and SKU in place", async () => {
    const id = await seedBudget(sandbox.emulator);
    const response = await budgets("PATCH", `/${id}`, {
      body: {
        budget_scope: "repository",
        budget_entity_name: "ACME-ENG/Web",
        budget_type: "SkuPricing",
        budget_product_sku: "actions_linux",
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.budget).toMatchObject({
      id,
      budget_scope: "repository",
      budget_entity_name: "acme-eng/web",
      budget_type: "SkuPricing",
      budget_product_sku: "actions_linux",
    });
    const toUser = await budgets("PATCH", `/${id}`, {
      body: { budget_scope: "user", budget_type: "SkuPricing", budget_product_sku: "premium_requests" },
    });
    expectBadRequest(toUser, "Missing required fields: budget_entity_name");
    const withUser = await budgets("PATCH", `/${id}`, {
      body: {
        budget_scope: "user",
        user: "hubot",
        prevent_further_usage: true,
        budget_product_sku: "premium_requests",
      },
    });
    expect(withUser.status, withUser.text).toBe(200);
    expect(withUser.body.budget).toMatchObject({
      budget_scope: "user",
      budget_entity_name: "",
      user: "hubot",
    });
    const back = await budgets("PATCH", `/${id}`, {
      body: { budget_scope: "enterprise", budget_product_sku: "actions_macos" },
    });
    expect(back.status, back.text).toBe(200);
    expect(back.body.budget.user).toBeUndefined();
  });

  it("deletes with 200 {message, budget_id}; the budget is gone", async () => {
    const id = await seedBudget(sandbox.emulator);
    const response = await budgets("DELETE", `/${id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: expect.any(String), budget_id: id });
    expect((await budgets("GET", `/${id}`)).status).toBe(404);
    expect((await budgets("DELETE", `/${id}`)).status).toBe(404);
  });
});

describe("pages and filters", () => {
  const costCenter = (n: number) => ({
    ...ORG_BUDGET,
    budget_scope: "cost_center",
    budget_entity_name: `cc-${n}`,
  });

  it("pages with has_next_page and Link; per_page is at most 100", async () => {
    for (let n = 1; n <= 101; n++) await seedBudget(sandbox.emulator, costCenter(n));
    const first = await budgets("GET", "?per_page=2");
    expect(first.body.budgets).toHaveLength(2);
    expect(first.body).toMatchObject({ has_next_page: true, total_count: 101 });
    expect(parseLink(first.headers.get("link")).next).toContain("page=2");
    const capped = await budgets("GET", "?per_page=500");
    expect(capped.body.budgets).toHaveLength(100);
    expect(capped.body.has_next_page).toBe(true);
    const last = await budgets("GET", "?per_page=100&page=2");
    expect(last.body.budgets).toHaveLength(1);
    expect(last.body.has_next_page).toBe(false);
  });

  it("filters by scope; an unknown scope is a 400", async () => {
    await seedBudget(sandbox.emulator);
    await seedBudget(sandbox.emulator, costCenter(1));
    const only = await budgets("GET", "?scope=cost_center");
    expect(only.body.total_count).toBe(1);
    expect(only.body.budgets[0].budget_scope).toBe("cost_center");
    expectBadRequest(await budgets("GET", "?scope=galaxy"), /scope must be one of/);
  });

  it("user narrows consumed amounts to a person (none recorded); an unknown login is a 404", async () => {
    await seedBudget(sandbox.emulator);
    const response = await budgets("GET", "?user=MONA");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ user: "mona", total_count: 1 });
    expect(response.body.budgets[0].consumed_amount).toBe(0);
    expect((await budgets("GET", "?user=nobody")).status).toBe(404);
  });
});

describe("validation", () => {
  it("a missing required field is a 400 naming every one missing", async () => {
    expectBadRequest(
      await create({ budget_scope: "enterprise", budget_type: "ProductPricing" }),
      "Missing required fields: budget_amount, prevent_further_usage, budget_alerting",
    );
    expectBadRequest(
      await create({ ...ORG_BUDGET, budget_alerting: { will_alert: true } }),
      "Missing required fields: budget_alerting.alert_recipients",
    );
    const { budget_product_sku: _, ...noSku } = ORG_BUDGET;
    expectBadRequest(await create(noSku), "Missing required fields: budget_product_sku");
  });

  it("a user-scoped budget without user is a 400 naming budget_entity_name", async () => {
    const { user: _, ...noUser } = USER_BUDGET;
    expectBadRequest(await create(noUser), "Missing required fields: budget_entity_name");
  });

  it("BundlePricing covers ai_credits, the default SKU; ProductPricing a product; SkuPricing a SKU", async () => {
    const { budget_product_sku: _, ...bundle } = { ...ORG_BUDGET, budget_type: "BundlePricing" };
    const made = await create(bundle);
    expect(made.status, made.text).toBe(200);
    expect(made.body.budget.budget_product_sku).toBe("ai_credits");
    expectInvalid(await create({ ...ORG_BUDGET, budget_type: "BundlePricing" }), "budget_product_sku");
    expectInvalid(await create({ ...ORG_BUDGET, budget_product_sku: "actions_linux" }), "budget_product_sku");
    expectInvalid(await create({ ...ORG_BUDGET, budget_type: "SkuPricing" }), "budget_product_sku");
  });

  it("multi_user_customer and user only for ai_credits and premium_requests, preventing further usage", async () => {
    const perUser = { ...ORG_BUDGET, budget_scope: "multi_user_customer", budget_entity_name: "" };
    expectInvalid(await create({ ...perUser, prevent_further_usage: true }), "budget_scope");
    const premium = { ...perUser, budget_type: "SkuPricing", budget_product_sku: "premium_requests" };
    expectInvalid(await create(premium), "prevent_further_usage");
    expect((await create({ ...premium, prevent_further_usage: true })).status).toBe(200);
    expectInvalid(await create({ ...USER_BUDGET, prevent_further_usage: false }), "prevent_further_usage");
    expectInvalid(
      await create({ ...USER_BUDGET, budget_type: "ProductPricing", budget_product_sku: "actions" }),
      "budget_scope",
    );
    expectInvalid(await create({ ...USER_BUDGET, user: "nobody" }), "user");
  });

  it.each([
    ["a fraction", { budget_amount: 10.5 }, "budget_amount"],
    ["a negative amount", { budget_amount: -1 }, "budget_amount"],
    ["an amount as text", { budget_amount: "10" }, "budget_amount"],
    ["an unknown scope", { budget_scope: "galaxy" }, "budget_scope"],
    ["an unknown type", { budget_type: "FlatPricing" }, "budget_type"],
    ["an organisation outside the enterprise", { budget_entity_name: "solo" }, "budget_entity_name"],
    [
      "an unknown recipient",
      { budget_alerting: { will_alert: true, alert_recipients: ["nobody"] } },
      "budget_alerting.alert_recipients",
    ],
    ["prevent_further_usage as text", { prevent_further_usage: "yes" }, "prevent_further_usage"],
    [
      "an unknown repository",
      { budget_scope: "repository", budget_entity_name: "acme-eng/nope" },
      "budget_entity_name",
    ],
    [
      "an entity for multi_user_customer",
      {
        budget_scope: "multi_user_customer",
        budget_type: "BundlePricing",
        budget_product_sku: "ai_credits",
        prevent_further_usage: true,
      },
      "budget_entity_name",
    ],
  ])("%s is a 422 naming the field", async (_what, change, field) => {
    expectInvalid(await create({ ...ORG_BUDGET, ...change }), field);
    expect(sandbox.emulator.store.state.budgets).toEqual([]);
  });

  it("a second budget for the same scope, entity and SKU is a 422 already_exists", async () => {
    await seedBudget(sandbox.emulator);
    expectInvalid(
      await create({ ...ORG_BUDGET, budget_entity_name: "ACME-ENG", budget_amount: 5 }),
      undefined,
      "already_exists",
    );
    const id = await seedBudget(sandbox.emulator, { ...ORG_BUDGET, budget_product_sku: "packages" });
    expectInvalid(
      await budgets("PATCH", `/${id}`, { body: { budget_product_sku: "actions" } }),
      undefined,
      "already_exists",
    );
  });

  it("an update is validated as a whole and changes nothing when refused", async () => {
    const id = await seedBudget(sandbox.emulator);
    expectInvalid(
      await budgets("PATCH", `/${id}`, { body: { budget_type: "SkuPricing" } }),
      "budget_product_sku",
    );
    expectInvalid(await budgets("PATCH", `/${id}`, { body: { budget_amount: 1.5 } }), "budget_amount");
    expect((await budgets("GET", `/${id}`)).body).toMatchObject({
      budget_amount: 100,
      budget_type: "ProductPricing",
    });
  });

  it("a body that is not JSON is a 400", async () => {
    expectBadRequest(await budgets("POST", "", { rawBody: "{" }), "Problems parsing JSON");
  });
});

describe("ids, enterprises and versions", () => {
  it("a budget id that is unknown or not a UUID is a 404", async () => {
    const id = await seedBudget(sandbox.emulator);
    for (const other of [UNKNOWN_ID, "42", `${id}x`, ` ${id}`]) {
      expect((await budgets("GET", `/${encodeURIComponent(other)}`)).status, other).toBe(404);
      expect((await budgets("PATCH", `/${encodeURIComponent(other)}`, { body: {} })).status, other).toBe(404);
      expect((await budgets("DELETE", `/${encodeURIComponent(other)}`)).status, other).toBe(404);
    }
    expect((await budgets("GET", `/${id.toUpperCase()}`)).body.id).toBe(id);
  });

  it("an unknown enterprise is a 404", async () => {
    const response = await call(sandbox.emulator, "GET", "/enterprises/nope/settings/billing/budgets", {
      headers: { "x-service-api-version": API_VERSION_2026 },
    });
    expect(response.status).toBe(404);
    expectErrorBody(response.body, "Not Found");
  });

  it("serves API version 2026-03-10 only: 2022-11-28, or no version named, is a 400", async () => {
    const current = await budgets("GET", "", { headers: { "x-service-api-version": "2026-03-10" } });
    expect(current.status).toBe(200);
    expect(current.headers.get("x-service-api-version-selected")).toBe("2026-03-10");
    const unnamed = await call(sandbox.emulator, "GET", B);
    expectBadRequest(unnamed, /requires the header X-Service-Api-Version: 2026-03-10; got none/);
    const old = await budgets("POST", "", {
      body: ORG_BUDGET,
      headers: { "x-service-api-version": "2022-11-28" },
    });
    expectBadRequest(old, /requires the header X-Service-Api-Version: 2026-03-10; got 2022-11-28/);
    expect(sandbox.emulator.store.state.budgets).toEqual([]);
    const id = await seedBudget(sandbox.emulator);
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const response = await budgets(method, `/${id}`, {
        headers: { "x-service-api-version": "2022-11-28" },
        ...(method === "PATCH" ? { body: { budget_amount: 1 } } : {}),
      });
      expectBadRequest(response, /requires the header X-Service-Api-Version: 2026-03-10/);
    }
    expect(sandbox.emulator.store.state.budgets[0]?.amount).toBe(100);
  });
});

describe("who may do what", () => {
  it("billie, the billing manager, reads, creates and updates but may not delete", async () => {
    const id = await seedBudget(sandbox.emulator, USER_BUDGET, TOKENS.billing);
    expect((await budgets("GET", "", { token: TOKENS.billing })).body.total_count).toBe(1);
    expect(
      (await budgets("PATCH", `/${id}`, { token: TOKENS.billing, body: { budget_amount: 40 } })).status,
    ).toBe(200);
    const refused = await budgets("DELETE", `/${id}`, { token: TOKENS.billing });
    expect(refused.status).toBe(403);
    expectErrorBody(refused.body, "Must be an enterprise admin to delete budgets");
  });

  it("olivia, an organisation admin, writes her organisation's budgets only and reads none", async () => {
    expect((await create(ORG_BUDGET, TOKENS.owner)).status).toBe(200);
    const repo = { ...ORG_BUDGET, budget_scope: "repository", budget_entity_name: "acme-eng/api" };
    expect((await create(repo, TOKENS.owner)).status).toBe(200);
    const ops = await create({ ...ORG_BUDGET, budget_entity_name: "acme-ops" }, TOKENS.owner);
    expect(ops.status).toBe(403);
    expectErrorBody(ops.body, /only manage budgets of their organizations \(acme-eng\)/);
    expect(
      (await create({ ...ORG_BUDGET, budget_scope: "enterprise", budget_entity_name: "" }, TOKENS.owner))
        .status,
    ).toBe(403);
    const id = await seedBudget(sandbox.emulator, { ...ORG_BUDGET, budget_product_sku: "packages" });
    const moved = await budgets("PATCH", `/${id}`, {
      token: TOKENS.owner,
      body: { budget_entity_name: "acme-ops" },
    });
    expect(moved.status).toBe(403);
    expect((await budgets("GET", "", { token: TOKENS.owner })).status).toBe(403);
    expect((await budgets("GET", `/${id}`, { token: TOKENS.owner })).status).toBe(403);
  });

  it("refuses fine-grained and app tokens, and classic tokens without the scope", async () => {
    const fineGrained = await budgets("GET", "", { token: TOKENS.fineGrained });
    expect(fineGrained.status).toBe(403);
    expectErrorBody(fineGrained.body, "Resource not accessible by fine-grained personal access token");
    expect((await budgets("GET", "", { token: TOKENS.install })).status).toBe(403);
    const member = await budgets("GET", "", { token: TOKENS.member });
    expect(member.status).toBe(403);
    expect(member.headers.get("x-accepted-oauth-scopes")).toBe("manage_billing:enterprise");
    expect((await budgets("GET", "", { token: null })).status).toBe(401);
  });
});

describe("the budgets feature", () => {
  const feature = (enabled: unknown, enterprise = "acme") =>
    control(sandbox.emulator, "PUT", `/enterprises/${enterprise}/features/budgets`, { enabled });

  it("turned off, every budget route answers 404 Feature not enabled to those with a role", async () => {
    const id = await seedBudget(sandbox.emulator);
    expect((await feature(false)).body).toEqual({ enterprise: "acme", budgets: false });
    for (const [method, path, body] of [
      ["GET", "", undefined],
      ["POST", "", ORG_BUDGET],
      ["GET", `/${id}`, undefined],
      ["PATCH", `/${id}`, { budget_amount: 1 }],
      ["DELETE", `/${id}`, undefined],
    ] as const) {
      const response = await budgets(method, path, body === undefined ? {} : { body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expectErrorBody(response.body, "Feature not enabled");
    }
    // Callers without a role learn nothing about the feature.
    expect((await budgets("GET", "", { token: TOKENS.member })).status).toBe(403);
    await feature(true);
    expect((await budgets("GET", `/${id}`)).body.budget_amount).toBe(100);
  });

  it("the control route needs a known enterprise and a boolean; reset turns the feature on", async () => {
    expect((await feature(false, "nope")).status).toBe(404);
    expect((await feature("off")).status).toBe(400);
    await feature(false);
    expect((await control(sandbox.emulator, "POST", "/reset")).status).toBe(204);
    expect((await budgets("GET")).status).toBe(200);
  });
});

describe("faults", () => {
  it.each([500, 503])("an injected %i answers with the platform's error body", async (status) => {
    await control(sandbox.emulator, "POST", "/faults", { method: "GET", path: `${B}/*`, status });
    const id = await seedBudget(sandbox.emulator);
    const response = await budgets("GET", `/${id}`);
    expect(response.status).toBe(status);
    expectErrorBody(response.body);
  });

  it("a 500 after the create ran leaves the budget made (the ambiguous failure)", async () => {
    await control(sandbox.emulator, "POST", "/faults", {
      method: "POST",
      path: B,
      status: 500,
      when: "after",
    });
    expect((await create(ORG_BUDGET)).status).toBe(500);
    expect(sandbox.emulator.store.state.budgets).toHaveLength(1);
  });
});
