/**
 * Custom deployment protection rules: DeploymentProtectionRule
 * (`/repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules`).
 *
 * A rule enables an app (an integration installed on the repository's owner) as a gate of one
 * environment. The API has no update route, so every argument replaces the rule. An app is enabled
 * at most once per environment, so the four arguments name the rule: create adopts a rule already
 * enabling the app there (and says so) instead of failing, as memberships adopt by their names.
 * An app that is not available fails at create with the list of those that are.
 *
 * Environment names may hold `/` and `:`: they are URL-encoded in every path and in the id.
 */
import { z } from "zod";
import {
  type ApiDeploymentProtectionRule,
  type ApiProtectionRuleApp,
  environmentsRoutes,
} from "../../../api/environments";
import {
  type HostingApiError,
  isHostingApiError,
  isNotFound,
  notFoundError,
  validationError,
} from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { collectionReads } from "../../internal/collection-reads";
import { client, notice } from "../../internal/context";
import { createWithoutDuplicates } from "../../internal/creates";
import {
  type ArgsOf,
  declareKind,
  type Found,
  field,
  type OutputsOfKind,
  output,
} from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { repositoryFields } from "../../internal/repository-fields";
import { resourceClass } from "../../internal/resource";
import { repositoryEnvironmentKind } from "./repository-environment";
import { type EnvironmentPlace, environmentAt, environmentName, environmentsAt } from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration (there is no update route: every argument replaces the rule)
// ---------------------------------------------------------------------------------------------

const protectionRuleApp = z
  .object({
    id: z.number().int().meta({ description: "The app's id (the rule's `integrationId`)." }),
    slug: z.string().meta({ description: "The app's slug, its name in URLs." }),
    integrationUrl: z.string().meta({ description: "The app's API URL." }),
  })
  .meta({ id: "ProtectionRuleApp", description: "The app a rule enables." });

/** The app a rule enables. */
export type ProtectionRuleApp = z.infer<typeof protectionRuleApp>;

export const deploymentProtectionRuleKind = declareKind({
  kind: "DeploymentProtectionRule",
  description:
    "An app enabled as a custom deployment protection rule of one environment (`/repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules`): deployments to the environment wait for the app's approval. The API has no update route, so every argument replaces it. Needs a token that administers the repository: classic scope `repo`, or the fine-grained permission `administration` write.",
  idFormat: ["owner", "repository", "environment", "ruleId"],
  inputs: z.object({
    ...repositoryFields("rule"),
    environment: field(environmentName(), {
      description:
        "The environment's name as the platform shows it (`release/eu`; `/` and `:` are fine, the provider URL-encodes it). Compared case-insensitively, as the platform does. The environment must exist when the rule is created: for one the program declares, pass that `RepositoryEnvironment`'s `environment` output, so the rule waits for it. A change replaces the rule.",
      replace: true,
    }),
    integrationId: field(
      z
        .number({ error: "integrationId is required: the integer id of an app, such as 101" })
        .int("integrationId must be an integer: the id of an app")
        .positive("integrationId must be positive: the id of an app"),
      {
        description:
          "The id of the app to enable as a rule: one of the integrations available to the environment (apps usable as deployment protection rules installed on `owner`). A change replaces the rule.",
        replace: true,
      },
    ),
  }),
  outputs: z.object({
    ruleId: output(z.number().int(), "The rule's id on the server (the last part of the resource id)."),
    enabled: output(
      z.boolean(),
      "Whether the rule is enabled for the environment, as the server reports it.",
    ),
    app: output(protectionRuleApp, "The app behind the rule: `{id, slug, integrationUrl}`."),
  }),
  discovery: {
    scope: "repository",
    what: ({ owner, repo }) => `deployment protection rules of ${owner}/${repo}`,
    // The label is the environment and the app: the environment argument is a reference (not a
    // value to name by) where its RepositoryEnvironment is adopted too.
    names: ["{owner}-{repository}-{label|environment}"],
    async list(c, place): Promise<Found[]> {
      const { owner = "", repo = "" } = place;
      const envs = await environmentsAt(c, place);
      const rules = await Promise.all(
        envs.map(async (env) => {
          const list = (await c.get(P.list, { owner, repo, environment_name: env.name })).data;
          // The rule names its environment through the RepositoryEnvironment adopting it (where
          // that is adopted too), so the program creates the environment first.
          const environment = {
            kind: "RepositoryEnvironment",
            id: repositoryEnvironmentKind.formatId({ owner, repository: repo, environment: env.name }),
            output: "environment",
          };
          return list.custom_deployment_protection_rules.map((rule) => ({
            id: deploymentProtectionRuleKind.formatId({
              owner,
              repository: repo,
              environment: env.name,
              ruleId: rule.id,
            }),
            refs: { environment },
          }));
        }),
      );
      return rules.flat();
    },
    // A rule is known by its environment and its app.
    labelOf: (props) => {
      const slug = (props.app as { slug?: unknown } | undefined)?.slug;
      const app = typeof slug === "string" && slug !== "" ? slug : "app";
      return typeof props.environment === "string" ? `${props.environment} gate ${app}` : undefined;
    },
  },
});

