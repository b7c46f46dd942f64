/** The RepositoryEnvironment provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { repositoryEnvironmentProvider } from "../resources/environments";

export = repositoryEnvironmentProvider;
