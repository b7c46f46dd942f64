/**
 * Who the caller is to an organisation and its teams, for the team routes: an owner (an owner of
 * the organisation, a site administrator, an installation acting for it), a member, or neither;
 * the team of the path, if the caller sees it; and who may change a team (its owners and its
 * maintainers).
 */
import type { Context } from "hono";
import { type AccessRule, callerOf, orgRole } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord } from "../../core/fixture";
import { forbidden, notFound } from "../../core/http";
import { findOrg } from "../../core/lookup";
import type { StoredTeam } from "./state";
import { findTeam, isMaintainer, visibleTo } from "./teams";

/** Reading teams and their members (organisation permission Members). */
export const READ: AccessRule = { scopes: ["read:org"], permission: ["members", "read"] };
/** Changing them. */
export const WRITE: AccessRule = { scopes: ["admin:org"], permission: ["members", "write"] };

export interface Viewer {
  owner: boolean;
  member: boolean;
  login: string | undefined;
}

export function viewerOf(c: Context<ServerEnv>, org: OrgRecord): Viewer {
  const caller = callerOf(c);
  const role = orgRole(caller, org);
  const login = caller.token.kind === "app_installation" ? undefined : caller.user?.login;
  return { owner: role === "admin", member: role !== undefined, login };
}

/** The organisation of the path, and the caller's standing in it: 404 when there is none. */
export function orgOf(c: Context<ServerEnv>): { org: OrgRecord; viewer: Viewer } {
  const org = findOrg(c.get("store").state, c.req.param("org") ?? "");
  if (!org) throw notFound();
  return { org, viewer: viewerOf(c, org) };
}

/** The team of the path, as the caller sees it: 404 when there is none or it is hidden from them. */
export function teamOf(c: Context<ServerEnv>): { org: OrgRecord; team: StoredTeam; viewer: Viewer } {
  const { org, viewer } = orgOf(c);
  const store = c.get("store");
  const team = findTeam(store.state, org, c.req.param("team_slug") ?? "");
  if (!team || !visibleTo(store, org, team, viewer)) throw notFound();
  return { org, team, viewer };
}

/** The team of the path, for a change its owners or maintainers may make (403 for other members). */
export function changeableTeam(
  c: Context<ServerEnv>,
  what: string,
): { org: OrgRecord; team: StoredTeam; viewer: Viewer } {
  const found = teamOf(c);
  const { org, team, viewer } = found;
  const maintainer = viewer.login !== undefined && isMaintainer(c.get("store"), org, team, viewer.login);
  if (!viewer.owner && !maintainer) {
    throw forbidden(`You must be an owner of ${org.login} or a maintainer of the team to ${what}`);
  }
  return found;
}
