/** Repository, organisation and global webhooks with their deliveries (docs/sandbox.md, "Webhooks"). */
import type { Family } from "../../core/family";
import { isOrg, movedPath } from "../../core/org-logins";
import { webhookControls } from "./controls";
import { globalHookRoutes } from "./global-hooks";
import { orgHookRoutes } from "./org-hooks";
import { repoHookRoutes } from "./repo-hooks";
import { webhookState } from "./state";

export const webhooks = {
  name: "webhooks",
  state: webhookState,
  routes: (api) => {
    repoHookRoutes(api);
    orgHookRoutes(api);
    globalHookRoutes(api);
  },
  controls: webhookControls,
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
    {
      what: "organisation webhooks' organisation",
      move: (store, r) => {
        for (const h of store.raw.orgHooks) {
          if (h.org !== undefined && isOrg(h.org, r)) store.tracked("orgHooks", h).org = r.to;
        }
      },
    },
  ],
} satisfies Family;
