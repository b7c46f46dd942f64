/** The RepositoryCollaborator provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { repositoryCollaboratorProvider } from "../resources/collaborators";

export = repositoryCollaboratorProvider;
