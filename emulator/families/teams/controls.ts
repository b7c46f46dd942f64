/**
 * The teams family's controls: changes people make on the platform's web pages, outside the API
 * and outside any program (an owner adding someone to a team, someone leaving a team, a team's
 * role on a repository changed in the settings page). They follow the API's rules for the data
 * (roles, repositories of the team's organisation) but need no token.
 */
import type { Context, Hono } from "hono";
import { REPOSITORY_PERMISSIONS, TEAM_ROLES } from "../../../api";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord } from "../../core/fixture";
import { invalidField, notFound, readBody } from "../../core/http";
import { findOrg, findRepo, findUser } from "../../core/lookup";
import type { RepoRole } from "../../core/repo-access";
import { setMembership } from "./member-routes";
import type { StoredTeam, TeamRole } from "./state";
import { directMember, findTeam } from "./teams";

export function teamControls(app: Hono<ServerEnv>): void {
  const T = "/orgs/:org/teams/:team_slug";

  // An owner adds someone in the web UI (someone outside the organisation is invited to it).
  app.put(`${T}/members/:username`, async (c) => {
    const { org, team } = teamOfPath(c);
    const store = c.get("store");
    const user = findUser(store.state, c.req.param("username") ?? "");
    if (!user) throw notFound();
    const role = (await readBody(c)).role ?? "member";
    if (typeof role !== "string" || !(TEAM_ROLES as readonly string[]).includes(role)) {
      throw invalidField("TeamMembership", "role", `role must be one of ${TEAM_ROLES.join(", ")}`);
    }
    setMembership(store, org, team, user, role as TeamRole, undefined);
    return c.json({ org: org.login, team: team.slug, username: user.login, role });
  });

  // The person leaves the team.
  app.post(`${T}/members/:username/leave`, (c) => {
    const { team } = teamOfPath(c);
    const state = c.get("store").state;
    const member = directMember(state, team, c.req.param("username") ?? "");
    if (!member) throw notFound();
    state.teamMembers = state.teamMembers.filter((m) => !(m.teamId === team.id && m.login === member.login));
    return c.body(null, 204);
  });

  // The team's role on a repository changed (or given) in the repository's settings page.
  app.put(`${T}/repos/:owner/:repo`, async (c) => {
    const { org, team } = teamOfPath(c);
    const state = c.get("store").state;
    const repo = findRepo(state, c.req.param("owner") ?? "", c.req.param("repo") ?? "");
    if (!repo || repo.owner.toLowerCase() !== org.login.toLowerCase()) throw notFound();
    const permission = (await readBody(c)).permission;
    if (
      typeof permission !== "string" ||
      !(REPOSITORY_PERMISSIONS as readonly string[]).includes(permission)
    ) {
      throw invalidField(
        "Team",
        "permission",
        `permission must be one of ${REPOSITORY_PERMISSIONS.join(", ")}`,
      );
    }
    const grant = state.teamRepos.find((g) => g.teamId === team.id && g.repoId === repo.id);
    if (grant) grant.permission = permission as RepoRole;
    else state.teamRepos.push({ teamId: team.id, repoId: repo.id, permission: permission as RepoRole });
    return c.json({ team: team.slug, repository: `${repo.owner}/${repo.name}`, permission });
  });
}

function teamOfPath(c: Context<ServerEnv>): { org: OrgRecord; team: StoredTeam } {
  const state = c.get("store").state;
  const org = findOrg(state, c.req.param("org") ?? "");
  const team = org && findTeam(state, org, c.req.param("team_slug") ?? "");
  if (!org || !team) throw notFound();
  return { org, team };
}
