/** The Budget provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { budgetProvider } from "../resources/budgets";

export = budgetProvider;
