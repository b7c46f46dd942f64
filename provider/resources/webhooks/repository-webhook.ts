/** RepositoryWebhook: a webhook of one repository (`/repos/{owner}/{repo}/hooks`). */
import { z } from "zod";
import { type ApiWebhook, REPOSITORY_WEBHOOK_DEFAULT_EVENTS, webhooksRoutes } from "../../../api/webhooks";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, type Found, type OutputsOfKind, output } from "../../internal/declare";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { repositoryFields } from "../../internal/repository-fields";
import { resourceClass } from "../../internal/resource";
import {
  commonInputs,
  createOrAdopt,
  deliveriesUrlOutput,
  type HookPlace,
  namedEventsField,
  stateFromApi,
  webhookApi,
  webhookMapping,
  webhookOutputs,
} from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

export const repositoryWebhookKind = declareKind({
  kind: "RepositoryWebhook",
  description:
    "A webhook of one repository (`/repos/{owner}/{repo}/hooks`). Needs a token that administers the repository: classic scope `admin:repo_hook` (or `write:repo_hook` without delete, or `repo`), or the fine-grained permission `repository_hooks` write.",
  idFormat: ["owner", "repository", "hookId"],
  inputs: z.object({
    ...repositoryFields("webhook"),
    ...commonInputs,
    events: namedEventsField(REPOSITORY_WEBHOOK_DEFAULT_EVENTS, "Repository"),
  }),
  outputs: z.object({
    ...webhookOutputs,
    testUrl: output(
      z.string(),
      "The API URL that makes the hook deliver the repository's latest push again.",
    ),
    deliveriesUrl: deliveriesUrlOutput,
  }),
  discovery: {
    scope: "repository",
    what: ({ owner, repo }) => `webhooks of ${owner}/${repo}`,
    names: ["{owner}-{repository}-hook-{url:host}", "{owner}-{repository}-hook-{url:hostpath}"],
    async list(c, { owner = "", repo = "" }): Promise<Found[]> {
      const hooks = await webhookApi(c, hooksOf(owner, repo)).list();
      return hooks.map((h) => ({
        id: repositoryWebhookKind.formatId({ owner, repository: repo, hookId: h.id }),
        importId: h.id,
      }));
    },
  },
});

export type RepositoryWebhookArgs = ArgsOf<typeof repositoryWebhookKind.inputs>;
export type RepositoryWebhookInputs = z.infer<typeof repositoryWebhookKind.inputs>;
export type RepositoryWebhookOutputs = OutputsOfKind<typeof repositoryWebhookKind>;

/** The hooks' mapping to state and write bodies, from the wire paths the fields declare. */
const hooks = webhookMapping(repositoryWebhookKind);

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

function repositoryOutputs(
  who: { owner: string; repository: string; importId?: string | undefined },
  api: ApiWebhook,
  stateSecret: string | undefined,
): RepositoryWebhookOutputs {
  return compact({
    owner: who.owner,
    repository: who.repository,
    importId: who.importId,
    ...hooks.settingsFromApi(api, stateSecret),
    ...stateFromApi(api),
    testUrl: api.test_url ?? "",
    deliveriesUrl: api.deliveries_url ?? "",
  });
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

/** The hooks of one repository. */
const hooksOf = (owner: string, repo: string): HookPlace<{ owner: string; repo: string }> => ({
  routes: webhooksRoutes.repoHooks,
  params: { owner, repo },
});

const parseId = (id: string) => {
  const { owner, repository, hookId } = repositoryWebhookKind.parseId(id);
  return { owner, repository, hookId };
};

export const repositoryWebhookProvider = defineProvider<
  typeof repositoryWebhookKind.inputs,
  RepositoryWebhookOutputs
>(repositoryWebhookKind, {
  adoptedId: (inputs) =>
    inputs.importId === undefined
      ? undefined
      : repositoryWebhookKind.formatId({ ...inputs, hookId: inputs.importId }),

  async create(inputs) {
    const idOf = (hookId: number) => repositoryWebhookKind.formatId({ ...inputs, hookId });
    const outputsOf = (api: ApiWebhook) => repositoryOutputs(inputs, api, inputs.secret);
    const place = hooksOf(inputs.owner, inputs.repository);
    const hook = await createOrAdopt(
      hooks,
      client(),
      place,
      inputs,
      hooks.writeBody(inputs),
      idOf,
      outputsOf,
    );
    return { id: idOf(hook.id), outs: outputsOf(hook) };
  },

  async read(id, props) {
    const { owner, repository, hookId } = parseId(id);
    const hook = await readOrGone(() => webhookApi(client(), hooksOf(owner, repository)).get(hookId));
    if (!hook) return {};
    const who = {
      owner: props?.owner ?? owner,
      repository: props?.repository ?? repository,
      importId: props?.importId,
    };
    return { id, props: repositoryOutputs(who, hook, props?.secret) };
  },

  async update(id, _olds, news) {
    const api = webhookApi(client(), hooksOf(news.owner, news.repository));
    const hook = await api.update(parseId(id).hookId, hooks.writeBody(news));
    return { outs: repositoryOutputs(news, hook, news.secret) };
  },

  async delete(id) {
    const { owner, repository, hookId } = parseId(id);
    await deleteIgnoringGone(() => webhookApi(client(), hooksOf(owner, repository)).delete(hookId));
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** A webhook of one repository: see its declaration, `repositoryWebhookKind`. Example: `examples/webhooks/`. */
export class RepositoryWebhook extends resourceClass<RepositoryWebhookArgs, RepositoryWebhookOutputs>(
  repositoryWebhookProvider,
) {}
