/** The OrgRunnerGroup provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { orgRunnerGroupProvider } from "../resources/runner-groups";

export = orgRunnerGroupProvider;
