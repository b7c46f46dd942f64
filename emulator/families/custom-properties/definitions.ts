/**
 * An organisation's repository property definitions (the published description's
 * `orgs/custom-properties-for-repos-*`: `GET /orgs/{org}/properties/schema`, and `GET`, `PUT`,
 * `DELETE .../{custom_property_name}`). They are kept where the values' checks read them, the
 * organisation's `repositoryProperties` in the fixture, so a definition made here takes values at
 * once.
 *
 * - Organisation members read them (`read:org`; fine-grained `organization_custom_properties`
 *   read); its owners write them (`admin:org`; the permission write).
 * - PUT creates or replaces the whole definition (200 either way, as the description says): a
 *   field left out takes its default (not required, no default value, no description, no allowed
 *   values, `org_actors`). Select properties need allowed values (at most 200, unique), the others
 *   take none; a required property needs a default value the definition allows.
 * - A value the new definition refuses (an allowed value removed, another type) is removed from
 *   every repository; DELETE removes the definition and every value of it.
 */
import type { Context, Hono } from "hono";
import {
  type ApiCustomProperty,
  MAX_ALLOWED_VALUES,
  PROPERTY_EDITORS,
  PROPERTY_NAME_PATTERN,
  PROPERTY_VALUE_TYPES,
  ROUTES,
} from "../../../api";
import type { AccessRule } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, PropertyDefinition } from "../../core/fixture";
import { guard } from "../../core/guard";
import { type ErrorItem, notFound, readBody, urlOf, validationFailed } from "../../core/http";
import { repoKey } from "../../core/lookup";
import type { Store } from "../../core/store";
import { configOrg } from "../org-config/config";
import type { StoredPropertyValue } from "./state";
import { checkValue } from "./values";

const PERMISSION = "organization_custom_properties";
const READ: AccessRule = { scopes: ["read:org"], permission: [PERMISSION, "read"] };
const WRITE: AccessRule = { scopes: ["admin:org"], permission: [PERMISSION, "write"] };
const RESOURCE = "CustomProperty";
const MAX_DESCRIPTION = 255;

const D = ROUTES.propertyDefinitions;

export function definitionRoutes(app: Hono<ServerEnv>): void {
  app.get(D.list.pattern, guard(READ), (c) => {
    const org = configOrg(c, "member", "read its custom properties");
    return c.json(org.repositoryProperties.map((d) => renderDefinition(c, org, d)));
  });

  app.get(D.get.pattern, guard(READ), (c) => {
    const org = configOrg(c, "member", "read its custom properties");
    const found = findDefinition(org, c.req.param("custom_property_name"));
    if (!found) throw notFound();
    return c.json(renderDefinition(c, org, found));
  });

  app.put(D.set.pattern, guard(WRITE), async (c) => {
    const org = configOrg(c, "owner", "define custom properties");
    const store = c.get("store");
    const name = c.req.param("custom_property_name");
    const definition = parseDefinition(name, await readBody(c));
    const at = org.repositoryProperties.findIndex((d) => d.name.toLowerCase() === name.toLowerCase());
    // An existing property keeps its spelling; a value the new definition refuses is removed.
    if (at >= 0) {
      const kept = { ...definition, name: (org.repositoryProperties[at] as PropertyDefinition).name };
      org.repositoryProperties.splice(at, 1, kept);
      removeValues(store, org, kept.name, (value) => typeof checkValue(kept, value) === "string");
      return c.json(renderDefinition(c, org, kept));
    }
    org.repositoryProperties.push(definition);
    return c.json(renderDefinition(c, org, definition));
  });

  app.delete(D.delete.pattern, guard(WRITE), (c) => {
    const org = configOrg(c, "owner", "remove custom properties");
    const store = c.get("store");
    const found = findDefinition(org, c.req.param("custom_property_name"));
    if (!found) throw notFound();
    org.repositoryProperties = org.repositoryProperties.filter((d) => d.name !== found.name);
    removeValues(store, org, found.name, () => true);
    return c.body(null, 204);
  });
}

/** The organisation's definition of `name` (property names are case-insensitive). */
export function findDefinition(org: OrgRecord, name: string): PropertyDefinition | undefined {
  const key = name.toLowerCase();
  return org.repositoryProperties.find((d) => d.name.toLowerCase() === key);
}

/** Removes the values of property `name` of the organisation's repositories that `drop` says to. */
function removeValues(
  store: Store,
  org: OrgRecord,
  name: string,
  drop: (value: string | string[]) => boolean,
): void {
  const prefix = `${org.login.toLowerCase()}/`;
  const ours = new Set(store.raw.fixture.repos.filter((r) => repoKey(r).startsWith(prefix)).map(repoKey));
  const gone = (v: Readonly<StoredPropertyValue>) => ours.has(v.target) && v.name === name && drop(v.value);
  if (store.raw.repoPropertyValues.some(gone)) {
    store.state.repoPropertyValues = store.state.repoPropertyValues.filter((v) => !gone(v));
  }
}

