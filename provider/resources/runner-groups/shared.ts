/**
 * What enterprise and organisation runner groups share: the declared settings fields and outputs,
 * the cross-field rules and the mapping of a group to state. Talking to the API is
 * `group-api.ts`.
 *
 * Id lists and workflow lists compare as sets, so a reordering on the server is never drift.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { ApiRunnerGroup } from "../../../api/runner-groups";
import { unexpectedResponse } from "../../client/errors";
import { type CrossFieldRules, fields, selectedIdsFailure } from "../../internal/check";
import { type DeclaredKind, field, output } from "../../internal/declare";
import { compact } from "../../internal/outputs";
import { wireMapping } from "../../internal/wire";

// ---------------------------------------------------------------------------------------------
// Declaration: the fields both kinds have. Each kind declares its owner and access list first, then
// the name, its own visibility and these settings: the order the importer writes arguments in.
// ---------------------------------------------------------------------------------------------

export const groupName = field(
  z.string({ error: "name is required: the runner group's name" }).trim().min(1, "name must not be empty"),
  {
    description: "The group's name, unique within its owner. A rename updates in place.",
    wire: { path: "name" },
  },
);

export const groupSettings = {
  allowsPublicRepositories: field(
    z.boolean({ error: "allowsPublicRepositories must be a boolean" }).default(false),
    {
      description: "Whether public repositories may use the group's runners. Default false.",
      wire: { path: "allows_public_repositories" },
    },
  ),
  restrictedToWorkflows: field(
    z.boolean({ error: "restrictedToWorkflows must be a boolean" }).default(false),
    {
      description: "Limit the group to the workflows in `selectedWorkflows`. Default false.",
      wire: { path: "restricted_to_workflows" },
    },
  ),
  selectedWorkflows: field(
    z
      .array(z.string().min(1, "selectedWorkflows must not hold empty strings"), {
        error: "selectedWorkflows must be a list of workflow references",
      })
      .optional(),
    {
      description:
        "Workflow references (`owner/repo/.github/workflows/ci.yml@main`) allowed to use the group; compared as a set. Only with `restrictedToWorkflows: true`.",
      set: true,
      wire: { path: "selected_workflows" },
    },
  ),
  importId: field(fields.numericId("importId").optional(), {
    description:
      "Adopt the existing group with this id instead of creating one (e.g. the default group); it is converged to these args. Only read at create.",
    createOnly: true,
  }),
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

/** The values the server sets on both kinds. */
export const groupOutputs = {
  runnerGroupId: output(z.number().int(), "The group's id on the server."),
  isDefault: output(z.boolean(), "Whether this is the owner's default group (never deleted on destroy)."),
  runnersUrl: output(z.string(), "The API URL that lists the group's runners."),
};

const stateSchema = z.object(groupOutputs);
export type GroupState = z.infer<typeof stateSchema>;

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

/** A group as the server has it: settings, and the access list and runners where they were read. */
export interface LiveGroup {
  settings: LiveSettings;
  /** The organisation or repository ids, when visibility is "selected". */
  access: number[] | undefined;
  /** The runners, when they are managed. */
  runners: number[] | undefined;
}

/**
 * A kind's mapping between its groups and the settings part of state: name, visibility and the
 * settings from the wire paths their fields declare (each kind declares its own visibility).
 */
export function groupMapping(declared: Pick<DeclaredKind, "inputs" | "rules">) {
  const wire = wireMapping<GroupSettingsInputs>(declared.inputs, declared.rules);
  /** Workflows count only while the group is restricted to them (then at least `[]`). */
  const counted = <V extends Partial<GroupSettingsInputs>>(v: V): V => ({
    ...v,
    selectedWorkflows: v.restrictedToWorkflows ? (v.selectedWorkflows ?? []) : undefined,
  });
  return {
    fromApi: (api: ApiRunnerGroup): LiveSettings =>
      compact({
        ...(counted(wire.fromWire(api)) as Omit<LiveSettings, keyof GroupState>),
        runnerGroupId: api.id,
        isDefault: api.default ?? false,
        runnersUrl: api.runners_url ?? "",
      }),
    /** The PATCH body: every setting, since omitted ones are reset to their defaults. */
    body: (inputs: GroupSettingsInputs) => wire.toWire(counted(inputs)),
    differ: (live: LiveSettings, inputs: GroupSettingsInputs) =>
      wire.changedValues(counted(live as Partial<GroupSettingsInputs>), counted(inputs)).length > 0,
  };
}

/** What `groupMapping` derives for a kind. */
export type GroupMapping = ReturnType<typeof groupMapping>;
