/**
 * Organisation roles (the published description's `orgs/list-org-roles`, `get-org-role`,
 * `assign-team-to-org-role`, `assign-user-to-org-role`, their revokes and the lists of a role's
 * teams and users). Every organisation has the platform's predefined roles; assigning one is a
 * PUT that answers 204, and a role's assignees are listed per role.
 */
import { z } from "zod";
import { route, STATUS_ONLY } from "./route";

/** What a role builds on: the repository permission it grants on every repository. */
export const ORG_ROLE_BASES = ["read", "triage", "write", "maintain", "admin"] as const;

/** A role as the API answers it (`organization-role`). */
export const apiOrgRoleSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable().optional(),
    base_role: z.enum(ORG_ROLE_BASES).nullable().optional(),
    source: z.enum(["Organization", "Enterprise", "Predefined"]).nullable().optional(),
    permissions: z.array(z.string()),
  })
  .loose();
export type ApiOrgRole = z.infer<typeof apiOrgRoleSchema>;

/** A team that holds a role (`team-role-assignment`), of which the provider reads the slug. */
export const apiRoleTeamSchema = z.object({ slug: z.string() }).loose();
/** A user who holds a role (`user-role-assignment`), of which the provider reads the login. */
export const apiRoleUserSchema = z.object({ login: z.string() }).loose();

const ROLES = "/orgs/{org}/organization-roles";

export const orgRolesRoutes = {
  orgRoles: {
    list: route(`GET ${ROLES}`, {
      body: z.object({ total_count: z.number().int(), roles: z.array(apiOrgRoleSchema) }).loose(),
    }),
    get: route(`GET ${ROLES}/{role_id}`, { body: apiOrgRoleSchema }),
    teams: route(`GET ${ROLES}/{role_id}/teams`, { list: apiRoleTeamSchema }),
    users: route(`GET ${ROLES}/{role_id}/users`, { list: apiRoleUserSchema }),
    assignTeam: route(`PUT ${ROLES}/teams/{team_slug}/{role_id}`, STATUS_ONLY),
    revokeTeam: route(`DELETE ${ROLES}/teams/{team_slug}/{role_id}`, STATUS_ONLY),
    assignUser: route(`PUT ${ROLES}/users/{username}/{role_id}`, STATUS_ONLY),
    revokeUser: route(`DELETE ${ROLES}/users/{username}/{role_id}`, STATUS_ONLY),
  },
} as const;
