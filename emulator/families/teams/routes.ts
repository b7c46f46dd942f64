/**
 * Teams of an organisation (the platform's description, operations `teams/list`, `create`,
 * `get-by-name`, `update-in-org`, `delete-in-org`, `list-child-in-org`; organisation permission
 * Members: classic `read:org` to read, `admin:org` to write).
 *
 * - Members of the organisation list and read the teams they see: closed teams, and secret ones
 *   they belong to; owners see every team. Anyone else gets a 403 on the list, a 404 on a team.
 * - Members create teams (the creator, when a member of the organisation, becomes a maintainer);
 *   owners and the team's maintainers update and delete it; deleting a team deletes the teams
 *   nested below it.
 * - The slug is made from the name and follows a rename; the old slug is then a 404. A team keeps
 *   its id across renames.
 */
import type { Hono } from "hono";
import { ROUTES } from "../../../api";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { forbidden, invalidField, paginate, readBody } from "../../core/http";
import { findRepo } from "../../core/lookup";
import { activeMember } from "../../core/members";
import { type Store, timestamp } from "../../core/store";
import { changeableTeam, orgOf, READ, teamOf, WRITE } from "./access";
import { memberRoutes } from "./member-routes";
import { teamFull, teamObject } from "./render";
import { repoRoutes } from "./repo-routes";
import { parseTeamSettings } from "./settings";
import type { StoredTeam } from "./state";
import { descendantsOf, slugOf, teamsOf, visibleTo } from "./teams";

const R = ROUTES.teams;

export function teamRoutes(app: Hono<ServerEnv>): void {
  app.get(R.list.pattern, guard(READ), (c) => {
    const { org, viewer } = orgOf(c);
    if (!viewer.member) throw forbidden(`You must be a member of ${org.login} to list its teams`);
    const store = c.get("store");
    const seen = teamsOf(store.state, org)
      .filter((t) => visibleTo(store, org, t, viewer))
      .sort((a, b) => a.name.localeCompare(b.name));
    return c.json(paginate(c, seen).map((t) => teamObject(c, t, org)));
  });

  app.post(R.create.pattern, guard(WRITE), async (c) => {
    const { org, viewer } = orgOf(c);
    if (!viewer.member) throw forbidden(`You must be a member of ${org.login} to create teams`);
    const store = c.get("store");
    const body = await readBody(c);
    const settings = parseTeamSettings(store.state, org, body, undefined);
    const maintainers = logins(store, org, body.maintainers);
    const repoIds = repoNames(store, org, body.repo_names);
    const now = timestamp();
    const name = settings.name ?? "";
    const team: StoredTeam = {
      id: newTeamId(store),
      orgId: org.id,
      name,
      slug: slugOf(name),
      description: settings.description ?? null,
      parentId: settings.parentId ?? null,
      privacy: settings.privacy ?? (settings.parentId ? "closed" : "secret"),
      notificationSetting: settings.notificationSetting ?? "notifications_enabled",
      permission: settings.permission ?? "pull",
      createdAt: now,
      updatedAt: now,
    };
    store.state.teams.push(team);
    // The creator becomes a maintainer without being named (the description's create operation).
    const creator = viewer.login !== undefined && activeMember(org, viewer.login) ? [viewer.login] : [];
    const makers = [...creator, ...maintainers];
    for (const login of new Set(makers))
      store.state.teamMembers.push({ teamId: team.id, login, role: "maintainer" });
    for (const repoId of repoIds)
      store.state.teamRepos.push({ teamId: team.id, repoId, permission: team.permission });
    return c.json(teamFull(c, team, org), 201);
  });

  app.get(R.get.pattern, guard(READ), (c) => {
    const { org, team } = teamOf(c);
    return c.json(teamFull(c, team, org));
  });

  app.patch(R.update.pattern, guard(WRITE), async (c) => {
    const { org, team } = changeableTeam(c, "edit it");
    const store = c.get("store");
    const settings = parseTeamSettings(store.state, org, await readBody(c), team);
    const updated = team;
    if (settings.name !== undefined) {
      updated.name = settings.name;
      updated.slug = slugOf(settings.name);
    }
    if (settings.description !== undefined) updated.description = settings.description;
    if (settings.privacy !== undefined) updated.privacy = settings.privacy;
    if (settings.notificationSetting !== undefined)
      updated.notificationSetting = settings.notificationSetting;
    if (settings.permission !== undefined) updated.permission = settings.permission;
    if (settings.parentId !== undefined) updated.parentId = settings.parentId;
    updated.updatedAt = timestamp();
    return c.json(teamFull(c, updated, org), 200);
  });

  app.delete(R.delete.pattern, guard(WRITE), (c) => {
    const { team } = changeableTeam(c, "delete it");
    const state = c.get("store").state;
    const gone = new Set([team.id, ...descendantsOf(state, team).map((t) => t.id)]);
    state.teams = state.teams.filter((t) => !gone.has(t.id));
    state.teamMembers = state.teamMembers.filter((m) => !gone.has(m.teamId));
    state.teamRepos = state.teamRepos.filter((g) => !gone.has(g.teamId));
    return c.body(null, 204);
  });

  app.get(R.children.pattern, guard(READ), (c) => {
    const { org, team, viewer } = teamOf(c);
    const store = c.get("store");
    const children = store.state.teams
      .filter((t) => t.parentId === team.id && visibleTo(store, org, t, viewer))
      .sort((a, b) => a.name.localeCompare(b.name));
    return c.json(paginate(c, children).map((t) => teamObject(c, t, org)));
  });

  memberRoutes(app);
  repoRoutes(app);
}

/**
 * A new team's id, from the shared counter: the fixture's teams hold ids of their own, which a
 * fresh counter would hand out again.
 */
function newTeamId(store: Store): number {
  let id = store.nextId();
  while (store.state.teams.some((t) => t.id === id)) id = store.nextId();
  return id;
}

/** `maintainers` of a create: logins of members of the organisation. */
function logins(store: Store, org: OrgRecord, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw invalidField("Team", "maintainers", "maintainers must be a list of logins");
  }
  return (value as string[]).map((login) => {
    const member = Object.keys(org.members).find(
      (m) => m.toLowerCase() === login.toLowerCase() && activeMember(org, m),
    );
    if (!member) throw invalidField("Team", "maintainers", `${login} is not a member of ${org.login}`);
    return store.state.fixture.users.find((u) => u.login === member)?.login ?? member;
  });
}

/** `repo_names` of a create: full names of the organisation's repositories. */
function repoNames(store: Store, org: OrgRecord, value: unknown): number[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw invalidField("Team", "repo_names", "repo_names must be a list of owner/name");
  }
  return (value as string[]).map((full) => {
    const [owner = "", name = ""] = full.split("/");
    const repo = findRepo(store.state, owner, name);
    if (!repo || repo.owner.toLowerCase() !== org.login.toLowerCase()) {
      throw invalidField("Team", "repo_names", `${full} is not a repository of ${org.login}`);
    }
    return repo.id;
  });
}
