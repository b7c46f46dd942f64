/** Enterprise billing budgets: Budget. */
export * from "./budget";
