/**
 * RepositoryCollaborator: one person's direct role on a repository
 * (`PUT /repos/{owner}/{repo}/collaborators/{username}`). A member of the organisation gets the
 * role at once; anyone else is invited, and `invitationId` says so until they accept (then the
 * output goes away and nothing else changes: no diff). A role changed outside Pulumi is drift, as
 * is an invitation's; an invitation declined or cancelled, or a collaborator removed, drops the
 * resource at refresh, and the next `up` invites them again.
 *
 * The role is read from the repository's direct collaborators (the `permissions` booleans of the
 * person's own grant, not `role_name`, which is their strongest role from every source: an owner's
 * is always `admin`), or from the open invitations; one list each per repository and run.
 */
import { z } from "zod";
import {
  API_ROLE_NAMES,
  type ApiCollaborator,
  type ApiRepositoryInvitation,
  collaboratorsRoutes,
  permissionFromApi,
  permissionFromInvitation,
} from "../../../api/collaborators";
import { isNotFound, notFoundError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { collectionReads } from "../../internal/collection-reads";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, field, type OutputsOfKind, output } from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import { permissionField, type RepositoryPermission, roleOf } from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

export const repositoryCollaboratorKind = declareKind({
  kind: "RepositoryCollaborator",
  description:
    "A person's direct role on a repository (`PUT /repos/{owner}/{repo}/collaborators/{username}`). A member of the organisation gets it at once; anyone else is invited, and `invitationId` is set until they accept. A role changed outside Pulumi is drift. Needs an admin of the repository: classic scope `repo`, or the fine-grained permission `administration` write.",
  idFormat: ["owner", "repository", "username"],
  inputs: z.object({
    owner: field(fields.name("owner"), {
      description: "The organisation (or user) owning the repository. A change replaces the resource.",
      replace: true,
    }),
    repository: field(fields.name("repository"), {
      description: "The repository's name. A change replaces the resource.",
      replace: true,
    }),
    username: field(fields.name("username"), {
      description: "The person's login. A change replaces the resource.",
      replace: true,
    }),
    permission: permissionField("push", "collaborator"),
  }),
  outputs: z.object({
    invitationId: output(
      z.number().int().optional(),
      "The open invitation's id while the person has not accepted it; absent once they are a collaborator.",
    ),
  }),
  // hosting-import adopts a repository's collaborators with RepositoryCollaborators (the whole list).
});

export type RepositoryCollaboratorArgs = ArgsOf<typeof repositoryCollaboratorKind.inputs>;
export type RepositoryCollaboratorInputs = z.infer<typeof repositoryCollaboratorKind.inputs>;
export type RepositoryCollaboratorOutputs = OutputsOfKind<typeof repositoryCollaboratorKind>;

// ---------------------------------------------------------------------------------------------
// The repository's access, as reads share it
// ---------------------------------------------------------------------------------------------

const KIND = repositoryCollaboratorKind.kind;

interface Where {
  owner: string;
  repository: string;
}

const at = (w: Where) => ({ owner: w.owner, repo: w.repository });
const collaboratorsPath = (w: Where) =>
  `${collaboratorsRoutes.collaborators.list.path(at(w))}?affiliation=direct`;
const invitationsPath = (w: Where) => collaboratorsRoutes.repoInvitations.list.path(at(w));

/** The repository's direct collaborators, every page. */
export const directCollaborators = (c: HostingClient, w: Where) =>
  c.paginate(collaboratorsRoutes.collaborators.list, at(w), { query: { affiliation: "direct" } });

/** The repository's open invitations, every page. */
export const openInvitations = (c: HostingClient, w: Where) =>
  c.paginate(collaboratorsRoutes.repoInvitations.list, at(w));

/** What a person has on the repository: a role as a collaborator, or an open invitation with one. */
export type Access =
  | { kind: "collaborator"; permission: RepositoryPermission }
  | { kind: "invited"; permission: RepositoryPermission; invitationId: number }
  | undefined;

export function collaboratorRole(kind: string, found: ApiCollaborator): RepositoryPermission {
  return roleOf(kind, permissionFromApi(found.permissions, found.role_name), found);
}

export function invitationRole(kind: string, found: ApiRepositoryInvitation): RepositoryPermission {
  return roleOf(kind, permissionFromInvitation(found.permissions), { role_name: found.permissions });
}

/** The person's access, from the lists shared by every collaborator of the repository read in a run. */
async function accessOf(c: HostingClient, w: Where, username: string): Promise<Access> {
  const key = username.toLowerCase();
  const collaborator = await readOrGone(() =>
    collectionReads.find(c, {
      collection: collaboratorsPath(w),
      key,
      keyOf: (u: ApiCollaborator) => u.login.toLowerCase(),
      list: () => directCollaborators(c, w),
    }),
  );
  if (collaborator) return { kind: "collaborator", permission: collaboratorRole(KIND, collaborator) };
  const invitation = await readOrGone(() =>
    collectionReads.find(c, {
      collection: invitationsPath(w),
      key,
      keyOf: (i: ApiRepositoryInvitation) => i.invitee?.login.toLowerCase() ?? "",
      list: () => openInvitations(c, w),
    }),
  );
  if (invitation) {
    return { kind: "invited", permission: invitationRole(KIND, invitation), invitationId: invitation.id };
  }
  return undefined;
}

