/** The branch protection family's state: one protection per protected branch. */
import { rows, type StateOf } from "../../core/state";

/** A branch's protection as the PUT set it; `null` parts are off. */
export interface StoredProtection {
  /** `owner/repo` (lower case) of the repository. */
  repo: string;
  /** The branch's name as the repository spells it. */
  branch: string;
  requiredStatusChecks: { strict: boolean; contexts: string[] } | null;
  enforceAdmins: boolean;
  requiredPullRequestReviews: {
    dismissStaleReviews: boolean;
    requireCodeOwnerReviews: boolean;
    requiredApprovingReviewCount: number;
    requireLastPushApproval: boolean;
  } | null;
  /**
   * Who may push: logins and app slugs as the fixture spells them, and teams by id (the teams
   * family's), so a renamed team keeps its access and a deleted one is no longer listed.
   */
  restrictions: { users: string[]; teamIds: number[]; apps: string[] } | null;
  requiredLinearHistory: boolean;
  allowForcePushes: boolean;
  allowDeletions: boolean;
  blockCreations: boolean;
  requiredConversationResolution: boolean;
  lockBranch: boolean;
  allowForkSyncing: boolean;
}

export const branchProtectionState = {
  branchProtections: rows<StoredProtection>(),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof branchProtectionState> {}
}
