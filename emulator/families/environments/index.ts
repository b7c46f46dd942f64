/** Custom deployment protection rules of environments (docs/sandbox.md, "Deployment protection rules"). */
import type { Family } from "../../core/family";
import { repoPathsOf } from "../../core/org-logins";
import { protectionRuleRoutes } from "./routes";
import { protectionRuleState } from "./state";

export const protectionRules = {
  name: "environments",
  state: protectionRuleState,
  routes: protectionRuleRoutes,
  orgLogins: [repoPathsOf("protectionRules", "repo", "protection rules' owner/name")],
} satisfies Family;
