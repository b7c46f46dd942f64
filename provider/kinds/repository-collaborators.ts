/** The RepositoryCollaborators provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { repositoryCollaboratorsProvider } from "../resources/collaborators";

export = repositoryCollaboratorsProvider;
