import { z } from "zod";
import { apiUserSummarySchema } from "./meta";
import { route, STATUS_ONLY } from "./route";

/**
 * The five repository roles as the write routes name them (`permission` of a collaborator's or a
 * team's PUT), weakest first. Custom repository roles are not modelled.
 */
export const REPOSITORY_PERMISSIONS = ["pull", "triage", "push", "maintain", "admin"] as const;
export type RepositoryPermission = (typeof REPOSITORY_PERMISSIONS)[number];

/** `role_name` as reads name the five roles (`write` is `push`, `read` is `pull`). */
const ROLE_NAMES: Readonly<Record<string, RepositoryPermission>> = {
  read: "pull",
  pull: "pull",
  triage: "triage",
  write: "push",
  push: "push",
  maintain: "maintain",
  admin: "admin",
};

/**
 * What reads call each role: `role_name`, and the `permissions` of a repository invitation (and of
 * its PATCH).
 */
export const API_ROLE_NAMES: Readonly<Record<RepositoryPermission, string>> = {
  pull: "read",
  triage: "triage",
  push: "write",
  maintain: "maintain",
  admin: "admin",
};

/** The `permissions` booleans reads carry: each role implies those below it. */
export const apiRepositoryPermissionsSchema = z
  .object({
    pull: z.boolean().optional(),
    triage: z.boolean().optional(),
    push: z.boolean().optional(),
    maintain: z.boolean().optional(),
    admin: z.boolean().optional(),
  })
  .loose();
export type ApiRepositoryPermissions = z.infer<typeof apiRepositoryPermissionsSchema>;

/**
 * The role a read reports, as one of the five names: the strongest role the `permissions` booleans
 * grant (the grant itself: a collaborator's own, a team's on the repository), else `role_name`
 * (`write` is `push`), which some reads give alone. `role_name` is not read first: the platform
 * gives there the strongest role from every source (an owner's `admin`), not the grant asked about.
 * Undefined when neither says (a custom role the booleans do not place).
 */
export function permissionFromApi(
  permissions: ApiRepositoryPermissions | undefined,
  roleName?: string | null,
): RepositoryPermission | undefined {
  if (permissions !== undefined) {
    for (const role of [...REPOSITORY_PERMISSIONS].reverse()) if (permissions[role] === true) return role;
  }
  const key = roleName?.toLowerCase();
  return key !== undefined && Object.hasOwn(ROLE_NAMES, key) ? ROLE_NAMES[key] : undefined;
}

/** The invitation's `permissions` word (`read`, `write`, ...) as one of the five names. */
export function permissionFromInvitation(word: string): RepositoryPermission | undefined {
  return Object.hasOwn(ROLE_NAMES, word) ? ROLE_NAMES[word] : undefined;
}

/** The `permissions` booleans of a role: the role and every role below it. */
export function permissionsOf(role: RepositoryPermission): Record<RepositoryPermission, boolean> {
  const rank = REPOSITORY_PERMISSIONS.indexOf(role);
  return Object.fromEntries(REPOSITORY_PERMISSIONS.map((r, i) => [r, i <= rank])) as Record<
    RepositoryPermission,
    boolean
  >;
}

/** A collaborator of `GET /repos/{owner}/{repo}/collaborators`: a user summary with their role. */
export const apiCollaboratorSchema = apiUserSummarySchema.extend({
  permissions: apiRepositoryPermissionsSchema.optional(),
  role_name: z.string().optional(),
});
export type ApiCollaborator = z.infer<typeof apiCollaboratorSchema>;

/** A repository invitation (`GET /repos/{owner}/{repo}/invitations`, the 201 of a collaborator's PUT). */
export const apiRepositoryInvitationSchema = z
  .object({
    id: z.number().int(),
    invitee: z.object({ login: z.string() }).loose().nullable(),
    permissions: z.string(),
    created_at: z.string().optional(),
  })
  .loose();
export type ApiRepositoryInvitation = z.infer<typeof apiRepositoryInvitationSchema>;

/** `GET /repos/{owner}/{repo}/collaborators/{username}/permission`: the role from every source of grants. */
export const apiCollaboratorPermissionSchema = z
  .object({
    permission: z.string(),
    role_name: z.string(),
    user: z.object({ login: z.string() }).loose().nullable(),
  })
  .loose();

/** A team of `GET /repos/{owner}/{repo}/teams`, with its role on the repository. */
export const apiRepositoryTeamSchema = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    permission: z.string().optional(),
    permissions: apiRepositoryPermissionsSchema.optional(),
  })
  .loose();
export type ApiRepositoryTeam = z.infer<typeof apiRepositoryTeamSchema>;

/** `affiliation` of `GET /repos/{owner}/{repo}/collaborators`. */
export const COLLABORATOR_AFFILIATIONS = ["outside", "direct", "all"] as const;

const C = "/repos/{owner}/{repo}/collaborators";
const I = "/repos/{owner}/{repo}/invitations";

export const collaboratorsRoutes = {
  collaborators: {
    list: route(`GET ${C}`, { list: apiCollaboratorSchema }),
    check: route(`GET ${C}/{username}`, STATUS_ONLY),
    /** 201 with the invitation for someone not yet a collaborator; 204 when they already have access. */
    set: route(`PUT ${C}/{username}`, { body: apiRepositoryInvitationSchema, bodyless: [204] }),
    remove: route(`DELETE ${C}/{username}`, STATUS_ONLY),
    permission: route(`GET ${C}/{username}/permission`, { body: apiCollaboratorPermissionSchema }),
    teams: route("GET /repos/{owner}/{repo}/teams", { list: apiRepositoryTeamSchema }),
  },
  repoInvitations: {
    list: route(`GET ${I}`, { list: apiRepositoryInvitationSchema }),
    update: route(`PATCH ${I}/{invitation_id}`, { body: apiRepositoryInvitationSchema }),
    delete: route(`DELETE ${I}/{invitation_id}`, STATUS_ONLY),
  },
} as const;
