/**
 * What the kinds of the teams family share: the team named by a slug (an input of the kinds that
 * hang off a team, the `slug` output of a `Team`), a team found by its id whatever its slug is now,
 * the errors that say what to check, and the organisation's owners (whom the platform reports as
 * maintainers of every team they belong to).
 */
import { membershipsRoutes } from "../../../api/memberships";
import { type ApiTeam, teamsRoutes } from "../../../api/teams";
import { isNotFound, notFoundError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { collectionReads } from "../../internal/collection-reads";
import { field } from "../../internal/declare";
import { readOrGone } from "../../internal/lifecycle";

/** `teamSlug` of the kinds that hang off a team. */
export const teamSlugField = (what: string) =>
  field(fields.name("teamSlug"), {
    description: `The team's slug (a \`Team\`'s \`slug\` output: it follows a rename). A change replaces the ${what}.`,
    replace: true,
  });

/** The organisation's teams, every page. */
export const listTeams = (c: HostingClient, org: string) => c.paginate(teamsRoutes.teams.list, { org });

/**
 * The team with this id, wherever a rename took its slug: the slug state last saw first (one GET),
 * else the organisation's list, shared by every team of that organisation read in the run.
 * Undefined when the organisation has no such team (or no longer exists).
 */
export async function findTeam(
  c: HostingClient,
  org: string,
  teamId: number,
  slug: string | undefined,
): Promise<ApiTeam | undefined> {
  if (slug) {
    const bySlug = await readOrGone(
      async () => (await c.get(teamsRoutes.teams.get, { org, team_slug: slug })).data,
    );
    if (bySlug?.id === teamId) return bySlug;
  }
  const path = teamsRoutes.teams.list.path({ org });
  return readOrGone(() =>
    collectionReads.find(c, {
      collection: path,
      key: String(teamId),
      keyOf: (team: ApiTeam) => String(team.id),
      list: () => listTeams(c, org),
    }),
  );
}

/** A 404 from a route of a team: what the user should check. */
export function teamNotFound(
  e: unknown,
  at: { method: string; path: string; what: string; org: string; slug: string; username?: string },
) {
  if (!isNotFound(e)) return e;
  return notFoundError({
    method: at.method,
    path: at.path,
    what: at.what,
    causes: [
      `${at.org} has no team with the slug ${at.slug} (give a Team's slug output: it follows renames)`,
      ...(at.username === undefined ? [] : [`there is no user ${at.username}`]),
      `the token's user cannot see the team (a secret team is seen by owners of ${at.org} and its members)`,
      "the token lacks the classic scope admin:org (read:org to read), or the fine-grained permission members",
    ],
  });
}

/**
 * Whether `login` owns the organisation. The platform reports owners as maintainers of every team
 * they are in, so a `member` role asked for an owner reads back as `maintainer`: this tells that
 * apart from a role changed outside Pulumi. The owners are listed once per organisation and run.
 */
export async function isOwner(c: HostingClient, org: string, login: string): Promise<boolean> {
  const route = membershipsRoutes.members.list;
  const found = await readOrGone(() =>
    collectionReads.find(c, {
      collection: `${route.path({ org })}?role=admin`,
      key: login.toLowerCase(),
      keyOf: (u: { login: string }) => u.login.toLowerCase(),
      list: () => c.paginate(route, { org }, { query: { role: "admin" } }),
    }),
  );
  return found !== undefined;
}

/** The warning preview gives for an owner declared as a plain member. */
export function ownerAsMemberNotice(kind: string, where: string, org: string, login: string): string {
  return `${kind} ${where}: ${login} is an owner of ${org}, and the platform reports organisation owners as maintainers of every team they are in; role "member" is kept as written and read back as the platform means it (no change is shown for it)`;
}
