/**
 * IssueType: one of an organisation's issue types (`/orgs/{org}/issue-types`). Everything but the
 * organisation updates in place (PUT takes the whole body). The API has no GET of one type: refresh
 * reads the organisation's list, shared by every type of that organisation in the run.
 */
import { z } from "zod";
import { type ApiIssueType, ISSUE_COLORS, type IssueColor, orgConfigRoutes } from "../../../api/org-config";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { client } from "../../internal/context";
import { PartialCreateError } from "../../internal/creates";
import { type ArgsOf, declareKind, field, type OutputsOfKind, output } from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import { wireMapping } from "../../internal/wire";
import {
  adopted,
  type ConfigCollection,
  collectionNotFound,
  createOnce,
  discoveryOf,
  findInCollection,
  importIdField,
  writingTo,
} from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

export type { IssueColor };

/** The platform's limits on names and descriptions of issue types and fields. */
export const ISSUE_NAME_MAX = 255;
export const ISSUE_DESCRIPTION_MAX = 1024;

export const issueName = (label: string) =>
  z
    .string({ error: `${label} is required: a name such as "Bug"` })
    .trim()
    .min(1, `${label} must not be empty`)
    .max(ISSUE_NAME_MAX, `${label} must be at most ${ISSUE_NAME_MAX} characters`);
export const issueDescription = (label: string) =>
  z
    .string({ error: `${label} must be a string` })
    .max(ISSUE_DESCRIPTION_MAX, `${label} must be at most ${ISSUE_DESCRIPTION_MAX} characters`)
    .optional();
export const issueColor = (label: string) =>
  z.enum(ISSUE_COLORS, { error: `${label} must be one of ${ISSUE_COLORS.join(", ")}` });

export const issueTypeKind = declareKind({
  kind: "IssueType",
  description:
    "An issue type of an organisation (`/orgs/{org}/issue-types`). Needs an organisation owner's token: classic scope `admin:org`, or the fine-grained permission `issue_types` write. Refresh reads the organisation's list once per run for all its types.",
  idFormat: ["org", "issueTypeId"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the type.",
      replace: true,
    }),
    name: field(issueName("name"), {
      description: "The type's name, unique in the organisation (case-insensitively). Updates in place.",
      wire: { path: "name" },
    }),
    // PUT keeps an omitted description or colour: null clears one not wanted.
    description: field(issueDescription("description"), {
      description: "What the type is for, at most 1,024 characters. Omitted: none. Updates in place.",
      wire: { path: "description", none: null },
    }),
    color: field(issueColor("color").optional(), {
      description:
        "`gray`, `blue`, `green`, `yellow`, `orange`, `red`, `pink` or `purple`. Omitted: none. Updates in place.",
      wire: { path: "color", none: null },
    }),
    isEnabled: field(z.boolean({ error: "isEnabled must be a boolean" }).default(true), {
      description: "Whether issues can be given the type. Default true. Updates in place.",
      wire: { path: "is_enabled" },
    }),
    importId: importIdField("type"),
  }),
  outputs: z.object({
    issueTypeId: output(z.number().int(), "The type's id in the organisation."),
  }),
  // The collection is defined with the provider, below; it is called only when discovery runs.
  discovery: discoveryOf(
    "issue types",
    ["{org|module}-issue-type-{name}"],
    (c, org) => types(c, org),
    (org, issueTypeId): string => issueTypeKind.formatId({ org, issueTypeId }),
  ),
});

export type IssueTypeArgs = ArgsOf<typeof issueTypeKind.inputs>;
export type IssueTypeInputs = z.infer<typeof issueTypeKind.inputs>;
export type IssueTypeOutputs = OutputsOfKind<typeof issueTypeKind>;

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/** Name, description, colour and isEnabled, from the wire paths their fields declare. */
const wire = wireMapping<IssueTypeInputs>(issueTypeKind.inputs, issueTypeKind.rules);

