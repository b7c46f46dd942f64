/**
 * OrgRoleAssignment: one organisation role held by one team or one user
 * (`PUT /orgs/{org}/organization-roles/teams/{team_slug}/{role_id}` or `.../users/{username}/{role_id}`).
 * Keyed by the role and the assignee, so it adopts by construction (assigning a role held already
 * changes nothing); destroy revokes that one assignment and no other role of the assignee.
 */
import { z } from "zod";
import { orgRolesRoutes } from "../../../api/org-roles";
import { configurationError, isNotFound, notFoundError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { type CrossFieldRules, fields } from "../../internal/check";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, field, type OutputsOfKind, output } from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { joinId, numericPart, splitId } from "../../internal/ids";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

export const orgRoleAssignmentKind = declareKind({
  kind: "OrgRoleAssignment",
  description:
    "One organisation role held by one team or one user (`PUT /orgs/{org}/organization-roles/teams/{team_slug}/{role_id}` or `.../users/{username}/{role_id}`); `getOrgRoles` lists the roles and their ids. Destroying it revokes that assignment only. Needs an organisation owner's token: classic scope `admin:org`, or the fine-grained permission Members write (and `organization_custom_org_roles` read for the role's name).",
  idFormat: ["org", "team", "username", "roleId"],
  idText: "org/teams/<team>/<roleId> or org/users/<username>/<roleId>",
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the assignment.",
      replace: true,
    }),
    roleId: field(
      z
        .number({ error: "roleId is required: the role's id (getOrgRoles lists them)" })
        .int("roleId must be an integer id")
        .positive("roleId must be a positive id"),
      {
        description: "The role's id, as `getOrgRoles` lists it. A change replaces the assignment.",
        replace: true,
      },
    ),
    team: field(fields.name("team").optional(), {
      description:
        "The slug of the team that holds the role (exactly one of `team`, `username`). A change replaces the assignment.",
      replace: true,
    }),
    username: field(fields.name("username").optional(), {
      description:
        "The login of the member who holds the role (exactly one of `team`, `username`). A change replaces the assignment.",
      replace: true,
    }),
  }),
  outputs: z.object({
    roleName: output(z.string(), "The role's name (`all_repo_read`, `security_manager`, ...)."),
  }),
  discovery: {
    scope: "org",
    what: ({ org }) => `organisation role assignments of ${org}`,
    names: ["{org|module}-role-{team|username}-{roleId}"],
    async list(c, { org = "" }) {
      const roles = (await c.get(orgRolesRoutes.orgRoles.list, { org })).data.roles;
      const found = await Promise.all(
        roles.map(async (role) => {
          const at = { org, role_id: role.id };
          const [teams, users] = await Promise.all([
            c.paginate(orgRolesRoutes.orgRoles.teams, at),
            c.paginate(orgRolesRoutes.orgRoles.users, at),
          ]);
          // joinId, not formatId: the id's second part is the literal `teams` or `users` (see parseId).
          return [
            ...teams.map((t) => ({
              id: joinId(org, "teams", t.slug, role.id),
              inputs: { org, roleId: role.id, team: t.slug },
            })),
            ...users.map((u) => ({
              id: joinId(org, "users", u.login, role.id),
              inputs: { org, roleId: role.id, username: u.login },
            })),
          ];
        }),
      );
      // The lists say everything an assignment's arguments hold.
      return found.flat();
    },
  },
});

export type OrgRoleAssignmentArgs = ArgsOf<typeof orgRoleAssignmentKind.inputs>;
export type OrgRoleAssignmentInputs = z.infer<typeof orgRoleAssignmentKind.inputs>;
export type OrgRoleAssignmentOutputs = OutputsOfKind<typeof orgRoleAssignmentKind>;

/** Exactly one of `team` and `username`, checked once both are known. */
const oneAssignee: CrossFieldRules<OrgRoleAssignmentInputs> = (inputs, pending) => {
  if (pending.has("team") || pending.has("username")) return [];
  if ((inputs.team === undefined) === (inputs.username === undefined)) {
    return [
      {
        property: inputs.team === undefined ? "team" : "username",
        reason: "exactly one of team (a team's slug) and username (a member's login) must be given",
      },
    ];
  }
  return [];
};

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

type Assignee = Pick<OrgRoleAssignmentInputs, "org" | "roleId" | "team" | "username">;

// joinId, not formatId: the id's second part is the literal `teams` or `users` (see parseId).
const idOf = (a: Assignee) =>
  a.team !== undefined
    ? joinId(a.org, "teams", a.team, a.roleId)
    : joinId(a.org, "users", a.username ?? "", a.roleId);

/**
 * The assignment an id names: `org/teams/<team>/<roleId>` or `org/users/<username>/<roleId>`.
 * Written here, not the declaration's `parseId`: the id's second part is the literal `teams` or
 * `users` (its `idText`), and the third is the team or the user it says.
 */
