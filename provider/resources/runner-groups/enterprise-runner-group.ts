/**
 * EnterpriseRunnerGroup: a self-hosted runner group of an enterprise
 * (`/enterprises/{enterprise}/actions/runner-groups`), with its organisation access and, when
 * `runners` is given, its runners.
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

const VISIBILITY = z.enum(["all", "selected"], { error: 'visibility must be one of "all", "selected"' });

export const enterpriseRunnerGroupKind = declareKind({
  kind: "EnterpriseRunnerGroup",
  description:
    "A self-hosted runner group of an enterprise (`/enterprises/{enterprise}/actions/runner-groups`), with its organisation access and, when `runners` is given, its runners. Needs a classic token with `manage_runners:enterprise` of an enterprise owner; fine-grained and app tokens are refused by the API.",
  idFormat: ["enterprise", "runnerGroupId"],
  inputs: z.object({
    enterprise: field(fields.name("enterprise"), {
      description: "The enterprise slug. A change replaces the group.",
      replace: true,
    }),
    selectedOrganizationIds: field(fields.idList("selectedOrganizationIds").optional(), {
      description:
        'Ids of the organisations that may use the group; a set. Only with visibility `"selected"`.',
      set: true,
    }),
    runners: field(fields.idList("runners").optional(), {
      description:
        "Ids of the enterprise runners in the group; an authoritative set (runners left out return to the default group). When absent, the group's runners are not managed.",
      set: true,
    }),
    name: groupName,
    visibility: field(VISIBILITY.default("all"), {
      description: '`"all"` organisations of the enterprise, or the `"selected"` ones. Default `"all"`.',
      wire: { path: "visibility" },
    }),
    ...groupSettings,
  }),
  outputs: z.object(groupOutputs),
  discovery: {
    scope: "enterprise",
    what: ({ enterprise }) => `runner groups of the enterprise ${enterprise}`,
    names: ["{enterprise|module}-runners-{name}"],
    async list(c, { enterprise = "" }): Promise<Found[]> {
      const groups = await adoptableGroups(c, runnerGroupsRoutes.enterpriseRunnerGroups.list, { enterprise });
      return groups.map((g) => ({
        id: enterpriseRunnerGroupKind.formatId({ enterprise, runnerGroupId: g.id }),
        importId: g.id,
      }));
    },
  },
});

export type EnterpriseRunnerGroupArgs = ArgsOf<typeof enterpriseRunnerGroupKind.inputs>;
export type EnterpriseRunnerGroupInputs = z.infer<typeof enterpriseRunnerGroupKind.inputs>;
export type EnterpriseRunnerGroupOutputs = OutputsOfKind<typeof enterpriseRunnerGroupKind>;

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const ENTERPRISE_GROUPS: GroupKind<EnterpriseRunnerGroupInputs, { enterprise: string }> = {
  kind: enterpriseRunnerGroupKind.kind,
  ownerPart: "enterprise",
  parseId: enterpriseRunnerGroupKind.parseId,
  idOf: (enterprise, runnerGroupId) => enterpriseRunnerGroupKind.formatId({ enterprise, runnerGroupId }),
  settings: groupMapping(enterpriseRunnerGroupKind),
  access: { bodyKey: "selected_organization_ids" },
  routes: {
    ...runnerGroupsRoutes.enterpriseRunnerGroups,
    access: runnerGroupsRoutes.enterpriseRunnerGroups.organizations,
    setAccess: runnerGroupsRoutes.enterpriseRunnerGroups.setOrganizations,
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
  typeof enterpriseRunnerGroupKind.inputs,
  EnterpriseRunnerGroupOutputs
>(enterpriseRunnerGroupKind, {
  crossField: groupRules("selectedOrganizationIds"),
  ...groupMethods(ENTERPRISE_GROUPS),
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/**
 * A self-hosted runner group of an enterprise: see its declaration, `enterpriseRunnerGroupKind`.
 * Example: `examples/runner-groups/`.
 */
export class EnterpriseRunnerGroup extends resourceClass<
  EnterpriseRunnerGroupArgs,
  EnterpriseRunnerGroupOutputs
>(enterpriseRunnerGroupProvider) {}
