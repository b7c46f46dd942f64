/**
 * RepositoryRuleset: a ruleset of one repository (`/repos/{owner}/{repo}/rulesets`), applying to
 * the refs its conditions name. Checked and compared as organisation rulesets are; its reads ask
 * for the repository's own rulesets only (`includes_parents=false`).
 */
import { z } from "zod";
import { type ApiRuleset, type ApiRulesetWrite, rulesetsRoutes } from "../../../api/rulesets";
import type { HostingClient } from "../../client/http";
import { type ArgsOf, declareKind, type Found, field, type OutputsOfKind } from "../../internal/declare";
import { defineProvider } from "../../internal/lifecycle";
import { repositoryFields } from "../../internal/repository-fields";
import { resourceClass } from "../../internal/resource";
import { repositoryConditionsSchema, rulesetFields, rulesetOutputs, rulesetRules } from "./schema";
import { comparable, type RulesetApi, rulesetMethods } from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

export const repositoryRulesetKind = declareKind({
  kind: "RepositoryRuleset",
  description:
    "A ruleset of one repository (`/repos/{owner}/{repo}/rulesets`): rules on the refs its conditions name, with the actors who may bypass them. Needs a token that administers the repository: classic scope `repo`, or the fine-grained permission Administration write (Metadata read to refresh; bypass actors are shown to administrators only).",
  idFormat: ["owner", "repository", "rulesetId"],
  inputs: z.object({
    ...repositoryFields("ruleset"),
    ...rulesetFields,
    conditions: field(repositoryConditionsSchema.optional(), {
      description:
        "Where it applies: `refName` (required but for push rulesets). Lists compare as sets. Updates in place.",
    }),
  }),
  outputs: z.object(rulesetOutputs),
  discovery: {
    scope: "repository",
    what: ({ owner, repo }) => `rulesets of ${owner}/${repo}`,
    names: ["{owner}-{repository}-ruleset-{name}"],
    async list(c, { owner = "", repo = "" }): Promise<Found[]> {
      const rulesets = await c.paginate(
        rulesetsRoutes.repoRulesets.list,
        { owner, repo },
        { query: { includes_parents: "false" } },
      );
      return rulesets
        .filter((r) => r.source_type !== "Organization")
        .map((r) => ({
          id: repositoryRulesetKind.formatId({ owner, repository: repo, rulesetId: r.id }),
          importId: r.id,
        }));
    },
  },
});

export type RepositoryRulesetArgs = ArgsOf<typeof repositoryRulesetKind.inputs>;
export type RepositoryRulesetInputs = z.infer<typeof repositoryRulesetKind.inputs>;
export type RepositoryRulesetOutputs = OutputsOfKind<typeof repositoryRulesetKind>;

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

function repoApi(c: HostingClient, owner: string, repo: string): RulesetApi {
  const R = rulesetsRoutes.repoRulesets;
  const at = (ruleset_id: number | string) => ({ owner, repo, ruleset_id });
  // The repository's own rulesets: an organisation ruleset that applies to it is not this kind's.
  const own = { query: { includes_parents: "false" } };
  return {
    path: R.list.path({ owner, repo }),
    list: () => c.paginate(R.list, { owner, repo }, own),
    create: async (body: ApiRulesetWrite): Promise<ApiRuleset> =>
      (await c.post(R.create, { owner, repo }, body)).data,
    get: async (id) => (await c.get(R.get, at(id), own)).data,
    update: async (id, body) => (await c.put(R.update, at(id), body, { idempotent: true })).data,
    remove: (id) => c.delete(R.delete, at(id)),
  };
}

export const repositoryRulesetProvider = defineProvider<
  typeof repositoryRulesetKind.inputs,
  RepositoryRulesetOutputs
>(repositoryRulesetKind, {
  crossField: rulesetRules<RepositoryRulesetInputs>("repo"),
  comparable,
  adoptedId: (inputs) =>
    inputs.importId === undefined
      ? undefined
      : repositoryRulesetKind.formatId({
          owner: inputs.owner,
          repository: inputs.repository,
          rulesetId: inputs.importId,
        }),
  ...rulesetMethods<RepositoryRulesetInputs>({
    kind: repositoryRulesetKind.kind,
    parseId: repositoryRulesetKind.parseId,
    rules: repositoryRulesetKind.rules,
    api: (c, owner) => repoApi(c, owner.owner ?? "", owner.repository ?? ""),
    identity: ({ owner, repository }) => ({
      ...(owner === undefined ? {} : { owner }),
      ...(repository === undefined ? {} : { repository }),
    }),
    idOf: (inputs, rulesetId) =>
      repositoryRulesetKind.formatId({ owner: inputs.owner, repository: inputs.repository, rulesetId }),
    notFound: ({ owner, repository }) => [
      `there is no repository ${owner}/${repository}`,
      "the token's user does not administer the repository",
      "the token lacks the classic scope repo (or the fine-grained permission Administration write)",
    ],
  }),
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** A ruleset of one repository: see its declaration, `repositoryRulesetKind`. Example: `examples/rulesets/`. */
export class RepositoryRuleset extends resourceClass<RepositoryRulesetArgs, RepositoryRulesetOutputs>(
  repositoryRulesetProvider,
) {}
