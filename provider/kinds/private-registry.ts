/** The PrivateRegistry provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { privateRegistryProvider } from "../resources/private-registries";

export = privateRegistryProvider;
