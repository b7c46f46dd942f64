/**
 * OrgCustomProperty: one repository property an organisation defines
 * (`/orgs/{org}/properties/schema/{custom_property_name}`), whose values `RepositoryPropertyValue`
 * sets. Keyed by its name, so it adopts by construction: create reads the definition and writes
 * only when it differs. Every rule of the definition is checked at preview (allowed values for the
 * selects and none for the others, a default the definition allows, a default for a required
 * property), and destroy deletes it, which removes its values from every repository.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ApiCustomProperty,
  type ApiCustomPropertyWrite,
  checkPropertyValue,
  customPropertiesRoutes,
  MAX_ALLOWED_VALUES,
  PROPERTY_EDITORS,
  PROPERTY_VALUE_TYPES,
} from "../../../api/custom-properties";
import { isNotFound, notFoundError } from "../../client/errors";
import { type CrossFieldRules, fields } from "../../internal/check";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, type Found, field, type OutputsOfKind } from "../../internal/declare";
import { sameValue } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import { wireMapping } from "../../internal/wire";
import { propertyNameSchema } from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

const list = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(", ");

export const orgCustomPropertyKind = declareKind({
  kind: "OrgCustomProperty",
  description:
    "One repository property an organisation defines (`/orgs/{org}/properties/schema/{custom_property_name}`): its type, whether it is required and its default, its allowed values, and who may set values. `RepositoryPropertyValue` sets its values: give it this resource's `propertyName` output, so the value waits for the definition. Destroying it deletes the definition, and the platform removes its values from every repository. Needs an organisation owner's token: classic scope `admin:org` (`read:org` to refresh), or the fine-grained permission `organization_custom_properties` write.",
  idFormat: ["org", "propertyName"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the definition.",
      replace: true,
    }),
    propertyName: field(propertyNameSchema(), {
      description:
        "The property's name (e.g. `team`), unique in the organisation regardless of case. A change replaces the definition (the old one and its values are removed).",
      replace: true,
    }),
    valueType: field(
      z.enum(PROPERTY_VALUE_TYPES, { error: `valueType must be one of ${list(PROPERTY_VALUE_TYPES)}` }),
      {
        description:
          '`"string"`, `"single_select"` (one of `allowedValues`), `"multi_select"` (any of them) or `"true_false"` (the strings `"true"` and `"false"`). Updates in place; values the new definition refuses are removed by the platform.',
        wire: { path: "value_type" },
      },
    ),
    required: field(z.boolean({ error: "required must be true or false" }).default(false), {
      description:
        "Whether every repository has a value: repositories without one have `defaultValue`, which a required property needs. Default `false`. Updates in place.",
      wire: { path: "required" },
    }),
    // The PUT takes the whole definition: null removes a default, description or allowed values not wanted.
    defaultValue: field(
      z
        .union(
          [
            z.string().min(1, "defaultValue must not be an empty string; leave it out for none"),
            z
              .array(z.string().min(1, "defaultValue must not hold empty strings"))
              .min(1, "defaultValue must not be an empty list; leave it out for none"),
          ],
          { error: "defaultValue must be a string, or a list of strings for a multi select" },
        )
        .optional(),
      {
        description:
          "The value of repositories without one (required properties): a string, or a list for a multi select (compared as a set). Updates in place.",
        wire: { path: "default_value", none: null },
      },
    ),
    description: field(
      z
        .string({ error: "description must be a string" })
        .max(255, "description must be at most 255 characters")
        .optional(),
      {
        description: "A short description shown beside the property. Updates in place.",
        wire: { path: "description", none: null },
      },
    ),
    allowedValues: field(
      z
        .array(
          z
            .string()
            .min(1, "allowedValues must not hold empty strings")
            .max(75, "allowedValues must hold names of at most 75 characters"),
          { error: "allowedValues must be a list of strings" },
        )
        .min(1, "allowedValues must not be empty")
        .max(MAX_ALLOWED_VALUES, `allowedValues may hold at most ${MAX_ALLOWED_VALUES} values`)
        .optional(),
      {
        description:
          "The values a select property takes, in the order the platform shows them (required for the selects, refused for the other types). Updates in place; values no longer allowed are removed from repositories by the platform.",
        wire: { path: "allowed_values", none: null },
      },
    ),
    valuesEditableBy: field(
      z
        .enum(PROPERTY_EDITORS, { error: `valuesEditableBy must be one of ${list(PROPERTY_EDITORS)}` })
        .default("org_actors"),
      {
        description:
          'Who may set values: `"org_actors"` (default: organisation owners and those the organisation allows) or `"org_and_repo_actors"` (repository administrators too). Updates in place.',
        wire: { path: "values_editable_by" },
      },
    ),
  }),
  outputs: z.object({}),
  discovery: {
    scope: "org",
    what: ({ org }) => `repository property definitions of ${org}`,
    names: ["{org|module}-property-definition-{propertyName}"],
    async list(c, { org = "" }): Promise<Found[]> {
      const definitions = await c.paginate(customPropertiesRoutes.propertyDefinitions.list, { org });
      return definitions.map((d) => ({
        id: orgCustomPropertyKind.formatId({ org, propertyName: d.property_name }),
      }));
    },
  },
});

export type OrgCustomPropertyArgs = ArgsOf<typeof orgCustomPropertyKind.inputs>;
export type OrgCustomPropertyInputs = z.infer<typeof orgCustomPropertyKind.inputs>;
export type OrgCustomPropertyOutputs = OutputsOfKind<typeof orgCustomPropertyKind>;

// ---------------------------------------------------------------------------------------------
// The rules across fields
// ---------------------------------------------------------------------------------------------

const SELECTS: readonly string[] = ["single_select", "multi_select"];

/** The definition's rules, each skipped while a field it needs is unknown. */
const definitionRules: CrossFieldRules<OrgCustomPropertyInputs> = (inputs, pending) => {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const known = (...keys: Array<keyof OrgCustomPropertyInputs>) => keys.every((k) => !pending.has(k));
  if (known("valueType", "allowedValues")) {
    const select = SELECTS.includes(inputs.valueType);
    const allowed = inputs.allowedValues;
    if (select && allowed === undefined) {
      failures.push({
        property: "allowedValues",
        reason: `allowedValues are required by a ${inputs.valueType} property`,
      });
    } else if (!select && allowed !== undefined) {
      failures.push({
        property: "allowedValues",
        reason: `a ${inputs.valueType} property takes no allowedValues; leave them out`,
      });
    } else if (allowed !== undefined && new Set(allowed).size !== allowed.length) {
      failures.push({ property: "allowedValues", reason: "allowedValues must not repeat a value" });
    }
  }
  if (known("required", "defaultValue") && inputs.required && inputs.defaultValue === undefined) {
    failures.push({ property: "defaultValue", reason: "a required property needs a defaultValue" });
  }
  if (
    known("valueType", "allowedValues", "defaultValue", "propertyName") &&
    inputs.defaultValue !== undefined &&
    failures.length === 0
  ) {
    const checked = checkPropertyValue(
      { name: "defaultValue", valueType: inputs.valueType, allowedValues: inputs.allowedValues },
      inputs.defaultValue,
    );
    if (typeof checked === "string") failures.push({ property: "defaultValue", reason: checked });
  }
  return failures;
};

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/** The definition's fields but its org and name, from the wire paths they declare. */
const wire = wireMapping<OrgCustomPropertyInputs, ApiCustomPropertyWrite>(
  orgCustomPropertyKind.inputs,
  orgCustomPropertyKind.rules,
);

