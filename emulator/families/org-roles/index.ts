/** Organisation roles: the predefined roles and who holds them (docs/sandbox.md, "Organisation roles"). */
import type { Family } from "../../core/family";
import { orgLoginsOf } from "../../core/org-logins";
import { orgRoleRoutes } from "./routes";
import { orgRolesFixture } from "./seed";
import { orgRoleState } from "./state";

export const orgRoles = {
  name: "org-roles",
  state: orgRoleState,
  fixture: orgRolesFixture,
  routes: orgRoleRoutes,
  orgLogins: [orgLoginsOf("orgRoleAssignments", "org", "organisation role assignments' organisation")],
} satisfies Family;
