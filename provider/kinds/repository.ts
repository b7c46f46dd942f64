/** The Repository provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { repositoryProvider } from "../resources/repositories";

export = repositoryProvider;