function issueTypeOutputs(
  who: { org: string; importId?: string | undefined },
  api: ApiIssueType,
): IssueTypeOutputs {
  return compact({
    org: who.org,
    ...(wire.fromWire(api) as Omit<IssueTypeInputs, "org" | "importId">),
    importId: who.importId,
    issueTypeId: api.id,
  });
}

/** The whole body (PUT takes the whole type). */
const writeBody = (inputs: IssueTypeInputs) => wire.toWire(inputs);

const differs = (api: ApiIssueType, inputs: IssueTypeInputs) => wire.changed(api, inputs).length > 0;

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = issueTypeKind.kind;

const types = (c: HostingClient, org: string): ConfigCollection<ApiIssueType> => ({
  kind: KIND,
  org,
  path: orgConfigRoutes.issueTypes.list.path({ org }),
  list: () => c.paginate(orgConfigRoutes.issueTypes.list, { org }),
});

/** PUT sends the whole desired state, so repeating it after an ambiguous failure is harmless. */
async function put(c: HostingClient, org: string, id: number | string, inputs: IssueTypeInputs) {
  const at = types(c, org);
  const type = { org, issue_type_id: id };
  try {
    return (await writingTo(c, at, () => c.put(orgConfigRoutes.issueTypes.update, type, writeBody(inputs))))
      .data;
  } catch (e) {
    throw collectionNotFound(e, at, "PUT");
  }
}

export const issueTypeProvider = defineProvider<typeof issueTypeKind.inputs, IssueTypeOutputs>(
  issueTypeKind,
  {
    comparable: lowerCased<IssueTypeInputs>("org"),
    adoptedId: (inputs) =>
      inputs.importId === undefined
        ? undefined
        : issueTypeKind.formatId({ org: inputs.org, issueTypeId: inputs.importId }),

    async create(inputs) {
      const c = client();
      const at = types(c, inputs.org);
      const outputsOf = (api: ApiIssueType) => issueTypeOutputs(inputs, api);
      if (inputs.importId === undefined) {
        const made = await createOnce(c, at, inputs.name, async () => {
          return (await c.post(orgConfigRoutes.issueTypes.create, { org: inputs.org }, writeBody(inputs)))
            .data;
        });
        return {
          id: issueTypeKind.formatId({ org: inputs.org, issueTypeId: made.id }),
          outs: outputsOf(made),
        };
      }
      const existing = await adopted(c, at, inputs.importId);
      const id = issueTypeKind.formatId({ org: inputs.org, issueTypeId: existing.id });
      if (!differs(existing, inputs)) return { id, outs: outputsOf(existing) };
      try {
        return { id, outs: outputsOf(await put(c, inputs.org, existing.id, inputs)) };
      } catch (e) {
        throw new PartialCreateError(id, outputsOf(existing), e);
      }
    },

    async read(id, props) {
      const { org, issueTypeId: typeId } = issueTypeKind.parseId(id);
      const found = await findInCollection(client(), types(client(), org), typeId);
      if (!found) return {};
      return { id, props: issueTypeOutputs({ org: props?.org ?? org, importId: props?.importId }, found) };
    },

    async update(id, _olds, news) {
      const { org, issueTypeId: typeId } = issueTypeKind.parseId(id);
      return { outs: issueTypeOutputs(news, await put(client(), org, typeId, news)) };
    },

    async delete(id) {
      const { org, issueTypeId: typeId } = issueTypeKind.parseId(id);
      const c = client();
      await deleteIgnoringGone(() =>
        writingTo(c, types(c, org), () =>
          c.delete(orgConfigRoutes.issueTypes.delete, { org, issue_type_id: typeId }),
        ),
      );
    },
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** An issue type of an organisation: see its declaration, `issueTypeKind`. Example: `examples/organizations/`. */
export class IssueType extends resourceClass<IssueTypeArgs, IssueTypeOutputs>(issueTypeProvider) {}
