/**
 * Enterprise billing budgets: every route of the spec's table "Enterprise billing budgets"
 * (`/enterprises/{enterprise}/settings/billing/budgets`). Budget ids are UUIDs; lists carry
 * `budget_product_skus` (an array) and `has_next_page`, single answers `budget_product_sku`; create
 * and update answer 200 `{message, budget}`, delete 200 `{message, budget_id}`.
 *
 * Each request is checked in this order: the guard (token, version, rate limit, classic scope; app
 * and fine-grained tokens refused), the budgets API version (2026-03-10), the enterprise (404), the
 * caller's role (403), the budgets feature (404 "Feature not enabled"), the budget id (404 when
 * unknown or not a UUID), then the body.
 */

import type { Context, Hono } from "hono";
import { BUDGET_ID_PATTERN, BUDGET_SCOPES, ROUTES } from "../../../api";
import { type AccessRule, APP_TOKENS, callerOf } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import { guard } from "../../core/guard";
import { badRequest, notFound, pageParams, paginate, readBody } from "../../core/http";
import { findEnterprise, findUser } from "../../core/lookup";
import {
  assertFeatureOn,
  assertMayDelete,
  assertMayRead,
  assertMayWrite,
  assertUnique,
  type BudgetRole,
  budgetFromCreate,
  budgetFromUpdate,
  budgetRole,
  setBudgetsFeature,
} from "./budgets";
import type { StoredBudget } from "./state";

/**
 * App and fine-grained tokens are refused; budgets exist in API version 2026-03-10 only (spec,
 * Versioning; the route table declares it).
 */
const BUDGETS_API: Pick<AccessRule, "refuse"> = { refuse: ["fine_grained", ...APP_TOKENS] };
/** Reads: enterprise admins and billing managers (`admin:enterprise` implies `manage_billing:enterprise`). */
const READ: AccessRule = { scopes: ["manage_billing:enterprise"], ...BUDGETS_API };
/** Creates and updates: also organisation admins, with `admin:org`, for their organisations' budgets. */
const WRITE: AccessRule = { scopes: ["manage_billing:enterprise", "admin:org"], ...BUDGETS_API };
/** Deletes: enterprise admins only. */
const DELETE: AccessRule = { scopes: ["manage_billing:enterprise"], ...BUDGETS_API };

const B = ROUTES.budgets;

export function budgetRoutes(app: Hono<ServerEnv>): void {
  app.get(B.list.pattern, guard(READ), (c) => {
    const { state, enterprise } = budgetsContext(c, assertMayRead);
    const scope = c.req.query("scope");
    if (scope !== undefined && !(BUDGET_SCOPES as readonly string[]).includes(scope)) {
      throw badRequest(`scope must be one of ${BUDGET_SCOPES.join(", ")}`);
    }
    // `user` narrows the consumed amounts to one person; the sandbox server records no usage.
    const login = c.req.query("user");
    const user = login === undefined ? undefined : findUser(state, login);
    if (login !== undefined && !user) throw notFound();
    const budgets = state.budgets.filter(
      (b) => b.enterprise === enterprise.slug && (!scope || b.scope === scope),
    );
    const { page, perPage } = pageParams(c);
    return c.json({
      budgets: paginate(c, budgets).map((b) => ({
        ...renderListItem(b),
        ...(user ? { consumed_amount: 0 } : {}),
      })),
      has_next_page: page * perPage < budgets.length,
      total_count: budgets.length,
      ...(user ? { user: user.login } : {}),
    });
  });

  app.post(B.create.pattern, guard(WRITE), async (c) => {
    const { store, state, enterprise, role } = budgetsContext(c, mayWriteSome);
    const fields = budgetFromCreate(state, enterprise, await readBody(c));
    assertMayWrite(role, fields);
    assertUnique(state, enterprise.slug, fields);
    const budget: StoredBudget = { id: store.newGuid(), enterprise: enterprise.slug, ...fields };
    state.budgets.push(budget);
    return c.json({ message: "Budget successfully created", budget: render(budget) });
  });

  app.get(B.get.pattern, guard(READ), (c) => c.json(render(budgetOf(c, assertMayRead).budget)));

  app.patch(B.update.pattern, guard(WRITE), async (c) => {
    const { state, enterprise, role, budget } = budgetOf(c, mayWriteSome);
    const next = budgetFromUpdate(state, enterprise, budget, await readBody(c));
    assertMayWrite(role, budget, next);
    assertUnique(state, enterprise.slug, next, budget.id);
    const { user: _previous, ...kept } = budget;
    const updated: StoredBudget = { ...kept, ...next };
    state.budgets = state.budgets.map((b) => (b.id === budget.id ? updated : b));
    return c.json({ message: "Budget successfully updated", budget: render(updated) });
  });

  app.delete(B.delete.pattern, guard(DELETE), (c) => {
    const { state, budget } = budgetOf(c, assertMayDelete);
    state.budgets = state.budgets.filter((b) => b.id !== budget.id);
    return c.json({ message: "Budget successfully deleted", budget_id: budget.id });
  });
}

