/** Budget arguments the lifecycle and end-to-end suites share: one budget of each kind they need. */

/** Actions of organisation acme-eng: alerting two people, never stopping usage. */
export const ORG_BUDGET_ARGS = {
  enterprise: "acme",
  amount: 100,
  preventFurtherUsage: false,
  alerting: { willAlert: true, recipients: ["billie", "admin"] },
  scope: "organization",
  entityName: "acme-eng",
  type: "ProductPricing",
  productSku: "actions",
};

/** mona's AI credits (BundlePricing, so `ai_credits` by default), which stop at the limit. */
export const USER_BUDGET_ARGS = {
  enterprise: "acme",
  amount: 30,
  preventFurtherUsage: true,
  alerting: { willAlert: false },
  scope: "user",
  user: "mona",
  type: "BundlePricing",
};