function parseId(id: string): Assignee {
  const [org = "", kind = "", who = "", role = ""] = splitId(
    id,
    orgRoleAssignmentKind.idFormat,
    orgRoleAssignmentKind.kind,
  );
  const roleId = numericPart(role, "roleId", orgRoleAssignmentKind.kind);
  if (kind === "teams") return { org, roleId, team: who };
  if (kind === "users") return { org, roleId, username: who };
  throw configurationError(
    `OrgRoleAssignment id "${id}" is not of the form org/teams/<team>/<roleId> or org/users/<username>/<roleId>`,
  );
}

/** The role's name, or undefined when the organisation has no such role. */
async function roleName(c: HostingClient, a: Assignee): Promise<string | undefined> {
  return (
    await readOrGone(
      async () => (await c.get(orgRolesRoutes.orgRoles.get, { org: a.org, role_id: a.roleId })).data,
    )
  )?.name;
}

/** Whether the assignee holds the role now (a team by slug, a user by login, regardless of case). */
async function holds(c: HostingClient, a: Assignee): Promise<boolean> {
  const at = { org: a.org, role_id: a.roleId };
  if (a.team !== undefined) {
    const slug = a.team.toLowerCase();
    return (await c.paginate(orgRolesRoutes.orgRoles.teams, at)).some((t) => t.slug.toLowerCase() === slug);
  }
  const login = (a.username ?? "").toLowerCase();
  return (await c.paginate(orgRolesRoutes.orgRoles.users, at)).some((u) => u.login.toLowerCase() === login);
}

export const orgRoleAssignmentProvider = defineProvider<
  typeof orgRoleAssignmentKind.inputs,
  OrgRoleAssignmentOutputs
>(orgRoleAssignmentKind, {
  crossField: oneAssignee,
  // Organisation names, slugs and logins are case-insensitive on the platform.
  comparable: lowerCased<OrgRoleAssignmentInputs>("org", "team", "username"),

  async create(inputs) {
    const c = client();
    const at = { org: inputs.org, role_id: inputs.roleId };
    try {
      // Adoption writes nothing: a role the assignee holds already is taken as it is (a 404
      // here is left to the PUT, whose error says what is missing).
      const held = await readOrGone(() => holds(c, inputs));
      if (held !== true) {
        if (inputs.team !== undefined)
          await c.put(orgRolesRoutes.orgRoles.assignTeam, { ...at, team_slug: inputs.team });
        else await c.put(orgRolesRoutes.orgRoles.assignUser, { ...at, username: inputs.username ?? "" });
      }
    } catch (e) {
      if (!isNotFound(e)) throw e;
      throw notFoundError({
        method: "PUT",
        path:
          inputs.team !== undefined
            ? orgRolesRoutes.orgRoles.assignTeam.path({ ...at, team_slug: inputs.team })
            : orgRolesRoutes.orgRoles.assignUser.path({ ...at, username: inputs.username ?? "" }),
        what: `OrgRoleAssignment ${idOf(inputs)}`,
        causes: [
          `${inputs.org} has no role ${inputs.roleId} (getOrgRoles lists its roles)`,
          inputs.team !== undefined
            ? `${inputs.org} has no team ${inputs.team}`
            : `there is no user ${inputs.username}`,
          `the token's user is not an owner of ${inputs.org}, or the token lacks admin:org (fine-grained: Members write)`,
        ],
      });
    }
    // The PUT answers 204: the role's name is read once.
    const name = (await roleName(c, inputs)) ?? "";
    return { id: idOf(inputs), outs: compact({ ...inputs, roleName: name }) };
  },

  async read(id, props) {
    const a: Assignee = { ...parseId(id) };
    // The names as the program spells them (the id's are the same, regardless of case).
    if (props?.org !== undefined) a.org = props.org;
    if (a.team !== undefined && props?.team !== undefined) a.team = props.team;
    if (a.username !== undefined && props?.username !== undefined) a.username = props.username;
    const c = client();
    const name = await roleName(c, a);
    // The role is gone, or the assignee no longer holds it: refresh drops the assignment.
    if (name === undefined || !(await readOrGone(() => holds(c, a)))) return {};
    return { id, props: compact({ ...a, roleName: name }) };
  },

  async update(_id, olds, news) {
    // Every argument replaces: an update only rewrites the recorded provider.
    return { outs: { ...news, roleName: olds.roleName } };
  },

  async delete(id, props) {
    const a = { ...parseId(id), org: props.org };
    const c = client();
    const at = { org: a.org, role_id: a.roleId };
    await deleteIgnoringGone(() =>
      a.team !== undefined
        ? c.delete(orgRolesRoutes.orgRoles.revokeTeam, { ...at, team_slug: a.team })
        : c.delete(orgRolesRoutes.orgRoles.revokeUser, { ...at, username: a.username ?? "" }),
    );
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** One organisation role held by a team or a user: see its declaration, `orgRoleAssignmentKind`. Example: `examples/org-roles/`. */
export class OrgRoleAssignment extends resourceClass<OrgRoleAssignmentArgs, OrgRoleAssignmentOutputs>(
  orgRoleAssignmentProvider,
) {}
