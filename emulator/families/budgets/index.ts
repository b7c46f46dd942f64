/** Enterprise budgets (docs/sandbox.md, "Budgets"). */
import type { Family } from "../../core/family";
import { isOrg, isRepositoryMove } from "../../core/org-logins";
import { budgetControls, budgetRoutes } from "./routes";
import { budgetState } from "./state";

export const budgets = {
  name: "budgets",
  state: budgetState,
  routes: budgetRoutes,
  controls: budgetControls,
  orgLogins: [
    {
      what: "budgets' entity name (organisation and repository scopes)",
      move: (store, r) => {
        for (const b of store.raw.budgets) {
          if (b.scope === "organization" && isOrg(b.entityName, r)) {
            store.tracked("budgets", b).entityName = r.to;
          } else if (b.scope === "repository" && isRepositoryMove(r)) {
            // One repository renamed: its budgets name it by its new name.
            if (b.entityName.toLowerCase() === r.from.toLowerCase())
              store.tracked("budgets", b).entityName = r.to;
          } else if (b.scope === "repository") {
            const [owner = "", ...rest] = b.entityName.split("/");
            if (rest.length === 1 && isOrg(owner, r))
              store.tracked("budgets", b).entityName = `${r.to}/${rest[0]}`;
          }
        }
      },
    },
  ],
} satisfies Family;
