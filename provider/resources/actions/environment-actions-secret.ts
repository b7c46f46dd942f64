/**
 * EnvironmentActionsSecret: an Actions secret of one environment of a repository
 * (`/repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}`), its value sealed
 * on the client for the environment's public key and never kept (secret-value.ts says how a value
 * changed outside Pulumi is still seen).
 *
 * The name is the secret's identity: create is one PUT (create or update), so a secret already
 * there under that name is adopted by construction and its value set to the program's. Deleting the
 * environment deletes its secrets: refresh then drops this one, as it drops a secret deleted alone.
 * Environment names may hold `/` and `:`: they are URL-encoded in every path and in the id.
 */
import { z } from "zod";
import { actionsRoutes } from "../../../api/actions";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, type Found, type OutputsOfKind } from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { repositoryFields } from "../../internal/repository-fields";
import { resourceClass } from "../../internal/resource";
import { secretApi } from "./actions-api";
import { plaintextFor, recordSecretValue, valueAfterRead } from "./secret-value";
import {
  actionsOutputs,
  environmentField,
  environmentScope,
  environmentsOf,
  nameField,
  secretValueField,
} from "./shared";

export const environmentActionsSecretKind = declareKind({
  kind: "EnvironmentActionsSecret",
  description:
    "An Actions secret of one environment of a repository (`/repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}`), its value **sealed on the client** for the environment's public key and never stored in state. Needs a token that administers the repository: classic scope `repo`, or the fine-grained permission `environments` write.",
  idFormat: ["owner", "repository", "environment", "secretName"],
  inputs: z.object({
    ...repositoryFields("secret"),
    environment: environmentField("secret"),
    secretName: nameField("secretName", "secret"),
    value: secretValueField("the environment"),
  }),
  outputs: z.object(actionsOutputs("secret")),
  discovery: {
    scope: "repository",
    what: ({ owner, repo }) => `environment Actions secrets of ${owner}/${repo}`,
    names: ["{owner}-{repository}-{environment}-secret-{secretName}"],
    async list(c, place): Promise<Found[]> {
      const { owner = "", repo = "" } = place;
      const found = await Promise.all(
        (await environmentsOf(c, place)).map(async (environment) => {
          const params = { owner, repo, environment_name: environment };
          const secrets = await c.paginate(actionsRoutes.envActionsSecrets.list, params);
          return secrets.map((s) => ({
            id: environmentActionsSecretKind.formatId({
              owner,
              repository: repo,
              environment,
              secretName: s.name,
            }),
          }));
        }),
      );
      return found.flat();
    },
    // Every secret holds a value, which the API never returns: the program reads it from config.
    needsSecret: () => true,
  },
});

export type EnvironmentActionsSecretArgs = ArgsOf<typeof environmentActionsSecretKind.inputs>;
export type EnvironmentActionsSecretInputs = z.infer<typeof environmentActionsSecretKind.inputs>;
export type EnvironmentActionsSecretOutputs = OutputsOfKind<typeof environmentActionsSecretKind>;

const KIND = environmentActionsSecretKind.kind;

type Where = Pick<EnvironmentActionsSecretInputs, "owner" | "repository" | "environment">;

const parseId = (id: string) => {
  const { owner, repository, environment, secretName } = environmentActionsSecretKind.parseId(id);
  return { owner, repository, environment, secretName };
};

const secrets = (w: Where) =>
  secretApi(
    client(),
    actionsRoutes.envActionsSecrets,
    environmentScope(w.owner, w.repository, w.environment),
    KIND,
  );

/** Names are case-insensitive on the platform. */
const comparable = lowerCased<EnvironmentActionsSecretInputs>(
  "owner",
  "repository",
  "environment",
  "secretName",
);

/** Writes the value (sealed) and reads back the timestamps state records with it. */
async function write(inputs: EnvironmentActionsSecretInputs, plaintext: string | undefined) {
  const api = secrets(inputs);
  if (plaintext !== undefined) await api.put(inputs.secretName, plaintext);
  // The PUT answers without the secret: one GET for its name and timestamps.
  const secret = await api.get(inputs.secretName);
  const outs: EnvironmentActionsSecretOutputs = compact({
    ...inputs,
    secretName: secret.name,
    createdAt: secret.created_at,
    updatedAt: secret.updated_at,
  });
  return { id: environmentActionsSecretKind.formatId({ ...inputs, secretName: secret.name }), outs };
}

export const environmentActionsSecretProvider = defineProvider<
  typeof environmentActionsSecretKind.inputs,
  EnvironmentActionsSecretOutputs
>(environmentActionsSecretKind, {
  comparable,
  recordedInputs: recordSecretValue,

  async create(inputs) {
    return write(inputs, plaintextFor(`${KIND} ${inputs.secretName}`, inputs.value, true));
  },

  async read(id, props) {
    const where = parseId(id);
    // A 404: the secret, its environment or repository, or the token's access is gone. Refresh drops it.
    const secret = await readOrGone(() => secrets(where).get(where.secretName));
    if (!secret) return {};
    const outs = compact({
      owner: props?.owner ?? where.owner,
      repository: props?.repository ?? where.repository,
      environment: props?.environment ?? where.environment,
      secretName: secret.name,
      value: valueAfterRead(props, secret.updated_at),
      createdAt: secret.created_at,
      updatedAt: secret.updated_at,
    });
    return { id, props: outs as EnvironmentActionsSecretOutputs };
  },

  async update(id, olds, news) {
    // A new digest (or an outside change) means the value must be sent; an unchanged one is not.
    const plaintext = plaintextFor(`${KIND} ${id}`, news.value, news.value !== olds.value);
    return { outs: (await write(news, plaintext)).outs };
  },

  async delete(id) {
    const where = parseId(id);
    await deleteIgnoringGone(() => secrets(where).delete(where.secretName));
  },
});

/**
 * An Actions secret of one environment of a repository: see its declaration, `environmentActionsSecretKind`.
 * Example: `examples/actions/`.
 */
export class EnvironmentActionsSecret extends resourceClass<
  EnvironmentActionsSecretArgs,
  EnvironmentActionsSecretOutputs
>(environmentActionsSecretProvider) {}
