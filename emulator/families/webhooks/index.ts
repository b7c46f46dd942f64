/** Repository and global webhooks with their deliveries (docs/sandbox.md, "Webhooks"). */
import type { Family } from "../../core/family";
import { movedPath } from "../../core/org-logins";
import { globalHookRoutes } from "./global-hooks";
import { repoHookRoutes } from "./repo-hooks";
import { webhookState } from "./state";

export const webhooks = {
  name: "webhooks",
  state: webhookState,
  routes: (api) => {
    repoHookRoutes(api);
    globalHookRoutes(api);
  },
  orgLogins: [
    {
      what: "repository webhooks' owner/name",
      move: (store, r) => {
        for (const h of store.raw.repoHooks) {
          const repo = h.repo && movedPath(h.repo, r);
          if (repo) store.tracked("repoHooks", h).repo = repo;
        }
      },
    },
  ],
} satisfies Family;
