/**
 * TeamMembership: one person's membership of a team (`/orgs/{org}/teams/{team_slug}/memberships/
 * {username}`), with their role. Someone not yet in the organisation is invited to it: the
 * membership is `pending` until they accept, then `active` (an output, never drift). A role changed
 * outside Pulumi is drift.
 *
 * The platform reports an owner of the organisation as a `maintainer` of every team they are in.
 * An owner declared as a `member` would read back as a change on every refresh and be written again
 * on every `up`; instead preview says so once (a warning), and read reports the role as the platform
 * means it: `member` for an owner the program declared a member.
 */
import { z } from "zod";
import {
  type ApiTeamMembership,
  TEAM_MEMBERSHIP_STATES,
  TEAM_ROLES,
  type TeamMembershipState,
  type TeamRole,
  teamsRoutes,
} from "../../../api/teams";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { client, notice } from "../../internal/context";
import { type ArgsOf, declareKind, field, type OutputsOfKind, output } from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import { isOwner, ownerAsMemberNotice, teamNotFound, teamSlugField } from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration (`state` is an output only: it is never compared)
// ---------------------------------------------------------------------------------------------

export type { TeamMembershipState, TeamRole };

export const teamRoleField = z
  .enum(TEAM_ROLES, { error: `role must be one of ${TEAM_ROLES.join(", ")}` })
  .default("member");

export const teamMembershipKind = declareKind({
  kind: "TeamMembership",
  description:
    "A person's membership of a team (`/orgs/{org}/teams/{team_slug}/memberships/{username}`). Someone not yet in the organisation is invited to it (an owner's token only): `pending` until they accept. An owner of the organisation declared as a `member` converges: the platform reports owners as maintainers, which preview says once, and read compares as the platform means it. Needs an owner of the organisation or a maintainer of the team: classic scope `admin:org`, or the fine-grained permission `members` write.",
  idFormat: ["org", "teamSlug", "username"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the membership.",
      replace: true,
    }),
    teamSlug: teamSlugField("membership"),
    username: field(fields.name("username"), {
      description: "The person's login. A change replaces the membership.",
      replace: true,
    }),
    role: field(teamRoleField, {
      description:
        '`"member"` (default) or `"maintainer"` (may change the team and its members). Updates in place; a role changed outside Pulumi shows as drift. An owner of the organisation is reported as a maintainer by the platform: declared a member, they read as one.',
    }),
  }),
  outputs: z.object({
    state: output(
      z.enum(TEAM_MEMBERSHIP_STATES),
      "`pending` until the person accepts the invitation to the organisation, then `active`.",
    ),
  }),
  // hosting-import adopts a team's members with TeamMembers (the whole list), not one by one.
});

export type TeamMembershipArgs = ArgsOf<typeof teamMembershipKind.inputs>;
export type TeamMembershipInputs = z.infer<typeof teamMembershipKind.inputs>;
export type TeamMembershipOutputs = OutputsOfKind<typeof teamMembershipKind>;

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/**
 * The role as the program means it: a `maintainer` the platform reports for an owner the program
 * declared a `member` is that member (the platform's rule, not a change). One list of the
 * organisation's owners per run, read only in that case.
 */
export async function roleAsMeant(
  c: HostingClient,
  org: string,
  username: string,
  reported: string,
  declared: TeamRole | undefined,
): Promise<TeamRole> {
  const role: TeamRole = reported === "maintainer" ? "maintainer" : "member";
  if (role === "maintainer" && declared === "member" && (await isOwner(c, org, username))) return "member";
  return role;
}

