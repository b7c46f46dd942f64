/** Branch protection: BranchProtection. */
export * from "./branch-protection";
