import * as pulumi from "@pulumi/pulumi";
import { declareRoleAssignments } from "./org-roles";

const config = new pulumi.Config();
export const roles = declareRoleAssignments({
  org: config.get("org") ?? "acme-eng",
  // The platform team manages security alerts and policies of every repository.
  teams: { platform: "security_manager" },
  users: { octocat: "all_repo_read" },
});
