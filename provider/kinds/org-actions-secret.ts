/** The OrgActionsSecret provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { orgActionsSecretProvider } from "../resources/actions";

export = orgActionsSecretProvider;