/**
 * The enterprise (404 when unknown), the caller's role (403 when `allow` refuses it), then the
 * feature (404 when off), so only callers with a role learn whether the feature is on.
 */
function budgetsContext(c: Context<ServerEnv>, allow: (role: BudgetRole) => void) {
  const store = c.get("store");
  const state = store.state;
  const enterprise = findEnterprise(state, c.req.param("enterprise") ?? "");
  if (!enterprise) throw notFound();
  const role = budgetRole(state, callerOf(c), enterprise);
  allow(role);
  assertFeatureOn(state, enterprise);
  return { store, state, enterprise, role };
}

/** Writes are decided again with the body; here a caller who may write no budget at all is refused. */
const mayWriteSome = (role: BudgetRole) => assertMayWrite(role);

/** A budget of the enterprise: 404 for an unknown id, or one that is not a UUID. */
function budgetOf(c: Context<ServerEnv>, allow: (role: BudgetRole) => void) {
  const ctx = budgetsContext(c, allow);
  const id = c.req.param("budget_id") ?? "";
  // Like every path id here, one that is not of the id's form names nothing (docs/DECISIONS.md).
  const budget = BUDGET_ID_PATTERN.test(id)
    ? ctx.state.budgets.find((b) => b.enterprise === ctx.enterprise.slug && b.id === id.toLowerCase())
    : undefined;
  if (!budget) throw notFound();
  return { ...ctx, budget };
}

/** The fields single answers and list items share. */
function renderCommon(b: StoredBudget): Record<string, unknown> {
  return {
    id: b.id,
    budget_type: b.type,
    budget_scope: b.scope,
    budget_entity_name: b.entityName,
    budget_amount: b.amount,
    prevent_further_usage: b.preventFurtherUsage,
    budget_alerting: { will_alert: b.willAlert, alert_recipients: b.recipients },
    ...(b.user !== undefined ? { user: b.user } : {}),
  };
}

/** A single-budget answer: `budget_product_sku` is a string. */
function render(b: StoredBudget): Record<string, unknown> {
  return { ...renderCommon(b), budget_product_sku: b.sku };
}

/** A list item: `budget_product_skus` is an array. */
function renderListItem(b: StoredBudget): Record<string, unknown> {
  return { ...renderCommon(b), budget_product_skus: [b.sku] };
}

/** The budget family's control: an enterprise whose budgets feature is off. */
export function budgetControls(app: Hono<ServerEnv>): void {
  // An enterprise whose budgets feature is off (enhanced billing not enabled): budget routes answer 404.
  app.put("/enterprises/:enterprise/features/budgets", async (c) => {
    const state = c.get("store").state;
    const enterprise = findEnterprise(state, c.req.param("enterprise") ?? "");
    if (!enterprise) throw notFound();
    const body = await readBody(c);
    if (typeof body.enabled !== "boolean") throw badRequest("enabled is required: true or false");
    setBudgetsFeature(state, enterprise, body.enabled);
    return c.json({ enterprise: enterprise.slug, budgets: body.enabled });
  });
}
