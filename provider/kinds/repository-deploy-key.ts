/** The RepositoryDeployKey provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { repositoryDeployKeyProvider } from "../resources/repositories";

export = repositoryDeployKeyProvider;
