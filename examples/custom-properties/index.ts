import * as pulumi from "@pulumi/pulumi";
import { declarePropertyDefinition } from "./property-definitions";
import { declarePropertyValues, type Values } from "./property-values";

const config = new pulumi.Config();
export const propertyValues = declarePropertyValues({
  org: config.get("org") ?? "acme-eng",
  // Properties the enterprise acme defines for its organisations.
  orgValues: config.getObject<Values>("orgValues") ?? {
    cost_center: "cc-1234",
    tier: "gold",
    regions: ["eu", "us"], // a multi select: order does not matter
  },
  // Properties acme-eng defines for its repositories.
  repositories: config.getObject<Record<string, Values>>("repositories") ?? {
    "acme-eng/api": { tier: "silver", cost_center: "cc-api" },
  },
});

// A property acme-eng defines for its repositories, and the value acme-eng/web carries.
export const serviceLevel = declarePropertyDefinition({
  org: config.get("org") ?? "acme-eng",
  propertyName: "service_level",
  valueType: "single_select",
  allowedValues: ["critical", "standard"],
  description: "How closely the repository's service is watched",
  values: { web: "critical" },
});
