/**
 * The environments family's facts of the default fixture (docs/sandbox.md, "Environments"): the
 * environments themselves are the repositories' `environments` (acme-eng/api: production, staging,
 * release/eu); `production` also requires a review by octocat and lets only `main` deploy.
 */
import type { Fixture } from "../../core/fixture";

/** The settings of one fixture environment beyond its name (absent ones: the platform's defaults). */
export interface EnvironmentSeed {
  /** `owner/name` of the repository. */
  repo: string;
  environment: string;
  waitTimer?: number;
  preventSelfReview?: boolean;
  reviewers?: Array<{ type: "User" | "Team"; id: number }>;
  deploymentBranchPolicy?: { protected_branches: boolean; custom_branch_policies: boolean };
  branchPolicies?: Array<{ name: string; type: "branch" | "tag" }>;
}

declare module "../../core/fixture" {
  interface Fixture {
    /**
     * Settings of the fixture's environments. Optional: a fixture written before them (a data
     * file's) has environments with the platform's defaults.
     */
    environmentSettings?: EnvironmentSeed[];
  }
}

/** octocat's user id in the fixture. */
const OCTOCAT = 3;

export function environmentFixture(): Pick<Fixture, "environmentSettings"> {
  return {
    environmentSettings: [
      {
        repo: "acme-eng/api",
        environment: "production",
        reviewers: [{ type: "User", id: OCTOCAT }],
        deploymentBranchPolicy: { protected_branches: false, custom_branch_policies: true },
        branchPolicies: [{ name: "main", type: "branch" }],
      },
    ],
  };
}
