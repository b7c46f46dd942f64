import { z } from "zod";
import { route, STATUS_ONLY, V2026 } from "./route";

/** Budget scopes (spec, Budget; table "Enterprise billing budgets", create body). */
export const BUDGET_SCOPES = [
  "enterprise",
  "organization",
  "repository",
  "cost_center",
  "multi_user_customer",
  "user",
] as const;
export type BudgetScope = (typeof BUDGET_SCOPES)[number];
/** Pricing models: a bundle of SKUs, every SKU of a product, or one SKU. */
export const BUDGET_TYPES = ["BundlePricing", "ProductPricing", "SkuPricing"] as const;
export type BudgetType = (typeof BUDGET_TYPES)[number];
/** The one product SKU of a BundlePricing budget: all AI credit SKUs. */
export const BUDGET_BUNDLE_SKU = "ai_credits";
/** Scopes that apply per user: only for the SKUs below, and they must prevent further usage. */
export const BUDGET_PER_USER_SCOPES: readonly BudgetScope[] = ["multi_user_customer", "user"];
export const BUDGET_PER_USER_SKUS = [BUDGET_BUNDLE_SKU, "premium_requests"] as const;
/**
 * Products a ProductPricing budget covers, and SKUs a SkuPricing budget covers. The spec names
 * `actions`, `packages` and `actions_linux` as examples and leaves the list out; these are the
 * platform's billing products and SKUs. The self-managed edition is discontinued (no releases after
 * 2026-07-01), so the list cannot grow, which is why the provider checks against it at preview.
 */
export const BUDGET_PRODUCTS = [
  "actions",
  "packages",
  "codespaces",
  "copilot",
  "git_lfs",
  "advanced_security",
] as const;
export const BUDGET_SKUS = [
  "actions_linux",
  "actions_windows",
  "actions_macos",
  "actions_storage",
  "packages_storage",
  "packages_data_transfer",
  "codespaces_compute",
  "codespaces_storage",
  "git_lfs_storage",
  "git_lfs_bandwidth",
  "premium_requests",
] as const;
/** Every value a budget's `productSku` may take (which ones a budget allows depends on its type). */
export type BudgetProductSku =
  | typeof BUDGET_BUNDLE_SKU
  | (typeof BUDGET_PRODUCTS)[number]
  | (typeof BUDGET_SKUS)[number];

/**
 * A budget as single-budget answers carry it (`budget_product_sku`, a string) and as list items
 * carry it (`budget_product_skus`, an array); `user` names the person of a user-scoped budget.
 * Scope and type are read as strings: a list may hold budgets of kinds this library does not manage.
 */
export const apiBudgetSchema = z.object({
  id: z.string().min(1),
  budget_type: z.string(),
  budget_scope: z.string(),
  budget_entity_name: z.string().optional(),
  budget_amount: z.number(),
  prevent_further_usage: z.boolean(),
  budget_product_sku: z.string().optional(),
  budget_product_skus: z.array(z.string()).optional(),
  budget_alerting: z.object({
    will_alert: z.boolean(),
    alert_recipients: z.array(z.string()),
  }),
  user: z.string().optional(),
});
export type ApiBudget = z.infer<typeof apiBudgetSchema>;

/** `GET .../budgets`: one page of budgets. */
export const apiBudgetListSchema = z.object({
  budgets: z.array(apiBudgetSchema),
  has_next_page: z.boolean(),
  total_count: z.number().int(),
});
/** What create and update answer: `{message, budget}`. */
export const apiBudgetEnvelopeSchema = z.object({ message: z.string(), budget: apiBudgetSchema });
/** What delete answers: `{message, budget_id}`. */
export const apiBudgetDeletedSchema = z.object({ message: z.string(), budget_id: z.string() });

/** The body of a budget create or full update, as the provider sends it. */
export interface ApiBudgetWrite {
  budget_amount: number;
  prevent_further_usage: boolean;
  budget_alerting: { will_alert: boolean; alert_recipients: string[] };
  budget_scope: BudgetScope;
  budget_entity_name: string;
  budget_type: BudgetType;
  budget_product_sku: string;
  user?: string;
}

/** Budget ids are UUIDs (notes/api.md). */
export const BUDGET_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const BUDGETS = "/enterprises/{enterprise}/settings/billing/budgets";

export const budgetsRoutes = {
  budgets: {
    list: route(`GET ${BUDGETS}`, { ...V2026, body: apiBudgetListSchema }),
    create: route(`POST ${BUDGETS}`, { ...V2026, body: apiBudgetEnvelopeSchema }),
    get: route(`GET ${BUDGETS}/{budget_id}`, { ...V2026, body: apiBudgetSchema }),
    update: route(`PATCH ${BUDGETS}/{budget_id}`, { ...V2026, body: apiBudgetEnvelopeSchema }),
    delete: route(`DELETE ${BUDGETS}/{budget_id}`, { ...V2026, ...STATUS_ONLY }),
  },
} as const;
