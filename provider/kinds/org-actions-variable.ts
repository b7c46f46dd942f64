/** The OrgActionsVariable provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { orgActionsVariableProvider } from "../resources/actions";

export = orgActionsVariableProvider;
