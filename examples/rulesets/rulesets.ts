/**
 * Rulesets as code: one for the organisation, applying to the default branch of every repository
 * whose custom property has one of the given values, and one for a repository's release branches,
 * evaluated before it is enforced. Used by this example's program and by the root demo.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

export interface RulesetSettings {
  org: string;
  /** The organisation ruleset: the repositories whose property `propertyName` holds one of `values`. */
  byProperty: { name: string; propertyName: pulumi.Input<string>; values: string[] };
  /** Apps (by id) that may bypass the organisation ruleset, e.g. a deployment bot. */
  bypassApps: number[];
  /** The repository ruleset: the release branches of `owner/repository`. */
  releases: { owner: string; repository: string; pattern: string };
}

export function declareRulesets(settings: RulesetSettings): {
  orgRulesetId: pulumi.Output<number>;
  releaseRulesetId: pulumi.Output<number>;
} {
  const org = new hosting.OrgRuleset(`${settings.org}-${settings.byProperty.name}`, {
    org: settings.org,
    name: settings.byProperty.name,
    enforcement: "active",
    bypassActors: [
      { actorType: "OrganizationAdmin" },
      ...settings.bypassApps.map(
        (actorId): hosting.RulesetBypassActorArgs => ({
          actorType: "Integration",
          actorId,
          bypassMode: "pull_request",
        }),
      ),
    ],
    conditions: {
      refName: { include: ["~DEFAULT_BRANCH"] },
      repositoryProperty: {
        include: [{ name: settings.byProperty.propertyName, propertyValues: settings.byProperty.values }],
      },
    },
    rules: [
      { type: "deletion" },
      { type: "non_fast_forward" },
      {
        type: "pull_request",
        // Parameters in camelCase, as the platform's description has them for the rule's type.
        parameters: {
          requiredApprovingReviewCount: 1,
          dismissStaleReviewsOnPush: true,
          requireCodeOwnerReview: false,
          requireLastPushApproval: false,
          requiredReviewThreadResolution: true,
        },
      },
      {
        type: "required_status_checks",
        parameters: {
          requiredStatusChecks: [{ context: "ci/build" }],
          strictRequiredStatusChecksPolicy: true,
        },
      },
    ],
  });
  const { owner, repository, pattern } = settings.releases;
  const releases = new hosting.RepositoryRuleset(`${owner}-${repository}-releases`, {
    owner,
    repository,
    name: "release branches",
    // Recorded in the rule insights, not enforced yet.
    enforcement: "evaluate",
    conditions: { refName: { include: [pattern] } },
    rules: [
      { type: "required_linear_history" },
      { type: "commit_message_pattern", parameters: { operator: "starts_with", pattern: "release: " } },
    ],
  });
  return { orgRulesetId: org.rulesetId, releaseRulesetId: releases.rulesetId };
}
