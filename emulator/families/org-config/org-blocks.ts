/**
 * Users blocked by an organisation (spec, permission matrix "Blocking users"; bodies and statuses
 * from the platform's description, operations `orgs/list-blocked-users`, `check-blocked-user`,
 * `block-user`, `unblock-user`).
 *
 * - Owners only, reads included: scope `read:org` (reads) or `admin:org` (writes), or the
 *   organisation permission `organization_user_blocking`; others get 403, an unknown organisation
 *   or user 404.
 * - PUT is idempotent (a second block of the same user is a 204 that changes nothing); a member of
 *   the organisation, a user it has invited, or the caller cannot be blocked (422).
 * - DELETE of a user who is not blocked is a 204 as well: the description gives it no other status.
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, callerOf } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, UserRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { notFound, paginate, validationFailed } from "../../core/http";
import { findUser } from "../../core/lookup";
import { userSummary } from "../../core/render";
import { timestamp } from "../../core/store";
import { membershipOf } from "../memberships/memberships";
import { configOrg } from "./config";
import type { StoredOrgBlock } from "./state";

const READ: AccessRule = { scopes: ["read:org"], permission: ["organization_user_blocking", "read"] };
const WRITE: AccessRule = { scopes: ["admin:org"], permission: ["organization_user_blocking", "write"] };

const R = ROUTES.orgBlocks;
const WHAT = "manage blocked users";

export function orgBlockRoutes(app: Hono<ServerEnv>): void {
  app.get(R.list.pattern, guard(READ), (c) => {
    const org = configOrg(c, "owner", WHAT);
    const state = c.get("store").state;
    const users = blocksOf(c, org).flatMap((b) => {
      const user = findUser(state, b.login);
      return user ? [user] : [];
    });
    return c.json(paginate(c, users).map((u) => userSummary(c, u)));
  });

  app.get(R.check.pattern, guard(READ), (c) => {
    const { org, user } = target(c);
    if (!findBlock(c, org, user)) throw notFound();
    return c.body(null, 204);
  });

  app.put(R.block.pattern, guard(WRITE), (c) => {
    const { org, user } = target(c);
    if (findBlock(c, org, user)) return c.body(null, 204);
    const store = c.get("store");
    const refusal = whyUnblockable(c, org, user);
    if (refusal) {
      throw validationFailed({
        resource: "OrganizationBlock",
        field: "username",
        code: "invalid",
        message: refusal,
      });
    }
    store.state.orgBlocks.push({ org: org.login, login: user.login, createdAt: timestamp() });
    return c.body(null, 204);
  });

  app.delete(R.unblock.pattern, guard(WRITE), (c) => {
    const { org, user } = target(c);
    const block = findBlock(c, org, user);
    if (block) {
      const state = c.get("store").state;
      state.orgBlocks = state.orgBlocks.filter((b) => !(b.org === block.org && b.login === block.login));
    }
    return c.body(null, 204);
  });
}

/** The organisation (the caller must own it) and the user of the path (404 when unknown). */
function target(c: Context<ServerEnv>): { org: OrgRecord; user: UserRecord } {
  const org = configOrg(c, "owner", WHAT);
  const user = findUser(c.get("store").state, c.req.param("username") ?? "");
  if (!user) throw notFound();
  return { org, user };
}

function blocksOf(c: Context<ServerEnv>, org: OrgRecord): readonly StoredOrgBlock[] {
  return c.get("store").raw.orgBlocks.filter((b) => b.org === org.login);
}

function findBlock(c: Context<ServerEnv>, org: OrgRecord, user: UserRecord): StoredOrgBlock | undefined {
  return blocksOf(c, org).find((b) => b.login === user.login);
}

/**
 * Why the organisation cannot block the user, if it cannot: the platform refuses to block its own
 * members (they must be removed first), users with a pending invitation (cancel it first), and the
 * caller.
 */
function whyUnblockable(c: Context<ServerEnv>, org: OrgRecord, user: UserRecord): string | undefined {
  if (callerOf(c).user?.login === user.login) return "You cannot block yourself";
  const membership = membershipOf(c.get("store"), org, user.login);
  if (membership?.state === "active") {
    return `${user.login} is a member of ${org.login}: remove the membership before blocking the user`;
  }
  if (membership?.state === "pending") {
    return `${user.login} has a pending invitation to ${org.login}: cancel it before blocking the user`;
  }
  return undefined;
}
