/**
 * The collaborators family's state: a repository's direct collaborators with their role, and the
 * invitations of people not yet collaborators. Repositories are kept by id, so a rename of the
 * repository or its organisation moves nothing here.
 */
import type { RepoRole } from "../../core/repo-access";
import { rows, type StateOf } from "../../core/state";

export interface StoredCollaborator {
  repoId: number;
  /** The login as the fixture spells it. */
  login: string;
  permission: RepoRole;
}

/** An open invitation to collaborate on a repository: accepted, it becomes a collaborator. */
export interface StoredRepoInvitation {
  id: number;
  repoId: number;
  login: string;
  permission: RepoRole;
  inviter: string;
  createdAt: string;
}

export const collaboratorsState = {
  collaborators: rows<StoredCollaborator>(),
  repoInvitations: rows<StoredRepoInvitation>(undefined, { ids: "nextId" }),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof collaboratorsState> {}
}
