/**
 * RepositoryDeployKey (`/repos/{owner}/{repo}/keys`): an SSH key granting access to one repository.
 * Deploy keys are immutable (no update route): a new key, title or access replaces the key, the old
 * one deleted first (the platform takes a key once).
 *
 * The key line is checked at preview as the user keys are (a key OpenSSH would accept) and
 * recorded in its canonical form, `<type> <base64>` without the comment, as the platform returns
 * it: a comment changed in the program is no change. Create never leaves a duplicate; a key the
 * repository already has (the same key material) is adopted, as `importId` adopts one by its id,
 * which is also how a key follows its repository through a rename (the replacement under the new
 * name finds it there).
 */
import { z } from "zod";
import { type ApiDeployKey, repositoriesRoutes } from "../../../api/repositories";
import { sshKeyIdentity } from "../../../api/user-keys/key-material";
import { configurationError, isHostingApiError, notFoundError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { client, notice } from "../../internal/context";
import { createWithoutDuplicates, madeSince } from "../../internal/creates";
import {
  type ArgsOf,
  declareKind,
  type Found,
  field,
  type OutputsOfKind,
  output,
  type WireCodec,
} from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { repositoryFields } from "../../internal/repository-fields";
import { resourceClass } from "../../internal/resource";
import { wireMapping } from "../../internal/wire";
import { sshKeyLine } from "../user-keys/user-ssh-keys";

// ---------------------------------------------------------------------------------------------
// Declaration (every field replaces: deploy keys have no update route)
// ---------------------------------------------------------------------------------------------

const TITLE_MAX = 255;

/** The server may store a key line in another layout (or without its comment): read as its identity. */
const keyIdentity: WireCodec<string, string> = {
  fromWire: (line) => (line === undefined ? undefined : sshKeyIdentity(line)),
  toWire: (key) => key,
};

export const repositoryDeployKeyKind = declareKind({
  kind: "RepositoryDeployKey",
  description:
    "A deploy key of a repository (`/repos/{owner}/{repo}/keys`): an SSH key granting access to that repository only, read-only by default. A key is taken once on the whole platform. Nothing updates in place: a new key, title or access replaces it, the old key deleted first. Needs an admin of the repository: classic scope `repo`, or the fine-grained permission `administration` write.",
  idFormat: ["owner", "repository", "keyId"],
  inputs: z.object({
    ...repositoryFields("deploy key"),
    title: field(
      z
        .string({ error: "title is required: a name for the key" })
        .min(1, "title must not be empty")
        .max(TITLE_MAX, `title must be at most ${TITLE_MAX} characters`),
      {
        description:
          "The key's name in the repository's settings. A change replaces the key (no update route).",
        replace: true,
        wire: { path: "title" },
      },
    ),
    key: field(sshKeyLine(), {
      description:
        "The public key line as OpenSSH writes it (`ssh-ed25519 AAAA... comment`), of a type the platform accepts. The comment is ignored. A change replaces the key.",
      replace: true,
      wire: { path: "key", codec: keyIdentity },
    }),
    readOnly: field(z.boolean({ error: "readOnly must be true or false" }).default(true), {
      description:
        "Whether the key may only read (default `true`). A key that may write can push to the repository. A change replaces the key.",
      replace: true,
      wire: { path: "read_only" },
    }),
    importId: field(fields.numericId("importId").optional(), {
      description:
        "Adopt the repository's existing deploy key with this id (the same key) instead of adding it: another title or access replaces it. Only read at create; later changes are ignored.",
      createOnly: true,
    }),
  }),
  outputs: z.object({
    keyId: output(z.number().int(), "The key's id on the server."),
    createdAt: output(z.string(), "When the key was added (ISO 8601)."),
  }),
  discovery: {
    scope: "repository",
    what: ({ owner, repo }) => `deploy keys of ${owner}/${repo}`,
    names: ["{owner}-{repository}-deploy-key-{label}"],
    async list(c, { owner = "", repo = "" }): Promise<Found[]> {
      const keys = await c.paginate(repositoriesRoutes.deployKeys.list, { owner, repo });
      return keys.map((k) => ({
        id: repositoryDeployKeyKind.formatId({ owner, repository: repo, keyId: k.id }),
        importId: k.id,
        label: k.title,
      }));
    },
  },
});

export type RepositoryDeployKeyArgs = ArgsOf<typeof repositoryDeployKeyKind.inputs>;
export type RepositoryDeployKeyInputs = z.infer<typeof repositoryDeployKeyKind.inputs>;
export type RepositoryDeployKeyOutputs = OutputsOfKind<typeof repositoryDeployKeyKind>;

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/** Title, key and readOnly, from the wire paths their fields declare. */
const wire = wireMapping<RepositoryDeployKeyInputs>(
  repositoryDeployKeyKind.inputs,
  repositoryDeployKeyKind.rules,
);

function deployKeyOutputs(
  at: { owner: string; repository: string; importId?: string | undefined },
  api: ApiDeployKey,
): RepositoryDeployKeyOutputs {
  return compact({
    owner: at.owner,
    repository: at.repository,
    ...(wire.fromWire(api) as Pick<RepositoryDeployKeyInputs, "title" | "key" | "readOnly">),
    importId: at.importId,
    keyId: api.id,
    createdAt: api.created_at,
  });
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = repositoryDeployKeyKind.kind;

const keysApi = (c: HostingClient, owner: string, repo: string) => ({
  list: () => c.paginate(repositoriesRoutes.deployKeys.list, { owner, repo }),
  get: async (id: number | string) =>
    (await c.get(repositoriesRoutes.deployKeys.get, { owner, repo, key_id: id })).data,
  create: async (body: object) =>
    (await c.post(repositoriesRoutes.deployKeys.create, { owner, repo }, body)).data,
  delete: (id: number | string) =>
    c.delete(repositoriesRoutes.deployKeys.delete, { owner, repo, key_id: id }),
});

const isInUse = (e: unknown) => isHostingApiError(e) && e.status === 422 && /already in use/i.test(e.message);

/** Whether the key (the same material) has the title and access the program declares. */
const hasSettings = (k: ApiDeployKey, inputs: RepositoryDeployKeyInputs) =>
  wire.changed(k, inputs).length === 0;

/**
 * Adds the key, never twice: after an ambiguous failure it looks for the key it added; a key the
 * repository already has (the same material) is adopted. A key in use elsewhere is the
 * platform's 422, restated.
 */
async function addOrAdopt(c: HostingClient, inputs: RepositoryDeployKeyInputs): Promise<ApiDeployKey> {
  const { owner, repository } = inputs;
  const api = keysApi(c, owner, repository);
  const what = `${KIND} ${owner}/${repository} (${inputs.key.slice(0, 40)}...)`;
  const body = wire.toWire(inputs);
  const sameKey = (k: ApiDeployKey) => sshKeyIdentity(k.key) === inputs.key;
  if (inputs.importId !== undefined) {
    const existing = await readOrGone(() => api.get(inputs.importId as string));
    if (!existing) {
      throw notFoundError({
        method: "GET",
        path: repositoriesRoutes.deployKeys.get.path({ owner, repo: repository, key_id: inputs.importId }),
        what: `${KIND} importId ${inputs.importId}`,
        causes: [
          `${owner}/${repository} has no deploy key ${inputs.importId}`,
          "the token's user is not an admin of it",
        ],
      });
    }
    if (!sameKey(existing)) {
      throw configurationError(
        `${KIND} importId ${inputs.importId} is another key than key (${inputs.key.slice(0, 40)}...)`,
        `Set key to the key of ${inputs.importId}, or leave importId out to add this key`,
      );
    }
    return converge(api, existing, inputs, body);
  }
  try {
    const { value } = await createWithoutDuplicates(
      () => api.create(body),
      async (startedAt) => (await api.list()).find((k) => sameKey(k) && madeSince(k.created_at, startedAt)),
    );
    return value;
  } catch (e) {
    if (!isInUse(e)) throw e;
    const here = (await api.list()).find(sameKey);
    if (here) return converge(api, here, inputs, body);
    throw configurationError(
      `${what}: the key is already in use elsewhere on the platform (another repository's deploy key, or a user's key); a key is taken once`,
      "Generate a key for this repository, or remove the key where it is in use",
    );
  }
}

/** The repository's key, with the title and access asked for: a different one is replaced. */
async function converge(
  api: ReturnType<typeof keysApi>,
  existing: ApiDeployKey,
  inputs: RepositoryDeployKeyInputs,
  body: object,
): Promise<ApiDeployKey> {
  if (hasSettings(existing, inputs)) return existing;
  notice(
    `${KIND} ${inputs.owner}/${inputs.repository} key ${existing.id}: adopting it changes its title or access, which replaces the key (it gets a new id)`,
  );
  await api.delete(existing.id);
  return api.create(body);
}

export const repositoryDeployKeyProvider = defineProvider<
  typeof repositoryDeployKeyKind.inputs,
  RepositoryDeployKeyOutputs
>(repositoryDeployKeyKind, {
  comparable: lowerCased<RepositoryDeployKeyInputs>("owner", "repository"),
  deleteBeforeReplace: true,
  adoptedId: (inputs) =>
    inputs.importId === undefined
      ? undefined
      : repositoryDeployKeyKind.formatId({
          owner: inputs.owner,
          repository: inputs.repository,
          keyId: inputs.importId,
        }),

  async create(inputs) {
    const key = await addOrAdopt(client(), inputs);
    return {
      id: repositoryDeployKeyKind.formatId({
        owner: inputs.owner,
        repository: inputs.repository,
        keyId: key.id,
      }),
      outs: deployKeyOutputs(inputs, key),
    };
  },

  async read(id, props) {
    const parsed = repositoryDeployKeyKind.parseId(id);
    const at = { owner: props?.owner ?? parsed.owner, repository: props?.repository ?? parsed.repository };
    const keyId = props?.keyId ?? parsed.keyId;
    const key = await readOrGone(() => keysApi(client(), at.owner, at.repository).get(keyId));
    if (!key) return {};
    return { id, props: deployKeyOutputs({ ...at, importId: props?.importId }, key) };
  },

  async update(_id, olds, news) {
    // Every field replaces the key: only a respelling (a comment, a name's case) gets here.
    return { outs: { ...olds, ...news } };
  },

  async delete(id, props) {
    const parsed = repositoryDeployKeyKind.parseId(id);
    const at = { owner: props?.owner ?? parsed.owner, repository: props?.repository ?? parsed.repository };
    const keyId = props?.keyId ?? parsed.keyId;
    await deleteIgnoringGone(() => keysApi(client(), at.owner, at.repository).delete(keyId));
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** A deploy key of a repository: see its declaration, `repositoryDeployKeyKind`. Example: `examples/repositories/`. */
export class RepositoryDeployKey extends resourceClass<RepositoryDeployKeyArgs, RepositoryDeployKeyOutputs>(
  repositoryDeployKeyProvider,
) {}
