/** An organisation's issue configuration: IssueType and IssueField. */
export * from "./issue-field";
export * from "./issue-type";
export * from "./org-block";
