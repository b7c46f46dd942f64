/** Enterprise and organisation runner groups and their runners (docs/sandbox.md, "Runner groups"). */
import type { Family } from "../../core/family";
import { isOrg } from "../../core/org-logins";
import { runnerGroupRoutes } from "./routes";
import { runnerGroupState, seedRunnerGroups } from "./state";

export const runnerGroups = {
  name: "runner-groups",
  state: runnerGroupState,
  seed: seedRunnerGroups,
  routes: runnerGroupRoutes,
  orgLogins: [
    {
      what: "organisation runner groups' owner",
      move: (store, r) => {
        for (const g of store.raw.runnerGroups) {
          if (g.scope === "org" && isOrg(g.owner, r)) store.tracked("runnerGroups", g).owner = r.to;
        }
      },
    },
  ],
} satisfies Family;
