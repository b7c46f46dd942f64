/**
 * Branch protection (`/repos/{owner}/{repo}/branches/{branch}/protection`, the published
 * description's `repos/update-branch-protection`, `get-branch-protection`, `delete-branch-protection`).
 * The write and the read have different shapes: the PUT takes four required keys that may be null
 * (`required_status_checks`, `enforce_admins`, `required_pull_request_reviews`, `restrictions`) and
 * flags as booleans; the GET answers objects with URLs (`enforce_admins: {url, enabled}`), flags as
 * `{enabled}`, people and teams as whole objects, and leaves out what is off.
 */
import { z } from "zod";
import { route, STATUS_ONLY, slashed } from "./route";

/** At most this many approving reviews may be required (the description's 0-6). */
export const MAX_REQUIRED_APPROVALS = 6;
/** Users, teams and apps of `restrictions` together: at most 100 (the description's note). */
export const MAX_RESTRICTION_ACTORS = 100;

/** The body of the PUT: the whole protection, `null` for each of the four parts that is off. */
export interface ApiBranchProtectionWrite {
  required_status_checks: { strict: boolean; contexts: string[] } | null;
  enforce_admins: boolean | null;
  required_pull_request_reviews: {
    dismiss_stale_reviews: boolean;
    require_code_owner_reviews: boolean;
    required_approving_review_count: number;
    require_last_push_approval: boolean;
  } | null;
  restrictions: { users: string[]; teams: string[]; apps: string[] } | null;
  required_linear_history: boolean;
  allow_force_pushes: boolean;
  allow_deletions: boolean;
  required_conversation_resolution: boolean;
  lock_branch: boolean;
}

const flag = z.object({ enabled: z.boolean().optional() }).loose();

/** The GET's answer (and the PUT's): what is on, each part with its URL. */
export const apiBranchProtectionSchema = z
  .object({
    url: z.string().optional(),
    required_status_checks: z
      .object({ strict: z.boolean().optional(), contexts: z.array(z.string()) })
      .loose()
      .optional(),
    enforce_admins: flag.optional(),
    required_pull_request_reviews: z
      .object({
        dismiss_stale_reviews: z.boolean().optional(),
        require_code_owner_reviews: z.boolean().optional(),
        required_approving_review_count: z.number().int().optional(),
        require_last_push_approval: z.boolean().optional(),
      })
      .loose()
      .optional(),
    restrictions: z
      .object({
        users: z.array(z.object({ login: z.string() }).loose()),
        teams: z.array(z.object({ slug: z.string() }).loose()),
        apps: z.array(z.object({ slug: z.string() }).loose()),
      })
      .loose()
      .optional(),
    required_linear_history: flag.optional(),
    allow_force_pushes: flag.optional(),
    allow_deletions: flag.optional(),
    required_conversation_resolution: flag.optional(),
    lock_branch: flag.optional(),
  })
  .loose();
export type ApiBranchProtection = z.infer<typeof apiBranchProtectionSchema>;

const PROTECTION = "/repos/{owner}/{repo}/branches/{branch}/protection";

export const branchProtectionRoutes = {
  branchProtection: {
    get: slashed(route(`GET ${PROTECTION}`, { body: apiBranchProtectionSchema }), "branch"),
    set: slashed(route(`PUT ${PROTECTION}`, { body: apiBranchProtectionSchema }), "branch"),
    delete: slashed(route(`DELETE ${PROTECTION}`, STATUS_ONLY), "branch"),
  },
} as const;
