/**
 * Custom properties: organisations' repository property definitions and the values of
 * organisations and repositories (docs/sandbox.md, "Custom properties").
 */
import type { Hono } from "hono";
import type { ServerEnv } from "../../core/context";
import type { Family } from "../../core/family";
import { orgLoginsOf, repoPathsOf } from "../../core/org-logins";
import { definitionRoutes } from "./definitions";
import { propertyValueRoutes } from "./routes";
import { propertyValueState } from "./state";

export const propertyValues = {
  name: "custom-properties",
  state: propertyValueState,
  routes: (app: Hono<ServerEnv>) => {
    definitionRoutes(app);
    propertyValueRoutes(app);
  },
  orgLogins: [
    orgLoginsOf("orgPropertyValues", "target", "organisation property values' target"),
    repoPathsOf("repoPropertyValues", "target", "repository property values' owner/name"),
  ],
} satisfies Family;
