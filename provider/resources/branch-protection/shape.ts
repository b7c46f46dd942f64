/**
 * A branch protection's settings in the program's shape, and the reading of the API's answer into
 * it: what BranchProtection declares and what getBranchRules returns. No Pulumi runtime here: the
 * plugin's invokes load it.
 */
import { z } from "zod";
import { type ApiBranchProtection, MAX_REQUIRED_APPROVALS } from "../../../api/branch-protection";
import type { NestedArgsOf } from "../../internal/declare";
import { compact } from "../../internal/outputs";

const names = (label: string, what: string) =>
  z
    .array(z.string().min(1, `${label} must not hold empty names`), {
      error: `${label} must be a list of ${what}`,
    })
    .default([])
    .meta({ description: `${what}; compared as a set, regardless of case. Default \`[]\`.` });

export const statusChecks = z
  .object(
    {
      strict: z.boolean({ error: "requiredStatusChecks.strict must be true or false" }).default(false).meta({
        description: "Whether a branch must be up to date with this one before merging. Default `false`.",
      }),
      contexts: names("requiredStatusChecks.contexts", "The status checks that must pass (their contexts)"),
    },
    { error: "requiredStatusChecks must be an object {strict, contexts}" },
  )
  .meta({ id: "BranchProtectionStatusChecks", description: "The status checks a pull request must pass." });

export const reviews = z
  .object(
    {
      dismissStaleReviews: z
        .boolean({ error: "requiredPullRequestReviews.dismissStaleReviews must be true or false" })
        .default(false)
        .meta({ description: "Dismiss approvals when new commits are pushed. Default `false`." }),
      requireCodeOwnerReviews: z
        .boolean({ error: "requiredPullRequestReviews.requireCodeOwnerReviews must be true or false" })
        .default(false)
        .meta({ description: "Require a review from a code owner. Default `false`." }),
      requiredApprovingReviewCount: z
        .number({
          error: `requiredPullRequestReviews.requiredApprovingReviewCount must be a whole number from 0 to ${MAX_REQUIRED_APPROVALS}`,
        })
        .int(
          `requiredPullRequestReviews.requiredApprovingReviewCount must be a whole number from 0 to ${MAX_REQUIRED_APPROVALS}`,
        )
        .min(
          0,
          `requiredPullRequestReviews.requiredApprovingReviewCount must be a whole number from 0 to ${MAX_REQUIRED_APPROVALS}`,
        )
        .max(
          MAX_REQUIRED_APPROVALS,
          `requiredPullRequestReviews.requiredApprovingReviewCount must be a whole number from 0 to ${MAX_REQUIRED_APPROVALS}`,
        )
        .default(1)
        .meta({ description: `Approvals needed, 0 to ${MAX_REQUIRED_APPROVALS}. Default \`1\`.` }),
      requireLastPushApproval: z
        .boolean({ error: "requiredPullRequestReviews.requireLastPushApproval must be true or false" })
        .default(false)
        .meta({
          description: "The last push must be approved by someone other than its author. Default `false`.",
        }),
    },
    { error: "requiredPullRequestReviews must be an object" },
  )
  .meta({ id: "BranchProtectionReviews", description: "The reviews a pull request needs before it merges." });

export const restrictions = z
  .object(
    {
      users: names("restrictions.users", "Logins of the people who may push"),
      teams: names("restrictions.teams", "Slugs of the teams that may push"),
      apps: names("restrictions.apps", "Slugs of the apps that may push"),
    },
    { error: "restrictions must be an object {users, teams, apps}" },
  )
  .meta({
    id: "BranchProtectionRestrictions",
    description: "Who may push to the branch (everyone else may not).",
  });

export type BranchProtectionStatusChecksArgs = NestedArgsOf<typeof statusChecks>;
export type BranchProtectionReviewsArgs = NestedArgsOf<typeof reviews>;
export type BranchProtectionRestrictionsArgs = NestedArgsOf<typeof restrictions>;

/** A protection's settings, as the program writes them and as read reports them. */
export interface ProtectionSettings {
  requiredStatusChecks?: z.infer<typeof statusChecks> | undefined;
  enforceAdmins: boolean;
  requiredPullRequestReviews?: z.infer<typeof reviews> | undefined;
  restrictions?: z.infer<typeof restrictions> | undefined;
  requiredLinearHistory: boolean;
  allowForcePushes: boolean;
  allowDeletions: boolean;
  requiredConversationResolution: boolean;
  lockBranch: boolean;
}

// Mapped by hand, not from wire paths: each toggle is read as an `{enabled}` object and written as a boolean.
/** The program's shape of what the GET (or the PUT) answers: what is off is absent or false. */
export function settingsFromApi(p: ApiBranchProtection): ProtectionSettings {
  const checks = p.required_status_checks;
  const reviewsOn = p.required_pull_request_reviews;
  const pushers = p.restrictions;
  const on = (part: { enabled?: boolean | undefined } | undefined) => part?.enabled === true;
  return compact({
    requiredStatusChecks: checks
      ? { strict: checks.strict ?? false, contexts: [...checks.contexts] }
      : undefined,
    enforceAdmins: on(p.enforce_admins),
    requiredPullRequestReviews: reviewsOn
      ? {
          dismissStaleReviews: reviewsOn.dismiss_stale_reviews ?? false,
          requireCodeOwnerReviews: reviewsOn.require_code_owner_reviews ?? false,
          requiredApprovingReviewCount: reviewsOn.required_approving_review_count ?? 1,
          requireLastPushApproval: reviewsOn.require_last_push_approval ?? false,
        }
      : undefined,
    restrictions: pushers
      ? {
          users: pushers.users.map((u) => u.login),
          teams: pushers.teams.map((t) => t.slug),
          apps: pushers.apps.map((a) => a.slug),
        }
      : undefined,
    requiredLinearHistory: on(p.required_linear_history),
    allowForcePushes: on(p.allow_force_pushes),
    allowDeletions: on(p.allow_deletions),
    requiredConversationResolution: on(p.required_conversation_resolution),
    lockBranch: on(p.lock_branch),
  });
}
