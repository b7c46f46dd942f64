/**
 * TeamRepository: a team's role on one repository of its organisation
 * (`PUT /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}`). The role is read from the team's
 * repository list, its `permissions` booleans (or `role_name`) mapped to the five roles; one list
 * per team answers every repository of that team read in a run. A role changed outside Pulumi is
 * drift; access taken away outside Pulumi drops the resource at refresh.
 */
import { z } from "zod";
import { permissionFromApi } from "../../../api/collaborators";
import { type ApiTeamRepository, teamsRoutes } from "../../../api/teams";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { collectionReads } from "../../internal/collection-reads";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, field, type OutputsOfKind } from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { resourceClass } from "../../internal/resource";
import { permissionField, roleOf } from "../collaborators/shared";
import { teamNotFound, teamSlugField } from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration (the outputs are the inputs: the PUT answers 204 with no body)
// ---------------------------------------------------------------------------------------------

export const teamRepositoryKind = declareKind({
  kind: "TeamRepository",
  description:
    "A team's role on a repository of its organisation (`PUT /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}`): `pull`, `triage`, `push`, `maintain` or `admin`, which the team's members (and those of its child teams) then hold on the repository. A role changed outside Pulumi is drift. Needs an admin of the repository: classic scope `admin:org`, or the fine-grained permission `members` write.",
  idFormat: ["org", "teamSlug", "repository"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description:
        "The organisation, which owns both the team and the repository. A change replaces the resource.",
      replace: true,
    }),
    teamSlug: teamSlugField("resource"),
    repository: field(fields.name("repository"), {
      description: "The repository's name, in `org`. A change replaces the resource.",
      replace: true,
    }),
    permission: permissionField("pull", "team"),
  }),
  outputs: z.object({}),
  // hosting-import adopts a repository's team access with RepositoryCollaborators (the whole list).
});

export type TeamRepositoryArgs = ArgsOf<typeof teamRepositoryKind.inputs>;
export type TeamRepositoryInputs = z.infer<typeof teamRepositoryKind.inputs>;
export type TeamRepositoryOutputs = OutputsOfKind<typeof teamRepositoryKind>;

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = teamRepositoryKind.kind;

/** The team's list, shared by the reads of the team's repositories in a run. */
const teamRepos = (org: string, team_slug: string) => teamsRoutes.teamRepos.list.path({ org, team_slug });

/** The team's role on the repository, or undefined when it has none (or the team is gone). */
async function currentRole(c: HostingClient, org: string, teamSlug: string, repository: string) {
  const found = await readOrGone(() =>
    collectionReads.find(c, {
      collection: teamRepos(org, teamSlug),
      key: `${org}/${repository}`.toLowerCase(),
      keyOf: (r: ApiTeamRepository) => `${r.owner.login}/${r.name}`.toLowerCase(),
      list: () => c.paginate(teamsRoutes.teamRepos.list, { org, team_slug: teamSlug }),
    }),
  );
  return found === undefined
    ? undefined
    : roleOf(KIND, permissionFromApi(found.permissions, found.role_name), found);
}

/** PUT sets the role whole, so repeating it is harmless. */
async function setRole(c: HostingClient, inputs: TeamRepositoryInputs): Promise<void> {
  const at = { org: inputs.org, team_slug: inputs.teamSlug, owner: inputs.org, repo: inputs.repository };
  await collectionReads
    .write(c, teamRepos(inputs.org, inputs.teamSlug), () =>
      c.put(teamsRoutes.teamRepos.set, at, { permission: inputs.permission }),
    )
    .catch((e: unknown) => {
      throw teamNotFound(e, {
        method: "PUT",
        path: teamsRoutes.teamRepos.set.path(at),
        what: `${KIND} ${inputs.org}/${inputs.teamSlug}/${inputs.repository}`,
        org: inputs.org,
        slug: inputs.teamSlug,
      });
    });
}

export const teamRepositoryProvider = defineProvider<typeof teamRepositoryKind.inputs, TeamRepositoryOutputs>(
  teamRepositoryKind,
  {
    comparable: lowerCased<TeamRepositoryInputs>("org", "teamSlug", "repository"),

    async create(inputs) {
      const c = client();
      // Adoption changes nothing it need not: access with this role already is taken as it is.
      const role = await currentRole(c, inputs.org, inputs.teamSlug, inputs.repository);
      if (role !== inputs.permission) await setRole(c, inputs);
      return { id: teamRepositoryKind.formatId(inputs), outs: { ...inputs } };
    },

    async read(id, props) {
      const { org, teamSlug, repository } = teamRepositoryKind.parseId(id);
      const permission = await currentRole(client(), org, teamSlug, repository);
      if (permission === undefined) return {};
      return {
        id,
        props: {
          org: props?.org ?? org,
          teamSlug: props?.teamSlug ?? teamSlug,
          repository: props?.repository ?? repository,
          permission,
        },
      };
    },

    async update(_id, _olds, news) {
      await setRole(client(), news);
      return { outs: { ...news } };
    },

    async delete(id) {
      const { org, teamSlug, repository } = teamRepositoryKind.parseId(id);
      const c = client();
      await deleteIgnoringGone(() =>
        collectionReads.write(c, teamRepos(org, teamSlug), () =>
          c.delete(teamsRoutes.teamRepos.remove, { org, team_slug: teamSlug, owner: org, repo: repository }),
        ),
      );
    },
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** A team's role on a repository: see its declaration, `teamRepositoryKind`. Example: `examples/teams/`. */
export class TeamRepository extends resourceClass<TeamRepositoryArgs, TeamRepositoryOutputs>(
  teamRepositoryProvider,
) {}
