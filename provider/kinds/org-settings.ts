/** The OrgSettings provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { orgSettingsProvider } from "../resources/org-config";

export = orgSettingsProvider;
