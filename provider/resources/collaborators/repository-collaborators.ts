/**
 * RepositoryCollaborators: the **authoritative** list of who has direct access to a repository:
 * its direct collaborators (with their open invitations) and the teams given a role on it. A
 * person or team added outside Pulumi, or a role changed by hand, is drift, named by refresh, and
 * `up` removes or restores it. Access through the organisation (its owners, its base role) is not
 * direct and is left alone.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { type ApiRepositoryTeam, collaboratorsRoutes, permissionFromApi } from "../../../api/collaborators";
import { teamsRoutes } from "../../../api/teams";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { collectionReads } from "../../internal/collection-reads";
import { client } from "../../internal/context";
import {
  type ArgsOf,
  declareKind,
  type Found,
  field,
  type NestedArgsOf,
  type OutputsOfKind,
} from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { resourceClass } from "../../internal/resource";
import { teamNotFound } from "../teams/shared";
import {
  type Access,
  collaboratorRole,
  directCollaborators,
  grant,
  invitationRole,
  openInvitations,
  repositoryNotFound,
  revoke,
} from "./repository-collaborator";
import { permissionSchema, type RepositoryPermission, roleOf } from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration (the outputs are the inputs)
// ---------------------------------------------------------------------------------------------

/** One person of the list: the named type `RepositoryCollaboratorUser`. */
const collaboratorUser = z
  .object(
    {
      username: fields.name("users[].username").meta({ description: "The person's login." }),
      permission: permissionSchema("users[].permission")
        .default("push")
        .meta({ description: '`"pull"`, `"triage"`, `"push"` (default), `"maintain"` or `"admin"`.' }),
    },
    { error: "users must hold objects {username, permission?}" },
  )
  .meta({
    id: "RepositoryCollaboratorUser",
    description: "A direct collaborator of a repository, with their role.",
  });

/** One team of the list: the named type `RepositoryCollaboratorTeam`. */
const collaboratorTeam = z
  .object(
    {
      teamSlug: fields
        .name("teams[].teamSlug")
        .meta({ description: "The team's slug (a `Team`'s `slug` output)." }),
      permission: permissionSchema("teams[].permission")
        .default("pull")
        .meta({ description: '`"pull"` (default), `"triage"`, `"push"`, `"maintain"` or `"admin"`.' }),
    },
    { error: "teams must hold objects {teamSlug, permission?}" },
  )
  .meta({ id: "RepositoryCollaboratorTeam", description: "A team with a role on a repository." });

export type RepositoryCollaboratorUserArgs = NestedArgsOf<typeof collaboratorUser>;
export type RepositoryCollaboratorTeamArgs = NestedArgsOf<typeof collaboratorTeam>;
type User = z.infer<typeof collaboratorUser>;
type Team = z.infer<typeof collaboratorTeam>;
interface Declared {
  users: User[];
  teams: Team[];
}

export const repositoryCollaboratorsKind = declareKind({
  kind: "RepositoryCollaborators",
  description:
    "The **authoritative** list of who has direct access to a repository: its direct collaborators (people outside the organisation are invited) and the teams given a role on it. Anyone added outside Pulumi, or a role changed by hand, is drift, and `up` removes or restores it; access through the organisation itself (owners, its base role) is left alone. **Destroying it removes the listed people and teams from the repository.** Needs an admin of the repository: classic scopes `repo` and `admin:org` (for the teams), or the fine-grained permissions `administration` and `members` write.",
  idFormat: ["owner", "repository"],
  inputs: z.object({
    owner: field(fields.name("owner"), {
      description: "The organisation owning the repository (and the teams). A change replaces the resource.",
      replace: true,
    }),
    repository: field(fields.name("repository"), {
      description: "The repository's name. A change replaces the resource.",
      replace: true,
    }),
    users: field(z.array(collaboratorUser, { error: "users must be a list of {username, permission?}" }), {
      description:
        "Every direct collaborator, each with a role: an authoritative set (`[]`: none). Anyone else is removed, open invitations included; people outside the organisation are invited.",
      set: true,
    }),
    teams: field(z.array(collaboratorTeam, { error: "teams must be a list of {teamSlug, permission?}" }), {
      description: "Every team with a role on the repository: an authoritative set (`[]`: none).",
      set: true,
    }),
  }),
  outputs: z.object({}),
  discovery: {
    scope: "repository",
    what: ({ owner, repo }) => `collaborators and teams of ${owner}/${repo}`,
    names: ["{owner}-{repository}-access"],
    async list(c, { owner = "", repo = "" }): Promise<Found[]> {
      const where = { owner, repository: repo };
      const found = await readOrGone(() => accessOfRepository(c, where, { users: [], teams: [] }));
      if (!found || (found.users.length === 0 && found.teams.length === 0)) return [];
      return [
        {
          id: repositoryCollaboratorsKind.formatId({ owner, repository: repo }),
          inputs: { owner, repository: repo, ...found },
        },
      ];
    },
  },
});