/** Runs a write to the repository's access: no list read before it answers a read after it. */
export function writingAccess<R>(c: HostingClient, w: Where, run: () => Promise<R>): Promise<R> {
  return collectionReads.write(c, collaboratorsPath(w), () =>
    collectionReads.write(c, invitationsPath(w), run),
  );
}

/** A 404 from a collaborator route: what the user should check. */
export function repositoryNotFound(e: unknown, method: string, path: string, what: string): unknown {
  if (!isNotFound(e)) return e;
  return notFoundError({
    method,
    path,
    what,
    causes: [
      "there is no such repository, or no such user",
      "the token's user is not an admin of the repository (its settings are hidden from others)",
      "the token lacks the classic scope repo, or the fine-grained permission administration",
    ],
  });
}

/**
 * Gives `username` the role: PATCH of the open invitation while there is one (it is the person's
 * pending access), else PUT (a role at once, or a new invitation). Returns the access it left.
 */
export async function grant(
  c: HostingClient,
  w: Where,
  username: string,
  permission: RepositoryPermission,
  current: Access,
): Promise<NonNullable<Access>> {
  if (current?.kind === "invited") {
    const route = collaboratorsRoutes.repoInvitations.update;
    const params = { ...at(w), invitation_id: current.invitationId };
    await writingAccess(c, w, () =>
      c.patch(route, params, { permissions: API_ROLE_NAMES[permission] }),
    ).catch((e: unknown) => {
      throw repositoryNotFound(
        e,
        "PATCH",
        route.path(params),
        `${KIND} ${w.owner}/${w.repository}/${username}`,
      );
    });
    return { ...current, permission };
  }
  const route = collaboratorsRoutes.collaborators.set;
  const params = { ...at(w), username };
  const answer = await writingAccess(c, w, () => c.put(route, params, { permission })).catch((e: unknown) => {
    throw repositoryNotFound(e, "PUT", route.path(params), `${KIND} ${w.owner}/${w.repository}/${username}`);
  });
  // 201: an invitation; 204: the role, at once.
  return answer.data
    ? { kind: "invited", permission, invitationId: answer.data.id }
    : { kind: "collaborator", permission };
}

/** Takes the access away: cancels the open invitation, or removes the collaborator. */
export async function revoke(c: HostingClient, w: Where, username: string, current: Access): Promise<void> {
  if (current === undefined) return;
  await deleteIgnoringGone(() =>
    writingAccess(c, w, () =>
      current.kind === "invited"
        ? c.delete(collaboratorsRoutes.repoInvitations.delete, {
            ...at(w),
            invitation_id: current.invitationId,
          })
        : c.delete(collaboratorsRoutes.collaborators.remove, { ...at(w), username }),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

function outputsOf(
  who: Omit<RepositoryCollaboratorInputs, "permission">,
  access: NonNullable<Access>,
): RepositoryCollaboratorOutputs {
  return compact({
    owner: who.owner,
    repository: who.repository,
    username: who.username,
    permission: access.permission,
    invitationId: access.kind === "invited" ? access.invitationId : undefined,
  });
}

export const repositoryCollaboratorProvider = defineProvider<
  typeof repositoryCollaboratorKind.inputs,
  RepositoryCollaboratorOutputs
>(repositoryCollaboratorKind, {
  comparable: lowerCased<RepositoryCollaboratorInputs>("owner", "repository", "username"),

  async create(inputs) {
    const c = client();
    const id = repositoryCollaboratorKind.formatId(inputs);
    // Adoption changes nothing it need not: the role (or an invitation with it) already there is taken.
    const current = await accessOf(c, inputs, inputs.username);
    if (current?.permission === inputs.permission) return { id, outs: outputsOf(inputs, current) };
    const access = await grant(c, inputs, inputs.username, inputs.permission, current);
    return { id, outs: outputsOf(inputs, access) };
  },

  async read(id, props) {
    const { owner, repository, username } = repositoryCollaboratorKind.parseId(id);
    const access = await accessOf(client(), { owner, repository }, username);
    if (!access) return {};
    const who = {
      owner: props?.owner ?? owner,
      repository: props?.repository ?? repository,
      username: props?.username ?? username,
    };
    return { id, props: outputsOf(who, access) };
  },

  async update(_id, _olds, news) {
    const c = client();
    // The access as it is now: an invitation accepted since the last refresh is a collaborator.
    const current = await accessOf(c, news, news.username);
    const access = await grant(c, news, news.username, news.permission, current);
    return { outs: outputsOf(news, access) };
  },

  async delete(id) {
    const { owner, repository, username } = repositoryCollaboratorKind.parseId(id);
    const c = client();
    const where = { owner, repository };
    await revoke(c, where, username, await readOrGone(() => accessOf(c, where, username)));
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** A person's direct role on a repository: see its declaration, `repositoryCollaboratorKind`. Example: `examples/collaborators/`. */
export class RepositoryCollaborator extends resourceClass<
  RepositoryCollaboratorArgs,
  RepositoryCollaboratorOutputs
>(repositoryCollaboratorProvider) {}
