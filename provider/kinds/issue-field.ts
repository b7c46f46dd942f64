/** The IssueField provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { issueFieldProvider } from "../resources/org-config";

export = issueFieldProvider;
