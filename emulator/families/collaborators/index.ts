/**
 * Collaborators: a repository's direct collaborators, its invitations and the teams with access to
 * it, which the server enforces (docs/sandbox.md, "Collaborators").
 */
import type { Family } from "../../core/family";
import { collaboratorRole, dropRepositoryCollaborators } from "./collaborators";
import { collaboratorControls } from "./controls";
import { collaboratorRoutes } from "./routes";
import { collaboratorsState } from "./state";

export const collaborators = {
  name: "collaborators",
  state: collaboratorsState,
  routes: collaboratorRoutes,
  controls: collaboratorControls,
  repoRoles: collaboratorRole,
  onRepositoryDeleted: dropRepositoryCollaborators,
  // Collaborators and invitations keep their repository by id: a rename moves nothing here.
} satisfies Family;
