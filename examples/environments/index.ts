import * as pulumi from "@pulumi/pulumi";
import type * as hosting from "pulumi-hosting";
import { declareEnvironment } from "./environments";
import { declareProtectionRules } from "./protection-rules";

const config = new pulumi.Config();
const owner = config.get("owner") ?? "acme-eng";
const repository = config.get("repository") ?? "api";

// Gates of environments that exist already.
export const ruleIds = declareProtectionRules({
  owner,
  repository,
  gates: config.getObject<Record<string, number[]>>("gates") ?? {
    // deploy-gate (101) and change-window (102) must both approve production deployments.
    production: [101, 102],
    // An environment name holding a slash: sent as release%2Feu.
    "release/eu": [101],
  },
});

// An environment this program makes: octocat (3) approves, main and release branches and v* tags
// deploy after 10 minutes, and deploy-gate (101) must agree.
export const canary = declareEnvironment({
  owner,
  repository,
  environment: config.get("environment") ?? "canary",
  waitTimer: 10,
  reviewers: config.getObject<hosting.EnvironmentReviewerArgs[]>("reviewers") ?? [{ type: "User", id: 3 }],
  branchPolicies: [
    { name: "main", type: "branch" },
    { name: "release/*", type: "branch" },
    { name: "v*", type: "tag" },
  ],
  gates: [101],
});
