/** The DeploymentProtectionRule provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { deploymentProtectionRuleProvider } from "../resources/environments";

export = deploymentProtectionRuleProvider;
