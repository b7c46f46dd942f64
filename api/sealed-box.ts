/**
 * Sealed boxes, the codec both sides of a secret write need: the client seals a value (libsodium
 * `crypto_box_seal`) for the Curve25519 public key the API hands out, and the server opens it with
 * the key pair it keeps. Private registries and Actions secrets carry values this way.
 *
 * libsodium is WebAssembly initialised asynchronously, so it is loaded on first use, never when a
 * program merely imports the library.
 */
import { generateKeyPairSync } from "node:crypto";

type Sodium = typeof import("libsodium-wrappers");
let sodium: Promise<Sodium> | undefined;

function loadSodium(): Promise<Sodium> {
  // The module's own object: the import's named bindings are copies taken before initialisation.
  sodium ??= import("libsodium-wrappers").then(async ({ default: lib }) => {
    await lib.ready;
    return lib;
  });
  return sodium;
}

/** A public key that is not a base64 Curve25519 key: the answer that handed it out is unusable. */
export class UnusablePublicKey extends Error {
  override readonly name = "UnusablePublicKey";
}

/** The base64 sealed box of `plaintext` for a base64 Curve25519 public key. */
export async function sealBox(plaintext: string, publicKey: string): Promise<string> {
  const s = await loadSodium();
  let key: Uint8Array;
  try {
    key = s.from_base64(publicKey, s.base64_variants.ORIGINAL);
  } catch {
    key = new Uint8Array();
  }
  if (key.length !== s.crypto_box_PUBLICKEYBYTES) {
    throw new UnusablePublicKey(
      `the server's public key is not a base64 Curve25519 key of ${s.crypto_box_PUBLICKEYBYTES} bytes`,
    );
  }
  return s.to_base64(s.crypto_box_seal(plaintext, key), s.base64_variants.ORIGINAL);
}

/** A key pair as the server keeps it: base64 Curve25519 keys. */
export interface BoxKeyPair {
  publicKey: string;
  privateKey: string;
}

/** A new Curve25519 key pair (X25519 keys are libsodium's crypto_box keys). */
export function newBoxKeyPair(): BoxKeyPair {
  const pair = generateKeyPairSync("x25519");
  const raw = (jwk: { x?: string; d?: string }, part: "x" | "d") =>
    Buffer.from(jwk[part] ?? "", "base64url").toString("base64");
  return {
    publicKey: raw(pair.publicKey.export({ format: "jwk" }), "x"),
    privateKey: raw(pair.privateKey.export({ format: "jwk" }), "d"),
  };
}

/** Opens a base64 sealed box with a key pair; undefined when the bytes do not open with it. */
export async function openBox(sealed: string, keys: BoxKeyPair): Promise<string | undefined> {
  const s = await loadSodium();
  try {
    const box = s.from_base64(sealed, s.base64_variants.ORIGINAL);
    return s.crypto_box_seal_open(
      box,
      Buffer.from(keys.publicKey, "base64"),
      Buffer.from(keys.privateKey, "base64"),
      "text",
    );
  } catch {
    return undefined;
  }
}
