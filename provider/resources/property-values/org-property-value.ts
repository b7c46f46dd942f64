/**
 * OrgPropertyValue: one custom property's value of one organisation
 * (`/organizations/{org}/org-properties/values`, API version 2026-03-10). The properties are
 * defined by the organisation's enterprise; organisations outside an enterprise have none.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ROUTES } from "../../client/routes";
import { fields } from "../../internal/check";
import { type FieldRules, lowerCased } from "../../internal/diff";
import { joinId } from "../../internal/ids";
import { defineProvider } from "../../internal/lifecycle";
import { HostingResource, type OutputsOf } from "../../internal/resource";
import {
  type PropertyValue,
  propertyValueInputs,
  type ValueKind,
  valueMethods,
  valueRoutes,
  valueRule,
} from "./shared";

// ---------------------------------------------------------------------------------------------
// Args
// ---------------------------------------------------------------------------------------------

export interface OrgPropertyValueArgs {
  /** The organisation; it must belong to an enterprise. A change replaces the resource. */
  org: pulumi.Input<string>;
  /**
   * The name of a custom property the enterprise defines for organisations (e.g. `cost_center`).
   * A change replaces the resource (the old property's value is removed).
   */
  propertyName: pulumi.Input<string>;
  /**
   * The value: a string for string and single select properties, a list of strings for multi
   * select ones (compared as a set), or `null` for no value. Which values are allowed is defined on
   * the server: a value it refuses fails `up` with its message naming the property. Updates in
   * place; a value changed or removed outside Pulumi shows as drift.
   */
  value: pulumi.Input<string | pulumi.Input<string>[] | null>;
}

// ---------------------------------------------------------------------------------------------
// Schemas (defaults applied in check)
// ---------------------------------------------------------------------------------------------

export const orgPropertyValueInputs = z.object({ org: fields.name("org"), ...propertyValueInputs });

export type OrgPropertyValueInputs = z.infer<typeof orgPropertyValueInputs>;
/** The outputs are the inputs: the PATCH answers 204, and read reports the value it found. */
export type OrgPropertyValueOutputs = OrgPropertyValueInputs;

// ---------------------------------------------------------------------------------------------
// Replace-on-change
// ---------------------------------------------------------------------------------------------

export const orgPropertyValueRules: FieldRules<OrgPropertyValueInputs> = {
  org: { replace: true },
  propertyName: { replace: true },
  ...valueRule,
};

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const orgValues: ValueKind<OrgPropertyValueInputs> = {
  kind: "OrgPropertyValue",
  idFormat: ["org", "propertyName"],
  idOf: (inputs) => joinId(inputs.org, inputs.propertyName),
  collectionOf: ({ org }) => ({
    ...valueRoutes(ROUTES.propertyValues.org, ROUTES.propertyValues.updateOrg, { org }),
    notFound: [
      `there is no organisation ${org}, or it does not belong to an enterprise (organisation custom properties are defined by an enterprise)`,
      `the token's user is not an admin of ${org}`,
      "the token lacks the classic scope admin:org (or the fine-grained permission custom_properties_for_organizations write)",
    ],
  }),
  fromId: ([org = "", propertyName = ""], recorded, value: PropertyValue) => ({
    org: recorded?.org ?? org,
    propertyName: recorded?.propertyName ?? propertyName,
    value,
  }),
};

export const orgPropertyValueProvider = defineProvider<
  typeof orgPropertyValueInputs,
  OrgPropertyValueOutputs
>(orgValues.kind, {
  idFormat: orgValues.idFormat,
  inputs: orgPropertyValueInputs,
  rules: orgPropertyValueRules,
  // Organisation names are case-insensitive on the platform; property names are compared as written.
  comparable: lowerCased<OrgPropertyValueInputs>("org"),
  ...valueMethods(orgValues),
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

const OUTPUTS = ["org", "propertyName", "value"] as const;

/**
 * One custom property's value of one organisation (`/organizations/{org}/org-properties/values`,
 * sent with `X-Service-Api-Version: 2026-03-10`). The properties are defined by the organisation's
 * enterprise, so the organisation must belong to one. Needs the token of an organisation admin:
 * classic scope `admin:org` (`read:org` to refresh), or the fine-grained permission
 * `custom_properties_for_organizations` write. Example: `examples/property-values/`.
 */
export class OrgPropertyValue extends HostingResource {
  constructor(name: string, args: OrgPropertyValueArgs, opts?: pulumi.CustomResourceOptions) {
    super(orgPropertyValueProvider, name, args, OUTPUTS, opts);
  }
}

export interface OrgPropertyValue extends OutputsOf<OrgPropertyValueOutputs> {}
