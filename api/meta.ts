import { z } from "zod";
import { route } from "./route";

// ---------------------------------------------------------------------------------------------
// What the functions (`provider/functions/`) read. Only the fields they return are required; the
// rest of each object passes through (`loose`).

/** A user as lists show one (`login`, `id`, ...). */
export const apiUserSummarySchema = z.object({ login: z.string(), id: z.number() }).loose();

/** `GET /users/{username}`: an account as the public sees it. */
export const apiAccountSchema = z
  .object({
    login: z.string(),
    id: z.number().int(),
    node_id: z.string(),
    type: z.string(),
    site_admin: z.boolean(),
    name: z.string().nullable().optional(),
  })
  .loose();
export type ApiAccount = z.infer<typeof apiAccountSchema>;

/** `GET /user`: who the token is, as far as error messages need it. */
export const apiSignedInUserSchema = z
  .object({ login: z.string().optional(), site_admin: z.boolean().optional() })
  .loose();

/** A repository as lists show one (`GET /orgs/{org}/repos`, a runner group's repositories). */
export const apiRepositorySummarySchema = z
  .object({ id: z.number().int(), name: z.string(), owner: z.object({ login: z.string() }).loose() })
  .loose();

/** The values of `default_repository_permission`: what members may do in the organisation's repositories. */
export const DEFAULT_REPOSITORY_PERMISSIONS = ["read", "write", "admin", "none"] as const;
export type DefaultRepositoryPermission = (typeof DEFAULT_REPOSITORY_PERMISSIONS)[number];

/**
 * `GET /orgs/{org}` (and the 201 of `POST /admin/organizations`, the 200 of `PATCH /orgs/{org}`):
 * the organisation. Its profile and member policies are shown to its owners only (an owner's token
 * with `admin:org`), so each may be absent.
 */
export const apiOrganizationSchema = z
  .object({
    login: z.string(),
    id: z.number().int(),
    name: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
    billing_email: z.string().nullable().optional(),
    company: z.string().nullable().optional(),
    email: z.string().nullable().optional(),
    location: z.string().nullable().optional(),
    blog: z.string().nullable().optional(),
    default_repository_permission: z.string().nullable().optional(),
    members_can_create_repositories: z.boolean().nullable().optional(),
    members_can_create_public_repositories: z.boolean().optional(),
    members_can_create_private_repositories: z.boolean().optional(),
    members_can_create_internal_repositories: z.boolean().optional(),
    members_can_fork_private_repositories: z.boolean().nullable().optional(),
    web_commit_signoff_required: z.boolean().optional(),
  })
  .loose();
export type ApiOrganization = z.infer<typeof apiOrganizationSchema>;

export const metaRoutes = {
  meta: {
    user: route("GET /user", { body: apiSignedInUserSchema }),
    org: route("GET /orgs/{org}", { body: apiOrganizationSchema }),
    /** A user, or an organisation as an account (`type` says which): public, any token or none. */
    account: route("GET /users/{username}", { body: apiAccountSchema }),
  },
} as const;
