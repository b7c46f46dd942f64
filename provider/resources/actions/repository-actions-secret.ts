/**
 * RepositoryActionsSecret: an Actions secret of one repository
 * (`/repos/{owner}/{repo}/actions/secrets/{secret_name}`), its value sealed on the client for the
 * repository's public key and never kept (secret-value.ts says how a value changed outside Pulumi
 * is still seen).
 *
 * The name is the secret's identity: create is one PUT (create or update), so a secret already
 * there under that name is adopted by construction and its value set to the program's.
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
import { ACCESS, actionsOutputs, nameField, repoScope, secretValueField } from "./shared";

export const repositoryActionsSecretKind = declareKind({
  kind: "RepositoryActionsSecret",
  description:
    "An Actions secret of one repository (`/repos/{owner}/{repo}/actions/secrets/{secret_name}`), its value **sealed on the client** for the repository's public key and never stored in state. Needs a token that administers the repository: classic scope `repo`, or the fine-grained permission `secrets` write.",
  idFormat: ["owner", "repository", "secretName"],
  inputs: z.object({
    ...repositoryFields("secret"),
    secretName: nameField("secretName", "secret"),
    value: secretValueField("the repository"),
  }),
  outputs: z.object(actionsOutputs("secret")),
  discovery: {
    scope: "repository",
    what: ({ owner, repo }) => `Actions secrets of ${owner}/${repo}`,
    names: ["{owner}-{repository}-secret-{secretName}"],
    async list(c, { owner = "", repo = "" }): Promise<Found[]> {
      const secrets = await c.paginate(actionsRoutes.repoActionsSecrets.list, { owner, repo });
      return secrets.map((s) => ({
        id: repositoryActionsSecretKind.formatId({ owner, repository: repo, secretName: s.name }),
      }));
    },
    // Every secret holds a value, which the API never returns: the program reads it from config.
    needsSecret: () => true,
  },
});

export type RepositoryActionsSecretArgs = ArgsOf<typeof repositoryActionsSecretKind.inputs>;
export type RepositoryActionsSecretInputs = z.infer<typeof repositoryActionsSecretKind.inputs>;
export type RepositoryActionsSecretOutputs = OutputsOfKind<typeof repositoryActionsSecretKind>;

const KIND = repositoryActionsSecretKind.kind;

type Where = Pick<RepositoryActionsSecretInputs, "owner" | "repository">;

const parseId = (id: string) => {
  const { owner, repository, secretName } = repositoryActionsSecretKind.parseId(id);
  return { owner, repository, secretName };
};

const secrets = (w: Where) =>
  secretApi(
    client(),
    actionsRoutes.repoActionsSecrets,
    repoScope(w.owner, w.repository, ACCESS.repoSecrets),
    KIND,
  );

/** Names are case-insensitive on the platform. */
const comparable = lowerCased<RepositoryActionsSecretInputs>("owner", "repository", "secretName");

/** Writes the value (sealed) and reads back the timestamps state records with it. */
async function write(inputs: RepositoryActionsSecretInputs, plaintext: string | undefined) {
  const api = secrets(inputs);
  if (plaintext !== undefined) await api.put(inputs.secretName, plaintext);
  // The PUT answers without the secret: one GET for its name and timestamps.
  const secret = await api.get(inputs.secretName);
  const outs: RepositoryActionsSecretOutputs = compact({
    ...inputs,
    secretName: secret.name,
    createdAt: secret.created_at,
    updatedAt: secret.updated_at,
  });
  return { id: repositoryActionsSecretKind.formatId({ ...inputs, secretName: secret.name }), outs };
}

export const repositoryActionsSecretProvider = defineProvider<
  typeof repositoryActionsSecretKind.inputs,
  RepositoryActionsSecretOutputs
>(repositoryActionsSecretKind, {
  comparable,
  recordedInputs: recordSecretValue,

  async create(inputs) {
    return write(inputs, plaintextFor(`${KIND} ${inputs.secretName}`, inputs.value, true));
  },

  async read(id, props) {
    const where = parseId(id);
    // A 404: the secret, its repository, or the token's access to it is gone. Refresh drops it.
    const secret = await readOrGone(() => secrets(where).get(where.secretName));
    if (!secret) return {};
    const outs = compact({
      owner: props?.owner ?? where.owner,
      repository: props?.repository ?? where.repository,
      secretName: secret.name,
      value: valueAfterRead(props, secret.updated_at),
      createdAt: secret.created_at,
      updatedAt: secret.updated_at,
    });
    return { id, props: outs as RepositoryActionsSecretOutputs };
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
 * An Actions secret of one repository: see its declaration, `repositoryActionsSecretKind`.
 * Example: `examples/actions/`.
 */
export class RepositoryActionsSecret extends resourceClass<
  RepositoryActionsSecretArgs,
  RepositoryActionsSecretOutputs
>(repositoryActionsSecretProvider) {}
