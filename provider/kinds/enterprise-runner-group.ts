/** The EnterpriseRunnerGroup provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { enterpriseRunnerGroupProvider } from "../resources/runner-groups";

export = enterpriseRunnerGroupProvider;
