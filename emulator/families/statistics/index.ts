/** Repository statistics, compiled in the background (docs/sandbox.md, "Repository statistics"). */
import type { Family } from "../../core/family";
import { movedPath } from "../../core/org-logins";
import { statisticsRoutes } from "./routes";
import { statisticsState } from "./state";

export const statistics = {
  name: "statistics",
  state: statisticsState,
  routes: statisticsRoutes,
  orgLogins: [
    {
      what: "statistics cache (keyed by owner/name)",
      move: (store, r) => {
        const cache = store.state.statisticsCache;
        for (const [key, entry] of Object.entries(store.raw.statisticsCache)) {
          const moved = movedPath(key, r);
          if (!moved) continue;
          delete cache[key];
          cache[moved] = { ...entry };
        }
      },
    },
  ],
} satisfies Family;
