/** `getUserGpgKeys`: the GPG keys of a user, or of the token's own user. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { type ApiGpgKey, userKeysRoutes } from "../../api/user-keys";
import { fields } from "../internal/check";
import { declareFunction, field, output } from "../internal/declare";
import { gpgKeyEmailSchema } from "../resources/user-keys/user-gpg-key";
import { clientOf, type FunctionOptions, type InputArgs, outputOf, parseArgs } from "./common";
import { pageSize } from "./paging";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

/** What a key or subkey may be used for, each described: fields of both `GpgKey` and `GpgSubkey`. */
const capabilityFields = {
  canSign: z.boolean().meta({ description: "Whether the key may sign." }),
  canEncryptComms: z.boolean().meta({ description: "Whether the key may encrypt communications." }),
  canEncryptStorage: z.boolean().meta({ description: "Whether the key may encrypt storage." }),
  canCertify: z.boolean().meta({ description: "Whether the key may certify other keys." }),
};

const capabilitiesSchema = z.object(capabilityFields);

const gpgSubkeySchema = z
  .object({
    id: z.number().int().meta({ description: "The subkey's id on the server." }),
    keyId: z.string().meta({ description: "The subkey's long id (hex)." }),
    ...capabilityFields,
    createdAt: z.string().meta({ description: "When the subkey was made (ISO 8601)." }),
    expiresAt: z
      .string()
      .nullable()
      .meta({ description: "When the subkey expires (ISO 8601); null for one that does not." }),
    revoked: z.boolean().meta({ description: "Whether the subkey is revoked." }),
  })
  .meta({ id: "GpgSubkey", description: "A subkey of a GPG key." });

const gpgKeySchema = z
  .object({
    id: z.number().int().meta({ description: "The key's id on the server." }),
    name: z
      .string()
      .nullable()
      .meta({ description: "The key's name on the account; null when it has none." }),
    keyId: z.string().meta({
      description: "The key's long id (hex), as `gpg --list-keys --keyid-format long` shows it.",
    }),
    publicKey: z.string().meta({ description: "The public key, as the API returns it (`public_key`)." }),
    emails: z.array(gpgKeyEmailSchema).meta({
      description: "The addresses of the key's user IDs, each with whether the platform verified it.",
    }),
    subkeys: z.array(gpgSubkeySchema).meta({ description: "The key's subkeys." }),
    ...capabilityFields,
    createdAt: z.string().meta({ description: "When the key was made (ISO 8601)." }),
    expiresAt: z
      .string()
      .nullable()
      .meta({ description: "When the key expires (ISO 8601); null for one that does not." }),
    revoked: z.boolean().meta({ description: "Whether the key is revoked." }),
    rawKey: z
      .string()
      .nullable()
      .meta({ description: "The armored key as it was added; null when the API does not return it." }),
  })
  .meta({ id: "GpgKey", description: "A GPG key of a user." });

export const getUserGpgKeysFunction = declareFunction({
  name: "getUserGpgKeys",
  description:
    "The GPG keys of a user (`GET /users/{username}/gpg_keys`: public, any token or none), or of the token's own user (`GET /user/gpg_keys`: the classic scope `read:gpg_key`, or the fine-grained user permission GPG keys, read), every page.",
  args: z.strictObject({
    username: field(fields.name("username").optional(), {
      description: "Whose keys (public, any token); absent: the token's own user (needs `read:gpg_key`).",
    }),
    perPage: pageSize,
  }),
  result: z.object({
    username: output(z.string().optional(), "The user asked for; absent for the token's own user."),
    keys: output(z.array(gpgKeySchema), "The keys, as the API lists them."),
  }),
});

export type GetUserGpgKeysArgs = z.input<typeof getUserGpgKeysFunction.args>;
export type GpgCapabilities = z.infer<typeof capabilitiesSchema>;
export type GpgSubkey = z.infer<typeof gpgSubkeySchema>;
export type GpgKey = z.infer<typeof gpgKeySchema>;
export type GetUserGpgKeysResult = z.infer<typeof getUserGpgKeysFunction.result>;

// ---------------------------------------------------------------------------------------------
// Function
// ---------------------------------------------------------------------------------------------

const capabilities = (k: {
  can_sign: boolean;
  can_encrypt_comms: boolean;
  can_encrypt_storage: boolean;
  can_certify: boolean;
}): GpgCapabilities => ({
  canSign: k.can_sign,
  canEncryptComms: k.can_encrypt_comms,
  canEncryptStorage: k.can_encrypt_storage,
  canCertify: k.can_certify,
});

function keyOf(k: ApiGpgKey): GpgKey {
  return {
    id: k.id,
    name: k.name ?? null,
    keyId: k.key_id,
    publicKey: k.public_key,
    emails: k.emails.map((e) => ({ email: e.email, verified: e.verified })),
    subkeys: k.subkeys.map((s) => ({
      id: s.id,
      keyId: s.key_id,
      ...capabilities(s),
      createdAt: s.created_at,
      expiresAt: s.expires_at,
      revoked: s.revoked ?? false,
    })),
    ...capabilities(k),
    createdAt: k.created_at,
    expiresAt: k.expires_at,
    revoked: k.revoked,
    rawKey: k.raw_key ?? null,
  };
}

/** The GPG keys of `username`, or of the token's user when it is absent; every page. */
export async function getUserGpgKeys(
  args: GetUserGpgKeysArgs = {},
  opts?: FunctionOptions,
): Promise<GetUserGpgKeysResult> {
  const a = parseArgs(getUserGpgKeysFunction.name, getUserGpgKeysFunction.args, args);
  const G = userKeysRoutes.gpgKeys;
  const c = clientOf(opts);
  const options = { query: { per_page: a.perPage } };
  const keys =
    a.username === undefined
      ? await c.paginate(G.list, {}, options)
      : await c.paginate(G.listForUser, { username: a.username }, options);
  return { ...(a.username === undefined ? {} : { username: a.username }), keys: keys.map(keyOf) };
}

/** `getUserGpgKeys` taking Inputs; secret when an input is. */
export function getUserGpgKeysOutput(
  args: InputArgs<GetUserGpgKeysArgs> = {},
  opts?: FunctionOptions,
): pulumi.Output<GetUserGpgKeysResult> {
  return outputOf(args, (a: GetUserGpgKeysArgs) => getUserGpgKeys(a, opts));
}
