/** `getTeam`: a team of an organisation by its slug, with the id other kinds need. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { TEAM_NOTIFICATION_SETTINGS, TEAM_PRIVACIES, teamsRoutes } from "../../api/teams";
import { isNotFound, notFoundError } from "../client/errors";
import { fields } from "../internal/check";
import { declareFunction, field, output } from "../internal/declare";
import { clientOf, type FunctionOptions, type InputArgs, outputOf, parseArgs } from "./common";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

export const getTeamFunction = declareFunction({
  name: "getTeam",
  description:
    "A team of an organisation, by its slug (`GET /orgs/{org}/teams/{team_slug}`): its id (a reviewer's or a parent team's `teamId`), name, privacy and counts. Needs a token that sees the team (a member of the organisation for a closed team; an owner or a member of the team for a secret one): classic scope `read:org`, or the fine-grained permission `members` read.",
  args: z.strictObject({
    org: field(fields.name("org"), { description: "The organisation's login." }),
    slug: field(fields.name("slug"), {
      description: "The team's slug (its name in lower case, other characters as `-`).",
    }),
  }),
  result: z.object({
    org: output(z.string(), "The organisation asked for."),
    slug: output(z.string(), "The team's slug, as the API answers it."),
    teamId: output(z.number().int(), "The team's id."),
    name: output(z.string(), "The team's name."),
    description: output(z.string().optional(), "What the team is for; absent when it has no description."),
    privacy: output(z.enum(TEAM_PRIVACIES), "`secret` or `closed`."),
    notificationSetting: output(
      z.enum(TEAM_NOTIFICATION_SETTINGS),
      "`notifications_enabled` or `notifications_disabled`.",
    ),
    parentTeamId: output(z.number().int().optional(), "The parent team's id; absent for a top-level team."),
    membersCount: output(z.number().int().optional(), "How many direct members the team has."),
    reposCount: output(z.number().int().optional(), "How many repositories the team was given."),
  }),
});

export type GetTeamArgs = z.input<typeof getTeamFunction.args>;
export type GetTeamResult = z.infer<typeof getTeamFunction.result>;

// ---------------------------------------------------------------------------------------------
// Function
// ---------------------------------------------------------------------------------------------

/** The team `slug` of `org`. */
export async function getTeam(args: GetTeamArgs, opts?: FunctionOptions): Promise<GetTeamResult> {
  const a = parseArgs(getTeamFunction.name, getTeamFunction.args, args);
  const route = teamsRoutes.teams.get;
  const params = { org: a.org, team_slug: a.slug };
  const team = await clientOf(opts)
    .get(route, params)
    .then((r) => r.data)
    .catch((e: unknown) => {
      if (!isNotFound(e)) throw e;
      throw notFoundError({
        method: "GET",
        path: route.path(params),
        what: `getTeam ${a.org}/${a.slug}`,
        causes: [
          `${a.org} has no team with the slug ${a.slug} (a rename changes the slug)`,
          `the token's user cannot see it (a secret team is seen by owners of ${a.org} and its members)`,
        ],
      });
    });
  const result: GetTeamResult = {
    org: a.org,
    slug: team.slug,
    teamId: team.id,
    name: team.name,
    privacy: team.privacy === "closed" ? "closed" : "secret",
    notificationSetting:
      team.notification_setting === "notifications_disabled"
        ? "notifications_disabled"
        : "notifications_enabled",
  };
  if (team.description) result.description = team.description;
  if (team.parent) result.parentTeamId = team.parent.id;
  if (team.members_count !== undefined) result.membersCount = team.members_count;
  if (team.repos_count !== undefined) result.reposCount = team.repos_count;
  return result;
}

/** `getTeam` taking Inputs; secret when an input is. */
export function getTeamOutput(
  args: InputArgs<GetTeamArgs>,
  opts?: FunctionOptions,
): pulumi.Output<GetTeamResult> {
  return outputOf(args, (a: GetTeamArgs) => getTeam(a, opts));
}
