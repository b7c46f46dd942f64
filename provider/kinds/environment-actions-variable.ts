/** The EnvironmentActionsVariable provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { environmentActionsVariableProvider } from "../resources/actions";

export = environmentActionsVariableProvider;
