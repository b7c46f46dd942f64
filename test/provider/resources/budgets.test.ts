/**
 * Lifecycle of Budget against the sandbox server, provider methods called as the engine would call
 * them: check (every rule, 0 requests), diff, create, read, update, delete, importId, ambiguous
 * failures, the budgets feature turned off, and the billing manager's token.
 */

import { describe, expect, it } from "vitest";
import { API_VERSION_2026 } from "../../../api";
import type { RunningEmulator } from "../../../emulator/index";
import { UNKNOWN } from "../../../provider/internal/check";
import { configure } from "../../../provider/internal/context";
import {
  type BudgetInputs,
  type BudgetOutputs,
  budgetProvider as budgets,
} from "../../../provider/resources/budgets";
import { liveBudget } from "../../../provider/resources/budgets/budget-api";
import { ORG_BUDGET_ARGS, USER_BUDGET_ARGS } from "./budget-args";
import { api, control, requestCounts, useSandbox, useToken } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

const B = "/enterprises/acme/settings/billing/budgets";

/** Changes budgets outside Pulumi, in the API version their routes exist in. */
const budgetApi = (method: string, path: string, body: unknown) =>
  api(emulator, method, path, body, "svcp_siteadmin", { "x-service-api-version": API_VERSION_2026 });
const ROUTE = "/enterprises/{enterprise}/settings/billing/budgets";

const ORG = ORG_BUDGET_ARGS;
const USER = USER_BUDGET_ARGS;

async function checked(news: Record<string, unknown>): Promise<BudgetInputs> {
  const result = await budgets.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return budgets.inputsOf(result.inputs as BudgetInputs);
}

const requests = () => emulator.controls.counts().total;
const stored = () => emulator.store.state.budgets;

describe("check", () => {
  it("applies the defaults: no recipients, ai_credits for BundlePricing", async () => {
    expect(await checked(USER)).toEqual({
      ...USER,
      alerting: { willAlert: false, recipients: [] },
      productSku: "ai_credits",
    });
    expect(requests()).toBe(0);
  });

  it.each([
    [{ ...ORG, amount: 10.5 }, "amount", "whole number"],
    [{ ...ORG, amount: -1 }, "amount", "negative"],
    [{ ...ORG, amount: "100" }, "amount", "amount"],
    [{ ...ORG, scope: "galaxy" }, "scope", '"enterprise", "organization", "repository", "cost_center"'],
    [{ ...ORG, type: "FlatPricing" }, "type", '"BundlePricing", "ProductPricing", "SkuPricing"'],
    [{ ...ORG, type: "BundlePricing" }, "productSku", 'must be one of "ai_credits"'],
    [
      { ...ORG, productSku: "actions_linux" },
      "productSku",
      '"ProductPricing" budget must be one of "actions"',
    ],
    [{ ...ORG, type: "SkuPricing" }, "productSku", '"SkuPricing" budget must be one of "actions_linux"'],
    [{ ...ORG, productSku: undefined }, "productSku", 'required with type "ProductPricing"'],
    [
      { ...USER, type: "SkuPricing", productSku: "actions_linux" },
      "scope",
      'only for productSku "ai_credits", "premium_requests"',
    ],
    [{ ...USER, preventFurtherUsage: false }, "preventFurtherUsage", 'must be true with scope "user"'],
    [
      {
        ...ORG,
        scope: "multi_user_customer",
        entityName: undefined,
        type: "BundlePricing",
        productSku: undefined,
      },
      "preventFurtherUsage",
      'must be true with scope "multi_user_customer"',
    ],
    [{ ...USER, user: undefined }, "user", 'user is required with scope "user"'],
    [{ ...ORG, user: "mona" }, "user", 'only for scope "user"'],
    [{ ...ORG, entityName: undefined }, "entityName", 'required with scope "organization"'],
    [{ ...ORG, scope: "repository", entityName: "api" }, "entityName", 'owner/name such as "acme-eng/api"'],
    [{ ...ORG, scope: "enterprise" }, "entityName", 'not used with scope "enterprise"'],
    [{ ...USER, entityName: "mona" }, "entityName", 'not used with scope "user"'],
    [{ ...ORG, entityName: "" }, "entityName", "must not be empty"],
    [{ ...ORG, alerting: undefined }, "alerting", "alerting is required"],
    [{ ...ORG, alerting: { recipients: [] } }, "alerting", "alerting.willAlert is required"],
    [
      { ...ORG, alerting: { willAlert: true, recipients: ["not a login"] } },
      "alerting",
      '(alerting.recipients[0] is "not a login")',
    ],
    [{ ...ORG, preventFurtherUsage: undefined }, "preventFurtherUsage", "required"],
    [{ ...ORG, enterprise: undefined }, "enterprise", "required"],
    [{ ...ORG, importId: "42" }, "importId", "a UUID"],
  ])("refuses %j naming %s, with no request", async (news, property, reason) => {
    const result = await budgets.check({}, news);
    const failure = result.failures?.find((f) => f.property === property);
    expect(failure?.reason, JSON.stringify(result.failures)).toContain(reason);
    expect(requests()).toBe(0);
  });

  it("lets values unknown during preview through and skips the rules that need them", async () => {
    const result = await budgets.check(
      {},
      { ...USER, scope: UNKNOWN, type: "SkuPricing", productSku: "actions_linux" },
    );
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs?.scope).toBe(UNKNOWN);
    const sku = await budgets.check(
      {},
      { ...ORG, productSku: UNKNOWN, alerting: { willAlert: true, recipients: [UNKNOWN] } },
    );
    expect(sku.failures ?? []).toEqual([]);
  });
});

