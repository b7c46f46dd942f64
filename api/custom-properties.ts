import { z } from "zod";
import { route, STATUS_ONLY, V2026 } from "./route";

/** The kinds of custom property (organisation properties of an enterprise, repository properties of an organisation). */
export const PROPERTY_VALUE_TYPES = ["string", "single_select", "multi_select"] as const;
export type PropertyValueType = (typeof PROPERTY_VALUE_TYPES)[number];

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

export const customPropertiesRoutes = {
  propertyValues: {
    org: route("GET /organizations/{org}/org-properties/values", { ...V2026, list: apiPropertyValueSchema }),
    updateOrg: route("PATCH /organizations/{org}/org-properties/values", { ...V2026, ...STATUS_ONLY }),
    repo: route("GET /repos/{owner}/{repo}/properties/values", { list: apiPropertyValueSchema }),
    updateRepo: route("PATCH /repos/{owner}/{repo}/properties/values", STATUS_ONLY),
  },
} as const;
