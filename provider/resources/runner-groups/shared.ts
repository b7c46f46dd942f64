/**
 * What enterprise and organisation runner groups share: the settings args and their schema, the
 * cross-field rules, the field rules and the mapping of a group to state. Talking to the API is
 * `group-api.ts`.
 *
 * Id lists and workflow lists compare as sets, so a reordering on the server is never drift.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { unexpectedResponse } from "../../client/errors";
import type { ApiRunnerGroup } from "../../client/schemas";
import { type CrossFieldRules, fields, selectedIdsFailure } from "../../internal/check";
import { compact } from "../../internal/outputs";

// ---------------------------------------------------------------------------------------------
// Args
// ---------------------------------------------------------------------------------------------

export interface RunnerGroupArgsBase {
  /** The group's name, unique within its owner. A rename updates in place. */
  name: pulumi.Input<string>;
  /** Whether public repositories may use the group's runners. Default false. */
  allowsPublicRepositories?: pulumi.Input<boolean>;
  /** Limit the group to the workflows in `selectedWorkflows`. Default false. */
  restrictedToWorkflows?: pulumi.Input<boolean>;
  /**
   * Workflow references (`owner/repo/.github/workflows/ci.yml@main`) allowed to use the group;
   * compared as a set. Only with `restrictedToWorkflows: true`.
   */
  selectedWorkflows?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Adopt the existing group with this id instead of creating one (e.g. the default group); it is
   * converged to these args. Only read at create.
   */
  importId?: pulumi.Input<string | number>;
}

// ---------------------------------------------------------------------------------------------
// Schemas (defaults applied in check) and cross-field rules
// ---------------------------------------------------------------------------------------------

export const groupInputs = {
  name: z
    .string({ error: "name is required: the runner group's name" })
    .trim()
    .min(1, "name must not be empty"),
  allowsPublicRepositories: z.boolean({ error: "allowsPublicRepositories must be a boolean" }).default(false),
  restrictedToWorkflows: z.boolean({ error: "restrictedToWorkflows must be a boolean" }).default(false),
  selectedWorkflows: z
    .array(z.string().min(1, "selectedWorkflows must not hold empty strings"), {
      error: "selectedWorkflows must be a list of workflow references",
    })
    .optional(),
  importId: fields.numericId("importId").optional(),
};

/** The settings every group has, as check leaves them. */
export interface GroupSettingsInputs {
  name: string;
  visibility: "all" | "selected" | "private";
  allowsPublicRepositories: boolean;
  restrictedToWorkflows: boolean;
  selectedWorkflows?: string[] | undefined;
  importId?: string | undefined;
}

export interface GroupState {
  /** The group's id on the server. */
  runnerGroupId: number;
  /** Whether this is the owner's default group (never deleted on destroy). */
  isDefault: boolean;
  /** The API URL that lists the group's runners. */
  runnersUrl: string;
}

/** The field holding a kind's access list: organisation ids or repository ids. */
export type AccessField = "selectedOrganizationIds" | "selectedRepositoryIds";

/**
 * The rules across fields of a group: the access ids (`field`) only with visibility "selected", then
 * defaulting to []; workflows only with restrictedToWorkflows, then defaulting to []. Each is skipped
 * while a field it needs is unknown.
 */
export function groupRules<F extends AccessField>(
  field: F,
): CrossFieldRules<GroupSettingsInputs & Partial<Record<F, number[] | undefined>>> {
  return (inputs, pending) => {
    const failures: pulumi.dynamic.CheckFailure[] = [];
    const access = selectedIdsFailure(inputs, pending, field);
    if (access) failures.push(access);
    if (!pending.has("restrictedToWorkflows") && !pending.has("selectedWorkflows")) {
      if (inputs.restrictedToWorkflows) inputs.selectedWorkflows = inputs.selectedWorkflows ?? [];
      else if (inputs.selectedWorkflows !== undefined && inputs.selectedWorkflows.length > 0) {
        failures.push({
          property: "selectedWorkflows",
          reason: "selectedWorkflows is allowed only with restrictedToWorkflows: true",
        });
      } else delete inputs.selectedWorkflows;
    }
    return failures;
  };
}

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/** The settings part of a group as the server has it (ids come from sub-routes). */
export interface LiveSettings extends GroupState {
  name: string;
  /** As the server reports it (the spec lists "all", "selected" and "private" as observed). */
  visibility: string;
  allowsPublicRepositories: boolean;
  restrictedToWorkflows: boolean;
  selectedWorkflows?: string[] | undefined;
}

/** The outputs of a kind: its inputs and the group's state. */
export type GroupOutputs<I extends GroupSettingsInputs> = I & GroupState;

/** The server's visibility as one the kind manages; anything else is a response it cannot use. */
export function visibilityAs<V extends string>(schema: z.ZodType<V>, live: LiveSettings): V {
  const parsed = schema.safeParse(live.visibility);
  if (parsed.success) return parsed.data;
  throw unexpectedResponse(
    "GET",
    live.runnersUrl.replace(/\/runners$/, ""),
    `runner group ${live.runnerGroupId} has visibility "${live.visibility}", which this resource does not manage`,
  );
}

export function settingsFromApi(api: ApiRunnerGroup): LiveSettings {
  const restricted = api.restricted_to_workflows ?? false;
  return compact({
    name: api.name,
    visibility: api.visibility,
    allowsPublicRepositories: api.allows_public_repositories ?? false,
    restrictedToWorkflows: restricted,
    selectedWorkflows: restricted ? (api.selected_workflows ?? []) : undefined,
    runnerGroupId: api.id,
    isDefault: api.default ?? false,
    runnersUrl: api.runners_url ?? "",
  });
}

/** A group as the server has it: settings, and the access list and runners where they were read. */
export interface LiveGroup {
  settings: LiveSettings;
  /** The organisation or repository ids, when visibility is "selected". */
  access: number[] | undefined;
  /** The runners, when they are managed. */
  runners: number[] | undefined;
}

/** The PATCH body: every setting, since omitted ones are reset to their defaults. */
export function settingsBody(inputs: GroupSettingsInputs) {
  return {
    name: inputs.name,
    visibility: inputs.visibility,
    allows_public_repositories: inputs.allowsPublicRepositories,
    restricted_to_workflows: inputs.restrictedToWorkflows,
    ...(inputs.restrictedToWorkflows ? { selected_workflows: inputs.selectedWorkflows ?? [] } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Replace-on-change (the owner and access fields are added per kind)
// ---------------------------------------------------------------------------------------------

export const groupFieldRules = {
  name: {},
  visibility: {},
  allowsPublicRepositories: {},
  restrictedToWorkflows: {},
  selectedWorkflows: { set: true },
  importId: { createOnly: true },
};

/** Output names both kinds declare. */
export const GROUP_OUTPUTS = [
  "name",
  "visibility",
  "allowsPublicRepositories",
  "restrictedToWorkflows",
  "selectedWorkflows",
  "importId",
  "runnerGroupId",
  "isDefault",
  "runnersUrl",
] as const;
