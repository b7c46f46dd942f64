/**
 * OrgRunnerGroup: a self-hosted runner group of an organisation (`/orgs/{org}/actions/runner-groups`)
 * with its repository access. Its runners are RunnerGroupRunners' to manage.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ROUTES } from "../../client/routes";
import { fields } from "../../internal/check";
import type { FieldRules } from "../../internal/diff";
import { defineProvider } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { HostingResource, type OutputsOf } from "../../internal/resource";
import { type GroupKind, groupMethods } from "./group-api";
import {
  GROUP_OUTPUTS,
  type GroupOutputs,
  groupFieldRules,
  groupInputs,
  groupRules,
  type RunnerGroupArgsBase,
  visibilityAs,
} from "./shared";

// ---------------------------------------------------------------------------------------------
// Args
// ---------------------------------------------------------------------------------------------

export interface OrgRunnerGroupArgs extends RunnerGroupArgsBase {
  /** The organisation. A change replaces the group. */
  org: pulumi.Input<string>;
  /** `"all"` repositories, the `"selected"` ones, or `"private"` repositories only. Default `"all"`. */
  visibility?: pulumi.Input<"all" | "selected" | "private">;
  /** Ids of the repositories that may use the group; a set. Only with visibility `"selected"`. */
  selectedRepositoryIds?: pulumi.Input<pulumi.Input<number>[]>;
}

// ---------------------------------------------------------------------------------------------
// Schemas (defaults applied in check)
// ---------------------------------------------------------------------------------------------

const VISIBILITY = z.enum(["all", "selected", "private"], {
  error: 'visibility must be one of "all", "selected", "private"',
});

export const orgRunnerGroupInputs = z.object({
  org: fields.name("org"),
  ...groupInputs,
  visibility: VISIBILITY.default("all"),
  selectedRepositoryIds: fields.idList("selectedRepositoryIds").optional(),
});

export type OrgRunnerGroupInputs = z.infer<typeof orgRunnerGroupInputs>;
export type OrgRunnerGroupOutputs = GroupOutputs<OrgRunnerGroupInputs>;

// ---------------------------------------------------------------------------------------------
// Replace-on-change
// ---------------------------------------------------------------------------------------------

export const orgRunnerGroupRules: FieldRules<OrgRunnerGroupInputs> = {
  org: { replace: true },
  selectedRepositoryIds: { set: true },
  ...groupFieldRules,
};

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const ORG_GROUPS: GroupKind<OrgRunnerGroupInputs, { org: string }> = {
  kind: "OrgRunnerGroup",
  ownerPart: "org",
  access: { bodyKey: "selected_repository_ids" },
  routes: {
    ...ROUTES.orgRunnerGroups,
    access: ROUTES.orgRunnerGroups.repositories,
    setAccess: ROUTES.orgRunnerGroups.setRepositories,
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

export const orgRunnerGroupProvider = defineProvider<typeof orgRunnerGroupInputs, OrgRunnerGroupOutputs>(
  ORG_GROUPS.kind,
  {
    idFormat: [ORG_GROUPS.ownerPart, "runnerGroupId"],
    inputs: orgRunnerGroupInputs,
    crossField: groupRules("selectedRepositoryIds"),
    rules: orgRunnerGroupRules,
    ...groupMethods(ORG_GROUPS),
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

const OUTPUTS = ["org", "selectedRepositoryIds", ...GROUP_OUTPUTS] as const;

/**
 * A self-hosted runner group of an organisation (`/orgs/{org}/actions/runner-groups`), with its
 * repository access; its runners are managed by `RunnerGroupRunners`. Needs `admin:org` (or the
 * fine-grained permission `organization_self_hosted_runners` write) of an owner.
 */
export class OrgRunnerGroup extends HostingResource {
  constructor(name: string, args: OrgRunnerGroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(orgRunnerGroupProvider, name, args, OUTPUTS, opts);
  }
}

export interface OrgRunnerGroup extends OutputsOf<OrgRunnerGroupOutputs> {}
