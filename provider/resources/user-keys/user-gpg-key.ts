/**
 * UserGpgKey: a GPG public key of the signed-in user (`/user/gpg_keys`), which makes the commits it
 * signs show as verified. There is no update route: a new key or name replaces it, the old key
 * deleted first (the platform refuses a key id the user already has).
 *
 * The armored block is checked at preview: a quick look at its armor header in the schema, then a
 * full read with `openpgp` (loaded only then) for a block that does not parse, a private key, or
 * something other than a key. What the platform reads from it (key id, emails, capabilities,
 * expiry) comes back as outputs.
 */
import { z } from "zod";
import { type ApiGpgKey, userKeysRoutes } from "../../../api/user-keys";
import {
  normaliseArmored,
  PGP_PRIVATE_KEY_HEADER,
  PGP_PUBLIC_KEY_HEADER,
  readGpgKeyId,
} from "../../../api/user-keys/key-material";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, field, type OutputsOfKind, output } from "../../internal/declare";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import { createOrAdoptKey, type KeyPlace, keyApi, keyDiscovery, keyImportId } from "./shared";

// ---------------------------------------------------------------------------------------------
// Where the keys live
// ---------------------------------------------------------------------------------------------

const G = userKeysRoutes.gpgKeys;
const GPG_KEYS: KeyPlace<ApiGpgKey, { gpg_key_id: number | string }> = {
  kind: "UserGpgKey",
  field: "armoredPublicKey",
  routes: G,
  item: (gpg_key_id) => ({ gpg_key_id }),
  idOf: (k) => k.id,
  // A GPG key's created_at is the key's own creation time, not when it was added: a key id is
  // unique per user, so a key found after an ambiguous failure is the one posted.
};

// ---------------------------------------------------------------------------------------------
// Declaration (check refuses bad keys before any request; there is no update route)
// ---------------------------------------------------------------------------------------------

/** An address of the key's user IDs, and whether it is one of the user's verified addresses. */
export const gpgKeyEmailSchema = z
  .object({
    email: z.string().meta({ description: "The address, as a user ID of the key holds it." }),
    verified: z.boolean().meta({ description: "Whether it is one of the user's verified addresses." }),
  })
  .meta({
    id: "GpgKeyEmail",
    description: "An address of the key's user IDs, and whether it is one of the user's verified addresses.",
  });

export type GpgKeyEmail = z.infer<typeof gpgKeyEmailSchema>;

export const userGpgKeyKind = declareKind({
  kind: "UserGpgKey",
  description:
    "A GPG public key of the signed-in user (`/user/gpg_keys`): the token's user, whose key it becomes, and the commits it signs show as verified. Nothing updates in place: a new key or name replaces it, the old key deleted first. The block is checked at preview (a block that does not parse or a private key names `armoredPublicKey`). Needs the classic scope `admin:gpg_key` (or `write:gpg_key` without delete), or the fine-grained user permission `gpg_keys` write.",
  idFormat: ["gpgKeyId"],
  inputs: z.object({
    armoredPublicKey: field(
      z
        .string({
          error: `armoredPublicKey is required: an ASCII-armored public key block (${PGP_PUBLIC_KEY_HEADER} ...)`,
        })
        .superRefine((v, ctx) => {
          if (v.includes(PGP_PRIVATE_KEY_HEADER)) {
            ctx.addIssue({
              code: "custom",
              message:
                "armoredPublicKey holds a private key; give the public key only (gpg --armor --export <id>)",
            });
          } else if (!v.includes(PGP_PUBLIC_KEY_HEADER)) {
            ctx.addIssue({
              code: "custom",
              message: `armoredPublicKey must be an ASCII-armored public key block starting with ${PGP_PUBLIC_KEY_HEADER}`,
            });
          }
        }),
      {
        description:
          "The ASCII-armored public key block (`-----BEGIN PGP PUBLIC KEY BLOCK-----` ...), as `gpg --armor --export <id>` prints it. Never a private key. A change replaces the key.",
        replace: true,
      },
    ),
    name: field(
      z
        .string({ error: "name must be a string" })
        .min(1, "name must not be empty; omit it instead")
        .optional(),
      {
        description: "A name for the key on the account. A change replaces the key (no update route).",
        replace: true,
      },
    ),
    importId: field(keyImportId.optional(), {
      description:
        "Adopt the signed-in user's existing key with this id (the same key) instead of adding it: a different name replaces it. Only read at create; later changes are ignored.",
      createOnly: true,
    }),
  }),
  outputs: z.object({
    gpgKeyId: output(z.number().int(), "The key's id on the server (the resource id)."),
    keyId: output(z.string(), "The key's 16-hex-digit key id (upper case)."),
    primaryKeyId: output(
      z.number().int().optional(),
      "The API id of the primary key, for a subkey; absent for a primary key.",
    ),
    emails: output(
      z.array(gpgKeyEmailSchema),
      "The addresses of the key's user IDs, each with whether the platform verified it.",
    ),
    subkeyIds: output(z.array(z.string()), "The key ids of the key's subkeys."),
    canSign: output(z.boolean(), "Whether the key may sign (its key flags, or what its algorithm can do)."),
    canEncryptComms: output(z.boolean(), "Whether the key may encrypt communications."),
    canEncryptStorage: output(z.boolean(), "Whether the key may encrypt storage."),
    canCertify: output(z.boolean(), "Whether the key may certify other keys."),
    createdAt: output(z.string(), "When the key was made (the key's own creation time, ISO 8601)."),
    expiresAt: output(
      z.string().optional(),
      "When the key expires (ISO 8601); absent for a key that does not.",
    ),
    revoked: output(z.boolean(), "Whether the key is revoked."),
  }),
  discovery: keyDiscovery(GPG_KEYS, "gpg-key", (k) => k.name || k.emails?.[0]?.email || k.key_id),
});

