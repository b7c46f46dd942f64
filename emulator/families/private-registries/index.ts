/** Organisation private registries and their key pairs (docs/sandbox.md, "Private registries"). */
import type { Family } from "../../core/family";
import { orgLoginsOf } from "../../core/org-logins";
import { privateRegistryControls, privateRegistryRoutes } from "./routes";
import { privateRegistryState } from "./state";

export const privateRegistries = {
  name: "private-registries",
  state: privateRegistryState,
  routes: privateRegistryRoutes,
  controls: privateRegistryControls,
  orgLogins: [
    orgLoginsOf("privateRegistries", "org", "private registries' organisation"),
    {
      what: "private registry key pairs (keyed by lower-case login)",
      move: (store, r) => {
        const keys = store.state.registryKeys;
        const from = r.from.toLowerCase();
        const to = r.to.toLowerCase();
        const pair = Object.hasOwn(keys, from) ? keys[from] : undefined;
        if (pair === undefined || from === to) return;
        keys[to] = { ...pair };
        delete keys[from];
      },
    },
  ],
} satisfies Family;
