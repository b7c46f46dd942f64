/**
 * The budgets API of one enterprise (`/enterprises/{enterprise}/settings/billing/budgets`), as the
 * Budget provider uses it. Every request names API version 2026-03-10, the only one budgets exist in
 * (the routes declare it).
 *
 * Two things are smoothed over here so the provider never sees them:
 * - single answers carry `budget_product_sku` (a string) and list items `budget_product_skus` (an
 *   array); both become one `productSku`, so where a budget was read from never shows as drift;
 * - the API answers 404 for an unknown budget, an unknown enterprise, and an enterprise whose
 *   budgets feature is off. Only the first means "gone": the others fail with an error that says so
 *   and what to do, so refresh never drops a budget that still exists and destroy never forgets one.
 */

import { type ApiBudget, type ApiBudgetWrite, budgetsRoutes } from "../../../api/budgets";
import {
  featureOffError,
  type HostingApiError,
  isHostingApiError,
  isNotFound,
  notFoundError,
  validationError,
} from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { collectionReads } from "../../internal/collection-reads";
import { deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";

/** A budget as the server has it, whichever answer it came from. */
export interface LiveBudget {
  id: string;
  type: string;
  scope: string;
  /** Empty where the scope names no entity. */
  entityName: string;
  amount: number;
  preventFurtherUsage: boolean;
  willAlert: boolean;
  recipients: string[];
  productSku: string | undefined;
  user: string | undefined;
}

/** What identifies a budget on the server besides its id: one per scope, entity, user, type and SKU. */
export interface BudgetKey {
  scope: string;
  type: string;
  productSku?: string | undefined;
  entityName?: string | undefined;
  user?: string | undefined;
}

/**
 * One product SKU from either answer: a list item's array holds the budget's SKU; when it holds
 * several, the one the program wants (if present) is the one it manages.
 */
export function liveBudget(api: ApiBudget, wantedSku?: string): LiveBudget {
  const skus = api.budget_product_skus ?? [];
  const fromList = wantedSku !== undefined && skus.includes(wantedSku) ? wantedSku : skus[0];
  return {
    id: api.id,
    type: api.budget_type,
    scope: api.budget_scope,
    entityName: api.budget_entity_name ?? "",
    amount: api.budget_amount,
    preventFurtherUsage: api.prevent_further_usage,
    willAlert: api.budget_alerting.will_alert,
    recipients: api.budget_alerting.alert_recipients,
    productSku: api.budget_product_sku ?? fromList,
    user: api.user,
  };
}

const PAGE_SIZE = 100;

const FEATURE_OFF = /feature (is )?not enabled/i;

const sameName = (a: string | undefined, b: string | undefined) =>
  (a ?? "").toLowerCase() === (b ?? "").toLowerCase();

export function budgetApi(c: HostingClient, enterprise: string) {
  const B = budgetsRoutes.budgets;
  const collection = B.list.path({ enterprise });
  const budget = (budget_id: string) => ({ enterprise, budget_id });
  const path = (budget_id: string) => B.get.path(budget(budget_id));

  /**
   * The error to show for a 404 answer that does not mean "gone": the feature being off, named as
   * such. An error without a status, so nothing downstream takes it for a deleted object.
   */
  const featureOff = (e: unknown): HostingApiError | undefined => {
    if (!isNotFound(e) || !isHostingApiError(e) || !FEATURE_OFF.test(e.apiMessage ?? "")) return undefined;
    return featureOffError(
      e,
      `budgets are not enabled for enterprise ${enterprise} (the server answered 404 "${e.apiMessage}")`,
      `Turn on budgets (enhanced billing) in the billing settings of ${enterprise}, or take the Budget resources of ${enterprise} out of the program; nothing was changed`,
    );
  };

  const noEnterprise = (e: HostingApiError) =>
    notFoundError({
      method: e.method ?? "GET",
      path: e.path ?? collection,
      what: `Budget of the enterprise ${enterprise}`,
      causes: [
        `there is no enterprise ${enterprise} (check the slug)`,
        "the token's user is not an admin or billing manager of the enterprise",
        "the token is not a classic token with the scope manage_billing:enterprise",
      ],
    });

  /**
   * After a 404 on one budget: undefined when the budget is gone, else why the answer was a 404
   * (the feature is off, or the enterprise is unknown), learnt from the collection when needed.
   */
  const whyNotFound = async (e: unknown): Promise<HostingApiError | undefined> => {
    const off = featureOff(e);
    if (off) return off;
    try {
      await c.get(B.list, { enterprise }, { query: { per_page: 1 } });
      return undefined;
    } catch (probe) {
      if (!isNotFound(probe) || !isHostingApiError(probe)) throw probe;
      return featureOff(probe) ?? noEnterprise(probe);
    }
  };

  const api = {
    collection,

    /** Every budget of the enterprise (of one scope when given), following `has_next_page`. */
    async list(scope?: string): Promise<ApiBudget[]> {
      const budgets: ApiBudget[] = [];
      for (let page = 1; ; page++) {
        const query = { per_page: PAGE_SIZE, page, ...(scope !== undefined ? { scope } : {}) };
        const answer = (await c.get(B.list, { enterprise }, { query })).data;
        budgets.push(...answer.budgets);
        if (!answer.has_next_page || answer.budgets.length === 0) return budgets;
      }
    },

    /** The budget with this key, if the enterprise has one. */
    async find(key: BudgetKey): Promise<LiveBudget | undefined> {
      const found = (await api.list(key.scope)).find(
        (b) =>
          b.budget_scope === key.scope &&
          b.budget_type === key.type &&
          (b.budget_product_skus ?? [b.budget_product_sku]).includes(key.productSku) &&
          sameName(b.budget_entity_name, key.entityName) &&
          (key.scope !== "user" || sameName(b.user, key.user)),
      );
      return found && liveBudget(found, key.productSku);
    },

    /**
     * The budget, or undefined when it is gone (a 404 that means anything else fails). Reads of
     * several budgets of the enterprise in a run share its list; `wantedSku` picks the SKU a list
     * item's array names, as the program manages it.
     */
    read: async (budgetId: string, wantedSku?: string): Promise<LiveBudget | undefined> => {
      const found = await readOrGone(
        () =>
          collectionReads.read(c, {
            collection,
            key: budgetId,
            keyOf: (b: ApiBudget) => b.id,
            list: () => api.list(),
            single: async () => (await c.get(B.get, budget(budgetId))).data,
          }),
        { explain: whyNotFound },
      );
      return found && liveBudget(found, wantedSku);
    },

    /** The budget `importId` names, or an error saying there is none. */
    async adopt(budgetId: string): Promise<LiveBudget> {
      const live = await api.read(budgetId);
      if (live) return live;
      throw notFoundError({
        method: "GET",
        path: path(budgetId),
        what: `importId ${budgetId}`,
        causes: [`enterprise ${enterprise} has no such budget (list them with GET ${collection} for the id)`],
      });
    },

    /** One POST; its 404 and 422 answers are explained by `createFailure`. */
    create: (body: ApiBudgetWrite) =>
      collectionReads.write(c, collection, async () => {
        const answer = await c.post(B.create, { enterprise }, body);
        return liveBudget(answer.data.budget);
      }),

    /** The whole desired state, so repeating it after a failure is safe. */
    async update(budgetId: string, body: ApiBudgetWrite): Promise<LiveBudget> {
      try {
        const answer = await collectionReads.write(c, collection, () =>
          c.patch(B.update, budget(budgetId), body, { idempotent: true }),
        );
        return liveBudget(answer.data.budget);
      } catch (e) {
        if (!isNotFound(e)) throw e;
        throw (
          (await whyNotFound(e)) ??
          notFoundError({
            method: "PATCH",
            path: B.update.path(budget(budgetId)),
            what: `Budget ${enterprise}/${budgetId}`,
            causes: [
              "it was deleted outside Pulumi: pulumi up --refresh drops it from the state and creates it again",
            ],
          })
        );
      }
    },

    /** Deletes the budget; one already gone is done, but the feature being off is an error. */
    remove: (budgetId: string): Promise<void> =>
      deleteIgnoringGone(
        () => collectionReads.write(c, collection, () => c.delete(B.delete, budget(budgetId))),
        {
          explain: async (e) => featureOff(e),
        },
      ),

    /**
     * What a failed create means to the user: the feature off or the enterprise unknown (404), or
     * a budget with the same key already there (422), named with its id so it can be adopted.
     */
    async createFailure(e: unknown, key: BudgetKey): Promise<unknown> {
      if (!isHostingApiError(e)) return e;
      if (isNotFound(e)) return featureOff(e) ?? noEnterprise(e);
      if (e.status !== 422 || !e.errors.some((d) => d.code === "already_exists")) return e;
      const existing = await api.find(key).catch(() => undefined);
      return validationError(
        { method: "POST", path: collection },
        `enterprise ${enterprise} already has a ${key.type} budget for ${key.productSku ?? "this SKU"} with scope ${key.scope}${key.entityName ? ` ${key.entityName}` : ""}${key.user ? ` (user ${key.user})` : ""}`,
        `Set importId${existing ? ` to "${existing.id}"` : ""} to bring it under management instead of creating a second one`,
      );
    },
  };
  return api;
}
