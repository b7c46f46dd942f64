/**
 * RepositoryEnvironment: an environment of one repository (`/repos/{owner}/{repo}/environments/{environment_name}`)
 * with its built-in protection (a wait timer, required reviewers) and which refs may deploy to it
 * (`deploymentBranchPolicy`, and with custom policies the name patterns of
 * `.../deployment-branch-policies`).
 *
 * - One `PUT` creates the environment or sets its settings: create reads first, so an environment
 *   that exists already (made in the web UI, or by a workflow run naming it) is adopted, with a
 *   write only where it differs, and a notice.
 * - `reviewers` and `branchPolicies` are sets. `branchPolicies` is the environment's whole list: a
 *   pattern added outside Pulumi is drift, and `up` removes it.
 * - The platform's limits fail at preview, naming the field: at most 6 reviewers, a wait timer of
 *   0-43,200 minutes, branch policies only with `deploymentBranchPolicy.customBranchPolicies`.
 * - Destroy deletes the environment; the platform deletes its branch policies, protection rules,
 *   secrets and variables with it (a rule or secret of it destroyed in the same run is then gone,
 *   which their delete takes as done).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ApiBranchPolicy,
  type ApiEnvironment,
  type ApiEnvironmentWrite,
  ENVIRONMENT_REVIEWERS_MAX,
  ENVIRONMENT_WAIT_TIMER_MAX,
  environmentsRoutes,
} from "../../../api/environments";
import { isHostingApiError, isNotFound, notFoundError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { collectionReads } from "../../internal/collection-reads";
import { client, notice } from "../../internal/context";
import { PartialCreateError } from "../../internal/creates";
import {
  type ArgsOf,
  declareKind,
  type Found,
  field,
  type NestedArgsOf,
  type OutputsOfKind,
  output,
} from "../../internal/declare";
import { lowerCased, sameValue } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { repositoryFields } from "../../internal/repository-fields";
import { resourceClass } from "../../internal/resource";
import {
  branchPolicy,
  deploymentBranchPolicy,
  type EnvironmentPlace,
  environmentAt,
  environmentName,
  environmentsAt,
  reviewer,
} from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

export const repositoryEnvironmentKind = declareKind({
  kind: "RepositoryEnvironment",
  description:
    "An environment of one repository (`/repos/{owner}/{repo}/environments/{environment_name}`) with its wait timer, required reviewers and the refs that may deploy to it (`.../deployment-branch-policies`). Create adopts an environment of that name if there is one (writing only what differs). `branchPolicies` is the environment's whole list: one added outside Pulumi is drift. Destroy deletes the environment, and with it its branch policies, protection rules, secrets and variables. Needs a token that administers the repository: classic scope `repo`, or the fine-grained permission `administration` write.",
  idFormat: ["owner", "repository", "environment"],
  inputs: z.object({
    ...repositoryFields("environment"),
    environment: field(environmentName(), {
      description:
        "The environment's name (`release/eu`; `/` and `:` are fine, the provider URL-encodes it). Compared case-insensitively, as the platform does. A change replaces the environment.",
      replace: true,
    }),
    waitTimer: field(
      z
        .number({ error: "waitTimer must be a number of minutes" })
        .int("waitTimer must be a whole number of minutes")
        .min(0, `waitTimer must be between 0 and ${ENVIRONMENT_WAIT_TIMER_MAX} minutes`)
        .max(
          ENVIRONMENT_WAIT_TIMER_MAX,
          `waitTimer must be between 0 and ${ENVIRONMENT_WAIT_TIMER_MAX} minutes (30 days)`,
        )
        .default(0),
      {
        description: `Minutes a job waits after it is triggered before it may deploy, 0 to ${ENVIRONMENT_WAIT_TIMER_MAX} (30 days). Default 0. Updates in place.`,
      },
    ),
    preventSelfReview: field(z.boolean({ error: "preventSelfReview must be a boolean" }).default(false), {
      description:
        "Whether the user who triggered a deployment may not approve it. Needs `reviewers` (the platform keeps it with them). Default false. Updates in place.",
    }),
    reviewers: field(
      z
        .array(reviewer, { error: "reviewers must be a list of {type, id}" })
        .max(
          ENVIRONMENT_REVIEWERS_MAX,
          `reviewers may list at most ${ENVIRONMENT_REVIEWERS_MAX} users or teams`,
        )
        .default([]),
      {
        description: `Users and teams who may approve deployments (one approval is enough), at most ${ENVIRONMENT_REVIEWERS_MAX}; each must be able to read the repository. Compared as a set. Default none. Updates in place.`,
        set: true,
      },
    ),
    deploymentBranchPolicy: field(deploymentBranchPolicy.optional(), {
      description:
        "Which refs may deploy: `{protectedBranches: true, customBranchPolicies: false}` (protected branches) or `{protectedBranches: false, customBranchPolicies: true}` (the patterns of `branchPolicies`). Absent: every branch may deploy. Updates in place.",
    }),
    branchPolicies: field(
      z.array(branchPolicy, { error: "branchPolicies must be a list of {name, type}" }).default([]),
      {
        description:
          "The name patterns refs must match to deploy, `{name, type}` (type `branch` or `tag`): the environment's whole list, so a pattern added outside Pulumi is drift and `up` removes it. Needs `deploymentBranchPolicy.customBranchPolicies`. Compared as a set. Default none.",
        set: true,
      },
    ),
  }),
  outputs: z.object({
    environmentId: output(z.number().int(), "The environment's id on the server."),
    createdAt: output(z.string(), "When the environment was created, as the server reports it (ISO 8601)."),
    updatedAt: output(z.string(), "When its settings last changed, as the server reports it (ISO 8601)."),
  }),
  discovery: {
    scope: "repository",
    what: ({ owner, repo }) => `environments of ${owner}/${repo}`,
    names: ["{owner}-{repository}-{environment}", "{owner}-{repository}-environment-{environment}"],
    async list(c, place): Promise<Found[]> {
      const { owner = "", repo = "" } = place;
      return (await environmentsAt(c, place)).map((env) => ({
        id: repositoryEnvironmentKind.formatId({ owner, repository: repo, environment: env.name }),
      }));
    },
  },
});

export type RepositoryEnvironmentArgs = ArgsOf<typeof repositoryEnvironmentKind.inputs>;
export type RepositoryEnvironmentInputs = z.infer<typeof repositoryEnvironmentKind.inputs>;
export type RepositoryEnvironmentOutputs = OutputsOfKind<typeof repositoryEnvironmentKind>;
export type EnvironmentReviewer = z.infer<typeof reviewer>;
export type EnvironmentBranchPolicy = z.infer<typeof branchPolicy>;
export type EnvironmentReviewerArgs = NestedArgsOf<typeof reviewer>;
export type EnvironmentBranchPolicyArgs = NestedArgsOf<typeof branchPolicy>;
export type DeploymentBranchPolicyArgs = NestedArgsOf<typeof deploymentBranchPolicy>;

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

type Settings = Pick<
  RepositoryEnvironmentInputs,
  "waitTimer" | "preventSelfReview" | "reviewers" | "deploymentBranchPolicy"
>;

// Mapped by hand, not from wire paths: the API answers these inside its protection rules' list and takes them flat.
/** The settings an environment shows in its built-in protection rules. */
function settingsOf(api: ApiEnvironment): Settings {
  const rules = api.protection_rules ?? [];
  const timer = rules.find((r) => r.type === "wait_timer");
  const required = rules.find((r) => r.type === "required_reviewers");
  const policy = api.deployment_branch_policy;
  return compact({
    waitTimer: timer?.wait_timer ?? 0,
    preventSelfReview: required?.prevent_self_review ?? false,
    reviewers: (required?.reviewers ?? []).map((r) => ({ type: r.type, id: r.reviewer.id })),
    // null on the wire: every branch may deploy, which the program says by leaving it out.
    deploymentBranchPolicy: policy
      ? { protectedBranches: policy.protected_branches, customBranchPolicies: policy.custom_branch_policies }
      : undefined,
  });
}

