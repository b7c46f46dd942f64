/**
 * Team: a team of an organisation (`/orgs/{org}/teams/{team_slug}`), identified by its id, so a
 * rename is an update that keeps it (the `slug` output follows the new name; the routes address
 * teams by slug, so the team is found by its id wherever a rename outside Pulumi took it).
 *
 * Creating a team whose name the organisation already uses adopts that team (names are unique per
 * organisation). A nested team must be closed: check refuses a secret one with a parent, and
 * preview refuses a parent that is itself secret.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ApiTeam,
  TEAM_NOTIFICATION_SETTINGS,
  TEAM_PRIVACIES,
  type TeamNotificationSetting,
  type TeamPrivacy,
  teamSlugOf,
  teamsRoutes,
} from "../../../api/teams";
import { isHostingApiError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { collectionReads } from "../../internal/collection-reads";
import { client, notice } from "../../internal/context";
import { createWithoutDuplicates, madeSince, PartialCreateError } from "../../internal/creates";
import {
  type ArgsOf,
  declareKind,
  type Found,
  field,
  type OutputsOfKind,
  output,
} from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import { wireMapping } from "../../internal/wire";
import { findTeam, listTeams, teamNotFound } from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

export type { TeamNotificationSetting, TeamPrivacy };

/** The longest team name the platform takes. */
export const TEAM_NAME_MAX = 255;

export const teamKind = declareKind({
  kind: "Team",
  description:
    "A team of an organisation (`/orgs/{org}/teams/{team_slug}`), kept by its id: a rename is an update, and the `slug` output follows it. Creating a team whose name the organisation already uses adopts that team. Needs an owner of the organisation (or a maintainer of the team, for updates): classic scope `admin:org`, or the fine-grained permission `members` write.",
  idFormat: ["org", "teamId"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the team.",
      replace: true,
    }),
    name: field(
      z
        .string({ error: 'name is required: a team name such as "Platform"' })
        .trim()
        .min(1, "name must not be empty")
        .max(TEAM_NAME_MAX, `name must be at most ${TEAM_NAME_MAX} characters`)
        .refine((v) => teamSlugOf(v) !== "", { error: "name must hold at least one letter or digit" }),
      {
        description:
          "The team's name, unique in the organisation; the slug is made from it (lower case, other characters as `-`). A change renames the team in place: its id stays, its `slug` output follows.",
        wire: { path: "name" },
      },
    ),
    // The platform answers an empty description as null or "": both are none, and "" removes one.
    description: field(z.string({ error: "description must be a string" }).optional(), {
      description: "What the team is for. Omitted: none. Updates in place.",
      wire: { path: "description", none: "" },
    }),
    privacy: field(
      z
        .enum(TEAM_PRIVACIES, { error: `privacy must be one of ${TEAM_PRIVACIES.join(", ")}` })
        .default("secret"),
      {
        description:
          '`"secret"` (seen by owners and the team\'s members) or `"closed"` (seen by every member of the organisation). Default `"secret"`. A nested team (with `parentTeamId`) must be `"closed"`, and so must its parent. Updates in place.',
        wire: { path: "privacy" },
      },
    ),
    notificationSetting: field(
      z
        .enum(TEAM_NOTIFICATION_SETTINGS, {
          error: `notificationSetting must be one of ${TEAM_NOTIFICATION_SETTINGS.join(", ")}`,
        })
        .default("notifications_enabled"),
      {
        description:
          'Whether @mentioning the team notifies its members: `"notifications_enabled"` (default) or `"notifications_disabled"`. Updates in place.',
        wire: { path: "notification_setting" },
      },
    ),
    parentTeamId: field(
      z
        .number({ error: "parentTeamId must be the integer id of a team" })
        .int("parentTeamId must be an integer")
        .positive("parentTeamId must be positive")
        .optional(),
      {
        description:
          "The id of the parent team (another `Team`'s `teamId`), in the same organisation. Omitted: a top-level team. Updates in place.",
      },
    ),
  }),
  outputs: z.object({
    teamId: output(z.number().int(), "The team's id: it stays across renames."),
    slug: output(z.string(), "The team's slug, as the routes address it; it follows a rename."),
  }),
  discovery: {
    scope: "org",
    what: ({ org }) => `teams of ${org}`,
    names: ["{org|module}-team-{name}"],
    async list(c, { org = "", once }): Promise<Found[]> {
      const teams = await once("teams", () => listTeams(c, org));
      // A parent is written as its id: a reference could name a team written further down.
      return teams.map((t) => ({ id: teamKind.formatId({ org, teamId: t.id }), label: t.name }));
    },
  },
});