export type RepositoryCollaboratorsArgs = ArgsOf<typeof repositoryCollaboratorsKind.inputs>;
export type RepositoryCollaboratorsInputs = z.infer<typeof repositoryCollaboratorsKind.inputs>;
export type RepositoryCollaboratorsOutputs = OutputsOfKind<typeof repositoryCollaboratorsKind>;

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = repositoryCollaboratorsKind.kind;

interface Where {
  owner: string;
  repository: string;
}

const teamsOf = (c: HostingClient, w: Where) =>
  c.paginate(collaboratorsRoutes.collaborators.teams, { owner: w.owner, repo: w.repository });

function teamRole(team: ApiRepositoryTeam): RepositoryPermission {
  return roleOf(KIND, permissionFromApi(team.permissions, team.permission), { role_name: team.permission });
}

/**
 * The repository's direct access as the program spells it: collaborators and open invitations
 * (each person once: an invitation is their access until they accept), teams with their role.
 */
async function accessOfRepository(
  c: HostingClient,
  w: Where,
  declared: Declared,
): Promise<{ users: User[]; teams: Team[] }> {
  const [collaborators, invitations, teams] = await Promise.all([
    directCollaborators(c, w),
    openInvitations(c, w),
    teamsOf(c, w),
  ]);
  const spelled = new Map(declared.users.map((u) => [u.username.toLowerCase(), u.username]));
  const teamSpelled = new Map(declared.teams.map((t) => [t.teamSlug.toLowerCase(), t.teamSlug]));
  const users = new Map<string, User>();
  for (const u of collaborators) {
    users.set(u.login.toLowerCase(), {
      username: spelled.get(u.login.toLowerCase()) ?? u.login,
      permission: collaboratorRole(KIND, u),
    });
  }
  for (const i of invitations) {
    const login = i.invitee?.login;
    if (login === undefined || users.has(login.toLowerCase())) continue;
    users.set(login.toLowerCase(), {
      username: spelled.get(login.toLowerCase()) ?? login,
      permission: invitationRole(KIND, i),
    });
  }
  return {
    users: [...users.values()],
    teams: teams.map((t) => ({
      teamSlug: teamSpelled.get(t.slug.toLowerCase()) ?? t.slug,
      permission: teamRole(t),
    })),
  };
}

/** Each person's access as `grant` and `revoke` take it, from the lists. */
async function accessByUser(c: HostingClient, w: Where): Promise<Map<string, NonNullable<Access>>> {
  const [collaborators, invitations] = await Promise.all([directCollaborators(c, w), openInvitations(c, w)]);
  const access = new Map<string, NonNullable<Access>>();
  for (const u of collaborators) {
    access.set(u.login.toLowerCase(), { kind: "collaborator", permission: collaboratorRole(KIND, u) });
  }
  for (const i of invitations) {
    const login = i.invitee?.login.toLowerCase();
    if (login === undefined || access.has(login)) continue;
    access.set(login, { kind: "invited", permission: invitationRole(KIND, i), invitationId: i.id });
  }
  return access;
}

const teamAt = (w: Where, team_slug: string) => ({
  org: w.owner,
  team_slug,
  owner: w.owner,
  repo: w.repository,
});

/** Brings the repository's direct access to `wanted`: what is not declared goes, the rest is given its role. */
async function converge(
  c: HostingClient,
  w: Where,
  wanted: Pick<RepositoryCollaboratorsInputs, "users" | "teams">,
) {
  const path = collaboratorsRoutes.collaborators.list.path({ owner: w.owner, repo: w.repository });
  const [people, teams] = await Promise.all([accessByUser(c, w), teamsOf(c, w)]).catch((e: unknown) => {
    throw repositoryNotFound(e, "GET", path, `${KIND} ${w.owner}/${w.repository}`);
  });
  const users = new Map(wanted.users.map((u) => [u.username.toLowerCase(), u]));
  const wantedTeams = new Map(wanted.teams.map((t) => [t.teamSlug.toLowerCase(), t]));
  const teamRoles = new Map(teams.map((t) => [t.slug.toLowerCase(), teamRole(t)]));
  await Promise.all([
    ...[...people]
      .filter(([login]) => !users.has(login))
      .map(([login, access]) => revoke(c, w, login, access)),
    ...wanted.users
      .filter((u) => people.get(u.username.toLowerCase())?.permission !== u.permission)
      .map((u) => grant(c, w, u.username, u.permission, people.get(u.username.toLowerCase()))),
    ...teams
      .filter((t) => !wantedTeams.has(t.slug.toLowerCase()))
      .map((t) =>
        deleteIgnoringGone(() =>
          teamWrite(c, w, t.slug, () => c.delete(teamsRoutes.teamRepos.remove, teamAt(w, t.slug))),
        ),
      ),
    ...wanted.teams
      .filter((t) => teamRoles.get(t.teamSlug.toLowerCase()) !== t.permission)
      .map((t) =>
        teamWrite(c, w, t.teamSlug, () =>
          c.put(teamsRoutes.teamRepos.set, teamAt(w, t.teamSlug), { permission: t.permission }),
        ).catch((e: unknown) => {
          throw teamNotFound(e, {
            method: "PUT",
            path: teamsRoutes.teamRepos.set.path(teamAt(w, t.teamSlug)),
            what: `${KIND} ${w.owner}/${w.repository}`,
            org: w.owner,
            slug: t.teamSlug,
          });
        }),
      ),
  ]);
}

