/**
 * Places the platform's answers link to that the route table does not list, because neither the
 * client nor the sandbox calls them (a user's profile, an app): declared with the table's
 * own `route()`, so their paths are built and encoded as every other.
 */
import { route } from "../../api";

export const LINKS = {
  user: route("GET /users/{username}"),
  app: route("GET /apps/{app_slug}"),
  /** Where a queued organisation rename points (the organisation by id). */
  orgById: route("GET /organizations/{org_id}"),
  invitationTeams: route("GET /organizations/{org_id}/invitations/{invitation_id}/teams"),
} as const;
