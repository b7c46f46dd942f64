/**
 * OrgRuleset: a ruleset of an organisation (`/orgs/{org}/rulesets`), applying to the repositories
 * its conditions name (by name, or by their custom property values) and the refs they name. Its
 * rules, bypass actors and conditions are checked at preview as the platform checks them, and
 * compared by meaning (sets; defaults; ids the platform ignores), so a ruleset written once shows
 * no change on any later preview.
 */
import { z } from "zod";
import { type ApiRuleset, type ApiRulesetWrite, rulesetsRoutes } from "../../../api/rulesets";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { type ArgsOf, declareKind, type Found, field, type OutputsOfKind } from "../../internal/declare";
import { defineProvider } from "../../internal/lifecycle";
import { resourceClass } from "../../internal/resource";
import { orgConditionsSchema, rulesetFields, rulesetOutputs, rulesetRules } from "./schema";
import { comparable, type RulesetApi, rulesetMethods } from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

export const orgRulesetKind = declareKind({
  kind: "OrgRuleset",
  description:
    "A ruleset of an organisation (`/orgs/{org}/rulesets`): rules on the refs of the repositories its conditions name, by name or by custom property values, with the actors who may bypass them. Needs an organisation owner's token: classic scope `admin:org` (`read:org` to refresh; bypass actors are shown to owners only), or the fine-grained permission `organization_administration` write.",
  idFormat: ["org", "rulesetId"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the ruleset.",
      replace: true,
    }),
    ...rulesetFields,
    conditions: field(orgConditionsSchema.optional(), {
      description:
        "Where it applies: `refName` (required but for push rulesets) and exactly one of `repositoryName`, `repositoryProperty`. Lists compare as sets. Updates in place.",
    }),
  }),
  outputs: z.object(rulesetOutputs),
  discovery: {
    scope: "org",
    what: ({ org }) => `rulesets of ${org}`,
    names: ["{org|module}-ruleset-{name}"],
    async list(c, { org = "" }): Promise<Found[]> {
      const rulesets = await c.paginate(rulesetsRoutes.orgRulesets.list, { org });
      return rulesets.map((r) => ({ id: orgRulesetKind.formatId({ org, rulesetId: r.id }), importId: r.id }));
    },
  },
});

export type OrgRulesetArgs = ArgsOf<typeof orgRulesetKind.inputs>;
export type OrgRulesetInputs = z.infer<typeof orgRulesetKind.inputs>;
export type OrgRulesetOutputs = OutputsOfKind<typeof orgRulesetKind>;

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

function orgApi(c: HostingClient, org: string): RulesetApi {
  const R = rulesetsRoutes.orgRulesets;
  const at = (ruleset_id: number | string) => ({ org, ruleset_id });
  return {
    path: R.list.path({ org }),
    list: () => c.paginate(R.list, { org }),
    create: async (body: ApiRulesetWrite): Promise<ApiRuleset> =>
      (await c.post(R.create, { org }, body)).data,
    get: async (id) => (await c.get(R.get, at(id))).data,
    update: async (id, body) => (await c.put(R.update, at(id), body, { idempotent: true })).data,
    remove: (id) => c.delete(R.delete, at(id)),
  };
}

export const orgRulesetProvider = defineProvider<typeof orgRulesetKind.inputs, OrgRulesetOutputs>(
  orgRulesetKind,
  {
    crossField: rulesetRules<OrgRulesetInputs>("org"),
    comparable,
    adoptedId: (inputs) =>
      inputs.importId === undefined
        ? undefined
        : orgRulesetKind.formatId({ org: inputs.org, rulesetId: inputs.importId }),
    ...rulesetMethods<OrgRulesetInputs>({
      kind: orgRulesetKind.kind,
      parseId: orgRulesetKind.parseId,
      rules: orgRulesetKind.rules,
      api: (c, owner) => orgApi(c, owner.org ?? ""),
      identity: ({ org }) => (org === undefined ? {} : { org }),
      idOf: (inputs, rulesetId) => orgRulesetKind.formatId({ org: inputs.org, rulesetId }),
      notFound: ({ org }) => [
        `there is no organisation ${org}`,
        `the token's user is not an owner of ${org}`,
        "the token lacks the classic scope admin:org (or the fine-grained permission organization_administration write)",
      ],
    }),
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** A ruleset of an organisation: see its declaration, `orgRulesetKind`. Example: `examples/rulesets/`. */
export class OrgRuleset extends resourceClass<OrgRulesetArgs, OrgRulesetOutputs>(orgRulesetProvider) {}
