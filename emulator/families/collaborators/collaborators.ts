/**
 * The rules of collaborators, shared by the API routes, the controls and the role source: adding a
 * person (a member of the organisation becomes a collaborator at once; anyone else is invited, and
 * becomes one when they accept), their role as the platform shows it, and the invitation's life.
 */
import type { Context } from "hono";
import { API_ROLE_NAMES, permissionsOf, REPOSITORY_PERMISSIONS } from "../../../api";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord, UserRecord } from "../../core/fixture";
import { apiRoot, invalidField } from "../../core/http";
import { activeMember } from "../../core/members";
import { nodeId, userSummary } from "../../core/render";
import type { RepoRole } from "../../core/repo-access";
import type { StateAccess } from "../../core/state";
import { type EmulatorState, type Store, timestamp } from "../../core/store";
import { repoSummary } from "../git/repository";
import type { StoredCollaborator, StoredRepoInvitation } from "./state";

export function directCollaborator(
  state: EmulatorState,
  repo: RepoRecord,
  login: string,
): StoredCollaborator | undefined {
  const key = login.toLowerCase();
  return state.collaborators.find((c) => c.repoId === repo.id && c.login.toLowerCase() === key);
}

export function invitationFor(
  state: EmulatorState,
  repo: RepoRecord,
  login: string,
): StoredRepoInvitation | undefined {
  const key = login.toLowerCase();
  return state.repoInvitations.find((i) => i.repoId === repo.id && i.login.toLowerCase() === key);
}

/** The role source of the family: a direct collaborator's role. */
export function collaboratorRole(
  state: EmulatorState,
  repo: RepoRecord,
  login: string,
): RepoRole | undefined {
  if (state.collaborators === undefined) return undefined;
  return directCollaborator(state, repo, login)?.permission;
}

/** `permission` of a collaborator's PUT: one of the five roles, `push` when omitted. */
export function parsePermission(value: unknown): RepoRole {
  if (value === undefined) return "push";
  if (typeof value !== "string" || !(REPOSITORY_PERMISSIONS as readonly string[]).includes(value)) {
    throw invalidField(
      "Collaborator",
      "permission",
      `permission must be one of ${REPOSITORY_PERMISSIONS.join(", ")}`,
    );
  }
  return value as RepoRole;
}

/** `permissions` of an invitation's PATCH, in the invitation's words (`read`, `write`, ...). */
export function parseInvitationPermission(value: unknown): RepoRole {
  const byWord = new Map(Object.entries(API_ROLE_NAMES).map(([role, word]) => [word, role as RepoRole]));
  const role = typeof value === "string" ? byWord.get(value) : undefined;
  if (!role) {
    throw invalidField(
      "RepositoryInvitation",
      "permissions",
      `permissions must be one of ${[...byWord.keys()].join(", ")}`,
    );
  }
  return role;
}

/**
 * Adds `user` to the repository with `permission`, or changes their role: a direct collaborator
 * or a member of the organisation is given the role at once (`undefined`: the platform's 204); an
 * open invitation is changed, and anyone else is invited (the invitation: the platform's 201).
 */
export function addCollaborator(
  store: Store,
  org: OrgRecord,
  repo: RepoRecord,
  user: UserRecord,
  permission: RepoRole,
  inviter: string,
): StoredRepoInvitation | undefined {
  const state = store.state;
  const existing = directCollaborator(state, repo, user.login);
  if (existing) {
    existing.permission = permission;
    return undefined;
  }
  if (activeMember(org, user.login)) {
    state.collaborators.push({ repoId: repo.id, login: user.login, permission });
    return undefined;
  }
  const open = invitationFor(state, repo, user.login);
  if (open) {
    open.permission = permission;
    return open;
  }
  const invitation: StoredRepoInvitation = {
    id: store.nextId(),
    repoId: repo.id,
    login: user.login,
    permission,
    inviter,
    createdAt: timestamp(),
  };
  state.repoInvitations.push(invitation);
  return invitation;
}

/** The invitee accepts: the invitation becomes a direct collaborator with its role. */
export function acceptInvitation(state: EmulatorState, invitation: StoredRepoInvitation): StoredCollaborator {
  state.repoInvitations = state.repoInvitations.filter((i) => i.id !== invitation.id);
  const collaborator = {
    repoId: invitation.repoId,
    login: invitation.login,
    permission: invitation.permission,
  };
  state.collaborators.push(collaborator);
  return collaborator;
}

export function dropInvitation(state: EmulatorState, invitation: StoredRepoInvitation): void {
  state.repoInvitations = state.repoInvitations.filter((i) => i.id !== invitation.id);
}

/**
 * A collaborator of the list: the user, `permissions` of the grant asked about (their own for the
 * direct list, every source's for the full one; all false for no role) and `role_name`, their
 * strongest role from every source (`none` for no role).
 */
/** A repository was deleted: its collaborators and open invitations go with it. */
export function dropRepositoryCollaborators(store: StateAccess, repo: RepoRecord): void {
  const other = (row: { repoId: number }) => row.repoId !== repo.id;
  if (!store.state.collaborators.every(other))
    store.state.collaborators = store.state.collaborators.filter(other);
  if (!store.state.repoInvitations.every(other)) {
    store.state.repoInvitations = store.state.repoInvitations.filter(other);
  }
}

export function collaboratorObject(
  c: Context<ServerEnv>,
  user: UserRecord,
  listed: RepoRole | undefined,
  strongest: RepoRole | undefined,
): Record<string, unknown> {
  const permissions =
    listed === undefined
      ? Object.fromEntries(REPOSITORY_PERMISSIONS.map((r) => [r, false]))
      : permissionsOf(listed);
  return {
    ...userSummary(c, user),
    permissions,
    role_name: strongest === undefined ? "none" : API_ROLE_NAMES[strongest],
  };
}

export function invitationObject(
  c: Context<ServerEnv>,
  invitation: StoredRepoInvitation,
  repo: RepoRecord,
  org: OrgRecord,
): Record<string, unknown> {
  const state = c.get("store").state;
  const invitee = state.fixture.users.find((u) => u.login === invitation.login);
  const inviter = state.fixture.users.find((u) => u.login === invitation.inviter);
  return {
    id: invitation.id,
    node_id: nodeId("RepositoryInvitation", invitation.id),
    repository: repoSummary(c, repo, org),
    invitee: invitee ? userSummary(c, invitee) : null,
    inviter: inviter ? userSummary(c, inviter) : null,
    permissions: API_ROLE_NAMES[invitation.permission],
    created_at: invitation.createdAt,
    expired: false,
    url: `${apiRoot(c)}/user/repository_invitations/${invitation.id}`,
    html_url: `${new URL(c.req.url).origin}/${repo.owner}/${repo.name}/invitations`,
  };
}
