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
  /** Logins, team slugs and app slugs that may push, as the fixture spells them. */
  restrictions: { users: string[]; teams: string[]; apps: string[] } | null;
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
