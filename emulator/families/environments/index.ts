/**
 * Environments of repositories with their settings, deployment branch policies and custom
 * deployment protection rules (docs/sandbox.md, "Environments" and "Deployment protection rules").
 */
import type { Family } from "../../core/family";
import { movedPath, repoPathsOf } from "../../core/org-logins";
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
    {
      what: "the fixture's environment settings' owner/name",
      move: (store, r) => {
        for (const seed of store.state.fixture.environmentSettings ?? []) {
          const moved = movedPath(seed.repo, r);
          if (moved) seed.repo = moved;
        }
      },
    },
    {
      what: "environments' and deployment branch policies' owner/name",
      move: (store, r) => {
        for (const record of [...store.state.environments, ...store.state.branchPolicies]) {
          const moved = movedPath(record.repo, r);
          if (moved) record.repo = moved;
        }
      },
    },
    repoPathsOf("protectionRules", "repo", "protection rules' owner/name"),
  ],
} satisfies Family;
