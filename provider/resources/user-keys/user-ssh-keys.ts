/**
 * UserSshKey (`/user/keys`) and UserSshSigningKey (`/user/ssh_signing_keys`): an SSH public key of
 * the signed-in user, for authentication or for signing commits. There is no update route: a new
 * key or title replaces the key, the old one deleted first (the platform refuses a key in use).
 *
 * The key line is checked at preview with the sandbox server's decoder (a key OpenSSH would
 * accept) and recorded in its canonical form, `<type> <base64>` without the comment, as is what
 * the platform returns: a comment changed in the program is no change, and two texts of one key
 * (other base64 padding bits, leading zero bytes) are one key.
 */
import { z } from "zod";
import { type ApiSshKey, userKeysRoutes } from "../../../api/user-keys";
import { parseSshKeyLine, sshKeyIdentity } from "../../../api/user-keys/key-material";
import { client } from "../../internal/context";
import {
  type ArgsOf,
  type DeclaredKind,
  declareKind,
  field,
  type OutputsOfKind,
  output,
} from "../../internal/declare";
import type { IdCodec } from "../../internal/ids";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import { createOrAdoptKey, type KeyPlace, keyApi, keyDiscovery, keyImportId } from "./shared";

// ---------------------------------------------------------------------------------------------
// Where the keys live
// ---------------------------------------------------------------------------------------------

const SSH = userKeysRoutes.sshKeys;
const SSH_KEYS: KeyPlace<ApiSshKey, { key_id: number | string }> = {
  kind: "UserSshKey",
  field: "key",
  routes: SSH,
  item: (key_id) => ({ key_id }),
  idOf: (k) => k.id,
  addedAt: (k) => k.created_at ?? undefined,
};

const SIGNING = userKeysRoutes.sshSigningKeys;
const SIGNING_KEYS: KeyPlace<ApiSshKey, { ssh_signing_key_id: number | string }> = {
  kind: "UserSshSigningKey",
  field: "key",
  routes: SIGNING,
  item: (ssh_signing_key_id) => ({ ssh_signing_key_id }),
  idOf: (k) => k.id,
  addedAt: (k) => k.created_at ?? undefined,
};

// ---------------------------------------------------------------------------------------------
// Declarations (check refuses bad keys before any request; there is no update route)
// ---------------------------------------------------------------------------------------------

/**
 * A public key line, checked and reduced to its canonical `<type> <base64>`: a new schema each
 * call, since each kind registers its own field with it (deploy keys take it too).
 */
export const sshKeyLine = () =>
  z
    .string({ error: 'key is required: a public key line such as "ssh-ed25519 AAAAC3Nza... me@host"' })
    .transform((line, ctx) => {
      const parsed = parseSshKeyLine(line);
      if ("key" in parsed) return parsed.key;
      ctx.addIssue({ code: "custom", message: `key ${parsed.problem}` });
      return z.NEVER;
    })
    // What state holds is a string too (the package schema reads the type from here).
    .pipe(z.string());

/** The platform's limit on a key title. */
const TITLE_MAX = 255;

/** The inputs of both kinds: they differ in their routes and outputs only. */
const sshKeyInputs = z.object({
  key: field(sshKeyLine(), {
    description:
      "The public key line as OpenSSH writes it (`ssh-ed25519 AAAA... comment`), of a type the platform accepts (`ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256|384|521`, and the security-key types). The comment is ignored. A change replaces the key.",
    replace: true,
  }),
  title: field(
    z
      .string({ error: "title must be a string" })
      .max(TITLE_MAX, `title must be at most ${TITLE_MAX} characters`)
      .default(""),
    {
      description:
        'The key\'s title on the account. Default `""`. A change replaces the key (no update route).',
      replace: true,
    },
  ),
  importId: field(keyImportId.optional(), {
    description:
      "Adopt the signed-in user's existing key with this id (the same key) instead of adding it: a different title replaces it. Only read at create; later changes are ignored.",
    createOnly: true,
  }),
});

/** The values the server sets on both kinds. */
const commonOutputs = {
  keyId: output(z.number().int(), "The key's id on the server (the resource id)."),
  createdAt: output(z.string(), "When the key was added (ISO 8601)."),
};

export const userSshKeyKind = declareKind({
  kind: "UserSshKey",
  description:
    "An SSH authentication key of the signed-in user (`/user/keys`): the token's user, whose key it becomes. A key can belong to one account only. Nothing updates in place: a new key or title replaces it, the old key deleted first. Needs the classic scope `admin:public_key` (or `write:public_key` without delete), or the fine-grained user permission `git_ssh_keys` write.",
  idFormat: ["keyId"],
  inputs: sshKeyInputs,
  outputs: z.object({
    ...commonOutputs,
    verified: output(z.boolean().optional(), "Whether the platform verified the key."),
    readOnly: output(
      z.boolean().optional(),
      "Whether the key may only read (deploy keys; a user's own key never is).",
    ),
    lastUsed: output(
      z.string().optional(),
      "When the key was last used to authenticate, where the API says (ISO 8601).",
    ),
  }),
  discovery: keyDiscovery(SSH_KEYS, "ssh-key", (k) => k.title),
});

