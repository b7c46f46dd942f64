/** The RepositoryPropertyValue provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { repositoryPropertyValueProvider } from "../resources/custom-properties";

export = repositoryPropertyValueProvider;
