import * as pulumi from "@pulumi/pulumi";
import { declareProtectionRules } from "./protection-rules";

const config = new pulumi.Config();
export const ruleIds = declareProtectionRules({
  owner: config.get("owner") ?? "acme-eng",
  repository: config.get("repository") ?? "api",
  gates: config.getObject<Record<string, number[]>>("gates") ?? {
    // deploy-gate (101) and change-window (102) must both approve production deployments.
    production: [101, 102],
    // An environment name holding a slash: sent as release%2Feu.
    "release/eu": [101],
  },
});
