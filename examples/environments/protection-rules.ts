/**
 * Deployment gates as code: which apps must approve deployments to each environment of a
 * repository. Used by this example's program and by the root demo.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

export interface ProtectionRuleSettings {
  owner: string;
  repository: string;
  /**
   * Environment name -> ids of the apps to enable as its custom deployment protection rules. The
   * apps must be installed on `owner`; names may hold `/` (`release/eu`).
   */
  gates: Record<string, number[]>;
}

/**
 * Declares one DeploymentProtectionRule per environment and app, and returns each rule's id
 * (`owner/repository/environment/ruleId`, the environment URL-encoded) keyed by environment and app.
 */
export function declareProtectionRules(
  settings: ProtectionRuleSettings,
): Record<string, pulumi.Output<string>> {
  const ids: Record<string, pulumi.Output<string>> = {};
  for (const [environment, apps] of Object.entries(settings.gates)) {
    for (const integrationId of apps) {
      // Resource names stay readable and free of the `/` an environment name may hold.
      const name = `${settings.repository}-${environment.replace(/[^A-Za-z0-9_-]/g, "-")}-${integrationId}`;
      const rule = new hosting.DeploymentProtectionRule(name, {
        owner: settings.owner,
        repository: settings.repository,
        environment,
        integrationId,
      });
      ids[`${environment} ${integrationId}`] = rule.id;
    }
  }
  return ids;
}
