/**
 * Actions secrets and variables of organisations, repositories and environments, and their scopes'
 * key pairs (docs/sandbox.md, "Actions secrets and variables").
 */
import type { Family } from "../../core/family";
import { actionsControls } from "./controls";
import { actionsRoutes } from "./routes";
import { actionsFixture } from "./seed";
import { actionsState } from "./state";

export { dropEnvironmentActions } from "./rules";

export const actions = {
  name: "actions",
  state: actionsState,
  fixture: actionsFixture,
  routes: actionsRoutes,
  controls: actionsControls,
} satisfies Family;
