/**
 * TeamMembers: the **authoritative** list of a team's direct members with their roles
 * (`/orgs/{org}/teams/{team_slug}/members` and `/memberships/{username}`). Anyone added outside
 * Pulumi is drift, named by refresh, and `up` removes them; so is a role changed by hand. Members
 * only through a child team are the child team's affair and are left alone.
 *
 * Someone not yet in the organisation is invited and counts as a member while the invitation is
 * open. An owner declared a `member` is compared as the platform means it (owners are reported as
 * maintainers), so it converges; preview says so once.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { type ApiTeamMember, teamsRoutes } from "../../../api/teams";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { client, notice } from "../../internal/context";
import {
  type ArgsOf,
  declareKind,
  type Found,
  field,
  type NestedArgsOf,
  type OutputsOfKind,
} from "../../internal/declare";
import { lowerCased, sameValue } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { resourceClass } from "../../internal/resource";
import { isOwner, listTeams, ownerAsMemberNotice, teamNotFound, teamSlugField } from "./shared";
import { teamKind } from "./team";
import { roleAsMeant, teamRoleField } from "./team-membership";

// ---------------------------------------------------------------------------------------------
// Declaration (the outputs are the inputs)
// ---------------------------------------------------------------------------------------------

/** One member of the list: the named type `TeamMember`. */
const teamMember = z
  .object(
    {
      username: fields.name("members[].username").meta({ description: "The person's login." }),
      role: teamRoleField.meta({ description: '`"member"` (default) or `"maintainer"`.' }),
    },
    { error: "members must hold objects {username, role?}" },
  )
  .meta({ id: "TeamMember", description: "A direct member of a team, with their role." });

export type TeamMemberArgs = NestedArgsOf<typeof teamMember>;
type Member = z.infer<typeof teamMember>;

export const teamMembersKind = declareKind({
  kind: "TeamMembers",
  description:
    "The **authoritative** list of a team's direct members (`/orgs/{org}/teams/{team_slug}/members`): a member added outside Pulumi, or a role changed by hand, is drift, and `up` removes or restores it. Members only through a child team are left alone. **Destroying it removes the listed members from the team.** An owner of the organisation declared a `member` converges (the platform reports owners as maintainers). Needs an owner of the organisation or a maintainer of the team: classic scope `admin:org`, or the fine-grained permission `members` write.",
  idFormat: ["org", "teamSlug"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the resource.",
      replace: true,
    }),
    teamSlug: teamSlugField("resource"),
    members: field(z.array(teamMember, { error: "members must be a list of {username, role?}" }), {
      description:
        "Every direct member of the team, each with a role: an authoritative set. Anyone else is removed; people not yet in the organisation are invited (pending until they accept).",
      set: true,
    }),
  }),
  outputs: z.object({}),
  discovery: {
    scope: "org",
    what: ({ org }) => `team members of ${org}`,
    names: ["{org|module}-{label|teamSlug}-members"],
    // The member lists say everything (login and role), so nothing is read again.
    async list(c, { org = "", once }): Promise<Found[]> {
      const teams = await once("teams", () => listTeams(c, org));
      const found = await Promise.all(
        teams.map(async (team): Promise<Found[]> => {
          const listed = await readOrGone(() => directMembers(c, org, team.slug));
          if (listed === undefined || listed.length === 0) return [];
          return [
            {
              id: teamMembersKind.formatId({ org, teamSlug: team.slug }),
              inputs: { org, teamSlug: team.slug, members: listed },
              label: team.name,
              refs: {
                teamSlug: { kind: "Team", id: teamKind.formatId({ org, teamId: team.id }), output: "slug" },
              },
            },
          ];
        }),
      );
      return found.flat();
    },
  },
});

export type TeamMembersArgs = ArgsOf<typeof teamMembersKind.inputs>;
export type TeamMembersInputs = z.infer<typeof teamMembersKind.inputs>;
export type TeamMembersOutputs = OutputsOfKind<typeof teamMembersKind>;

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = teamMembersKind.kind;

