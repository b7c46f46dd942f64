/** The Organization provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { organizationProvider } from "../resources/organizations";

export = organizationProvider;
