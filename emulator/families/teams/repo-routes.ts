/**
 * A team's access to repositories (the description's `teams/list-repos-in-org`,
 * `check-permissions-for-repo-in-org`, `add-or-update-repo-permissions-in-org`,
 * `remove-repo-in-org`).
 *
 * - The list holds the repositories the team was given (not those it inherits), with the team's
 *   role as `permissions` booleans and `role_name`, as far as the caller sees the repositories.
 * - The check answers 204 when the team has a role on the repository, its own or inherited from a
 *   parent team, and 404 when it has none. (The platform's 200 with the full repository under the
 *   repository media type is not modelled: the list says the role.)
 * - Giving and taking access needs an admin of the repository (403 otherwise), which must belong
 *   to the team's organisation (422). `permission` is one of the five roles; omitted, the team's
 *   own `permission` applies.
 */
import type { Context, Hono } from "hono";
import { API_ROLE_NAMES, permissionsOf, REPOSITORY_PERMISSIONS, ROUTES } from "../../../api";
import { callerOf } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { forbidden, invalidField, notFound, paginate, readBody } from "../../core/http";
import { findRepo, readableRepo } from "../../core/lookup";
import { type RepoRole, repoRole } from "../../core/repo-access";
import { repoSummary } from "../git/repository";
import { READ, teamOf, WRITE } from "./access";
import type { StoredTeam } from "./state";
import { teamRole } from "./teams";

const T = ROUTES.teamRepos;
/** Reading a team's repositories: `read:org` or `repo` (the description). */
const READ_REPOS = { ...READ, scopes: ["read:org", "repo"] };

export function repoRoutes(app: Hono<ServerEnv>): void {
  app.get(T.list.pattern, guard(READ_REPOS), (c) => {
    const { org, team } = teamOf(c);
    const state = c.get("store").state;
    const listed = state.teamRepos
      .filter((g) => g.teamId === team.id)
      .flatMap((g) => {
        const repo = state.fixture.repos.find((r) => r.id === g.repoId);
        return repo && seen(c, repo) ? [{ repo, role: g.permission }] : [];
      })
      .sort((a, b) => a.repo.name.localeCompare(b.repo.name));
    return c.json(paginate(c, listed).map(({ repo, role }) => withRole(c, repo, org, role)));
  });

  app.get(T.check.pattern, guard(READ_REPOS), (c) => {
    const { team } = teamOf(c);
    const repo = pathRepo(c);
    if (!seen(c, repo)) throw notFound();
    const role = teamRole(c.get("store").state, team, repo);
    if (!role) throw notFound();
    return c.body(null, 204);
  });

  app.put(T.set.pattern, guard(WRITE), async (c) => {
    const { team, repo } = adminOfRepo(c);
    const body = await readBody(c);
    const permission = parsePermission(body.permission, team);
    const state = c.get("store").state;
    const grant = state.teamRepos.find((g) => g.teamId === team.id && g.repoId === repo.id);
    if (grant) grant.permission = permission;
    else state.teamRepos.push({ teamId: team.id, repoId: repo.id, permission });
    return c.body(null, 204);
  });

  app.delete(T.remove.pattern, guard(WRITE), (c) => {
    const { team, repo } = adminOfRepo(c);
    const state = c.get("store").state;
    state.teamRepos = state.teamRepos.filter((g) => !(g.teamId === team.id && g.repoId === repo.id));
    return c.body(null, 204);
  });
}

/** A repository with a team's role on it (the minimal repository, `permissions`, `role_name`). */
function withRole(
  c: Context<ServerEnv>,
  repo: RepoRecord,
  org: OrgRecord,
  role: RepoRole,
): Record<string, unknown> {
  return { ...repoSummary(c, repo, org), permissions: permissionsOf(role), role_name: API_ROLE_NAMES[role] };
}

function pathRepo(c: Context<ServerEnv>): RepoRecord {
  const repo = findRepo(c.get("store").state, c.req.param("owner") ?? "", c.req.param("repo") ?? "");
  if (!repo) throw notFound();
  return repo;
}

/** Whether the caller sees the repository (a private one needs a role on it). */
function seen(c: Context<ServerEnv>, repo: RepoRecord): boolean {
  try {
    readableRepo(c.get("store").state, c.get("caller"), repo.owner, repo.name, READ_REPOS);
    return true;
  } catch {
    return false;
  }
}

/**
 * The team and repository of a write: the team the caller sees, a repository of the team's
 * organisation (422 for another owner's), which the caller administers (403 otherwise).
 */
function adminOfRepo(c: Context<ServerEnv>): { org: OrgRecord; team: StoredTeam; repo: RepoRecord } {
  const { org, team } = teamOf(c);
  const repo = pathRepo(c);
  if (!seen(c, repo)) throw notFound();
  if (repo.owner.toLowerCase() !== org.login.toLowerCase()) {
    throw invalidField(
      "Team",
      "repository",
      `${repo.owner}/${repo.name} is not owned by ${org.login}: a team gets access to its organisation's repositories only`,
    );
  }
  if (repoRole(c.get("store").state, callerOf(c), org, repo) !== "admin") {
    throw forbidden(
      `You must be an admin of ${repo.owner}/${repo.name} to change which teams have access to it`,
    );
  }
  return { org, team, repo };
}

function parsePermission(value: unknown, team: StoredTeam): RepoRole {
  if (value === undefined) return team.permission;
  if (typeof value !== "string" || !(REPOSITORY_PERMISSIONS as readonly string[]).includes(value)) {
    throw invalidField(
      "Team",
      "permission",
      `permission must be one of ${REPOSITORY_PERMISSIONS.join(", ")}`,
    );
  }
  return value as RepoRole;
}
