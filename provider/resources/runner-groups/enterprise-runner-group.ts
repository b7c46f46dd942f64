/**
 * EnterpriseRunnerGroup: a self-hosted runner group of an enterprise
 * (`/enterprises/{enterprise}/actions/runner-groups`), with its organisation access and, when
 * `runners` is given, its runners.
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

export interface EnterpriseRunnerGroupArgs extends RunnerGroupArgsBase {
  /** The enterprise slug. A change replaces the group. */
  enterprise: pulumi.Input<string>;
  /** `"all"` organisations of the enterprise, or the `"selected"` ones. Default `"all"`. */
  visibility?: pulumi.Input<"all" | "selected">;
  /** Ids of the organisations that may use the group; a set. Only with visibility `"selected"`. */
  selectedOrganizationIds?: pulumi.Input<pulumi.Input<number>[]>;
  /**
   * Ids of the enterprise runners in the group; an authoritative set (runners left out return to
   * the default group). When absent, the group's runners are not managed.
   */
  runners?: pulumi.Input<pulumi.Input<number>[]>;
}

// ---------------------------------------------------------------------------------------------
// Schemas (defaults applied in check)
// ---------------------------------------------------------------------------------------------

const VISIBILITY = z.enum(["all", "selected"], { error: 'visibility must be one of "all", "selected"' });

export const enterpriseRunnerGroupInputs = z.object({
  enterprise: fields.name("enterprise"),
  ...groupInputs,
  visibility: VISIBILITY.default("all"),
  selectedOrganizationIds: fields.idList("selectedOrganizationIds").optional(),
  runners: fields.idList("runners").optional(),
});

export type EnterpriseRunnerGroupInputs = z.infer<typeof enterpriseRunnerGroupInputs>;
export type EnterpriseRunnerGroupOutputs = GroupOutputs<EnterpriseRunnerGroupInputs>;

// ---------------------------------------------------------------------------------------------
// Replace-on-change
// ---------------------------------------------------------------------------------------------

export const enterpriseRunnerGroupRules: FieldRules<EnterpriseRunnerGroupInputs> = {
  enterprise: { replace: true },
  selectedOrganizationIds: { set: true },
  runners: { set: true },
  ...groupFieldRules,
};

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const ENTERPRISE_GROUPS: GroupKind<EnterpriseRunnerGroupInputs, { enterprise: string }> = {
  kind: "EnterpriseRunnerGroup",
  ownerPart: "enterprise",
  access: { bodyKey: "selected_organization_ids" },
  routes: {
    ...ROUTES.enterpriseRunnerGroups,
    access: ROUTES.enterpriseRunnerGroups.organizations,
    setAccess: ROUTES.enterpriseRunnerGroups.setOrganizations,
  },
  ownerParams: (enterprise) => ({ enterprise }),
  owner: (values) => values.enterprise,
  desired: (values) => ({ access: values.selectedOrganizationIds, runners: values.runners }),
  outputs: (enterprise, importId, live) =>
    compact({
      enterprise,
      importId,
      ...live.settings,
      visibility: visibilityAs(VISIBILITY, live.settings),
      selectedOrganizationIds: live.access,
      runners: live.runners,
    }),
};

export const enterpriseRunnerGroupProvider = defineProvider<
  typeof enterpriseRunnerGroupInputs,
  EnterpriseRunnerGroupOutputs
>(ENTERPRISE_GROUPS.kind, {
  idFormat: [ENTERPRISE_GROUPS.ownerPart, "runnerGroupId"],
  inputs: enterpriseRunnerGroupInputs,
  crossField: groupRules("selectedOrganizationIds"),
  rules: enterpriseRunnerGroupRules,
  ...groupMethods(ENTERPRISE_GROUPS),
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

const OUTPUTS = ["enterprise", "selectedOrganizationIds", "runners", ...GROUP_OUTPUTS] as const;

/**
 * A self-hosted runner group of an enterprise (`/enterprises/{enterprise}/actions/runner-groups`),
 * with its organisation access and, when `runners` is given, its runners. Needs a classic token with
 * `manage_runners:enterprise` of an enterprise owner; fine-grained and app tokens are refused by the
 * API. Example: `examples/runner-groups/`.
 */
export class EnterpriseRunnerGroup extends HostingResource {
  constructor(name: string, args: EnterpriseRunnerGroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(enterpriseRunnerGroupProvider, name, args, OUTPUTS, opts);
  }
}

export interface EnterpriseRunnerGroup extends OutputsOf<EnterpriseRunnerGroupOutputs> {}