async function membershipOutputs(
  c: HostingClient,
  who: Pick<TeamMembershipInputs, "org" | "teamSlug" | "username">,
  api: ApiTeamMembership,
  declared: TeamRole | undefined,
): Promise<TeamMembershipOutputs> {
  return compact({
    org: who.org,
    teamSlug: who.teamSlug,
    username: who.username,
    role: await roleAsMeant(c, who.org, who.username, api.role, declared),
    state: (api.state === "pending" ? "pending" : "active") as TeamMembershipState,
  });
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = teamMembershipKind.kind;

const membershipApi = (c: HostingClient, org: string, team_slug: string, username: string) => {
  const at = { org, team_slug, username };
  const failed = (method: string) => (e: unknown) => {
    throw teamNotFound(e, {
      method,
      path: teamsRoutes.teamMembers.set.path(at),
      what: `${KIND} ${org}/${team_slug}/${username}`,
      org,
      slug: team_slug,
      username,
    });
  };
  return {
    get: async () => (await c.get(teamsRoutes.teamMembers.get, at)).data,
    /** PUT adds, invites or changes the role; repeating it is harmless. */
    set: (role: TeamRole) =>
      c.put(teamsRoutes.teamMembers.set, at, { role }).then((r) => r.data, failed("PUT")),
    remove: () => c.delete(teamsRoutes.teamMembers.remove, at),
  };
};

/**
 * Preview's warning for an owner declared a member, when the membership is new or its person or
 * role changes (`olds` are the inputs as last written: a role left out was the default, member).
 */
async function warnOwnerAsMember(
  inputs: TeamMembershipInputs,
  olds: Partial<TeamMembershipInputs>,
): Promise<undefined> {
  if (inputs.role !== "member") return undefined;
  const same =
    olds.username?.toLowerCase() === inputs.username.toLowerCase() &&
    olds.org?.toLowerCase() === inputs.org.toLowerCase();
  if (same && (olds.role ?? "member") === "member") return undefined;
  const owner = await isOwner(client(), inputs.org, inputs.username).catch(() => false);
  if (owner) {
    notice(
      ownerAsMemberNotice(
        KIND,
        `${inputs.org}/${inputs.teamSlug}/${inputs.username}`,
        inputs.org,
        inputs.username,
      ),
    );
  }
  return undefined;
}

export const teamMembershipProvider = defineProvider<typeof teamMembershipKind.inputs, TeamMembershipOutputs>(
  teamMembershipKind,
  {
    comparable: lowerCased<TeamMembershipInputs>("org", "teamSlug", "username"),
    preflight: warnOwnerAsMember,

    async create(inputs) {
      const c = client();
      const api = membershipApi(c, inputs.org, inputs.teamSlug, inputs.username);
      const id = teamMembershipKind.formatId(inputs);
      // Adoption changes nothing it need not: a membership that has the role already is taken.
      const existing = await readOrGone(api.get);
      if (existing) {
        const outs = await membershipOutputs(c, inputs, existing, inputs.role);
        if (outs.role === inputs.role) return { id, outs };
      }
      return { id, outs: await membershipOutputs(c, inputs, await api.set(inputs.role), inputs.role) };
    },

    async read(id, props) {
      const { org, teamSlug, username } = teamMembershipKind.parseId(id);
      const c = client();
      // No membership: removed, declined, or the person left the organisation. Refresh drops it.
      const membership = await readOrGone(membershipApi(c, org, teamSlug, username).get);
      if (!membership) return {};
      const who = {
        org: props?.org ?? org,
        teamSlug: props?.teamSlug ?? teamSlug,
        username: props?.username ?? username,
      };
      return { id, props: await membershipOutputs(c, who, membership, props?.role) };
    },

    async update(_id, _olds, news) {
      const c = client();
      const api = membershipApi(c, news.org, news.teamSlug, news.username);
      return { outs: await membershipOutputs(c, news, await api.set(news.role), news.role) };
    },

    async delete(id) {
      const { org, teamSlug, username } = teamMembershipKind.parseId(id);
      await deleteIgnoringGone(membershipApi(client(), org, teamSlug, username).remove);
    },
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** A person's membership of a team: see its declaration, `teamMembershipKind`. Example: `examples/teams/`. */
export class TeamMembership extends resourceClass<TeamMembershipArgs, TeamMembershipOutputs>(
  teamMembershipProvider,
) {}
