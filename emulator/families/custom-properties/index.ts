/** Custom property values of organisations and repositories (docs/sandbox.md, "Custom property values"). */
import type { Family } from "../../core/family";
import { orgLoginsOf, repoPathsOf } from "../../core/org-logins";
import { propertyValueRoutes } from "./routes";
import { propertyValueState } from "./state";

export const propertyValues = {
  name: "custom-properties",
  state: propertyValueState,
  routes: propertyValueRoutes,
  orgLogins: [
    orgLoginsOf("orgPropertyValues", "target", "organisation property values' target"),
    repoPathsOf("repoPropertyValues", "target", "repository property values' owner/name"),
  ],
} satisfies Family;
