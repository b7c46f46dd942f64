/**
 * Environments of repositories with their settings, deployment branch policies and custom
 * deployment protection rules (docs/sandbox.md, "Environments" and "Deployment protection rules").
 */
import type { Family } from "../../core/family";
import { repoPathsOf } from "../../core/org-logins";
import { environmentControls } from "./controls";
import { environmentRoutes } from "./environment-routes";
import { protectionRuleRoutes } from "./routes";
import { environmentFixture } from "./seed";
import { environmentState } from "./state";

export const environments = {
  name: "environments",
  state: environmentState,
  fixture: environmentFixture,
  routes: (api) => {
    environmentRoutes(api);
    protectionRuleRoutes(api);
  },
  controls: environmentControls,
  orgLogins: [
    repoPathsOf("environments", "repo", "environments' owner/name"),
    repoPathsOf("branchPolicies", "repo", "deployment branch policies' owner/name"),
    repoPathsOf("protectionRules", "repo", "protection rules' owner/name"),
  ],
} satisfies Family;