/** A write to a team's access: the team's repository list read before it (TeamRepository's) is not used after it. */
function teamWrite<R>(c: HostingClient, w: Where, team_slug: string, run: () => Promise<R>): Promise<R> {
  return collectionReads.write(c, teamsRoutes.teamRepos.list.path({ org: w.owner, team_slug }), run);
}

/** Duplicate people or teams (compared case-insensitively). */
function refuseDuplicates(inputs: RepositoryCollaboratorsInputs, pending: ReadonlySet<string>) {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const twice = (names: string[]) => names.find((n, i) => names.indexOf(n) !== i);
  if (!pending.has("users")) {
    const user = twice(inputs.users.map((u) => String(u?.username).toLowerCase()));
    if (user) failures.push({ property: "users", reason: `users lists ${user} twice` });
  }
  if (!pending.has("teams")) {
    const team = twice(inputs.teams.map((t) => String(t?.teamSlug).toLowerCase()));
    if (team) failures.push({ property: "teams", reason: `teams lists ${team} twice` });
  }
  return failures;
}

export const repositoryCollaboratorsProvider = defineProvider<
  typeof repositoryCollaboratorsKind.inputs,
  RepositoryCollaboratorsOutputs
>(repositoryCollaboratorsKind, {
  comparable: (values) => {
    const lowered = lowerCased<RepositoryCollaboratorsInputs>("owner", "repository")(values) as Record<
      string,
      unknown
    >;
    const lower = (list: unknown, key: string) =>
      Array.isArray(list)
        ? list.map((item: Record<string, unknown>) =>
            typeof item?.[key] === "string" ? { ...item, [key]: (item[key] as string).toLowerCase() } : item,
          )
        : list;
    return { ...lowered, users: lower(lowered.users, "username"), teams: lower(lowered.teams, "teamSlug") };
  },
  crossField: refuseDuplicates,

  async create(inputs) {
    await converge(client(), inputs, inputs);
    return { id: repositoryCollaboratorsKind.formatId(inputs), outs: { ...inputs } };
  },

  async read(id, props) {
    const { owner, repository } = repositoryCollaboratorsKind.parseId(id);
    const declared = { users: props?.users ?? [], teams: props?.teams ?? [] };
    const found = await readOrGone(() => accessOfRepository(client(), { owner, repository }, declared));
    if (!found) return {};
    return {
      id,
      props: { owner: props?.owner ?? owner, repository: props?.repository ?? repository, ...found },
    };
  },

  async update(_id, _olds, news) {
    await converge(client(), news, news);
    return { outs: { ...news } };
  },

  async delete(id, props) {
    const { owner, repository } = repositoryCollaboratorsKind.parseId(id);
    const c = client();
    const where = { owner, repository };
    const people = await readOrGone(() => accessByUser(c, where));
    if (people === undefined) return;
    const listed = new Set((props.users ?? []).map((u) => u.username.toLowerCase()));
    await Promise.all([
      ...[...people]
        .filter(([login]) => listed.has(login))
        .map(([login, access]) => revoke(c, where, login, access)),
      ...(props.teams ?? []).map((t) =>
        deleteIgnoringGone(() =>
          teamWrite(c, where, t.teamSlug, () =>
            c.delete(teamsRoutes.teamRepos.remove, teamAt(where, t.teamSlug)),
          ),
        ),
      ),
    ]);
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** The whole list of a repository's direct access: see its declaration, `repositoryCollaboratorsKind`. Example: `examples/collaborators/`. */
export class RepositoryCollaborators extends resourceClass<
  RepositoryCollaboratorsArgs,
  RepositoryCollaboratorsOutputs
>(repositoryCollaboratorsProvider) {}
