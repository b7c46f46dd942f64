import { z } from "zod";
import { apiRepositoryPermissionsSchema } from "./collaborators";
import { apiUserSummarySchema } from "./meta";
import { route, STATUS_ONLY } from "./route";

/** `privacy` of a team: `secret` (seen by owners and its members) or `closed` (seen by the organisation). */
export const TEAM_PRIVACIES = ["secret", "closed"] as const;
export type TeamPrivacy = (typeof TEAM_PRIVACIES)[number];
/** `notification_setting` of a team: whether @mentioning it notifies its members. */
export const TEAM_NOTIFICATION_SETTINGS = ["notifications_enabled", "notifications_disabled"] as const;
export type TeamNotificationSetting = (typeof TEAM_NOTIFICATION_SETTINGS)[number];
/** A person's role in a team. */
export const TEAM_ROLES = ["member", "maintainer"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
/** `pending` while the person has not accepted the organisation's invitation, then `active`. */
export const TEAM_MEMBERSHIP_STATES = ["active", "pending"] as const;
export type TeamMembershipState = (typeof TEAM_MEMBERSHIP_STATES)[number];
/** `role` of `GET /orgs/{org}/teams/{team_slug}/members`. */
export const TEAM_MEMBER_ROLE_FILTERS = ["member", "maintainer", "all"] as const;

/**
 * The slug the platform makes of a team's name: lower case, every run of characters other than
 * letters and digits one `-`, none at either end (`"Site Reliability!"` is `site-reliability`).
 * The sandbox names teams with it; the provider uses it to look for a team of that name.
 */
export function teamSlugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * A team as the platform shows one (`team-full` for one team, `team` in lists): only the fields
 * the provider reads are required, the rest passes through.
 */
export const apiTeamSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable().optional(),
    privacy: z.string().optional(),
    notification_setting: z.string().optional(),
    parent: z.object({ id: z.number().int(), slug: z.string() }).loose().nullable().optional(),
    members_count: z.number().int().optional(),
    repos_count: z.number().int().optional(),
    created_at: z.string().optional(),
  })
  .loose();
export type ApiTeam = z.infer<typeof apiTeamSchema>;

/** `GET|PUT /orgs/{org}/teams/{team_slug}/memberships/{username}`. */
export const apiTeamMembershipSchema = z.object({ role: z.string(), state: z.string() }).loose();
export type ApiTeamMembership = z.infer<typeof apiTeamMembershipSchema>;

/**
 * A member of `GET /orgs/{org}/teams/{team_slug}/members`: a user summary with their role and
 * whether they are a member only through a child team (`inherited`); the description gives both
 * as optional (present where the organisation has the feature).
 */
export const apiTeamMemberSchema = apiUserSummarySchema.extend({
  role: z.string().optional(),
  inherited: z.boolean().optional(),
});
export type ApiTeamMember = z.infer<typeof apiTeamMemberSchema>;

/** A repository of `GET /orgs/{org}/teams/{team_slug}/repos`, with the team's role on it. */
export const apiTeamRepositorySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    owner: z.object({ login: z.string() }).loose(),
    permissions: apiRepositoryPermissionsSchema.optional(),
    role_name: z.string().optional(),
  })
  .loose();
export type ApiTeamRepository = z.infer<typeof apiTeamRepositorySchema>;

const T = "/orgs/{org}/teams";
const ONE = `${T}/{team_slug}`;

export const teamsRoutes = {
  teams: {
    list: route(`GET ${T}`, { list: apiTeamSchema }),
    create: route(`POST ${T}`, { body: apiTeamSchema }),
    get: route(`GET ${ONE}`, { body: apiTeamSchema }),
    update: route(`PATCH ${ONE}`, { body: apiTeamSchema }),
    delete: route(`DELETE ${ONE}`, STATUS_ONLY),
    children: route(`GET ${ONE}/teams`, { list: apiTeamSchema }),
  },
  teamMembers: {
    list: route(`GET ${ONE}/members`, { list: apiTeamMemberSchema }),
    get: route(`GET ${ONE}/memberships/{username}`, { body: apiTeamMembershipSchema }),
    set: route(`PUT ${ONE}/memberships/{username}`, { body: apiTeamMembershipSchema }),
    remove: route(`DELETE ${ONE}/memberships/{username}`, STATUS_ONLY),
  },
  teamRepos: {
    list: route(`GET ${ONE}/repos`, { list: apiTeamRepositorySchema }),
    /** 204 when the team has access (200 with the repository only under the repository media type). */
    check: route(`GET ${ONE}/repos/{owner}/{repo}`, STATUS_ONLY),
    set: route(`PUT ${ONE}/repos/{owner}/{repo}`, STATUS_ONLY),
    remove: route(`DELETE ${ONE}/repos/{owner}/{repo}`, STATUS_ONLY),
  },
} as const;