/** Outputs from the server's definition; the names as the program spells them. */
function definitionOutputs(
  from: Pick<OrgCustomPropertyInputs, "org" | "propertyName">,
  d: ApiCustomProperty,
): OrgCustomPropertyOutputs {
  return compact({
    org: from.org,
    propertyName: from.propertyName,
    ...(wire.fromWire(d) as Omit<OrgCustomPropertyInputs, "org" | "propertyName">),
  });
}

/** The PUT's body: the whole definition. */
const writeBody = (inputs: OrgCustomPropertyInputs) => wire.toWire(inputs);

const lower = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : v);

/** Names are case-insensitive; a multi select's default is a set. */
function comparable(values: object): object {
  const v = values as Partial<OrgCustomPropertyInputs>;
  return {
    ...v,
    org: lower(v.org),
    propertyName: lower(v.propertyName),
    defaultValue: Array.isArray(v.defaultValue) ? [...new Set(v.defaultValue)].sort() : v.defaultValue,
  };
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const at = (org: string, propertyName: string) => ({ org, custom_property_name: propertyName });

async function readDefinition(org: string, propertyName: string): Promise<ApiCustomProperty | undefined> {
  return readOrGone(
    async () =>
      (await client().get(customPropertiesRoutes.propertyDefinitions.get, at(org, propertyName))).data,
  );
}

async function writeDefinition(inputs: OrgCustomPropertyInputs): Promise<ApiCustomProperty> {
  const path = at(inputs.org, inputs.propertyName);
  try {
    return (
      await client().put(customPropertiesRoutes.propertyDefinitions.set, path, writeBody(inputs), {
        idempotent: true,
      })
    ).data;
  } catch (e) {
    if (!isNotFound(e)) throw e;
    throw notFoundError({
      method: "PUT",
      path: customPropertiesRoutes.propertyDefinitions.set.path(path),
      what: `OrgCustomProperty ${orgCustomPropertyKind.formatId(inputs)}`,
      causes: [
        `there is no organisation ${inputs.org}`,
        "the token lacks the classic scope admin:org (or the fine-grained permission organization_custom_properties write)",
      ],
    });
  }
}

const differs = (live: ApiCustomProperty, inputs: OrgCustomPropertyInputs) => {
  const have = comparable(definitionOutputs(inputs, live)) as Record<string, unknown>;
  const want = comparable(inputs) as Record<string, unknown>;
  return Object.keys(orgCustomPropertyKind.rules).some((k) => !sameValue(have[k], want[k]));
};

export const orgCustomPropertyProvider = defineProvider<
  typeof orgCustomPropertyKind.inputs,
  OrgCustomPropertyOutputs
>(orgCustomPropertyKind, {
  crossField: definitionRules,
  comparable,

  async create(inputs) {
    // Adoption by name: a definition that already says this is taken as it is.
    const live = await readDefinition(inputs.org, inputs.propertyName);
    const made = live !== undefined && !differs(live, inputs) ? live : await writeDefinition(inputs);
    return { id: orgCustomPropertyKind.formatId(inputs), outs: definitionOutputs(inputs, made) };
  },

  async read(id, props) {
    const { org, propertyName } = orgCustomPropertyKind.parseId(id);
    const live = await readDefinition(org, propertyName);
    if (!live) return {};
    const outs = definitionOutputs(
      { org: props?.org ?? org, propertyName: props?.propertyName ?? propertyName },
      live,
    );
    // A multi select's default in another order is the same default: state keeps the program's.
    const recorded = props?.defaultValue;
    if (
      Array.isArray(recorded) &&
      Array.isArray(outs.defaultValue) &&
      sameValue(recorded, outs.defaultValue, true)
    ) {
      outs.defaultValue = recorded;
    }
    return { id, props: outs };
  },

  async update(_id, _olds, news) {
    return { outs: definitionOutputs(news, await writeDefinition(news)) };
  },

  async delete(id, props) {
    const { org, propertyName } = orgCustomPropertyKind.parseId(id);
    const c = client();
    await deleteIgnoringGone(() =>
      c.delete(customPropertiesRoutes.propertyDefinitions.delete, at(props.org ?? org, propertyName)),
    );
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/**
 * One repository property an organisation defines: see its declaration, `orgCustomPropertyKind`.
 * Example: `examples/custom-properties/`.
 */
export class OrgCustomProperty extends resourceClass<OrgCustomPropertyArgs, OrgCustomPropertyOutputs>(
  orgCustomPropertyProvider,
) {}
