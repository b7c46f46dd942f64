/**
 * Budgets as code: an enterprise's spending limits per organisation and per person, who is alerted,
 * and where usage stops. Used by this example's program and by the root demo.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

export interface BudgetSettings {
  enterprise: string;
  /** Monthly dollars of Actions usage each organisation may spend, by organisation. */
  actionsByOrg: Record<string, number>;
  /** Who hears about it as spending approaches a limit (logins). */
  alertRecipients: string[];
  /** Monthly AI credits (whole dollars) per person; usage stops at the limit. */
  aiCreditsByUser: Record<string, number>;
}

/**
 * Declares one ProductPricing budget for Actions per organisation (alerting, never stopping CI)
 * and one user-scoped BundlePricing budget of AI credits per person (which must stop usage).
 * Returns each budget's id.
 */
export function declareBudgets(settings: BudgetSettings): Record<string, pulumi.Output<string>> {
  const ids: Record<string, pulumi.Output<string>> = {};
  for (const [org, amount] of Object.entries(settings.actionsByOrg)) {
    const budget = new hosting.Budget(`${settings.enterprise}-${org}-actions`, {
      enterprise: settings.enterprise,
      scope: "organization",
      entityName: org,
      type: "ProductPricing",
      productSku: "actions",
      amount,
      preventFurtherUsage: false,
      alerting: { willAlert: true, recipients: settings.alertRecipients },
    });
    ids[`${org}-actions`] = budget.budgetId;
  }
  for (const [user, amount] of Object.entries(settings.aiCreditsByUser)) {
    const budget = new hosting.Budget(`${settings.enterprise}-${user}-ai-credits`, {
      enterprise: settings.enterprise,
      scope: "user",
      user,
      type: "BundlePricing", // productSku defaults to "ai_credits"
      amount,
      preventFurtherUsage: true,
      alerting: { willAlert: false },
    });
    ids[`${user}-ai-credits`] = budget.budgetId;
  }
  return ids;
}
