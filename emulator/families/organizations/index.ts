/**
 * Organisation administration (docs/sandbox.md, "Organisation administration"): creating and
 * renaming organisations. A rename moves what every family lists in its `orgLogins`.
 */
import type { Family } from "../../core/family";
import { orgAdminRoutes } from "./routes";

export const orgAdmin = {
  name: "organizations",
  routes: orgAdminRoutes,
} satisfies Family;
