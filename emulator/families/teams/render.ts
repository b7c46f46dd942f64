/**
 * Teams as the platform's answers show them: `team-full` (one team), `team` (lists, with its
 * parent as `team-simple`), a membership, and a member with their role.
 */
import type { Context } from "hono";
import { ROUTES } from "../../../api";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, UserRecord } from "../../core/fixture";
import { urlOf } from "../../core/http";
import { FIXTURE_CREATED_AT, nodeId, orgDetails, userSummary } from "../../core/render";
import type { StoredTeam } from "./state";
import { type TeamMembership, teamById } from "./teams";

/** The fields every form of a team has (the description's `team-simple`). */
function teamSimple(c: Context<ServerEnv>, team: StoredTeam, org: OrgRecord): Record<string, unknown> {
  const url = urlOf(c, ROUTES.teams.get, { org: org.login, team_slug: team.slug });
  return {
    id: team.id,
    node_id: nodeId("Team", team.id),
    url,
    members_url: `${url}/members{/member}`,
    name: team.name,
    description: team.description,
    permission: team.permission,
    privacy: team.privacy,
    notification_setting: team.notificationSetting,
    html_url: `${new URL(c.req.url).origin}/orgs/${org.login}/teams/${team.slug}`,
    repositories_url: `${url}/repos`,
    slug: team.slug,
    type: "organization",
    organization_id: org.id,
  };
}

/** A team as lists show it: with its parent. */
export function teamObject(c: Context<ServerEnv>, team: StoredTeam, org: OrgRecord): Record<string, unknown> {
  const parent = team.parentId === null ? undefined : teamById(c.get("store").state, team.parentId);
  return { ...teamSimple(c, team, org), parent: parent ? teamSimple(c, parent, org) : null };
}

/** One team (`team-full`): with its counts, times and organisation. */
export function teamFull(c: Context<ServerEnv>, team: StoredTeam, org: OrgRecord): Record<string, unknown> {
  const state = c.get("store").state;
  return {
    ...teamObject(c, team, org),
    members_count: state.teamMembers.filter((m) => m.teamId === team.id).length,
    repos_count: state.teamRepos.filter((g) => g.teamId === team.id).length,
    created_at: team.createdAt,
    updated_at: team.updatedAt,
    organization: orgDetails(c, org, FIXTURE_CREATED_AT),
  };
}

export function membershipObject(
  c: Context<ServerEnv>,
  org: OrgRecord,
  team: StoredTeam,
  login: string,
  membership: TeamMembership,
): Record<string, unknown> {
  return {
    url: urlOf(c, ROUTES.teamMembers.get, { org: org.login, team_slug: team.slug, username: login }),
    role: membership.role,
    state: membership.state,
  };
}

/** A member of the member list: the user, their role, and whether only a child team holds them. */
export function memberObject(
  c: Context<ServerEnv>,
  user: UserRecord,
  role: string,
  inherited: boolean,
): Record<string, unknown> {
  return { ...userSummary(c, user), role, inherited };
}
