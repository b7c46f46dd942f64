/** The RepositoryActionsVariable provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { repositoryActionsVariableProvider } from "../resources/actions";

export = repositoryActionsVariableProvider;
