/**
 * Values sealed on the client: a plaintext is sealed (libsodium `crypto_box_seal`) for the public
 * key the API hands out, sent with that key's id, and never kept. Only the server, holding the
 * private key, can open it.
 * The codec is `api/sealed-box.ts` (the sandbox server opens with it); libsodium is loaded on first
 * use inside the provider process, never captured by the serialised provider. Public keys are fetched once per key route per process and fetched again
 * when the server refuses a value as sealed for another key (the key was rotated).
 */

import type { ApiRegistryPublicKey } from "../../api/private-registries";
import type { BodyRoute } from "../../api/route";
import { sealBox, UnusablePublicKey } from "../../api/sealed-box";
import { isHostingApiError, unusableAnswerError } from "../client/errors";
import type { HostingClient } from "../client/http";

/** A route handing out the public key values are sealed for (`ROUTES.privateRegistries.publicKey`). */
export type KeyRoute<P> = BodyRoute<"GET", P, ApiRegistryPublicKey>;

/** The base64 sealed box of `plaintext` for a base64 Curve25519 public key. */
export async function seal(plaintext: string, publicKey: string): Promise<string> {
  try {
    return await sealBox(plaintext, publicKey);
  } catch (e) {
    if (e instanceof UnusablePublicKey) throw unusableAnswerError(e.message);
    throw e;
  }
}

/** What a write carries instead of the plaintext. */
export interface SealedValue {
  encrypted_value: string;
  key_id: string;
}

/** Public keys by API root and key route, for the life of the provider process. */
const keys = new Map<string, Promise<ApiRegistryPublicKey>>();

const cacheKeyOf = <P>(c: HostingClient, route: KeyRoute<P>, params: P) =>
  `${c.apiRoot}\u0000${route.path(params).toLowerCase()}`;

function publicKey<P>(c: HostingClient, route: KeyRoute<P>, params: P): Promise<ApiRegistryPublicKey> {
  const cacheKey = cacheKeyOf(c, route, params);
  let key = keys.get(cacheKey);
  if (key === undefined) {
    key = c.get(route, params).then((r) => r.data);
    // A failed fetch is not remembered: the next write asks again.
    const fetched = key;
    fetched.catch(() => {
      if (keys.get(cacheKey) === fetched) keys.delete(cacheKey);
    });
    keys.set(cacheKey, fetched);
  }
  return key;
}

/** Forgets the cached key of a route, so the next write fetches the current one. */
export function forgetPublicKey<P>(c: HostingClient, route: KeyRoute<P>, params: P): void {
  keys.delete(cacheKeyOf(c, route, params));
}

/**
 * Runs a write carrying `plaintext` sealed for the key `route` hands out. When the server answers that
 * the value was sealed for another key (422 naming `key_id` or `encrypted_value`: the key was
 * rotated since it was fetched), the key is fetched again and the write is sent once more.
 */
export async function withSealedValue<T, P>(
  c: HostingClient,
  route: KeyRoute<P>,
  params: P,
  plaintext: string,
  write: (sealed: SealedValue) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const key = await publicKey(c, route, params);
    const sealed = { encrypted_value: await seal(plaintext, key.key), key_id: key.key_id };
    try {
      return await write(sealed);
    } catch (e) {
      if (attempt > 1 || !isKeyMismatch(e)) throw e;
      forgetPublicKey(c, route, params);
    }
  }
}

/** A 422 refusing the sealed value or its key id: the value was sealed for a key no longer current. */
export function isKeyMismatch(e: unknown): boolean {
  return (
    isHostingApiError(e) &&
    e.status === 422 &&
    e.errors.some((d) => d.field === "key_id" || d.field === "encrypted_value")
  );
}
