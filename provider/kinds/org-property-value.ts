/** The OrgPropertyValue provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { orgPropertyValueProvider } from "../resources/custom-properties";

export = orgPropertyValueProvider;
