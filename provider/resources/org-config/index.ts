/** An organisation's configuration: IssueType, IssueField, OrgBlock and OrgSettings. */
export * from "./issue-field";
export * from "./issue-type";
export * from "./org-block";
export * from "./org-settings";