export type DeploymentProtectionRuleArgs = ArgsOf<typeof deploymentProtectionRuleKind.inputs>;
export type DeploymentProtectionRuleInputs = z.infer<typeof deploymentProtectionRuleKind.inputs>;
export type DeploymentProtectionRuleOutputs = OutputsOfKind<typeof deploymentProtectionRuleKind>;

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/** Where a rule lives: the repository and the environment. */
type Where = EnvironmentPlace;

/** Outputs from the server's rule; the names' spelling comes from the program. */
function ruleOutputs(where: Where, api: ApiDeploymentProtectionRule): DeploymentProtectionRuleOutputs {
  return {
    owner: where.owner,
    repository: where.repository,
    environment: where.environment,
    integrationId: api.app.id,
    ruleId: api.id,
    enabled: api.enabled,
    app: { id: api.app.id, slug: api.app.slug, integrationUrl: api.app.integration_url ?? "" },
  };
}

/** Owner, repository and environment names are case-insensitive on the platform. */
const comparable = lowerCased<DeploymentProtectionRuleInputs>("owner", "repository", "environment");

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = deploymentProtectionRuleKind.kind;

const parseId = (id: string): Where & { ruleId: number } => deploymentProtectionRuleKind.parseId(id);

const P = environmentsRoutes.protectionRules;
const at = environmentAt;

const ruleApi = (c: HostingClient, where: Where) => {
  const collection = P.list.path(at(where));
  const rule = (protection_rule_id: number) => ({ ...at(where), protection_rule_id });
  /** The environment's rules come in one answer (the route takes no page parameters). */
  const list = async () => (await c.get(P.list, at(where))).data.custom_deployment_protection_rules;
  const writing = <T>(run: () => Promise<T>) => collectionReads.write(c, collection, run);
  return {
    collection,
    /** One rule; reads of several rules of the environment in a run share its list. */
    get: (ruleId: number) =>
      collectionReads.read(c, {
        collection,
        key: String(ruleId),
        keyOf: (r: ApiDeploymentProtectionRule) => String(r.id),
        list,
        single: async () => (await c.get(P.get, rule(ruleId))).data,
      }),
    list,
    create: (integrationId: number) =>
      writing(async () => (await c.post(P.create, at(where), { integration_id: integrationId })).data),
    available: (): Promise<ApiProtectionRuleApp[]> => c.paginate(P.apps, at(where)),
    delete: (ruleId: number) => writing(() => c.delete(P.delete, rule(ruleId))),
  };
};

/**
 * Enables the app without ever leaving two rules: after an ambiguous failure it looks for a rule of
 * that app before trying again. A 422 means the app is already enabled there (adopted) or not
 * available (the error lists those that are).
 */
