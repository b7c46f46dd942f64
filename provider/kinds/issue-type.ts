/** The IssueType provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { issueTypeProvider } from "../resources/org-config";

export = issueTypeProvider;
