/**
 * Rulesets of organisations and repositories, and the rules that apply to a branch
 * (docs/sandbox.md, "Rulesets").
 */
import type { Family } from "../../core/family";
import { isOrg, movedPath } from "../../core/org-logins";
import { rulesetRoutes } from "./routes";
import { rulesetState } from "./state";

export const rulesets = {
  name: "rulesets",
  state: rulesetState,
  routes: rulesetRoutes,
  orgLogins: [
    {
      what: "rulesets' owner (an organisation's login, or a repository's owner/name)",
      move: (store, r) => {
        for (const ruleset of store.raw.rulesets) {
          const moved =
            ruleset.scope === "org"
              ? isOrg(ruleset.owner, r)
                ? r.to
                : undefined
              : movedPath(ruleset.owner, r);
          if (moved) store.tracked("rulesets", ruleset).owner = moved;
        }
      },
    },
  ],
} satisfies Family;