async function enable(
  c: HostingClient,
  inputs: DeploymentProtectionRuleInputs,
): Promise<{ rule: ApiDeploymentProtectionRule; existed: boolean }> {
  const api = ruleApi(c, inputs);
  const ofApp = async () => (await api.list()).find((r) => r.app.id === inputs.integrationId);
  // Adoption changes nothing it need not: an app already enabled there is taken as it is, so the
  // POST is sent only for an app that is not.
  const enabled = await ofApp().catch((e: unknown) => {
    throw isNotFound(e) ? noEnvironment(inputs, api.collection) : e;
  });
  if (enabled) return { rule: enabled, existed: true };
  try {
    const made = await createWithoutDuplicates(() => api.create(inputs.integrationId), ofApp);
    return { rule: made.value, existed: false };
  } catch (e) {
    if (isNotFound(e)) throw noEnvironment(inputs, api.collection);
    if (!isHostingApiError(e) || e.status !== 422) throw e;
    const existing = await ofApp();
    if (existing) return { rule: existing, existed: true };
    const available = await api.available();
    if (!available.some((a) => a.id === inputs.integrationId)) {
      throw unavailable(inputs, api.collection, available);
    }
    throw e;
  }
}

function noEnvironment(w: Where, path: string): HostingApiError {
  return notFoundError({
    method: "POST",
    path,
    what: `${KIND} of environment "${w.environment}" in ${w.owner}/${w.repository}`,
    causes: [
      `there is no environment "${w.environment}" in ${w.owner}/${w.repository}, or no such repository (an environment the program declares as a RepositoryEnvironment must be created first: pass its \`environment\` output as this rule's \`environment\`)`,
      "the token's user does not administer the repository",
      "the token lacks the classic scope repo (or the fine-grained permission administration write)",
    ],
  });
}

function unavailable(
  inputs: DeploymentProtectionRuleInputs,
  path: string,
  available: ApiProtectionRuleApp[],
): HostingApiError {
  const names = available.map((a) => `${a.slug} (${a.id})`).join(", ");
  return validationError(
    { method: "POST", path },
    `${KIND}: integrationId ${inputs.integrationId} is not available to environment "${inputs.environment}" of ${inputs.owner}/${inputs.repository}; ${names ? `available: ${names}` : "none is available"}`,
    `Set integrationId to an available app's id, or install the app on ${inputs.owner}`,
  );
}

export const deploymentProtectionRuleProvider = defineProvider<
  typeof deploymentProtectionRuleKind.inputs,
  DeploymentProtectionRuleOutputs
>(deploymentProtectionRuleKind, {
  comparable,

  async create(inputs) {
    const { rule, existed } = await enable(client(), inputs);
    const id = deploymentProtectionRuleKind.formatId({ ...inputs, ruleId: rule.id });
    if (existed) {
      notice(
        `${KIND} ${id}: ${rule.app.slug} (${rule.app.id}) was already enabled on environment "${inputs.environment}" as rule ${rule.id}; this resource now manages it, and destroying it disables the app there`,
      );
    }
    return { id, outs: ruleOutputs(inputs, rule) };
  },

  async read(id, props) {
    const where = parseId(id);
    // A 404: the rule was disabled, or the environment or repository is gone. Refresh drops it.
    const rule = await readOrGone(() => ruleApi(client(), where).get(where.ruleId));
    if (!rule) return {};
    const who = {
      owner: props?.owner ?? where.owner,
      repository: props?.repository ?? where.repository,
      environment: props?.environment ?? where.environment,
    };
    return { id, props: ruleOutputs(who, rule) };
  },

  async update(_id, olds, news) {
    // Every argument replaces the rule, so an update carries no change the API could take (a name
    // respelled in another case compares equal): it records the new spelling and sends nothing.
    return { outs: { ...news, ruleId: olds.ruleId, enabled: olds.enabled, app: olds.app } };
  },

  async delete(id) {
    const where = parseId(id);
    await deleteIgnoringGone(() => ruleApi(client(), where).delete(where.ruleId));
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/**
 * An app enabled as a custom deployment protection rule of one environment: see its declaration,
 * `deploymentProtectionRuleKind`. Example: `examples/environments/`.
 */
export class DeploymentProtectionRule extends resourceClass<
  DeploymentProtectionRuleArgs,
  DeploymentProtectionRuleOutputs
>(deploymentProtectionRuleProvider) {}
