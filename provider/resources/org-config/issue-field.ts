/**
 * IssueField: one of an organisation's issue fields (`/orgs/{org}/issue-fields`). The data type is
 * fixed at creation, so a change replaces the field (deleting the old one first: names are unique
 * in the organisation). Select fields carry options, compared as a list by name: the list's order
 * is the options' priority, and an update keeps the server's option (its id, and so the values
 * issues hold) for every option whose name is still wanted, adds new names and deletes the rest.
 * The API has no GET of one field: refresh reads the organisation's list, shared by every field of
 * that organisation in the run.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ApiIssueField,
  ISSUE_FIELD_DATA_TYPES,
  ISSUE_FIELD_SELECT_TYPES,
  ISSUE_FIELD_VISIBILITIES,
  type IssueColor,
  type IssueFieldDataType,
  type IssueFieldVisibility,
  orgConfigRoutes,
} from "../../../api/org-config";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { client } from "../../internal/context";
import { PartialCreateError } from "../../internal/creates";
import {
  type ArgsOf,
  declareKind,
  field,
  type NestedArgsOf,
  type OutputsOfKind,
  output,
} from "../../internal/declare";
import { lowerCased, sameValue } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import { wireMapping } from "../../internal/wire";
import { issueColor, issueDescription, issueName } from "./issue-type";
import {
  adopted,
  type ConfigCollection,
  collectionNotFound,
  createOnce,
  discoveryOf,
  findInCollection,
  importIdField,
  sameName,
  writingTo,
} from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration (a change of dataType replaces the field)
// ---------------------------------------------------------------------------------------------

export type { IssueFieldDataType, IssueFieldVisibility };

/** The platform's limit on options of one field. */
export const ISSUE_FIELD_OPTIONS_MAX = 100;

/** One option of a select field: the named type `IssueFieldOption`. */
const issueFieldOption = z
  .object(
    {
      name: issueName("options[].name").meta({
        description: "The option's name, unique in the field (case-insensitively): how options are matched.",
      }),
      color: issueColor("options[].color").meta({
        description: "`gray`, `blue`, `green`, `yellow`, `orange`, `red`, `pink` or `purple`.",
      }),
      description: issueDescription("options[].description").meta({
        description: "What the option means. Omitted: none.",
      }),
    },
    { error: "options must hold objects {name, color, description?}" },
  )
  .meta({ id: "IssueFieldOption", description: "One option of a select field." });

/** One option of a select field. */
export type IssueFieldOptionArgs = NestedArgsOf<typeof issueFieldOption>;
export type IssueFieldOption = z.infer<typeof issueFieldOption>;

export const issueFieldKind = declareKind({
  kind: "IssueField",
  description:
    "An issue field of an organisation (`/orgs/{org}/issue-fields`). Needs an organisation owner's token: classic scope `admin:org`, or the fine-grained permission `issue_fields` write. A change of `dataType` deletes the field before creating its replacement (names are unique in the organisation). Refresh reads the organisation's list once per run for all its fields.",
  idFormat: ["org", "issueFieldId"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the field.",
      replace: true,
    }),
    name: field(issueName("name"), {
      description: "The field's name, unique in the organisation (case-insensitively). Updates in place.",
      wire: { path: "name" },
    }),
    dataType: field(
      z.enum(ISSUE_FIELD_DATA_TYPES, {
        error: `dataType must be one of ${ISSUE_FIELD_DATA_TYPES.join(", ")}`,
      }),
      {
        description:
          "`text`, `date`, `number`, `single_select` or `multi_select`. Fixed at creation: a change replaces the field (the old one is deleted first, and the values issues held with it).",
        replace: true,
        wire: { path: "data_type" },
      },
    ),
    // A PATCH keeps an omitted description: null clears one not wanted.
    description: field(issueDescription("description"), {
      description: "What the field is for, at most 1,024 characters. Omitted: none. Updates in place.",
      wire: { path: "description", none: null },
    }),
    visibility: field(
      z
        .enum(ISSUE_FIELD_VISIBILITIES, {
          error: `visibility must be one of ${ISSUE_FIELD_VISIBILITIES.join(", ")}`,
        })
        .default("organization_members_only"),
      {
        description: "`organization_members_only` (default) or `all`. Updates in place.",
        wire: { path: "visibility" },
      },
    ),
    options: field(
      z
        .array(issueFieldOption, { error: "options must be a list of {name, color, description?}" })
        .max(ISSUE_FIELD_OPTIONS_MAX, `options may hold at most ${ISSUE_FIELD_OPTIONS_MAX} options`)
        .optional(),
      {
        description:
          "The options of a select field (required for `single_select` and `multi_select`, refused for the other types), in priority order. Compared as a list by name: an option keeps its id while its name stays; renaming one is deleting it and adding another. Updates in place.",
      },
    ),
    importId: importIdField("field"),
  }),
  outputs: z.object({
    issueFieldId: output(z.number().int(), "The field's id in the organisation."),
  }),
  // The collection is defined with the provider, below; it is called only when discovery runs.
  discovery: discoveryOf(
    "issue fields",
    ["{org|module}-issue-field-{name}"],
    (c, org) => issueFields(c, org),
    (org, issueFieldId): string => issueFieldKind.formatId({ org, issueFieldId }),
  ),
});

