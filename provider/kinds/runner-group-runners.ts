/** The RunnerGroupRunners provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { runnerGroupRunnersProvider } from "../resources/runner-groups";

export = runnerGroupRunnersProvider;
