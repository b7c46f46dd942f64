/**
 * A repository property an organisation defines, with the values its repositories carry: each
 * value takes the definition's `propertyName` output, so it waits for the definition (and a value
 * the definition does not allow fails at preview). Used by this example's program and by the root
 * demo, whose organisation ruleset targets the repositories by this property.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

export interface PropertyDefinitionSettings {
  org: string;
  propertyName: string;
  valueType: "string" | "single_select" | "multi_select" | "true_false";
  allowedValues?: string[];
  description?: string;
  /** Repository name (in `org`) -> its value. */
  values: Record<string, hosting.PropertyValue>;
}

/** Declares the definition and one value per repository; returns the property's name, once defined. */
export function declarePropertyDefinition(settings: PropertyDefinitionSettings): {
  propertyName: pulumi.Output<string>;
  values: Record<string, pulumi.Output<hosting.PropertyValue>>;
} {
  const definition = new hosting.OrgCustomProperty(`${settings.org}/${settings.propertyName}`, {
    org: settings.org,
    propertyName: settings.propertyName,
    valueType: settings.valueType,
    ...(settings.allowedValues ? { allowedValues: settings.allowedValues } : {}),
    ...(settings.description ? { description: settings.description } : {}),
  });
  const values: Record<string, pulumi.Output<hosting.PropertyValue>> = {};
  for (const [repository, value] of Object.entries(settings.values)) {
    const key = `${settings.org}/${repository}/${settings.propertyName}`;
    const made = new hosting.RepositoryPropertyValue(key, {
      owner: settings.org,
      repository,
      // The definition's output: the value is set once the property exists.
      propertyName: definition.propertyName,
      value,
    });
    values[repository] = made.value;
  }
  return { propertyName: definition.propertyName, values };
}
