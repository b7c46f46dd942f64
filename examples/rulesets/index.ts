import * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";
import { declareRulesets } from "./rulesets";

const config = new pulumi.Config();
const org = config.get("org") ?? "acme-eng";
export const rulesets = declareRulesets({
  org,
  // tier is a property acme-eng defines; its gold repositories get the organisation's rules.
  byProperty: {
    name: "gold repositories",
    propertyName: config.get("propertyName") ?? "tier",
    values: ["gold"],
  },
  bypassApps: [101], // deploy-gate
  releases: { owner: org, repository: "api", pattern: "refs/heads/release/*" },
});

// What applies to main of acme-eng/api once the rulesets exist: their rules and its protection.
export const mainRules = hosting.getBranchRulesOutput({
  owner: org,
  repository: rulesets.releaseRulesetId.apply(() => "api"),
  branch: "main",
});
