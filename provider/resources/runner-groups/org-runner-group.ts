/**
 * OrgRunnerGroup: a self-hosted runner group of an organisation (`/orgs/{org}/actions/runner-groups`)
 * with its repository access. Its runners are RunnerGroupRunners' to manage.
 */
import { z } from "zod";
import { runnerGroupsRoutes } from "../../../api/runner-groups";
import { fields } from "../../internal/check";
import { type ArgsOf, declareKind, type Found, field, type OutputsOfKind } from "../../internal/declare";
import { defineProvider } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import { adoptableGroups, type GroupKind, groupMethods } from "./group-api";
import { groupMapping, groupName, groupOutputs, groupRules, groupSettings, visibilityAs } from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

const VISIBILITY = z.enum(["all", "selected", "private"], {
  error: 'visibility must be one of "all", "selected", "private"',
});

export const orgRunnerGroupKind = declareKind({
  kind: "OrgRunnerGroup",
  description:
    "A self-hosted runner group of an organisation (`/orgs/{org}/actions/runner-groups`), with its repository access; its runners are managed by `RunnerGroupRunners`. Needs `admin:org` (or the fine-grained permission `organization_self_hosted_runners` write) of an owner.",
  idFormat: ["org", "runnerGroupId"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the group.",
      replace: true,
    }),
    selectedRepositoryIds: field(fields.idList("selectedRepositoryIds").optional(), {
      description:
        'Ids of the repositories that may use the group; a set. Only with visibility `"selected"`.',
      set: true,
    }),
    name: groupName,
    visibility: field(VISIBILITY.default("all"), {
      description:
        '`"all"` repositories, the `"selected"` ones, or `"private"` repositories only. Default `"all"`.',
      wire: { path: "visibility" },
    }),
    ...groupSettings,
  }),
  outputs: z.object(groupOutputs),
  discovery: {
    scope: "org",
    what: ({ org }) => `runner groups of ${org}`,
    names: ["{org|module}-runners-{name}"],
    async list(c, { org = "", once }): Promise<Found[]> {
      // The same list RunnerGroupRunners reads: one request per organisation for both.
      const groups = await once("orgRunnerGroups", () =>
        adoptableGroups(c, runnerGroupsRoutes.orgRunnerGroups.list, { org }),
      );
      return groups.map((g) => ({
        id: orgRunnerGroupKind.formatId({ org, runnerGroupId: g.id }),
        importId: g.id,
      }));
    },
  },
});

export type OrgRunnerGroupArgs = ArgsOf<typeof orgRunnerGroupKind.inputs>;
export type OrgRunnerGroupInputs = z.infer<typeof orgRunnerGroupKind.inputs>;
export type OrgRunnerGroupOutputs = OutputsOfKind<typeof orgRunnerGroupKind>;

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const ORG_GROUPS: GroupKind<OrgRunnerGroupInputs, { org: string }> = {
  kind: orgRunnerGroupKind.kind,
  ownerPart: "org",
  parseId: orgRunnerGroupKind.parseId,
  idOf: (org, runnerGroupId) => orgRunnerGroupKind.formatId({ org, runnerGroupId }),
  settings: groupMapping(orgRunnerGroupKind),
  access: { bodyKey: "selected_repository_ids" },
  routes: {
    ...runnerGroupsRoutes.orgRunnerGroups,
    access: runnerGroupsRoutes.orgRunnerGroups.repositories,
    setAccess: runnerGroupsRoutes.orgRunnerGroups.setRepositories,
  },
  ownerParams: (org) => ({ org }),
  owner: (values) => values.org,
  // Runners of organisation groups belong to RunnerGroupRunners.
  desired: (values) => ({ access: values.selectedRepositoryIds, runners: undefined }),
  outputs: (org, importId, live) =>
    compact({
      org,
      importId,
      ...live.settings,
      visibility: visibilityAs(VISIBILITY, live.settings),
      selectedRepositoryIds: live.access,
    }),
};

export const orgRunnerGroupProvider = defineProvider<typeof orgRunnerGroupKind.inputs, OrgRunnerGroupOutputs>(
  orgRunnerGroupKind,
  {
    crossField: groupRules("selectedRepositoryIds"),
    ...groupMethods(ORG_GROUPS),
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/**
 * A self-hosted runner group of an organisation: see its declaration, `orgRunnerGroupKind`.
 * Example: `examples/runner-groups/`.
 */
export class OrgRunnerGroup extends resourceClass<OrgRunnerGroupArgs, OrgRunnerGroupOutputs>(
  orgRunnerGroupProvider,
) {}
