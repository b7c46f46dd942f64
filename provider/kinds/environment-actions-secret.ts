/** The EnvironmentActionsSecret provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { environmentActionsSecretProvider } from "../resources/actions";

export = environmentActionsSecretProvider;