export type UserGpgKeyArgs = ArgsOf<typeof userGpgKeyKind.inputs>;
export type UserGpgKeyInputs = z.infer<typeof userGpgKeyKind.inputs>;
export type UserGpgKeyOutputs = OutputsOfKind<typeof userGpgKeyKind>;

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/**
 * Outputs from the server's key. The armored text is the program's while the key is the same one
 * (the server may store it in another layout); otherwise, as when adopting, the server's.
 */
function gpgKeyOutputs(
  recorded: {
    armoredPublicKey?: string | undefined;
    keyId?: string | undefined;
    importId?: string | undefined;
  },
  api: ApiGpgKey,
): UserGpgKeyOutputs {
  const sameKey = recorded.armoredPublicKey !== undefined && (recorded.keyId ?? api.key_id) === api.key_id;
  return compact({
    armoredPublicKey: (sameKey ? recorded.armoredPublicKey : api.raw_key) ?? recorded.armoredPublicKey ?? "",
    name: api.name ?? undefined,
    importId: recorded.importId,
    gpgKeyId: api.id,
    keyId: api.key_id,
    primaryKeyId: api.primary_key_id ?? undefined,
    emails: (api.emails ?? []).map((e) => ({ email: e.email, verified: e.verified === true })),
    subkeyIds: (api.subkeys ?? []).map((s) => s.key_id),
    canSign: api.can_sign === true,
    canEncryptComms: api.can_encrypt_comms === true,
    canEncryptStorage: api.can_encrypt_storage === true,
    canCertify: api.can_certify === true,
    createdAt: api.created_at ?? "",
    expiresAt: api.expires_at ?? undefined,
    revoked: api.revoked === true,
  });
}

/** The armored text compared without its line endings and surrounding blank space. */
const comparable = (values: object): object => {
  const v = values as { armoredPublicKey?: unknown };
  return typeof v.armoredPublicKey === "string"
    ? { ...values, armoredPublicKey: normaliseArmored(v.armoredPublicKey) }
    : values;
};

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const gpgKeyIdOf = (id: string) => userGpgKeyKind.parseId(id).gpgKeyId;

/** The key id of armored text that check already passed. */
async function keyIdOf(armored: string): Promise<string> {
  const read = await readGpgKeyId(armored);
  if ("keyId" in read) return read.keyId;
  throw new Error(`armoredPublicKey ${read.problem}`);
}

export const userGpgKeyProvider = defineProvider<typeof userGpgKeyKind.inputs, UserGpgKeyOutputs>(
  userGpgKeyKind,
  {
    comparable,
    deleteBeforeReplace: true,
    adoptedId: (inputs) => inputs.importId,

    async preflight(inputs, olds) {
      // Parsing is local but loads openpgp: a block already recorded was checked when it was new.
      if (olds.armoredPublicKey === inputs.armoredPublicKey) return undefined;
      const read = await readGpgKeyId(inputs.armoredPublicKey);
      return "problem" in read
        ? { property: "armoredPublicKey", reason: `armoredPublicKey ${read.problem}` }
        : undefined;
    },

    async create(inputs) {
      let keyId: Promise<string> | undefined;
      const wanted = () => {
        keyId ??= keyIdOf(inputs.armoredPublicKey);
        return keyId;
      };
      const key = await createOrAdoptKey(client(), GPG_KEYS, {
        importId: inputs.importId,
        body: { armored_public_key: inputs.armoredPublicKey, ...(inputs.name ? { name: inputs.name } : {}) },
        isThisKey: async (k) => k.key_id.toUpperCase() === (await wanted()),
        hasSettings: (k) => (k.name ?? undefined) === inputs.name,
        shown: "the armored key",
      });
      return { id: userGpgKeyKind.formatId({ gpgKeyId: key.id }), outs: gpgKeyOutputs(inputs, key) };
    },

    async read(id, props) {
      const key = await readOrGone(() => keyApi(client(), GPG_KEYS).get(gpgKeyIdOf(id)));
      if (!key) return {};
      return { id, props: gpgKeyOutputs(props ?? {}, key) };
    },

    async update(_id, olds, news) {
      // Every field replaces the key, so an update carries nothing the API could take (the armored
      // text laid out otherwise): it records the program's inputs and sends nothing.
      return { outs: { ...olds, ...news } };
    },

    async delete(id) {
      await deleteIgnoringGone(() => keyApi(client(), GPG_KEYS).delete(gpgKeyIdOf(id)));
    },
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** A GPG public key of the signed-in user: see its declaration, `userGpgKeyKind`. Example: `examples/user-keys/`. */
export class UserGpgKey extends resourceClass<UserGpgKeyArgs, UserGpgKeyOutputs>(userGpgKeyProvider) {}
