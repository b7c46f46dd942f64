import { z } from "zod";
import { route } from "./route";

// ---------------------------------------------------------------------------------------------
// What the functions (`provider/functions/`) read. Only the fields they return are required; the
// rest of each object passes through (`loose`).

/** A user as lists show one (`login`, `id`, ...). */
export const apiUserSummarySchema = z.object({ login: z.string(), id: z.number() }).loose();

/** `GET /user`: who the token is, as far as error messages need it. */
export const apiSignedInUserSchema = z
  .object({ login: z.string().optional(), site_admin: z.boolean().optional() })
  .loose();

/** A repository as lists show one (`GET /orgs/{org}/repos`, a runner group's repositories). */
export const apiRepositorySummarySchema = z
  .object({ id: z.number().int(), name: z.string(), owner: z.object({ login: z.string() }).loose() })
  .loose();

/** `GET /orgs/{org}` (and the 201 of `POST /admin/organizations`): the organisation summary. */
export const apiOrganizationSchema = z
  .object({ login: z.string(), id: z.number().int(), name: z.string().nullable().optional() })
  .loose();
export type ApiOrganization = z.infer<typeof apiOrganizationSchema>;

export const metaRoutes = {
  meta: {
    user: route("GET /user", { body: apiSignedInUserSchema }),
    org: route("GET /orgs/{org}", { body: apiOrganizationSchema }),
    orgRepos: route("GET /orgs/{org}/repos", { list: apiRepositorySummarySchema }),
    repo: route("GET /repos/{owner}/{repo}"),
  },
} as const;
