import * as pulumi from "@pulumi/pulumi";
import { declareBranchProtections } from "./branch-protection";

const config = new pulumi.Config();
export const protections = declareBranchProtections({
  owner: config.get("owner") ?? "acme-eng",
  repository: config.get("repository") ?? "api",
  branches: {
    develop: {
      requiredStatusChecks: { strict: true, contexts: ["ci/build", "ci/test"] },
      requiredPullRequestReviews: { requiredApprovingReviewCount: 1, dismissStaleReviews: true },
      requiredConversationResolution: true,
    },
    // A branch name holding a slash: its id carries it encoded (release%2F1.0).
    "release/1.0": {
      enforceAdmins: true,
      requiredLinearHistory: true,
      // Who may push: a member, the platform team and the deploy-gate app.
      restrictions: { users: ["octocat"], teams: ["platform"], apps: ["deploy-gate"] },
    },
  },
});