export type TeamArgs = ArgsOf<typeof teamKind.inputs>;
export type TeamInputs = z.infer<typeof teamKind.inputs>;
export type TeamOutputs = OutputsOfKind<typeof teamKind>;

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/**
 * Name, description, privacy and notificationSetting, from the wire paths their fields declare. The
 * parent is mapped here: the API answers it as `parent.id` and takes it as `parent_team_id`.
 */
const wire = wireMapping<TeamInputs>(teamKind.inputs, teamKind.rules);

function teamOutputs(org: string, api: ApiTeam): TeamOutputs {
  return compact({
    org,
    ...(wire.fromWire(api) as Omit<TeamInputs, "org" | "parentTeamId">),
    parentTeamId: api.parent?.id,
    teamId: api.id,
    slug: api.slug,
  });
}

/** The whole desired state; `parent_team_id: null` removes a parent not wanted. */
function writeBody(inputs: TeamInputs) {
  return { ...wire.toWire(inputs), parent_team_id: inputs.parentTeamId ?? null };
}

function differs(api: ApiTeam, inputs: TeamInputs): boolean {
  return wire.changed(api, inputs).length > 0 || api.parent?.id !== inputs.parentTeamId;
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = teamKind.kind;

/** The team of the organisation named `name` (names are unique, case-insensitively). */
async function teamNamed(c: HostingClient, org: string, name: string): Promise<ApiTeam | undefined> {
  const bySlug = await readOrGone(
    async () => (await c.get(teamsRoutes.teams.get, { org, team_slug: teamSlugOf(name) })).data,
  );
  if (bySlug && bySlug.name.toLowerCase() === name.toLowerCase()) return bySlug;
  // A slug the platform made otherwise: the list says.
  const all = await readOrGone(() => listTeams(c, org));
  return all?.find((t) => t.name.toLowerCase() === name.toLowerCase());
}

/** PATCH sends the whole desired state, so repeating it after an ambiguous failure is harmless. */
async function patch(c: HostingClient, org: string, slug: string, inputs: TeamInputs): Promise<ApiTeam> {
  const route = teamsRoutes.teams.update;
  return collectionReads
    .write(
      c,
      teamsRoutes.teams.list.path({ org }),
      async () => (await c.patch(route, { org, team_slug: slug }, writeBody(inputs))).data,
    )
    .catch((e: unknown) => {
      throw teamNotFound(e, {
        method: "PATCH",
        path: route.path({ org, team_slug: slug }),
        what: `${KIND} ${org}/${slug}`,
        org,
        slug,
      });
    });
}

/**
 * A parent that is itself secret is refused at preview, with one read of the parent when it is new
 * to the resource (none for a plain preview of an unchanged stack). A parent that cannot be read
 * now is left to the write, which says why.
 */
async function refuseSecretParent(
  inputs: TeamInputs,
  olds: Partial<TeamInputs>,
): Promise<pulumi.dynamic.CheckFailure | undefined> {
  if (inputs.parentTeamId === undefined) return undefined;
  if (olds.parentTeamId === inputs.parentTeamId && olds.org?.toLowerCase() === inputs.org.toLowerCase()) {
    return undefined;
  }
  const parent = await findTeam(client(), inputs.org, inputs.parentTeamId, undefined).catch(() => undefined);
  if (parent?.privacy !== "secret") return undefined;
  return {
    property: "parentTeamId",
    reason: `team ${inputs.parentTeamId} (${parent.slug}) of ${inputs.org} is secret: only closed teams can have child teams. Make the parent closed first`,
  };
}

export const teamProvider = defineProvider<typeof teamKind.inputs, TeamOutputs>(teamKind, {
  comparable: lowerCased<TeamInputs>("org"),
  crossField: (inputs, pending) =>
    inputs.parentTeamId !== undefined && !pending.has("parentTeamId") && inputs.privacy === "secret"
      ? [
          {
            property: "privacy",
            reason:
              'a nested team must be closed: this team has a parentTeamId, so set privacy: "closed" (the default, "secret", is for top-level teams)',
          },
        ]
      : [],
  preflight: refuseSecretParent,

  async create(inputs) {
    const c = client();
    const { org } = inputs;
    const outputsOf = (api: ApiTeam) => teamOutputs(org, api);
    // Names are unique in an organisation: a team of this name is this team, adopted.
    const existing = await teamNamed(c, org, inputs.name);
    if (existing) {
      const id = teamKind.formatId({ org, teamId: existing.id });
      notice(`${KIND} ${org}/${existing.slug}: adopted the existing team of that name (id ${existing.id})`);
      if (!differs(existing, inputs)) return { id, outs: outputsOf(existing) };
      try {
        return { id, outs: outputsOf(await patch(c, org, existing.slug, inputs)) };
      } catch (e) {
        throw new PartialCreateError(id, outputsOf(existing), e);
      }
    }
    const route = teamsRoutes.teams.create;
    const made = await createWithoutDuplicates(
      () =>
        collectionReads.write(
          c,
          teamsRoutes.teams.list.path({ org }),
          async () => (await c.post(route, { org }, writeBody(inputs))).data,
        ),
      async (startedAt) => {
        const found = await teamNamed(c, org, inputs.name);
        return found && madeSince(found.created_at, startedAt) ? found : undefined;
      },
    ).catch((e: unknown) => {
      if (isHostingApiError(e) && e.status === 404) {
        throw teamNotFound(e, {
          method: "POST",
          path: route.path({ org }),
          what: `${KIND} ${inputs.name}`,
          org,
          slug: teamSlugOf(inputs.name),
        });
      }
      throw e;
    });
    return { id: teamKind.formatId({ org, teamId: made.value.id }), outs: outputsOf(made.value) };
  },

  async read(id, props) {
    const { org, teamId } = teamKind.parseId(id);
    const found = await findTeam(client(), org, teamId, props?.slug);
    if (!found) return {};
    return { id, props: teamOutputs(props?.org ?? org, found) };
  },

  async update(id, olds, news) {
    const { org, teamId } = teamKind.parseId(id);
    const c = client();
    // The slug state holds, unless a rename outside Pulumi moved the team since.
    const current = await findTeam(c, org, teamId, olds.slug);
    const slug = current?.slug ?? olds.slug;
    return { outs: teamOutputs(news.org, await patch(c, org, slug, news)) };
  },

  async delete(id, props) {
    const { org, teamId } = teamKind.parseId(id);
    const c = client();
    const current = await findTeam(c, org, teamId, props.slug);
    if (!current) return;
    await deleteIgnoringGone(() =>
      collectionReads.write(c, teamsRoutes.teams.list.path({ org }), () =>
        c.delete(teamsRoutes.teams.delete, { org, team_slug: current.slug }),
      ),
    );
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** A team of an organisation: see its declaration, `teamKind`. Example: `examples/teams/`. */
export class Team extends resourceClass<TeamArgs, TeamOutputs>(teamProvider) {}
