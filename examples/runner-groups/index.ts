import * as pulumi from "@pulumi/pulumi";
import { declareRunnerGroups } from "./runner-groups";

const config = new pulumi.Config();
export const { deployersId, buildersId } = declareRunnerGroups({
  enterprise: config.get("enterprise") ?? "acme",
  deployOrgId: config.getNumber("deployOrgId") ?? 100,
  deployRunners: config.getObject<number[]>("deployRunners") ?? [7],
  deployWorkflows: config.getObject<string[]>("deployWorkflows") ?? [
    "acme-eng/api/.github/workflows/deploy.yml@refs/heads/main",
  ],
  org: config.get("org") ?? "acme-eng",
  buildRepositoryIds: config.getObject<number[]>("buildRepositoryIds") ?? [1000, 1001],
  buildRunners: config.getObject<number[]>("buildRunners") ?? [1, 2],
});
