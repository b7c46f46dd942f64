/**
 * Branch protection (docs/sandbox.md, "Branch protection"). Listed before the git family: the
 * branch route's `:branch{.+}` would otherwise take `main/protection` for a branch name.
 */
import type { Family } from "../../core/family";
import { repoPathsOf } from "../../core/org-logins";
import { dropRepositoryProtections, seedProtections } from "./protections";
import { branchProtectionRoutes } from "./routes";
import { branchProtectionState } from "./state";

export const branchProtection = {
  name: "branch-protection",
  state: branchProtectionState,
  seed: seedProtections,
  routes: branchProtectionRoutes,
  onRepositoryDeleted: dropRepositoryProtections,
  orgLogins: [repoPathsOf("branchProtections", "repo", "branch protections' owner/name")],
} satisfies Family;
