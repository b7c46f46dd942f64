/**
 * A repository's collaborators, invitations and teams (the description's `repos/list-collaborators`,
 * `check-collaborator`, `add-collaborator`, `remove-collaborator`,
 * `get-collaborator-permission-level`, `list-invitations`, `update-invitation`,
 * `delete-invitation`, `list-teams`; classic scope `repo`, repository permission Administration).
 *
 * - Reading who has access needs push access to the repository (403 otherwise). `affiliation`
 *   `direct` lists the direct collaborators with their own role in `permissions`; `outside` those of
 *   them outside the organisation; `all` (the default) everyone with a role, from any source.
 *   `role_name` is always the strongest role from every source.
 * - Adding, changing and removing collaborators and invitations needs an admin of the repository
 *   (a 404 to anyone else, which hides the repository), except that a person may remove themselves.
 *   A member of the organisation becomes a collaborator at once (204); anyone else is invited (201
 *   with the invitation) and becomes one when they accept (a control: only they can).
 */
import type { Context, Hono } from "hono";
import {
  API_ROLE_NAMES,
  COLLABORATOR_AFFILIATIONS,
  permissionsOf,
  REPOSITORY_PERMISSIONS,
  ROUTES,
} from "../../../api";
import { type AccessRule, callerOf } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { forbidden, invalidField, notFound, paginate, pathId, readBody } from "../../core/http";
import { findUser, pathAdminRepo, readableRepo } from "../../core/lookup";
import { activeMember } from "../../core/members";
import { atLeast, type RepoRole, repoRole, roleOf } from "../../core/repo-access";
import { viewerOf } from "../teams/access";
import { teamObject } from "../teams/render";
import { teamById, visibleTo } from "../teams/teams";
import {
  addCollaborator,
  collaboratorObject,
  directCollaborator,
  dropInvitation,
  invitationObject,
  parseInvitationPermission,
  parsePermission,
} from "./collaborators";

const READ: AccessRule = { scopes: ["repo"], permission: ["administration", "read"] };
const WRITE: AccessRule = { scopes: ["repo"], permission: ["administration", "write"] };

const C = ROUTES.collaborators;
const I = ROUTES.repoInvitations;

