/**
 * The demo program: the examples' resources declared together, run by `bash scripts/demo.sh`
 * against the sandbox server (see README).
 */
import * as pulumi from "@pulumi/pulumi";
import { declareRunnerGroups } from "./examples/runner-groups/runner-groups";
import { declareWebhooks } from "./examples/webhooks/webhooks";

const config = new pulumi.Config();

export const webhooks = declareWebhooks({
  repository: "acme-eng/api",
  ciUrl: "https://ci.example.com/hooks/hosting",
  auditUrl: "https://audit.example.com/hosting",
  ciSecret: config.getSecret("ciSecret") ?? pulumi.secret("demo-signing-secret"),
});

export const runnerGroups = declareRunnerGroups({
  enterprise: "acme",
  deployOrgId: 100, // acme-eng
  deployRunners: [7],
  deployWorkflows: ["acme-eng/api/.github/workflows/deploy.yml@refs/heads/main"],
  org: "acme-eng",
  buildRepositoryIds: [1000, 1001], // acme-eng/api, acme-eng/web
  buildRunners: [1, 2],
});
