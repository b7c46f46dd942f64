/**
 * Custom property values as code: the values an organisation carries (properties its enterprise
 * defines) and the values of its repositories (properties the organisation defines). Each value is
 * its own resource, so values set by hand or by another stack on other properties are left alone.
 * Used by this example's program and by the root demo.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

/** Property name -> value: a string, a list (multi select), or null to make sure it has none. */
export type Values = Record<string, hosting.PropertyValue>;

export interface PropertyValueSettings {
  /** An organisation that belongs to an enterprise. */
  org: string;
  orgValues: Values;
  /** `owner/repository` -> that repository's values. */
  repositories: Record<string, Values>;
}

/** Declares one resource per value; returns what each holds, keyed `org/property` or `owner/repo/property`. */
export function declarePropertyValues(
  settings: PropertyValueSettings,
): Record<string, pulumi.Output<hosting.PropertyValue>> {
  const values: Record<string, pulumi.Output<hosting.PropertyValue>> = {};
  for (const [propertyName, value] of Object.entries(settings.orgValues)) {
    const key = `${settings.org}/${propertyName}`;
    values[key] = new hosting.OrgPropertyValue(key, { org: settings.org, propertyName, value }).value;
  }
  for (const [full, repoValues] of Object.entries(settings.repositories)) {
    const [owner = "", repository = ""] = full.split("/");
    for (const [propertyName, value] of Object.entries(repoValues)) {
      const key = `${full}/${propertyName}`;
      values[key] = new hosting.RepositoryPropertyValue(key, {
        owner,
        repository,
        propertyName,
        value,
      }).value;
    }
  }
  return values;
}
