/**
 * Who may use a repository: people given a role one by one (a person outside the organisation is
 * invited, and `invitationId` says so until they accept), or the whole list of a repository's
 * direct collaborators and teams, where anyone added by hand is removed by the next `up`. Used by
 * this example's program and by the root demo.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

export interface CollaboratorSettings {
  owner: string;
  repository: string;
  /** People and their role on the repository, by login. */
  collaborators: Record<string, hosting.RepositoryPermission>;
}

/**
 * One RepositoryCollaborator per person. Returns each person's open invitation id (undefined once
 * they accepted: a refresh records it, and it is never drift).
 */
export function declareCollaborators(
  settings: CollaboratorSettings,
): Record<string, pulumi.Output<number | undefined>> {
  const invitations: Record<string, pulumi.Output<number | undefined>> = {};
  for (const [username, permission] of Object.entries(settings.collaborators)) {
    const collaborator = new hosting.RepositoryCollaborator(
      `${settings.owner}-${settings.repository}-${username}`,
      { owner: settings.owner, repository: settings.repository, username, permission },
    );
    invitations[username] = collaborator.invitationId;
  }
  return invitations;
}

export interface AccessSettings {
  owner: string;
  repository: string;
  users: hosting.RepositoryCollaboratorUserArgs[];
  teams: hosting.RepositoryCollaboratorTeamArgs[];
}

/** The repository's whole list of direct access: people and teams, nothing else. */
export function declareRepositoryAccess(settings: AccessSettings): hosting.RepositoryCollaborators {
  return new hosting.RepositoryCollaborators(`${settings.owner}-${settings.repository}-access`, {
    owner: settings.owner,
    repository: settings.repository,
    users: settings.users,
    teams: settings.teams,
  });
}