/**
 * The team's direct, active members with the role the platform reports (members only through a
 * child team are left out). Where the list does not say roles (an organisation without the
 * feature), the maintainers are listed apart.
 */
async function directMembers(c: HostingClient, org: string, team_slug: string): Promise<Member[]> {
  const route = teamsRoutes.teamMembers.list;
  const listed = (await c.paginate(route, { org, team_slug }, { query: { role: "all" } })).filter(
    (m: ApiTeamMember) => m.inherited !== true,
  );
  if (listed.every((m) => m.role !== undefined)) {
    return listed.map((m) => ({
      username: m.login,
      role: m.role === "maintainer" ? "maintainer" : "member",
    }));
  }
  const maintainers = new Set(
    (await c.paginate(route, { org, team_slug }, { query: { role: "maintainer" } })).map((m) =>
      m.login.toLowerCase(),
    ),
  );
  return listed.map((m) => ({
    username: m.login,
    role: maintainers.has(m.login.toLowerCase()) ? "maintainer" : "member",
  }));
}

/**
 * The members as the program means them: the active ones listed, with an owner declared a member
 * read as one, and the declared people whose invitation is still open (the list holds active
 * members only), each spelled as `declared` spells them.
 */
async function membersAsMeant(
  c: HostingClient,
  org: string,
  teamSlug: string,
  declared: readonly Member[],
): Promise<Member[]> {
  const wanted = new Map(declared.map((m) => [m.username.toLowerCase(), m]));
  const active = await directMembers(c, org, teamSlug);
  const seen = new Set(active.map((m) => m.username.toLowerCase()));
  const members = await Promise.all(
    active.map(async (m): Promise<Member> => {
      const mine = wanted.get(m.username.toLowerCase());
      const role = await roleAsMeant(c, org, m.username, m.role, mine?.role);
      return { username: mine?.username ?? m.username, role };
    }),
  );
  const pending = await Promise.all(
    declared
      .filter((m) => !seen.has(m.username.toLowerCase()))
      .map(async (m): Promise<Member | undefined> => {
        const at = { org, team_slug: teamSlug, username: m.username };
        const membership = await readOrGone(async () => (await c.get(teamsRoutes.teamMembers.get, at)).data);
        if (membership?.state !== "pending") return undefined;
        return { username: m.username, role: membership.role === "maintainer" ? "maintainer" : "member" };
      }),
  );
  return [...members, ...pending.filter((m) => m !== undefined)];
}

/**
 * Brings the team's members to `declared`: people not declared are removed, declared people added
 * (or invited) or given their role. Returns nothing to record: the outputs are the inputs.
 */
async function converge(
  c: HostingClient,
  org: string,
  teamSlug: string,
  declared: readonly Member[],
): Promise<void> {
  const current = await membersAsMeant(c, org, teamSlug, declared).catch((e: unknown) => {
    throw teamNotFound(e, {
      method: "GET",
      path: teamsRoutes.teamMembers.list.path({ org, team_slug: teamSlug }),
      what: `${KIND} ${org}/${teamSlug}`,
      org,
      slug: teamSlug,
    });
  });
  const wanted = new Map(declared.map((m) => [m.username.toLowerCase(), m]));
  const now = new Map(current.map((m) => [m.username.toLowerCase(), m]));
  const removals = current.filter((m) => !wanted.has(m.username.toLowerCase()));
  const writes = declared.filter((m) => now.get(m.username.toLowerCase())?.role !== m.role);
  await Promise.all([
    ...removals.map((m) =>
      deleteIgnoringGone(() =>
        c.delete(teamsRoutes.teamMembers.remove, { org, team_slug: teamSlug, username: m.username }),
      ),
    ),
    ...writes.map((m) => {
      const at = { org, team_slug: teamSlug, username: m.username };
      return c.put(teamsRoutes.teamMembers.set, at, { role: m.role }).catch((e: unknown) => {
        throw teamNotFound(e, {
          method: "PUT",
          path: teamsRoutes.teamMembers.set.path(at),
          what: `${KIND} ${org}/${teamSlug}`,
          org,
          slug: teamSlug,
          username: m.username,
        });
      });
    }),
  ]);
}

