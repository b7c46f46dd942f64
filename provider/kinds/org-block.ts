/** The OrgBlock provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { orgBlockProvider } from "../resources/org-config";

export = orgBlockProvider;