export function renderDefinition(
  c: Context<ServerEnv>,
  org: OrgRecord,
  d: PropertyDefinition,
): ApiCustomProperty & Record<string, unknown> {
  const select = d.valueType === "single_select" || d.valueType === "multi_select";
  return {
    property_name: d.name,
    url: urlOf(c, D.get, { org: org.login, custom_property_name: d.name }),
    source_type: "organization",
    value_type: d.valueType,
    required: d.required ?? false,
    default_value: d.defaultValue ?? null,
    description: d.description ?? null,
    allowed_values: select ? [...(d.allowedValues ?? [])] : null,
    values_editable_by: d.valuesEditableBy ?? "org_actors",
  };
}

const invalid = (field: string, message: string): ErrorItem => ({
  resource: RESOURCE,
  field,
  code: "invalid",
  message,
});

/** The definition a PUT body describes, or a 422 naming every field it gets wrong. */
export function parseDefinition(name: string, body: Record<string, unknown>): PropertyDefinition {
  const errors: ErrorItem[] = [];
  if (!PROPERTY_NAME_PATTERN.test(name)) {
    errors.push(
      invalid(
        "custom_property_name",
        `${name} is not a property name: letters, digits, "_", "-", "$" and "#", at most 75 characters`,
      ),
    );
  }
  const type = body.value_type;
  if (type === undefined) errors.push({ resource: RESOURCE, field: "value_type", code: "missing_field" });
  else if (!(PROPERTY_VALUE_TYPES as readonly unknown[]).includes(type)) {
    errors.push(invalid("value_type", `value_type must be one of ${PROPERTY_VALUE_TYPES.join(", ")}`));
  }
  const required = body.required ?? false;
  if (typeof required !== "boolean") errors.push(invalid("required", "required must be true or false"));
  const description = body.description ?? null;
  if (description !== null && (typeof description !== "string" || description.length > MAX_DESCRIPTION)) {
    errors.push(
      invalid("description", `description must be a string of at most ${MAX_DESCRIPTION} characters`),
    );
  }
  const editors = body.values_editable_by ?? "org_actors";
  if (!(PROPERTY_EDITORS as readonly unknown[]).includes(editors)) {
    errors.push(
      invalid("values_editable_by", `values_editable_by must be one of ${PROPERTY_EDITORS.join(", ")}`),
    );
  }
  const allowed = parseAllowedValues(body.allowed_values ?? null, type, errors);
  if (errors.length > 0) throw validationFailed(...errors);
  const definition: PropertyDefinition = {
    name,
    valueType: type as PropertyDefinition["valueType"],
    ...(allowed ? { allowedValues: allowed } : {}),
    required: required as boolean,
    ...(typeof description === "string" ? { description } : {}),
    valuesEditableBy: editors as NonNullable<PropertyDefinition["valuesEditableBy"]>,
  };
  const fallback = body.default_value ?? null;
  if (fallback !== null) {
    const checked = checkValue(definition, fallback);
    if (typeof checked === "string")
      throw validationFailed(invalid("default_value", `default_value: ${checked}`));
    if (checked.value !== null) definition.defaultValue = checked.value;
  }
  if (definition.required && definition.defaultValue === undefined) {
    throw validationFailed(
      invalid("default_value", `a required property needs a default_value (${name} is required)`),
    );
  }
  return definition;
}

function parseAllowedValues(raw: unknown, type: unknown, errors: ErrorItem[]): string[] | undefined {
  const select = type === "single_select" || type === "multi_select";
  if (raw === null) {
    if (select)
      errors.push(invalid("allowed_values", `allowed_values are required by a ${String(type)} property`));
    return undefined;
  }
  if (!select) {
    errors.push(invalid("allowed_values", `a ${String(type)} property takes no allowed_values; send null`));
    return undefined;
  }
  if (
    !Array.isArray(raw) ||
    raw.length === 0 ||
    raw.some((v) => typeof v !== "string" || v.length === 0 || v.length > 75)
  ) {
    errors.push(
      invalid("allowed_values", "allowed_values must be a non-empty list of names of 1 to 75 characters"),
    );
    return undefined;
  }
  if (raw.length > MAX_ALLOWED_VALUES) {
    errors.push(invalid("allowed_values", `allowed_values may hold at most ${MAX_ALLOWED_VALUES} values`));
    return undefined;
  }
  if (new Set(raw).size !== raw.length) {
    errors.push(invalid("allowed_values", "allowed_values must not repeat a value"));
    return undefined;
  }
  return raw as string[];
}
