/** The budget family's state: budgets, and the enterprises whose budgets feature is off. */
import type { BudgetScope, BudgetType } from "../../../api";
import { document, rows, type StateOf } from "../../core/state";

export interface StoredBudget {
  /** A UUID. */
  id: string;
  /** The enterprise slug. */
  enterprise: string;
  type: BudgetType;
  sku: string;
  scope: BudgetScope;
  /** The organisation, repository (`owner/name`) or cost centre; empty where the scope names none. */
  entityName: string;
  /** The login of a user-scoped budget. */
  user?: string;
  amount: number;
  preventFurtherUsage: boolean;
  willAlert: boolean;
  recipients: string[];
}

export const budgetState = {
  budgets: rows<StoredBudget>(),
  /** Enterprises whose budgets feature is turned off (`/_emulator/`): their budget routes answer 404. */
  budgetsOff: document<string[]>(() => []),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof budgetState> {}
}
