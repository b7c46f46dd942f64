/** The RepositoryActionsSecret provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { repositoryActionsSecretProvider } from "../resources/actions";

export = repositoryActionsSecretProvider;
