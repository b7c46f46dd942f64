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
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ROUTES } from "../../client/routes";
import { type ApiSshKey, apiSshKeySchema } from "../../client/schemas";
import { client } from "../../internal/context";
import type { FieldRules } from "../../internal/diff";
import { joinId, numericPart, splitId } from "../../internal/ids";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { HostingResource, type OutputsOf } from "../../internal/resource";
import { parseSshKeyLine, sshKeyIdentity } from "./key-material";
import { createOrAdoptKey, type KeyPlace, keyApi, keyImportId } from "./shared";

// ---------------------------------------------------------------------------------------------
// Args
// ---------------------------------------------------------------------------------------------

export interface UserSshKeyArgs {
  /**
   * The public key line as OpenSSH writes it (`ssh-ed25519 AAAA... comment`), of a type the
   * platform accepts (`ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256|384|521`, and the security-key
   * types). The comment is ignored. A change replaces the key.
   */
  key: pulumi.Input<string>;
  /** The key's title on the account. Default `""`. A change replaces the key (no update route). */
  title?: pulumi.Input<string>;
  /**
   * Adopt the signed-in user's existing key with this id (the same key) instead of adding it: a
   * different title replaces it. Only read at create; later changes are ignored.
   */
  importId?: pulumi.Input<string | number>;
}

export type UserSshSigningKeyArgs = UserSshKeyArgs;

// ---------------------------------------------------------------------------------------------
// Schemas (check refuses bad keys before any request)
// ---------------------------------------------------------------------------------------------

/** A public key line, checked and reduced to its canonical `<type> <base64>`. */
const keyLine = z
  .string({ error: 'key is required: a public key line such as "ssh-ed25519 AAAAC3Nza... me@host"' })
  .transform((line, ctx) => {
    const parsed = parseSshKeyLine(line);
    if ("key" in parsed) return parsed.key;
    ctx.addIssue({ code: "custom", message: `key ${parsed.problem}` });
    return z.NEVER;
  });

/** The platform's limit on a key title. */
const TITLE_MAX = 255;

export const userSshKeyInputs = z.object({
  key: keyLine,
  title: z
    .string({ error: "title must be a string" })
    .max(TITLE_MAX, `title must be at most ${TITLE_MAX} characters`)
    .default(""),
  importId: keyImportId.optional(),
});

export type UserSshKeyInputs = z.infer<typeof userSshKeyInputs>;

export type UserSshSigningKeyOutputs = UserSshKeyInputs & {
  /** The key's id on the server (the resource id). */
  keyId: number;
  /** When the key was added (ISO 8601). */
  createdAt: string;
};

export type UserSshKeyOutputs = UserSshSigningKeyOutputs & {
  /** Whether the platform verified the key. */
  verified?: boolean | undefined;
  /** Whether the key may only read (deploy keys; a user's own key never is). */
  readOnly?: boolean | undefined;
  /** When the key was last used to authenticate, where the API says (ISO 8601). */
  lastUsed?: string | undefined;
};

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
// Replace-on-change (there is no update route)
// ---------------------------------------------------------------------------------------------

export const userSshKeyRules: FieldRules<UserSshKeyInputs> = {
  key: { replace: true },
  title: { replace: true },
  importId: { createOnly: true },
};

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const ID_FORMAT = ["keyId"] as const;

/** The provider of one of the two kinds: they differ in their routes and outputs only. */
function sshKeyProvider<O extends UserSshSigningKeyOutputs>(
  kind: string,
  place: KeyPlace<ApiSshKey>,
  outputsOf: (importId: string | undefined, api: ApiSshKey) => O,
) {
  const keyIdOf = (id: string) => numericPart(splitId(id, ID_FORMAT, kind)[0] ?? "", "keyId", kind);
  return defineProvider<typeof userSshKeyInputs, O>(kind, {
    idFormat: ID_FORMAT,
    inputs: userSshKeyInputs,
    rules: userSshKeyRules,
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
      return { id: joinId(key.id), outs: outputsOf(inputs.importId, key) };
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

const SSH = ROUTES.sshKeys;
export const userSshKeyProvider = sshKeyProvider<UserSshKeyOutputs>(
  "UserSshKey",
  {
    kind: "UserSshKey",
    field: "key",
    collection: SSH.list.path({}),
    item: (key_id) => SSH.get.path({ key_id }),
    schema: apiSshKeySchema,
    idOf: (k) => k.id,
    addedAt: (k) => k.created_at ?? undefined,
  },
  sshKeyOutputs,
);

const SIGNING = ROUTES.sshSigningKeys;
export const userSshSigningKeyProvider = sshKeyProvider<UserSshSigningKeyOutputs>(
  "UserSshSigningKey",
  {
    kind: "UserSshSigningKey",
    field: "key",
    collection: SIGNING.list.path({}),
    item: (ssh_signing_key_id) => SIGNING.get.path({ ssh_signing_key_id }),
    schema: apiSshKeySchema,
    idOf: (k) => k.id,
    addedAt: (k) => k.created_at ?? undefined,
  },
  signingKeyOutputs,
);

// ---------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------

const SIGNING_OUTPUTS = ["key", "title", "importId", "keyId", "createdAt"] as const;
const SSH_OUTPUTS = [...SIGNING_OUTPUTS, "verified", "readOnly", "lastUsed"] as const;

/**
 * An SSH authentication key of the signed-in user (`/user/keys`): the token's user, whose key it
 * becomes. A key can belong to one account only. Nothing updates in place: a new key or title
 * replaces it, the old key deleted first. Needs the classic scope `admin:public_key` (or
 * `write:public_key` without delete), or the fine-grained user permission `git_ssh_keys` write.
 * Example: `examples/user-keys/`.
 */
export class UserSshKey extends HostingResource {
  constructor(name: string, args: UserSshKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(userSshKeyProvider, name, args, SSH_OUTPUTS, opts);
  }
}

export interface UserSshKey extends OutputsOf<UserSshKeyOutputs> {}

/**
 * An SSH signing key of the signed-in user (`/user/ssh_signing_keys`): commits signed with it show
 * as verified. Nothing updates in place: a new key or title replaces it, the old key deleted first.
 * Needs the classic scope `admin:ssh_signing_key` (or `write:ssh_signing_key` without delete), or
 * the fine-grained user permission `ssh_signing_keys` write. Example: `examples/user-keys/`.
 */
export class UserSshSigningKey extends HostingResource {
  constructor(name: string, args: UserSshSigningKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(userSshSigningKeyProvider, name, args, SIGNING_OUTPUTS, opts);
  }
}

export interface UserSshSigningKey extends OutputsOf<UserSshSigningKeyOutputs> {}