/** Duplicate people in the list (logins compare case-insensitively). */
function refuseDuplicates(inputs: TeamMembersInputs): pulumi.dynamic.CheckFailure[] {
  const seen = new Set<string>();
  for (const m of inputs.members) {
    const key = typeof m?.username === "string" ? m.username.toLowerCase() : undefined;
    if (key === undefined) continue;
    if (seen.has(key)) return [{ property: "members", reason: `members lists ${m.username} twice` }];
    seen.add(key);
  }
  return [];
}

/** Preview's warning for owners declared members, when the list is new or changes. */
async function warnOwnersAsMembers(
  inputs: TeamMembersInputs,
  olds: Partial<TeamMembersInputs>,
): Promise<undefined> {
  // `olds` are the inputs as last written: a role left out was the default, member.
  const before = olds.members?.map((m) => ({ username: m.username.toLowerCase(), role: m.role ?? "member" }));
  const now = inputs.members.map((m) => ({ username: m.username.toLowerCase(), role: m.role }));
  if (before !== undefined && sameValue(before, now, true)) return undefined;
  const c = client();
  for (const m of inputs.members.filter((m) => m.role === "member")) {
    if (await isOwner(c, inputs.org, m.username).catch(() => false)) {
      notice(ownerAsMemberNotice(KIND, `${inputs.org}/${inputs.teamSlug}`, inputs.org, m.username));
    }
  }
  return undefined;
}

export const teamMembersProvider = defineProvider<typeof teamMembersKind.inputs, TeamMembersOutputs>(
  teamMembersKind,
  {
    comparable: (values) => {
      const lowered = lowerCased<TeamMembersInputs>("org", "teamSlug")(values) as Record<string, unknown>;
      const members = lowered.members;
      if (!Array.isArray(members)) return lowered;
      return {
        ...lowered,
        members: members.map((m: Member) =>
          typeof m?.username === "string" ? { ...m, username: m.username.toLowerCase() } : m,
        ),
      };
    },
    crossField: (inputs, pending) => (pending.has("members") ? [] : refuseDuplicates(inputs)),
    preflight: warnOwnersAsMembers,

    async create(inputs) {
      await converge(client(), inputs.org, inputs.teamSlug, inputs.members);
      return { id: teamMembersKind.formatId(inputs), outs: { ...inputs, members: [...inputs.members] } };
    },

    async read(id, props) {
      const { org, teamSlug } = teamMembersKind.parseId(id);
      const members = await readOrGone(() => membersAsMeant(client(), org, teamSlug, props?.members ?? []));
      if (!members) return {};
      return { id, props: { org: props?.org ?? org, teamSlug: props?.teamSlug ?? teamSlug, members } };
    },

    async update(_id, _olds, news) {
      await converge(client(), news.org, news.teamSlug, news.members);
      return { outs: { ...news, members: [...news.members] } };
    },

    async delete(id, props) {
      const { org, teamSlug } = teamMembersKind.parseId(id);
      const c = client();
      await Promise.all(
        (props.members ?? []).map((m) =>
          deleteIgnoringGone(() =>
            c.delete(teamsRoutes.teamMembers.remove, { org, team_slug: teamSlug, username: m.username }),
          ),
        ),
      );
    },
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** A team's whole list of direct members: see its declaration, `teamMembersKind`. Example: `examples/teams/`. */
export class TeamMembers extends resourceClass<TeamMembersArgs, TeamMembersOutputs>(teamMembersProvider) {}
