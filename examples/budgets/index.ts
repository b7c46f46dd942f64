import * as pulumi from "@pulumi/pulumi";
import { declareBudgets } from "./budgets";

const config = new pulumi.Config();
export const budgetIds = declareBudgets({
  enterprise: config.get("enterprise") ?? "acme",
  actionsByOrg: config.getObject<Record<string, number>>("actionsByOrg") ?? {
    "acme-eng": 500,
    "acme-ops": 200,
  },
  // billie is acme's billing manager: her token (svcp_billing) may create and update these budgets,
  // but deleting one (pulumi destroy) needs an enterprise admin's.
  alertRecipients: config.getObject<string[]>("alertRecipients") ?? ["billie", "admin"],
  aiCreditsByUser: config.getObject<Record<string, number>>("aiCreditsByUser") ?? { mona: 30 },
});