export const userSshSigningKeyKind = declareKind({
  kind: "UserSshSigningKey",
  description:
    "An SSH signing key of the signed-in user (`/user/ssh_signing_keys`): commits signed with it show as verified. Nothing updates in place: a new key or title replaces it, the old key deleted first. Needs the classic scope `admin:ssh_signing_key` (or `write:ssh_signing_key` without delete), or the fine-grained user permission `ssh_signing_keys` write.",
  idFormat: ["keyId"],
  inputs: sshKeyInputs,
  outputs: z.object(commonOutputs),
  discovery: keyDiscovery(SIGNING_KEYS, "ssh-signing-key", (k) => k.title),
});

export type UserSshKeyArgs = ArgsOf<typeof userSshKeyKind.inputs>;
export type UserSshSigningKeyArgs = ArgsOf<typeof userSshSigningKeyKind.inputs>;
export type UserSshKeyInputs = z.infer<typeof sshKeyInputs>;
export type UserSshKeyOutputs = OutputsOfKind<typeof userSshKeyKind>;
export type UserSshSigningKeyOutputs = OutputsOfKind<typeof userSshSigningKeyKind>;

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

function signingKeyOutputs(importId: string | undefined, api: ApiSshKey): UserSshSigningKeyOutputs {
  return compact({
    key: sshKeyIdentity(api.key),
    title: api.title ?? "",
    importId,
    keyId: api.id,
    createdAt: api.created_at ?? "",
  });
}

function sshKeyOutputs(importId: string | undefined, api: ApiSshKey): UserSshKeyOutputs {
  return compact({
    ...signingKeyOutputs(importId, api),
    verified: api.verified,
    readOnly: api.read_only,
    lastUsed: api.last_used ?? undefined,
  });
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

/** The provider of one of the two kinds: they differ in their routes and outputs only. */
function sshKeyProvider<O extends UserSshSigningKeyOutputs, I>(
  declared: Omit<DeclaredKind<typeof sshKeyInputs>, "parseId"> & IdCodec<readonly ["keyId"], "keyId">,
  place: KeyPlace<ApiSshKey, I>,
  outputsOf: (importId: string | undefined, api: ApiSshKey) => O,
) {
  const keyIdOf = (id: string) => declared.parseId(id).keyId;
  return defineProvider<typeof sshKeyInputs, O>(declared, {
    deleteBeforeReplace: true,
    adoptedId: (inputs) => inputs.importId,

    async create(inputs) {
      const key = await createOrAdoptKey(client(), place, {
        importId: inputs.importId,
        body: inputs.title === "" ? { key: inputs.key } : { key: inputs.key, title: inputs.title },
        isThisKey: (k) => sshKeyIdentity(k.key) === inputs.key,
        hasSettings: (k) => (k.title ?? "") === inputs.title,
        shown: `${inputs.key.slice(0, 40)}...`,
      });
      return { id: declared.formatId({ keyId: key.id }), outs: outputsOf(inputs.importId, key) };
    },

    async read(id, props) {
      const key = await readOrGone(() => keyApi(client(), place).get(keyIdOf(id)));
      if (!key) return {};
      return { id, props: outputsOf(props?.importId, key) };
    },

    async update(_id, olds, news) {
      // Every field replaces the key, so an update carries nothing the API could take (a comment
      // changed in the program): it records the program's inputs and sends nothing.
      return { outs: { ...olds, ...news } };
    },

    async delete(id) {
      await deleteIgnoringGone(() => keyApi(client(), place).delete(keyIdOf(id)));
    },
  });
}

export const userSshKeyProvider = sshKeyProvider<UserSshKeyOutputs, { key_id: number | string }>(
  userSshKeyKind,
  SSH_KEYS,
  sshKeyOutputs,
);

export const userSshSigningKeyProvider = sshKeyProvider<
  UserSshSigningKeyOutputs,
  { ssh_signing_key_id: number | string }
>(userSshSigningKeyKind, SIGNING_KEYS, signingKeyOutputs);

// ---------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------

/** An SSH authentication key of the signed-in user: see its declaration, `userSshKeyKind`. Example: `examples/user-keys/`. */
export class UserSshKey extends resourceClass<UserSshKeyArgs, UserSshKeyOutputs>(userSshKeyProvider) {}

/** An SSH signing key of the signed-in user: see its declaration, `userSshSigningKeyKind`. Example: `examples/user-keys/`. */
export class UserSshSigningKey extends resourceClass<UserSshSigningKeyArgs, UserSshSigningKeyOutputs>(
  userSshSigningKeyProvider,
) {}
