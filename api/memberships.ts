import { z } from "zod";
import { apiUserSummarySchema } from "./meta";
import { route, STATUS_ONLY } from "./route";

/** Roles of an organisation membership (spec, Organization membership). */
export const ORG_MEMBERSHIP_ROLES = ["member", "admin"] as const;
export type OrgMembershipRole = (typeof ORG_MEMBERSHIP_ROLES)[number];
/** `pending` until the user accepts the invitation, then `active`. */
export const ORG_MEMBERSHIP_STATES = ["pending", "active"] as const;
/** `filter` of `GET /orgs/{org}/members`; the two 2fa filters are for owners only. */
export const ORG_MEMBER_FILTERS = ["all", "2fa_disabled", "2fa_insecure"] as const;
/** `role` of `GET /orgs/{org}/members`. */
export const ORG_MEMBER_ROLE_FILTERS = ["all", "admin", "member"] as const;

export const apiOrgMembershipSchema = z.object({
  url: z.string().optional(),
  state: z.string(),
  role: z.string(),
  organization_url: z.string().optional(),
  organization: z.object({ login: z.string() }).loose().optional(),
  user: z.object({ login: z.string() }).loose().optional(),
});
export type ApiOrgMembership = z.infer<typeof apiOrgMembershipSchema>;

/** A member of `GET /orgs/{org}/members`: a user summary, with the account type and site-admin flag. */
export const apiOrgMemberSchema = apiUserSummarySchema.extend({
  type: z.string().optional(),
  site_admin: z.boolean().optional(),
});

/** A pending invitation of `GET /orgs/{org}/invitations` (`login` is null for an invitation by email). */
export const apiOrgInvitationSchema = z.object({ login: z.string().nullable(), role: z.string() });

export const membershipsRoutes = {
  members: {
    list: route("GET /orgs/{org}/members", { list: apiOrgMemberSchema }),
    check: route("GET /orgs/{org}/members/{username}"),
    remove: route("DELETE /orgs/{org}/members/{username}"),
    listPublic: route("GET /orgs/{org}/public_members"),
    checkPublic: route("GET /orgs/{org}/public_members/{username}"),
    invitations: route("GET /orgs/{org}/invitations", { list: apiOrgInvitationSchema }),
    getMembership: route("GET /orgs/{org}/memberships/{username}", { body: apiOrgMembershipSchema }),
    setMembership: route("PUT /orgs/{org}/memberships/{username}", { body: apiOrgMembershipSchema }),
    removeMembership: route("DELETE /orgs/{org}/memberships/{username}", STATUS_ONLY),
  },
} as const;
