import { z } from "zod";
import { route, STATUS_ONLY, V2026 } from "./route";

/**
 * The kinds of custom property: `true_false` takes the strings `"true"` and `"false"`. Organisation
 * properties of an enterprise are of the first three kinds in the sandbox's fixture; an
 * organisation's repository properties may be of any.
 */
export const PROPERTY_VALUE_TYPES = ["string", "single_select", "multi_select", "true_false"] as const;
export type PropertyValueType = (typeof PROPERTY_VALUE_TYPES)[number];

/** Who may set a repository property's values: organisation actors only, or repository actors too. */
export const PROPERTY_EDITORS = ["org_actors", "org_and_repo_actors"] as const;
export type PropertyEditors = (typeof PROPERTY_EDITORS)[number];

/** At most this many allowed values per select property (the description's `allowed_values`). */
export const MAX_ALLOWED_VALUES = 200;

/**
 * A custom property name as the platform allows it: letters, digits, `_`, `-`, `$` and `#`, at
 * most 75 characters, no spaces.
 */
export const PROPERTY_NAME_PATTERN = /^[A-Za-z0-9_$#-]{1,75}$/;

/**
 * One custom property value: a string (string and single select properties), strings (multi
 * select), or null (no value). `GET .../values` answers an array of these, `PATCH .../values`
 * takes `{properties: [...]}` of them.
 */
export const apiPropertyValueSchema = z.object({
  property_name: z.string(),
  value: z.union([z.string(), z.array(z.string())]).nullable(),
});
export type ApiPropertyValue = z.infer<typeof apiPropertyValueSchema>;

/**
 * A custom property's definition as the API answers it (the description's `custom-property`): its
 * type, whether it is required (then `default_value` is what repositories without a value have),
 * the allowed values of a select, and who may edit values.
 */
export const apiCustomPropertySchema = z
  .object({
    property_name: z.string(),
    value_type: z.enum(PROPERTY_VALUE_TYPES),
    required: z.boolean().optional(),
    default_value: z
      .union([z.string(), z.array(z.string())])
      .nullable()
      .optional(),
    description: z.string().nullable().optional(),
    allowed_values: z.array(z.string()).nullable().optional(),
    values_editable_by: z.enum(PROPERTY_EDITORS).nullable().optional(),
  })
  .loose();
export type ApiCustomProperty = z.infer<typeof apiCustomPropertySchema>;

/** The body of `PUT /orgs/{org}/properties/schema/{custom_property_name}` (`custom-property-set-payload`). */
export interface ApiCustomPropertyWrite {
  value_type: PropertyValueType;
  required: boolean;
  default_value: string | string[] | null;
  description: string | null;
  allowed_values: string[] | null;
  values_editable_by: PropertyEditors;
}

/** What a value is checked against: a property's name, type and allowed values. */
export interface PropertyShape {
  name: string;
  valueType: PropertyValueType;
  allowedValues?: readonly string[] | undefined;
}

/**
 * The value a property stores (repeats of a multi select dropped), or why the property refuses it:
 * a sentence naming the property and what it allows. The sandbox's check of a PATCH and the
 * provider's preview of a value whose definition is known both run it.
 */
export function checkPropertyValue(
  definition: PropertyShape,
  value: unknown,
): { value: string | string[] | null } | string {
  const { name, valueType } = definition;
  const allowed = definition.allowedValues ?? [];
  if (value === null) return { value: null };
  if (valueType === "multi_select") {
    if (!Array.isArray(value)) return `${name} takes a list of values from ${allowed.join(", ")}`;
    if (value.length === 0) return `${name}: send null, not an empty list, to remove the value`;
    const wrong = value.find((v) => typeof v !== "string" || !allowed.includes(v));
    if (wrong !== undefined) {
      return `${name}: ${JSON.stringify(wrong)} is not one of ${allowed.join(", ")}`;
    }
    return { value: [...new Set(value as string[])] };
  }
  if (typeof value !== "string") {
    return valueType === "single_select"
      ? `${name} takes one value (a string), one of ${allowed.join(", ")}`
      : `${name} takes a string`;
  }
  if (value === "") return `${name}: send null, not an empty string, to remove the value`;
  if (valueType === "true_false" && value !== "true" && value !== "false") {
    return `${name} takes "true" or "false"; got ${JSON.stringify(value)}`;
  }
  if (valueType === "single_select" && !allowed.includes(value)) {
    return `${name}: ${JSON.stringify(value)} is not one of ${allowed.join(", ")}`;
  }
  return { value };
}

const SCHEMA = "/orgs/{org}/properties/schema";

export const customPropertiesRoutes = {
  /** An organisation's repository property definitions (organisation members read them). */
  propertyDefinitions: {
    list: route(`GET ${SCHEMA}`, { list: apiCustomPropertySchema }),
    get: route(`GET ${SCHEMA}/{custom_property_name}`, { body: apiCustomPropertySchema }),
    set: route(`PUT ${SCHEMA}/{custom_property_name}`, { body: apiCustomPropertySchema }),
    delete: route(`DELETE ${SCHEMA}/{custom_property_name}`, STATUS_ONLY),
  },
  propertyValues: {
    org: route("GET /organizations/{org}/org-properties/values", { ...V2026, list: apiPropertyValueSchema }),
    updateOrg: route("PATCH /organizations/{org}/org-properties/values", { ...V2026, ...STATUS_ONLY }),
    repo: route("GET /repos/{owner}/{repo}/properties/values", { list: apiPropertyValueSchema }),
    updateRepo: route("PATCH /repos/{owner}/{repo}/properties/values", STATUS_ONLY),
  },
} as const;
