/**
 * Rulesets of organisations and repositories, and the rules that apply to a branch
 * (docs/sandbox.md, "Rulesets").
 */
import type { Family } from "../../core/family";
import type { RepoRecord } from "../../core/fixture";
import { repoKey } from "../../core/lookup";
import { isOrg, movedPath } from "../../core/org-logins";
import type { StateAccess } from "../../core/state";
import { rulesetRoutes } from "./routes";
import { rulesetState } from "./state";

/**
 * A deleted repository's rulesets go with it, as the platform deletes them (its organisation's
 * rulesets stay): without this they would only be moved out of reach with its other records.
 */
function dropRepositoryRulesets(store: StateAccess, repo: RepoRecord): void {
  const key = repoKey(repo);
  const owned = (r: { scope: string; owner: string }) => r.scope === "repo" && r.owner === key;
  if (store.raw.rulesets.some(owned)) store.state.rulesets = store.state.rulesets.filter((r) => !owned(r));
}

export const rulesets = {
  name: "rulesets",
  state: rulesetState,
  routes: rulesetRoutes,
  onRepositoryDeleted: dropRepositoryRulesets,
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
