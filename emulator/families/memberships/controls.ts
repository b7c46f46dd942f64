/**
 * The membership family's controls: what a user does on the platform's web UI, outside the API
 * (accept or decline an invitation, leave an organisation).
 */
import type { Context, Hono } from "hono";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, UserRecord } from "../../core/fixture";
import { ApiFailure, notFound } from "../../core/http";
import { findOrg, findUser } from "../../core/lookup";
import { isLastOwner } from "../../core/members";
import { acceptInvitation, cancelInvitation, removeMember } from "./memberships";

export function membershipControls(app: Hono<ServerEnv>): void {
  app.post("/orgs/:org/invitations/:username/accept", (c) => {
    const { org, user } = orgAndUser(c);
    const membership = acceptInvitation(c.get("store"), org, user);
    if (!membership) throw notFound();
    return c.json({ org: org.login, username: user.login, ...membership });
  });

  app.post("/orgs/:org/invitations/:username/decline", (c) => {
    const { org, user } = orgAndUser(c);
    if (!cancelInvitation(c.get("store"), org, user)) throw notFound();
    return c.body(null, 204);
  });

  app.post("/orgs/:org/members/:username/leave", (c) => {
    const { org, user } = orgAndUser(c);
    if (isLastOwner(org, user.login)) {
      throw new ApiFailure(409, `${user.login} is the last owner of ${org.login} and cannot leave it`);
    }
    if (!removeMember(c.get("store"), org, user)) throw notFound();
    return c.body(null, 204);
  });
}

/** The organisation and user a control path names; 404 when either is unknown. */
function orgAndUser(c: Context<ServerEnv>): { org: OrgRecord; user: UserRecord } {
  const state = c.get("store").state;
  const org = findOrg(state, c.req.param("org") ?? "");
  const user = findUser(state, c.req.param("username") ?? "");
  if (!org || !user) throw notFound();
  return { org, user };
}