const customPolicies = (settings: Pick<Settings, "deploymentBranchPolicy">) =>
  settings.deploymentBranchPolicy?.customBranchPolicies === true;

const policyOf = (api: ApiBranchPolicy): EnvironmentBranchPolicy => ({
  name: api.name,
  type: api.type ?? "branch",
});

function environmentOutputs(
  where: EnvironmentPlace,
  api: ApiEnvironment,
  policies: ApiBranchPolicy[],
): RepositoryEnvironmentOutputs {
  const settings = settingsOf(api);
  return compact({
    owner: where.owner,
    repository: where.repository,
    environment: where.environment,
    ...settings,
    // Patterns count only while the environment uses them.
    branchPolicies: customPolicies(settings) ? policies.map(policyOf) : [],
    environmentId: api.id,
    createdAt: api.created_at,
    updatedAt: api.updated_at,
  });
}

/** The whole settings, sent on every write (so a PUT repeated after a failure is the same PUT). */
function writeBody(inputs: Settings): ApiEnvironmentWrite {
  // A set: each reviewer once, in the program's order.
  const reviewers = [...new Map(inputs.reviewers.map((r) => [`${r.type}:${r.id}`, r])).values()];
  const policy = inputs.deploymentBranchPolicy;
  return {
    wait_timer: inputs.waitTimer,
    prevent_self_review: inputs.preventSelfReview,
    reviewers,
    deployment_branch_policy: policy
      ? { protected_branches: policy.protectedBranches, custom_branch_policies: policy.customBranchPolicies }
      : null,
  };
}

