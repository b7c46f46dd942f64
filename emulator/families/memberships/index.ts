/** Organisation members, memberships and invitations (docs/sandbox.md, "Members and memberships"). */
import type { Family } from "../../core/family";
import { orgLoginsOf } from "../../core/org-logins";
import { membershipControls } from "./controls";
import { membershipRoutes } from "./routes";
import { membershipState } from "./state";

export const memberships = {
  name: "memberships",
  state: membershipState,
  routes: membershipRoutes,
  controls: membershipControls,
  orgLogins: [orgLoginsOf("invitations", "org", "invitations' organisation")],
} satisfies Family;
