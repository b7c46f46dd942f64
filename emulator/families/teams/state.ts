/**
 * The teams family's state: an organisation's teams, their direct members and their access to
 * repositories. Organisations and repositories are kept by id, so a rename of either moves
 * nothing here. The fixture's teams (`fixture.teams`, seeded for review requests) are where a
 * fresh state's teams come from.
 */
import type { Fixture } from "../../core/fixture";
import type { RepoRole } from "../../core/repo-access";
import { rows, type StateOf } from "../../core/state";

export type TeamPrivacy = "secret" | "closed";
export type TeamNotificationSetting = "notifications_enabled" | "notifications_disabled";
export type TeamRole = "member" | "maintainer";

export interface StoredTeam {
  id: number;
  orgId: number;
  name: string;
  /** Made from the name (`slugOf`); a rename changes it. */
  slug: string;
  description: string | null;
  privacy: TeamPrivacy;
  notificationSetting: TeamNotificationSetting;
  /** What repositories added without a permission get (the API's closing-down `permission`). */
  permission: "pull" | "push" | "admin";
  parentId: number | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A person's direct membership of a team, with the role asked for. Whether it is active or pending
 * is their organisation membership's affair (teams.ts, `membershipState`).
 */
export interface StoredTeamMember {
  teamId: number;
  /** The login as the fixture spells it. */
  login: string;
  role: TeamRole;
}

/** A team's own role on a repository (child teams inherit it). */
export interface StoredTeamRepo {
  teamId: number;
  repoId: number;
  permission: RepoRole;
}

/** When the fixture's teams were made: the fixture states no time. */
const SEEDED_AT = "2026-01-01T00:00:00Z";

/** The fixture's teams, as teams of the state: closed, notifying, without parent. */
function seededTeams(fixture: Fixture): StoredTeam[] {
  return (fixture.teams ?? []).flatMap((t) => {
    const org = fixture.orgs.find((o) => o.login.toLowerCase() === t.org.toLowerCase());
    if (!org) return [];
    return [
      {
        id: t.id,
        orgId: org.id,
        name: t.name,
        slug: t.slug,
        description: t.description,
        privacy: "closed",
        notificationSetting: "notifications_enabled",
        permission: "pull",
        parentId: null,
        createdAt: SEEDED_AT,
        updatedAt: SEEDED_AT,
      },
    ];
  });
}

function seededMembers(fixture: Fixture): StoredTeamMember[] {
  const known = new Set(seededTeams(fixture).map((t) => t.id));
  return (fixture.teams ?? []).flatMap((t) =>
    known.has(t.id)
      ? t.members.map((login): StoredTeamMember => ({ teamId: t.id, login, role: "member" }))
      : [],
  );
}

export const teamsState = {
  teams: rows<StoredTeam>(seededTeams, { ids: "nextId" }),
  teamMembers: rows<StoredTeamMember>(seededMembers),
  teamRepos: rows<StoredTeamRepo>(),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof teamsState> {}
}
