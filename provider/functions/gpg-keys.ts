/** `getUserGpgKeys`: the GPG keys of a user, or of the token's own user. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ROUTES } from "../client/routes";
import type { ApiGpgKey } from "../client/schemas";
import { fields } from "../internal/check";
import { clientOf, type FunctionOptions, type InputArgs, outputOf, parseArgs } from "./common";
import { pageSize } from "./paging";

export interface GetUserGpgKeysArgs {
  /** Whose keys (public, any token); absent: the token's own user (needs `read:gpg_key`). */
  username?: string;
  /** Page size of the requests (1 to 100, default 100); every page is read whatever it is. */
  perPage?: number;
}

export interface GpgCapabilities {
  canSign: boolean;
  canEncryptComms: boolean;
  canEncryptStorage: boolean;
  canCertify: boolean;
}

export interface GpgSubkey extends GpgCapabilities {
  id: number;
  keyId: string;
  createdAt: string;
  expiresAt: string | null;
  revoked: boolean;
}

export interface GpgKey extends GpgCapabilities {
  id: number;
  name: string | null;
  /** The key's long id (hex), as `gpg --list-keys --keyid-format long` shows it. */
  keyId: string;
  publicKey: string;
  emails: Array<{ email: string; verified: boolean }>;
  subkeys: GpgSubkey[];
  createdAt: string;
  expiresAt: string | null;
  revoked: boolean;
  /** The armored key as it was added; null when the API does not return it. */
  rawKey: string | null;
}

export interface GetUserGpgKeysResult {
  /** The user asked for; absent for the token's own user. */
  username?: string;
  keys: GpgKey[];
}

const argsSchema = z.strictObject({
  username: fields.name("username").optional(),
  perPage: pageSize,
});

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
  const a = parseArgs("getUserGpgKeys", argsSchema, args);
  const G = ROUTES.gpgKeys;
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
