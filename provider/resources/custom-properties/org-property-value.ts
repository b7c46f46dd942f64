/**
 * OrgPropertyValue: one custom property's value of one organisation
 * (`/organizations/{org}/org-properties/values`, API version 2026-03-10). The properties are
 * defined by the organisation's enterprise; organisations outside an enterprise have none.
 */
import { z } from "zod";
import { customPropertiesRoutes } from "../../../api/custom-properties";
import { fields } from "../../internal/check";
import { type ArgsOf, declareKind, type Found, field, type OutputsOfKind } from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { defineProvider } from "../../internal/lifecycle";
import { resourceClass } from "../../internal/resource";
import { propertyFields, type ValueKind, valueMethods, valueRoutes } from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration (the PATCH answers 204, and read reports the value it found: no output-only fields)
// ---------------------------------------------------------------------------------------------

export const orgPropertyValueKind = declareKind({
  kind: "OrgPropertyValue",
  description:
    "One custom property's value of one organisation (`/organizations/{org}/org-properties/values`, sent with `X-Service-Api-Version: 2026-03-10`). The properties are defined by the organisation's enterprise, so the organisation must belong to one. Needs the token of an organisation admin: classic scope `admin:org` (`read:org` to refresh), or the fine-grained permission `custom_properties_for_organizations` write.",
  idFormat: ["org", "propertyName"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation; it must belong to an enterprise. A change replaces the resource.",
      replace: true,
    }),
    ...propertyFields("the enterprise defines for organisations", "cost_center"),
  }),
  outputs: z.object({}),
  discovery: {
    scope: "org",
    what: ({ org }) => `organisation property values of ${org}`,
    names: ["{org|module}-property-{propertyName}"],
    async list(c, { org = "" }): Promise<Found[]> {
      const values = await c.paginate(customPropertiesRoutes.propertyValues.org, { org });
      return values
        .filter((v) => v.value !== null)
        .map((v) => ({ id: orgPropertyValueKind.formatId({ org, propertyName: v.property_name }) }));
    },
  },
});

export type OrgPropertyValueArgs = ArgsOf<typeof orgPropertyValueKind.inputs>;
export type OrgPropertyValueInputs = z.infer<typeof orgPropertyValueKind.inputs>;
export type OrgPropertyValueOutputs = OutputsOfKind<typeof orgPropertyValueKind>;

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const orgValues: ValueKind<OrgPropertyValueInputs> = {
  kind: orgPropertyValueKind.kind,
  parseId: orgPropertyValueKind.parseId,
  formatId: orgPropertyValueKind.formatId,
  collectionOf: ({ org }) => ({
    ...valueRoutes(
      customPropertiesRoutes.propertyValues.org,
      customPropertiesRoutes.propertyValues.updateOrg,
      { org },
    ),
    notFound: [
      `there is no organisation ${org}, or it does not belong to an enterprise (organisation custom properties are defined by an enterprise)`,
      `the token's user is not an admin of ${org}`,
      "the token lacks the classic scope admin:org (or the fine-grained permission custom_properties_for_organizations write)",
    ],
  }),
};

export const orgPropertyValueProvider = defineProvider<
  typeof orgPropertyValueKind.inputs,
  OrgPropertyValueOutputs
>(orgPropertyValueKind, {
  // Organisation names are case-insensitive on the platform; property names are compared as written.
  comparable: lowerCased<OrgPropertyValueInputs>("org"),
  ...valueMethods(orgValues),
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** One custom property's value of one organisation: see its declaration, `orgPropertyValueKind`. Example: `examples/custom-properties/`. */
export class OrgPropertyValue extends resourceClass<OrgPropertyValueArgs, OrgPropertyValueOutputs>(
  orgPropertyValueProvider,
) {}