export type IssueFieldArgs = ArgsOf<typeof issueFieldKind.inputs>;
export type IssueFieldInputs = z.infer<typeof issueFieldKind.inputs>;
export type IssueFieldOutputs = OutputsOfKind<typeof issueFieldKind>;

const isSelect = (dataType: string) => ISSUE_FIELD_SELECT_TYPES.includes(dataType as IssueFieldDataType);

/** Options belong to select fields only, which need at least one; their names are unique. */
function optionRules(inputs: IssueFieldInputs, pending: ReadonlySet<string>): pulumi.dynamic.CheckFailure[] {
  if (pending.has("options") || pending.has("dataType")) return [];
  const options = inputs.options;
  if (!isSelect(inputs.dataType)) {
    return options === undefined
      ? []
      : [
          {
            property: "options",
            reason: `options are only for single_select and multi_select fields (dataType is ${inputs.dataType}); remove them`,
          },
        ];
  }
  if (options === undefined || options.length === 0) {
    return [{ property: "options", reason: `a ${inputs.dataType} field needs at least one option` }];
  }
  const seen: string[] = [];
  for (const option of options) {
    if (typeof option?.name !== "string") continue;
    if (seen.some((n) => sameName(n, option.name))) {
      return [
        {
          property: "options",
          reason: `options holds the name ${JSON.stringify(option.name)} twice (names compare case-insensitively)`,
        },
      ];
    }
    seen.push(option.name);
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/**
 * Name, dataType, description and visibility, from the wire paths their fields declare. The options
 * are mapped here: a write sends each with the id the field has for its name now (`optionsBody`).
 */
const wire = wireMapping<IssueFieldInputs>(issueFieldKind.inputs, issueFieldKind.rules);

function issueFieldOutputs(
  who: { org: string; importId?: string | undefined },
  api: ApiIssueField,
): IssueFieldOutputs {
  return compact({
    org: who.org,
    ...(wire.fromWire(api) as Pick<IssueFieldInputs, "name" | "dataType" | "description" | "visibility">),
    options: api.options?.map((o) =>
      compact({ name: o.name, color: o.color as IssueColor, description: o.description ?? undefined }),
    ),
    importId: who.importId,
    issueFieldId: api.id,
  });
}

/**
 * The options to send: the list's order is the priority, and a wanted name the field already has
 * (case-insensitively) is sent with that option's id, so the option (and the values issues hold
 * with it) is kept; options not sent are deleted.
 */
function optionsBody(wanted: readonly IssueFieldOption[] | undefined, current: ApiIssueField | undefined) {
  return wanted?.map((option, i) => {
    const existing = current?.options?.find((o) => sameName(o.name, option.name));
    return {
      ...(existing ? { id: existing.id } : {}),
      name: option.name,
      color: option.color,
      description: option.description ?? null,
      priority: i + 1,
    };
  });
}

/** The whole desired state, as POST takes it. */
function createBody(inputs: IssueFieldInputs) {
  const options = optionsBody(inputs.options, undefined);
  return { ...wire.toWire(inputs), ...(options ? { options } : {}) };
}

/** The whole desired state but the data type, fixed at creation (a change replaces the field). */
function updateBody(inputs: IssueFieldInputs, current: ApiIssueField | undefined) {
  const { data_type: _fixed, ...settings } = wire.toWire(inputs);
  const options = optionsBody(inputs.options, current);
  return { ...settings, ...(options ? { options } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = issueFieldKind.kind;

const issueFields = (c: HostingClient, org: string): ConfigCollection<ApiIssueField> => ({
  kind: KIND,
  org,
  path: orgConfigRoutes.issueFields.list.path({ org }),
  list: () => c.paginate(orgConfigRoutes.issueFields.list, { org }),
});

/**
 * PATCH with the whole desired state, options mapped to the ids `current` has. Repeating it is
 * safe only with the same ids, which a new option lacks: a PATCH that adds options is not repeated.
 */
async function patch(
  c: HostingClient,
  org: string,
  id: number | string,
  inputs: IssueFieldInputs,
  current: ApiIssueField | undefined,
) {
  const at = issueFields(c, org);
  const field = { org, issue_field_id: id };
  const body = updateBody(inputs, current);
  const idempotent = body.options?.every((o) => "id" in o) ?? true;
  try {
    return (
      await writingTo(c, at, () => c.patch(orgConfigRoutes.issueFields.update, field, body, { idempotent }))
    ).data;
  } catch (e) {
    throw collectionNotFound(e, at, "PATCH");
  }
}

function differs(api: ApiIssueField, inputs: IssueFieldInputs): boolean {
  const options = issueFieldOutputs({ org: inputs.org }, api).options;
  return wire.changed(api, inputs).length > 0 || !sameValue(options, inputs.options);
}

export const issueFieldProvider = defineProvider<typeof issueFieldKind.inputs, IssueFieldOutputs>(
  issueFieldKind,
  {
    crossField: optionRules,
    comparable: lowerCased<IssueFieldInputs>("org"),
    adoptedId: (inputs) =>
      inputs.importId === undefined
        ? undefined
        : issueFieldKind.formatId({ org: inputs.org, issueFieldId: inputs.importId }),

    async create(inputs) {
      const c = client();
      const at = issueFields(c, inputs.org);
      const outputsOf = (api: ApiIssueField) => issueFieldOutputs(inputs, api);
      if (inputs.importId === undefined) {
        const made = await createOnce(c, at, inputs.name, async () => {
          return (await c.post(orgConfigRoutes.issueFields.create, { org: inputs.org }, createBody(inputs)))
            .data;
        });
        return {
          id: issueFieldKind.formatId({ org: inputs.org, issueFieldId: made.id }),
          outs: outputsOf(made),
        };
      }
      const existing = await adopted(c, at, inputs.importId);
      const id = issueFieldKind.formatId({ org: inputs.org, issueFieldId: existing.id });
      if (existing.data_type !== inputs.dataType) {
        throw new PartialCreateError(
          id,
          outputsOf(existing),
          new Error(
            `IssueField importId ${inputs.importId} is a ${existing.data_type} field and dataType is ${inputs.dataType}; a field's data type cannot change: set dataType to ${existing.data_type}`,
          ),
        );
      }
      if (!differs(existing, inputs)) return { id, outs: outputsOf(existing) };
      try {
        return { id, outs: outputsOf(await patch(c, inputs.org, existing.id, inputs, existing)) };
      } catch (e) {
        throw new PartialCreateError(id, outputsOf(existing), e);
      }
    },

    async read(id, props) {
      const { org, issueFieldId: fieldId } = issueFieldKind.parseId(id);
      const found = await findInCollection(client(), issueFields(client(), org), fieldId);
      if (!found) return {};
      return { id, props: issueFieldOutputs({ org: props?.org ?? org, importId: props?.importId }, found) };
    },

    async update(id, _olds, news) {
      const { org, issueFieldId: fieldId } = issueFieldKind.parseId(id);
      const c = client();
      // The option ids the field has now (not as state last saw them): one list read.
      const current =
        news.options === undefined ? undefined : await findInCollection(c, issueFields(c, org), fieldId);
      return { outs: issueFieldOutputs(news, await patch(c, org, fieldId, news, current)) };
    },

    async delete(id) {
      const { org, issueFieldId: fieldId } = issueFieldKind.parseId(id);
      const c = client();
      await deleteIgnoringGone(() =>
        writingTo(c, issueFields(c, org), () =>
          c.delete(orgConfigRoutes.issueFields.delete, { org, issue_field_id: fieldId }),
        ),
      );
    },
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** An issue field of an organisation: see its declaration, `issueFieldKind`. Example: `examples/organizations/`. */
export class IssueField extends resourceClass<IssueFieldArgs, IssueFieldOutputs>(issueFieldProvider, {
  deleteBeforeReplace: true,
}) {}
