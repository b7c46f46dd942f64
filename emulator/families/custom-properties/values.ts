/**
 * Custom property values of organisations (defined by their enterprise) and of repositories
 * (defined by their organisation): a PATCH validated against the definitions, applied only when
 * every item is valid, and the values listed as the API shows them.
 *
 * A value is checked against its property's type: a string property takes a non-empty string, a
 * true/false property `"true"` or `"false"`, a single select one of its allowed values, a multi select a non-empty list of allowed values
 * (repeats dropped). `null` removes the value; an empty string or list is refused, so "no value"
 * has one spelling. Every refusal names the property (docs/DECISIONS.md).
 */
import { type ApiPropertyValue, checkPropertyValue } from "../../../api";
import type { PropertyDefinition } from "../../core/fixture";
import { type ErrorItem, missingField, validationFailed } from "../../core/http";
import type { StoredPropertyValue } from "./state";

export const RESOURCE = "CustomPropertyValue";

/** One item of a PATCH: the property and its new value (`null` removes it). */
export interface ValueUpdate {
  name: string;
  value: string | string[] | null;
}

/**
 * The updates of a PATCH body `{properties: [{property_name, value}]}`, checked against the
 * definitions of `owner` (e.g. `the enterprise acme`). Every invalid item is reported at once.
 */
export function parseUpdates(
  body: Record<string, unknown>,
  definitions: readonly PropertyDefinition[],
  owner: string,
): ValueUpdate[] {
  if (body.properties === undefined) throw missingField(RESOURCE, "properties");
  if (!Array.isArray(body.properties)) {
    throw validationFailed(invalid("properties", "properties must be a list of {property_name, value}"));
  }
  const errors: ErrorItem[] = [];
  const updates: ValueUpdate[] = [];
  body.properties.forEach((item: unknown, i) => {
    const at = `properties[${i}]`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      errors.push(invalid(at, `${at} must be an object {property_name, value}`));
      return;
    }
    const name: unknown = "property_name" in item ? item.property_name : undefined;
    if (typeof name !== "string" || name === "") {
      errors.push(
        name === undefined
          ? { resource: RESOURCE, field: `${at}.property_name`, code: "missing_field" }
          : invalid(`${at}.property_name`, `${at}.property_name must be a property's name`),
      );
      return;
    }
    const definition = definitions.find((d) => d.name === name);
    if (!definition) {
      errors.push(invalid(`${at}.property_name`, `${name} is not a custom property of ${owner}`));
      return;
    }
    if (updates.some((u) => u.name === name)) {
      errors.push(invalid(`${at}.property_name`, `${name} is given more than once`));
      return;
    }
    if (!("value" in item)) {
      errors.push({
        resource: RESOURCE,
        field: `${at}.value`,
        code: "missing_field",
        message: `${name}: value is missing (null removes the value)`,
      });
      return;
    }
    const checked = checkValue(definition, item.value);
    if (typeof checked === "string") errors.push(invalid(`${at}.value`, checked));
    else updates.push({ name, value: checked.value });
  });
  if (errors.length > 0) throw validationFailed(...errors);
  return updates;
}

/** The value to store, or why the property refuses it (the rule the provider's preview runs too). */
export function checkValue(
  definition: PropertyDefinition,
  value: unknown,
): { value: string | string[] | null } | string {
  return checkPropertyValue(definition, value);
}

/** Applies validated updates to the values of `target`: a value replaces, `null` removes. */
export function applyUpdates(values: StoredPropertyValue[], target: string, updates: ValueUpdate[]): void {
  for (const { name, value } of updates) {
    const at = values.findIndex((v) => v.target === target && v.name === name);
    if (value === null) {
      if (at >= 0) values.splice(at, 1);
    } else if (at >= 0) {
      values.splice(at, 1, { target, name, value });
    } else {
      values.push({ target, name, value });
    }
  }
}

/** The values `target` has, in the order of the definitions; properties without a value are left out. */
export function valuesOf(
  values: readonly StoredPropertyValue[],
  target: string,
  definitions: readonly PropertyDefinition[],
): ApiPropertyValue[] {
  return definitions.flatMap((d) => {
    const found = values.find((v) => v.target === target && v.name === d.name);
    return found ? [{ property_name: d.name, value: found.value }] : [];
  });
}

function invalid(field: string, message: string): ErrorItem {
  return { resource: RESOURCE, field, code: "invalid", message };
}