describe("diff", () => {
  const olds = async () => ({ ...(await checked(ORG)), budgetId: "b" }) as BudgetOutputs;

  it("compares recipients as a set and names case-insensitively", async () => {
    const news = await checked({
      ...ORG,
      enterprise: "ACME",
      entityName: "Acme-Eng",
      alerting: { willAlert: true, recipients: ["Admin", "billie", "admin"] },
    });
    expect(await budgets.diff("acme/b", await olds(), news)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("updates scope, entity, type and SKU in place; replaces only for another enterprise", async () => {
    const moved = await checked({
      ...ORG,
      scope: "repository",
      entityName: "acme-eng/api",
      type: "SkuPricing",
      productSku: "actions_linux",
    });
    const diff = await budgets.diff("acme/b", await olds(), moved);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    expect(
      (await budgets.diff("acme/b", await olds(), await checked({ ...ORG, enterprise: "other" }))).replaces,
    ).toEqual(["enterprise"]);
  });
});

describe("single answers and list items", () => {
  const common = {
    id: "b",
    budget_type: "SkuPricing",
    budget_scope: "enterprise",
    budget_amount: 1,
    prevent_further_usage: true,
    budget_alerting: { will_alert: false, alert_recipients: [] },
  };

  it("read as one productSku: the string, or the list's SKU the program wants, else its first", () => {
    expect(liveBudget({ ...common, budget_product_sku: "actions_linux" }).productSku).toBe("actions_linux");
    const item = { ...common, budget_product_skus: ["actions_linux", "actions_macos"] };
    expect(liveBudget(item, "actions_macos").productSku).toBe("actions_macos");
    expect(liveBudget(item, "packages_storage").productSku).toBe("actions_linux");
    expect(liveBudget(item).productSku).toBe("actions_linux");
  });
});

describe("Budget", () => {
  it("creates with one request sending API version 2026-03-10, and reads it back unchanged", async () => {
    const inputs = await checked(ORG);
    const created = await budgets.create(inputs);
    expect(requestCounts(emulator)).toEqual({ [`POST ${ROUTE}`]: 1 });
    const budgetId = stored()[0]?.id;
    expect(created).toEqual({ id: `acme/${budgetId}`, outs: { ...inputs, budgetId } });

    emulator.controls.clearLog();
    const read = await budgets.read(created.id, created.outs);
    expect(requestCounts(emulator)).toEqual({ [`GET ${ROUTE}/{budget_id}`]: 1 });
    expect(read.props).toEqual(created.outs);
    expect((await budgets.diff(created.id, read.props as BudgetOutputs, inputs)).changes).toBe(false);
  });

  it("a user-scoped budget keeps its user", async () => {
    const created = await budgets.create(await checked(USER));
    expect(created.outs).toMatchObject({ scope: "user", user: "mona", productSku: "ai_credits" });
    expect(created.outs.entityName).toBeUndefined();
    expect((await budgets.read(created.id, created.outs)).props).toEqual(created.outs);
  });

  it("fails with the server's 400 when stack config pins another API version", async () => {
    const config: Record<string, string> = {
      "hosting:baseUrl": emulator.origin,
      "hosting:token": "svcp_siteadmin",
      "hosting:apiVersion": "2022-11-28",
    };
    configure({ get: (key) => config[key] });
    await expect(budgets.create(await checked(ORG))).rejects.toThrow(
      /400.*requires the header X-Service-Api-Version: 2026-03-10/,
    );
  });

  it("an out-of-band change is drift naming the field; recipients reordered are not", async () => {
    const inputs = await checked(ORG);
    const created = await budgets.create(inputs);
    const budgetId = created.outs.budgetId;
    await budgetApi("PATCH", `${B}/${budgetId}`, {
      budget_alerting: { alert_recipients: ["admin", "billie"] },
    });
    const same = await budgets.read(created.id, created.outs);
    // The same set: state keeps the program's order, so nothing shows in a preview either.
    expect(same.props).toEqual(created.outs);
    expect((await budgets.diff(created.id, same.props as BudgetOutputs, inputs)).changes).toBe(false);
    await budgetApi("PATCH", `${B}/${budgetId}`, { budget_amount: 500 });
    const drifted = await budgets.read(created.id, created.outs);
    expect(drifted.inputs).toMatchObject({ amount: 500 });
    const diff = await budgets.diff(created.id, drifted.props as BudgetOutputs, inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
  });

  it("updates in place with one PATCH of the whole state, scope and entity included", async () => {
    const created = await budgets.create(await checked(ORG));
    const news = await checked({ ...ORG, amount: 150, scope: "repository", entityName: "acme-eng/web" });
    emulator.controls.clearLog();
    const updated = await budgets.update(created.id, created.outs, news);
    expect(requestCounts(emulator)).toEqual({ [`PATCH ${ROUTE}/{budget_id}`]: 1 });
    expect(updated.outs).toEqual({ ...news, budgetId: created.outs.budgetId });
    expect(stored()).toHaveLength(1);
    expect(stored()[0]).toMatchObject({ amount: 150, scope: "repository", entityName: "acme-eng/web" });
  });

  it("deletes; a budget deleted outside Pulumi reads as gone and deletes as done", async () => {
    const created = await budgets.create(await checked(ORG));
    emulator.controls.clearLog();
    await budgets.delete(created.id, created.outs);
    expect(requestCounts(emulator)).toEqual({ [`DELETE ${ROUTE}/{budget_id}`]: 1 });
    expect(stored()).toEqual([]);
    emulator.controls.clearLog();
    // The 404 is checked against the collection: readable, so the budget is gone.
    expect(await budgets.read(created.id, created.outs)).toEqual({});
    expect(requestCounts(emulator)).toEqual({ [`GET ${ROUTE}/{budget_id}`]: 1, [`GET ${ROUTE}`]: 1 });
    await expect(budgets.delete(created.id, created.outs)).resolves.toBeUndefined();
  });

  it("reads with only an id (the static get)", async () => {
    const created = await budgets.create(await checked(USER));
    expect((await budgets.read(created.id)).props).toEqual(created.outs);
  });

  it("adopts importId without a write when it matches, converging it when not", async () => {
    const made = await budgetApi("POST", B, {
      budget_amount: 70,
      prevent_further_usage: false,
      budget_alerting: { will_alert: true, alert_recipients: ["admin", "billie"] },
      budget_scope: "organization",
      budget_entity_name: "acme-eng",
      budget_type: "ProductPricing",
      budget_product_sku: "actions",
    });
    const importId = (made.body as { budget: { id: string } }).budget.id;
    emulator.controls.clearLog();
    // The schema's reading without check, which reads the budget too (to show what adopting changes).
    const same = await budgets.create(
      budgets.inputsOf({ ...ORG, amount: 70, importId: importId.toUpperCase() } as never),
    );
    expect(requestCounts(emulator)).toEqual({ [`GET ${ROUTE}/{budget_id}`]: 1 });
    expect(same).toMatchObject({
      id: `acme/${importId}`,
      outs: { budgetId: importId, importId, amount: 70 },
    });

    emulator.controls.clearLog();
    const converged = await budgets.create(budgets.inputsOf({ ...ORG, importId } as never));
    // The enterprise's second budget read in this process shares its list (collection reads).
    expect(requestCounts(emulator)).toEqual({
      [`GET ${ROUTE}`]: 1,
      [`PATCH ${ROUTE}/{budget_id}`]: 1,
    });
    expect(converged.outs.amount).toBe(100);
    expect(stored()).toHaveLength(1);
  });

  it("an unknown importId fails saying so, at preview and at create", async () => {
    const news = { ...ORG, importId: "00000000-0000-4000-8000-000000000000" };
    const preview = await budgets.check({}, news);
    expect(preview.failures).toEqual([
      {
        property: "importId",
        reason:
          "importId 00000000-0000-4000-8000-000000000000: there is no such Budget, or the token cannot see it",
      },
    ]);
    await expect(budgets.create(budgets.inputsOf(news as never))).rejects.toThrow(
      /importId 00000000-0000-4000-8000-000000000000: not found, or not allowed to this token\. Likely causes, in order: \(1\) enterprise acme has no such budget/,
    );
  });

  it("never duplicates a budget when the create fails ambiguously; the list's SKU array is no drift", async () => {
    await control(emulator, "POST", "/faults", { method: "POST", path: B, status: 502, when: "after" });
    const inputs = await checked(ORG);
    const created = await budgets.create(inputs);
    expect(stored()).toHaveLength(1);
    expect(requestCounts(emulator)).toEqual({ [`POST ${ROUTE}`]: 1, [`GET ${ROUTE}`]: 1 });
    expect(created.outs).toEqual({ ...inputs, budgetId: stored()[0]?.id });
    expect((await budgets.diff(created.id, created.outs, inputs)).changes).toBe(false);
  });

  it("tries again after a failure that made nothing, and after a dropped connection finds what was made", async () => {
    await control(emulator, "POST", "/faults", { method: "POST", path: B, status: 503 });
    await budgets.create(await checked(ORG));
    expect(requestCounts(emulator)).toEqual({ [`POST ${ROUTE}`]: 2, [`GET ${ROUTE}`]: 1 });
    await control(emulator, "POST", "/faults", { method: "POST", path: B, drop: true, when: "after" });
    await budgets.create(await checked(USER));
    expect(stored()).toHaveLength(2);
  });

  it("a budget with the same key is refused, naming its id for importId", async () => {
    const first = await budgets.create(await checked(ORG));
    await expect(budgets.create(await checked({ ...ORG, amount: 5 }))).rejects.toThrow(
      `already has a ProductPricing budget for actions with scope organization acme-eng. Set importId to "${first.outs.budgetId}"`,
    );
  });

  it("reads through a 503 (GET is retried)", async () => {
    const created = await budgets.create(await checked(ORG));
    await control(emulator, "POST", "/faults", { method: "GET", path: `${B}/*`, status: 503 });
    expect((await budgets.read(created.id, created.outs)).props).toEqual(created.outs);
  });
});

describe("when the budgets feature is off", () => {
  const off = () => control(emulator, "PUT", "/enterprises/acme/features/budgets", { enabled: false });
  const saying =
    /budgets are not enabled for enterprise acme \(the server answered 404 "Feature not enabled"\)\. Turn on budgets/;

  it("refresh fails instead of dropping the budget, and delete fails instead of forgetting it", async () => {
    const created = await budgets.create(await checked(ORG));
    await off();
    await expect(budgets.read(created.id, created.outs)).rejects.toThrow(saying);
    await expect(budgets.delete(created.id, created.outs)).rejects.toThrow(saying);
    await expect(
      budgets.update(created.id, created.outs, await checked({ ...ORG, amount: 1 })),
    ).rejects.toThrow(saying);
    expect(stored()).toHaveLength(1);
  });

  it("create and adoption fail saying so", async () => {
    await off();
    await expect(budgets.create(await checked(ORG))).rejects.toThrow(saying);
    await expect(
      budgets.create(await checked({ ...ORG, importId: "00000000-0000-4000-8000-000000000000" })),
    ).rejects.toThrow(saying);
    expect(stored()).toEqual([]);
  });
});

describe("tokens and enterprises", () => {
  it("billie, the billing manager, creates and updates but may not delete", async () => {
    useToken(emulator, "svcp_billing");
    const created = await budgets.create(await checked(USER));
    await budgets.update(created.id, created.outs, await checked({ ...USER, amount: 40 }));
    await expect(budgets.delete(created.id, created.outs)).rejects.toThrow(
      /403: Must be an enterprise admin to delete budgets/,
    );
    expect(stored()).toHaveLength(1);
  });

  it("an unknown enterprise fails saying so", async () => {
    await expect(budgets.create(await checked({ ...ORG, enterprise: "nope" }))).rejects.toThrow(
      /Budget of the enterprise nope: not found, or not allowed to this token\. Likely causes, in order: \(1\) there is no enterprise nope \(check the slug\); \(2\) the token's user is not an admin or billing manager/,
    );
    const id = "nope/00000000-0000-4000-8000-000000000000";
    await expect(budgets.read(id)).rejects.toThrow(/there is no enterprise nope/);
  });

  it("a fine-grained token is refused with the server's reason", async () => {
    useToken(emulator, "svc_pat_admin");
    await expect(budgets.create(await checked(ORG))).rejects.toThrow(/403.*fine-grained/);
  });
});
