/** Organisation blocks, issue types and issue fields (docs/sandbox.md). */
import type { Family } from "../../core/family";
import { orgLoginsOf } from "../../core/org-logins";
import { orgConfigRoutes } from "./routes";
import { orgConfigState } from "./state";

export const orgConfig = {
  name: "org-config",
  state: orgConfigState,
  routes: orgConfigRoutes,
  orgLogins: [
    orgLoginsOf("orgBlocks", "org", "organisation blocks' organisation"),
    orgLoginsOf("issueTypes", "org", "issue types' organisation"),
    orgLoginsOf("issueFields", "org", "issue fields' organisation"),
  ],
} satisfies Family;