export function collaboratorRoutes(app: Hono<ServerEnv>): void {
  app.get(C.list.pattern, guard(READ), (c) => {
    const { repo, org } = pushableRepo(c);
    const affiliation = choice(c, "affiliation", COLLABORATOR_AFFILIATIONS) ?? "all";
    const permission = choice(c, "permission", REPOSITORY_PERMISSIONS);
    const state = c.get("store").state;
    const listed = state.fixture.users.flatMap((user) => {
      const strongest = roleOf(state, user.login, org, repo);
      const own = directCollaborator(state, repo, user.login)?.permission;
      const shown = affiliation === "all" ? strongest : own;
      if (!shown || !strongest) return [];
      if (affiliation === "outside" && activeMember(org, user.login)) return [];
      if (permission && !atLeast(shown, permission)) return [];
      return [{ user, shown, strongest }];
    });
    return c.json(paginate(c, listed).map((l) => collaboratorObject(c, l.user, l.shown, l.strongest)));
  });

  app.get(C.check.pattern, guard(READ), (c) => {
    const { repo, org } = pushableRepo(c);
    const state = c.get("store").state;
    const user = findUser(state, c.req.param("username"));
    if (!user || !roleOf(state, user.login, org, repo)) throw notFound();
    return c.body(null, 204);
  });

  app.put(C.set.pattern, guard(WRITE), async (c) => {
    const { repo, org } = pathAdminRepo(c);
    const store = c.get("store");
    const user = findUser(store.state, c.req.param("username"));
    if (!user) throw notFound();
    const permission = parsePermission((await readBody(c)).permission);
    const inviter = callerOf(c).user?.login ?? "ghost";
    const invitation = addCollaborator(store, org, repo, user, permission, inviter);
    if (!invitation) return c.body(null, 204);
    return c.json(invitationObject(c, invitation, repo, org), 201);
  });

  app.delete(C.remove.pattern, guard(WRITE), (c) => {
    const state = c.get("store").state;
    const caller = callerOf(c);
    const username = c.req.param("username");
    const self = caller.user?.login.toLowerCase() === username.toLowerCase();
    const { repo } = self ? readable(c, WRITE) : pathAdminRepo(c);
    const user = findUser(state, username);
    if (!user) throw notFound();
    const key = user.login.toLowerCase();
    state.collaborators = state.collaborators.filter(
      (x) => !(x.repoId === repo.id && x.login.toLowerCase() === key),
    );
    return c.body(null, 204);
  });

  app.get(C.permission.pattern, guard(READ), (c) => {
    const { repo, org } = pushableRepo(c);
    const state = c.get("store").state;
    const user = findUser(state, c.req.param("username"));
    if (!user) throw notFound();
    const role = roleOf(state, user.login, org, repo);
    return c.json({
      permission: legacyPermission(role),
      role_name: role ? API_ROLE_NAMES[role] : "none",
      user: collaboratorObject(c, user, role, role),
    });
  });

  app.get(C.teams.pattern, guard(READ), (c) => {
    const { repo, org } = readable(c, READ);
    const store = c.get("store");
    const viewer = viewerOf(c, org);
    const listed = store.state.teamRepos.flatMap((g) => {
      const team = g.repoId === repo.id ? teamById(store.state, g.teamId) : undefined;
      return team && visibleTo(store, org, team, viewer) ? [{ team, role: g.permission }] : [];
    });
    listed.sort((a, b) => a.team.name.localeCompare(b.team.name));
    return c.json(
      paginate(c, listed).map(({ team, role }) => ({
        ...teamObject(c, team, org),
        permission: role,
        permissions: permissionsOf(role),
      })),
    );
  });

  app.get(I.list.pattern, guard(READ), (c) => {
    const { repo, org } = pathAdminRepo(c);
    const open = c.get("store").state.repoInvitations.filter((i) => i.repoId === repo.id);
    return c.json(paginate(c, open).map((i) => invitationObject(c, i, repo, org)));
  });

  app.patch(I.update.pattern, guard(WRITE), async (c) => {
    const { repo, org } = pathAdminRepo(c);
    const invitation = invitationOf(c, repo);
    invitation.permission = parseInvitationPermission((await readBody(c)).permissions);
    return c.json(invitationObject(c, invitation, repo, org));
  });

  app.delete(I.delete.pattern, guard(WRITE), (c) => {
    const { repo } = pathAdminRepo(c);
    dropInvitation(c.get("store").state, invitationOf(c, repo));
    return c.body(null, 204);
  });
}

/** The legacy `permission` of the permission check: maintain reads as write, triage as read. */
function legacyPermission(role: RepoRole | undefined): string {
  if (role === "admin") return "admin";
  if (role === "maintain" || role === "push") return "write";
  return role === undefined ? "none" : "read";
}

function readable(c: Context<ServerEnv>, rule: AccessRule): { repo: RepoRecord; org: OrgRecord } {
  const state = c.get("store").state;
  return readableRepo(state, callerOf(c), c.req.param("owner") ?? "", c.req.param("repo") ?? "", rule);
}

/** The repository of the path, which the caller may push to (403 when they only read it). */
function pushableRepo(c: Context<ServerEnv>): { repo: RepoRecord; org: OrgRecord } {
  const found = readable(c, READ);
  if (!atLeast(repoRole(c.get("store").state, callerOf(c), found.org, found.repo), "push")) {
    throw forbidden("Must have push access to view repository collaborators.");
  }
  return found;
}

function invitationOf(c: Context<ServerEnv>, repo: RepoRecord) {
  const id = pathId(c, "invitation_id");
  const invitation = c.get("store").state.repoInvitations.find((i) => i.id === id && i.repoId === repo.id);
  if (!invitation) throw notFound();
  return invitation;
}

function choice<T extends string>(c: Context<ServerEnv>, name: string, allowed: readonly T[]): T | undefined {
  const value = c.req.query(name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw invalidField("Collaborator", name, `${name} must be one of ${allowed.join(", ")}`);
  }
  return value as T;
}