function settingsDiffer(live: Settings, wanted: Settings): boolean {
  return (
    live.waitTimer !== wanted.waitTimer ||
    live.preventSelfReview !== wanted.preventSelfReview ||
    !sameValue(live.reviewers, wanted.reviewers, true) ||
    !sameValue(live.deploymentBranchPolicy, wanted.deploymentBranchPolicy)
  );
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = repositoryEnvironmentKind.kind;

function parseId(id: string): EnvironmentPlace {
  const { owner, repository, environment } = repositoryEnvironmentKind.parseId(id);
  return { owner, repository, environment };
}

const E = environmentsRoutes.environments;
const B = environmentsRoutes.branchPolicies;

const environmentApi = (c: HostingClient, where: EnvironmentPlace) => {
  const repo = { owner: where.owner, repo: where.repository };
  const collection = E.list.path(repo);
  const writing = <T>(run: () => Promise<T>) => collectionReads.write(c, collection, run);
  const policy = (branch_policy_id: number) => ({ ...environmentAt(where), branch_policy_id });
  return {
    /** One environment; reads of several environments of a repository in a run share its list. */
    get: () =>
      collectionReads.read(c, {
        collection,
        key: where.environment.toLowerCase(),
        keyOf: (e: ApiEnvironment) => e.name.toLowerCase(),
        list: () => c.paginate(E.list, repo),
        single: async () => (await c.get(E.get, environmentAt(where))).data,
      }),
    put: (body: ApiEnvironmentWrite) =>
      writing(async () => (await c.put(E.put, environmentAt(where), body)).data),
    delete: () => writing(() => c.delete(E.delete, environmentAt(where))),
    policies: () => c.paginate(B.list, environmentAt(where)),
    /**
     * The platform answers a pattern the environment has already with a 303 to it, so sending one
     * again (after an ambiguous failure) never makes a second: the POST is safe to repeat.
     */
    addPolicy: async (p: EnvironmentBranchPolicy) => {
      try {
        await c.post(B.create, environmentAt(where), { name: p.name, type: p.type }, { idempotent: true });
      } catch (e) {
        if (!isHostingApiError(e) || e.status !== 303) throw e;
      }
    },
    removePolicy: (id: number) => deleteIgnoringGone(() => c.delete(B.delete, policy(id))),
  };
};

const policyKey = (p: EnvironmentBranchPolicy) => `${p.type}\u0000${p.name}`;

/**
 * Brings the environment's settings to `inputs`: one PUT where they differ from `live`, or where
 * there is no environment yet. Answers the environment as it now is.
 */
async function settle(
  c: HostingClient,
  inputs: RepositoryEnvironmentInputs,
  live: ApiEnvironment | undefined,
): Promise<ApiEnvironment> {
  if (live && !settingsDiffer(settingsOf(live), inputs)) return live;
  return environmentApi(c, inputs)
    .put(writeBody(inputs))
    .catch((e: unknown) => {
      throw isNotFound(e) ? noRepository(inputs) : e;
    });
}

/**
 * The branch patterns the program lists and no others (with custom policies; none to manage
 * otherwise). `live`: the environment before `settle`, whose patterns are there to compare.
 */
async function reconcilePolicies(
  c: HostingClient,
  inputs: RepositoryEnvironmentInputs,
  live: ApiEnvironment | undefined,
): Promise<ApiBranchPolicy[]> {
  if (!customPolicies(inputs)) return [];
  const api = environmentApi(c, inputs);
  const before = live && customPolicies(settingsOf(live)) ? await api.policies() : [];
  const wanted = new Map(inputs.branchPolicies.map((p) => [policyKey(p), p]));
  const held = new Set(before.map((p) => policyKey(policyOf(p))));
  const extra = before.filter((p) => !wanted.has(policyKey(policyOf(p))));
  const missing = [...wanted.values()].filter((p) => !held.has(policyKey(p)));
  for (const p of extra) await api.removePolicy(p.id);
  for (const p of missing) await api.addPolicy(p);
  return extra.length + missing.length > 0 ? await api.policies() : before;
}

function noRepository(w: EnvironmentPlace) {
  return notFoundError({
    method: "PUT",
    path: E.put.path(environmentAt(w)),
    what: `${KIND} "${w.environment}" in ${w.owner}/${w.repository}`,
    causes: [
      `there is no repository ${w.owner}/${w.repository}`,
      "the token's user does not administer the repository",
      "the token lacks the classic scope repo (or the fine-grained permission administration write)",
    ],
  });
}

export const repositoryEnvironmentProvider = defineProvider<
  typeof repositoryEnvironmentKind.inputs,
  RepositoryEnvironmentOutputs
>(repositoryEnvironmentKind, {
  // Owner, repository and environment names are case-insensitive on the platform.
  comparable: lowerCased<RepositoryEnvironmentInputs>("owner", "repository", "environment"),

  crossField(inputs, pending) {
    const failures: pulumi.dynamic.CheckFailure[] = [];
    const policy = inputs.deploymentBranchPolicy;
    if (!pending.has("deploymentBranchPolicy") && policy !== undefined) {
      if (policy.protectedBranches === policy.customBranchPolicies) {
        failures.push({
          property: "deploymentBranchPolicy",
          reason:
            "deploymentBranchPolicy: exactly one of protectedBranches and customBranchPolicies must be true (leave deploymentBranchPolicy out to let every branch deploy)",
        });
      }
    }
    const decided = !pending.has("deploymentBranchPolicy") && !pending.has("branchPolicies");
    if (decided && inputs.branchPolicies.length > 0 && policy?.customBranchPolicies !== true) {
      failures.push({
        property: "branchPolicies",
        reason:
          "branchPolicies needs deploymentBranchPolicy {protectedBranches: false, customBranchPolicies: true}: the platform applies name patterns only then",
      });
    }
    if (!pending.has("preventSelfReview") && !pending.has("reviewers")) {
      if (inputs.preventSelfReview && inputs.reviewers.length === 0) {
        failures.push({
          property: "preventSelfReview",
          reason:
            "preventSelfReview needs at least one entry in reviewers: the platform keeps it with the required reviewers",
        });
      }
    }
    return failures;
  },

  async create(inputs) {
    const c = client();
    const id = repositoryEnvironmentKind.formatId(inputs);
    const live = await readOrGone(() => environmentApi(c, inputs).get());
    if (live) {
      notice(
        `${KIND} ${id}: the environment already existed (created ${live.created_at}); this resource now manages it, and destroying it deletes the environment`,
      );
    }
    const environment = await settle(c, inputs, live);
    try {
      const policies = await reconcilePolicies(c, inputs, live);
      return { id, outs: environmentOutputs(inputs, environment, policies) };
    } catch (e) {
      // The environment exists (it did, or the PUT made it) while its patterns failed: keep it.
      throw new PartialCreateError(id, environmentOutputs(inputs, environment, []), e);
    }
  },

  async read(id, props) {
    const where = parseId(id);
    const api = environmentApi(client(), where);
    // A 404: the environment was deleted, or the repository is gone. Refresh drops it.
    const environment = await readOrGone(() => api.get());
    if (!environment) return {};
    const policies = customPolicies(settingsOf(environment)) ? await api.policies() : [];
    const who = {
      owner: props?.owner ?? where.owner,
      repository: props?.repository ?? where.repository,
      environment: props?.environment ?? where.environment,
    };
    return { id, props: environmentOutputs(who, environment, policies) };
  },

  async update(id, _olds, news) {
    const c = client();
    // What the server holds now, not what state last saw: only what differs is written.
    const live = await readOrGone(() => environmentApi(c, parseId(id)).get());
    const environment = await settle(c, news, live);
    const policies = await reconcilePolicies(c, news, live);
    return { outs: environmentOutputs(news, environment, policies) };
  },

  async delete(id) {
    await deleteIgnoringGone(() => environmentApi(client(), parseId(id)).delete());
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/**
 * An environment of one repository with its protection and the refs that may deploy: see its
 * declaration, `repositoryEnvironmentKind`. Example: `examples/environments/`.
 */
export class RepositoryEnvironment extends resourceClass<
  RepositoryEnvironmentArgs,
  RepositoryEnvironmentOutputs
>(repositoryEnvironmentProvider) {}
