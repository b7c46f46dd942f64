/**
 * A team as code: the team itself, the whole list of its members, a closed team nested under it
 * with one member of its own, and the team's role on repositories of its organisation. Used by
 * this example's program and by the root demo.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

export interface TeamSettings {
  org: string;
  name: string;
  description?: string;
  /**
   * Every member of the team with their role: anyone added by hand is removed by the next `up`.
   * An owner of the organisation may be listed as a member: the platform calls owners maintainers,
   * which preview mentions once, and nothing shows as a change.
   */
  members: hosting.TeamMemberArgs[];
  /** The team's role on repositories of `org`, by repository name. */
  repositories: Record<string, hosting.RepositoryPermission>;
  /** A closed team nested under this one, and the person it holds. */
  child?: { name: string; member: string };
}

export interface DeclaredTeam {
  teamId: pulumi.Output<number>;
  slug: pulumi.Output<string>;
  childSlug?: pulumi.Output<string>;
}

/**
 * Declares the team. It is closed (seen by the whole organisation) so that a team can be nested
 * under it: only closed teams nest. A rename in the program keeps the team's id; `slug` follows it,
 * and everything below is given the slug output, so it follows too.
 */
export function declareTeam(settings: TeamSettings): DeclaredTeam {
  const { org } = settings;
  const key = settings.name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const team = new hosting.Team(`${org}-${key}`, {
    org,
    name: settings.name,
    ...(settings.description ? { description: settings.description } : {}),
    privacy: "closed",
  });
  new hosting.TeamMembers(`${org}-${key}-members`, { org, teamSlug: team.slug, members: settings.members });
  for (const [repository, permission] of Object.entries(settings.repositories)) {
    new hosting.TeamRepository(`${org}-${key}-${repository}`, {
      org,
      teamSlug: team.slug,
      repository,
      permission,
    });
  }
  if (!settings.child) return { teamId: team.teamId, slug: team.slug };
  const child = new hosting.Team(`${org}-${key}-child`, {
    org,
    name: settings.child.name,
    privacy: "closed",
    parentTeamId: team.teamId,
  });
  // One membership, not the team's whole list: others may join the child team by hand.
  new hosting.TeamMembership(`${org}-${key}-child-${settings.child.member}`, {
    org,
    teamSlug: child.slug,
    username: settings.child.member,
    role: "maintainer",
  });
  return { teamId: team.teamId, slug: team.slug, childSlug: child.slug };
}
