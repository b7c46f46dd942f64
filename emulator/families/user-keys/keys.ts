/**
 * The signed-in user's keys: GPG keys (spec, concepts, GPG key), SSH authentication keys and SSH
 * signing keys (bodies from the platform's published description; docs/DECISIONS.md). A GPG key is
 * read with the maintained `openpgp` library, never by hand; an SSH key line is decoded down to its
 * key material, which must be a key OpenSSH would accept, and is known by its canonical form
 * (`decodeSshKey`, shared with the provider's check).
 */
import type * as openpgp from "openpgp" with { "resolution-mode": "import" };
import {
  decodeSshKey,
  gpgKeyTooLarge,
  loadOpenpgp,
  SSH_KEY_TYPES,
  type SshKeyDataProblem,
  type SshKeyType,
  sshKeyIdentity,
} from "../../../api/user-keys/key-material";
import type { Fixture, UserRecord } from "../../core/fixture";
import {
  type ApiFailure,
  type ErrorItem,
  invalidField,
  missingField,
  validationFailed,
} from "../../core/http";
import { ownValue } from "../../core/records";
import { timestamp } from "../../core/store";

/** What a GPG key or subkey may be used for, from its key flags. */
export interface GpgCapabilities {
  sign: boolean;
  encryptComms: boolean;
  encryptStorage: boolean;
  certify: boolean;
}

export interface StoredGpgSubkey {
  id: number;
  keyId: string;
  publicKey: string;
  capabilities: GpgCapabilities;
  createdAt: string;
  expiresAt: string | null;
  revoked: boolean;
}

/** A GPG key as read when it was added; `verified` of its emails is worked out when rendered. */
export interface StoredGpgKey {
  id: number;
  /** The owner's login. */
  user: string;
  name: string | null;
  keyId: string;
  publicKey: string;
  /** The addresses of the key's self-certified user IDs, in key order, without duplicates. */
  emails: string[];
  capabilities: GpgCapabilities;
  createdAt: string;
  expiresAt: string | null;
  revoked: boolean;
  subkeys: StoredGpgSubkey[];
  /** The armored text as it was given. */
  rawKey: string;
}

/** An SSH key of a user: an authentication key (`/user/keys`) or a signing key (`/user/ssh_signing_keys`). */
export interface StoredSshKey {
  id: number;
  /** The owner's login. */
  user: string;
  title: string;
  /** `<type> <base64>` in the key's canonical form, the comment dropped (as the platform returns it). */
  key: string;
  createdAt: string;
}

// ---------------------------------------------------------------------------------------------
// GPG keys

const GPG_RESOURCE = "GpgKey";

/** The key as the platform stores it, before ids are given; throws the 422 of a key it refuses. */
export type ParsedGpgKey = Omit<StoredGpgKey, "id" | "user" | "name" | "rawKey" | "subkeys"> & {
  subkeys: Array<Omit<StoredGpgSubkey, "id">>;
};

const notAGpgKey = (why: string) =>
  invalidField(
    GPG_RESOURCE,
    "armored_public_key",
    `armored_public_key is not an ASCII-armored PGP public key: ${why}`,
  );

/**
 * Reads `armored_public_key`: one ASCII-armored PGP public key block. A block that does not parse
 * (malformed, truncated, not a key such as a message or a signature), that holds a private key, or
 * that holds more signatures of its own than are read (`gpgKeyTooLarge`, so that reading any key
 * takes a bounded time) is a 422 naming the field. Each of those signatures is checked once
 * (`keepVerified`) before `openpgp` reads the key's users, subkeys and revocations.
 */
export async function parseGpgKey(armored: unknown): Promise<ParsedGpgKey> {
  if (armored === undefined || armored === null) throw missingField(GPG_RESOURCE, "armored_public_key");
  if (typeof armored !== "string") {
    throw invalidField(GPG_RESOURCE, "armored_public_key", "armored_public_key must be a string");
  }
  const lib = await loadOpenpgp();
  let key: openpgp.Key;
  try {
    key = await lib.readKey({ armoredKey: armored });
  } catch (e) {
    throw notAGpgKey((e as Error).message);
  }
  // A private key block must never be stored, even though its public part could be extracted.
  if (key.isPrivate()) throw notAGpgKey("it holds a private key; send the public key only");
  const tooLarge = gpgKeyTooLarge(key);
  if (tooLarge) throw invalidField(GPG_RESOURCE, "armored_public_key", `armored_public_key ${tooLarge}`);
  await keepVerified(lib, key);
  const primary = key.keyPacket;
  const selfCertification = await primarySelfCertification(key);
  const subkeys: ParsedGpgKey["subkeys"] = [];
  for (const subkey of key.subkeys) {
    const binding = latest(subkey.bindingSignatures);
    subkeys.push({
      keyId: keyIdOf(subkey),
      publicKey: packetBase64(lib, subkey.keyPacket),
      capabilities: capabilities(binding, subkey.getAlgorithmInfo().algorithm, false),
      createdAt: timestamp(subkey.getCreationTime()),
      expiresAt: expiry(await subkey.getExpirationTime().catch(() => null)),
      revoked: binding ? await subkey.isRevoked(binding, primary).catch(() => false) : false,
    });
  }
  return {
    keyId: keyIdOf(key),
    publicKey: packetBase64(lib, primary),
    emails: await certifiedEmails(key),
    capabilities: capabilities(selfCertification, key.getAlgorithmInfo().algorithm, true),
    createdAt: timestamp(key.getCreationTime()),
    expiresAt: expiry(await key.getExpirationTime().catch(() => null)),
    revoked: await key.isRevoked().catch(() => false),
    subkeys,
  };
}

/**
 * Drops the key's own signatures that do not verify, checking each once. `openpgp` checks every
 * revocation of a user again for each of its certifications and remembers no failure
 * (`User.verify`), so N forged certifications and M forged revocations cost N x M checks (a 55 KB
 * key took 1.3 s, one near the body limit minutes, holding every other request). A signature that
 * fails here fails in every later check whatever the date (its date is not checked here), so
 * dropping it changes no answer; one that passes is remembered by `openpgp` and not checked again.
 * Flags and expiry are then read from verified signatures only.
 */
async function keepVerified(lib: typeof openpgp, key: openpgp.Key): Promise<void> {
  const primary = key.keyPacket;
  const S = lib.enums.signature;
  const verified = async (
    signatures: openpgp.SignaturePacket[],
    type: openpgp.enums.signature,
    data: object,
  ) => {
    const kept: openpgp.SignaturePacket[] = [];
    for (const signature of signatures) {
      // A null date skips the date checks: only the signature itself is judged.
      const checked = await signature.verify(primary, type, data, null as unknown as Date).then(
        () => true,
        (e: unknown) => {
          if ((e as { code?: unknown }).code === "MODULE_NOT_FOUND") throw cannotVerify(key, e as Error);
          return false;
        },
      );
      if (checked) kept.push(signature);
    }
    return kept;
  };
  const withDirect = key as openpgp.Key & { directSignatures?: openpgp.SignaturePacket[] };
  if (withDirect.directSignatures) {
    withDirect.directSignatures = await verified(withDirect.directSignatures, S.key, { key: primary });
  }
  key.revocationSignatures = await verified(key.revocationSignatures, S.keyRevocation, { key: primary });
  for (const user of key.users) {
    const data = { key: primary, userID: user.userID, userAttribute: user.userAttribute };
    user.selfCertifications = await verified(user.selfCertifications, S.certGeneric, data);
    user.revocationSignatures = await verified(user.revocationSignatures, S.certRevocation, data);
  }
  for (const subkey of key.subkeys) {
    const data = { key: primary, bind: subkey.keyPacket };
    subkey.bindingSignatures = await verified(subkey.bindingSignatures, S.subkeyBinding, data);
    subkey.revocationSignatures = await verified(subkey.revocationSignatures, S.subkeyRevocation, data);
  }
}

/**
 * The 422 of a key whose algorithm this installation cannot check: `openpgp` checks Brainpool
 * curves with an optional module (`eckey-utils`, a dependency of this package) that could not be
 * loaded. Refused rather than stored without the addresses its certifications would verify.
 */
function cannotVerify(key: openpgp.Key, error: Error): ApiFailure {
  const { algorithm, curve } = key.getAlgorithmInfo();
  return invalidField(
    GPG_RESOURCE,
    "armored_public_key",
    `armored_public_key uses ${curve ?? algorithm}, whose signatures this server cannot check (${error.message.split("\n")[0]})`,
  );
}

/** The 16-hex-digit key id, upper case, as the platform shows it. */
function keyIdOf(key: { getKeyID(): openpgp.KeyID }): string {
  return key.getKeyID().toHex().toUpperCase();
}

/** The key packet alone, with its packet header, base64: the key material, not a key ring. */
function packetBase64(lib: typeof openpgp, packet: openpgp.AnyKeyPacket): string {
  const list = new lib.PacketList<openpgp.AnyPacket>();
  list.push(packet);
  return Buffer.from(list.write()).toString("base64");
}

function latest(signatures: readonly openpgp.SignaturePacket[]): openpgp.SignaturePacket | undefined {
  return [...signatures].sort((a, b) => (b.created?.getTime() ?? 0) - (a.created?.getTime() ?? 0))[0];
}

/** The self-certification that carries the primary key's flags: the primary user ID's, newest first. */
async function primarySelfCertification(key: openpgp.Key): Promise<openpgp.SignaturePacket | undefined> {
  const certifications = key.users.flatMap((u) => (u.userID ? u.selfCertifications : []));
  const primary = certifications.filter((s) => s.isPrimaryUserID);
  return latest(primary.length > 0 ? primary : certifications);
}

/**
 * Capabilities from the key flags of the signature. A key without flags (older keys) gets what its
 * algorithm can do: RSA everything, encryption-only algorithms encryption, signature algorithms
 * signing (and certification on the primary key).
 */
/** The key flags of a signature's first octet (RFC 9580, 5.2.3.29). */
const KEY_FLAGS = { certifyKeys: 0x01, signData: 0x02, encryptCommunication: 0x04, encryptStorage: 0x08 };

function capabilities(
  signature: openpgp.SignaturePacket | undefined,
  algorithm: string,
  primary: boolean,
): GpgCapabilities {
  const flags = signature?.keyFlags?.[0];
  if (flags !== undefined) {
    return {
      sign: (flags & KEY_FLAGS.signData) !== 0,
      encryptComms: (flags & KEY_FLAGS.encryptCommunication) !== 0,
      encryptStorage: (flags & KEY_FLAGS.encryptStorage) !== 0,
      certify: (flags & KEY_FLAGS.certifyKeys) !== 0,
    };
  }
  const encrypts = /^(rsa|elgamal|ecdh|x25519|x448)/.test(algorithm) && algorithm !== "rsaSign";
  const signs = !/^(elgamal|ecdh|x25519|x448)/.test(algorithm) && algorithm !== "rsaEncrypt";
  return { sign: signs, encryptComms: encrypts, encryptStorage: encrypts, certify: primary && signs };
}

/** The addresses of the user IDs whose self-certification verifies; a forged user ID names no one. */
async function certifiedEmails(key: openpgp.Key): Promise<string[]> {
  const emails = new Set<string>();
  for (const user of key.users) {
    const email = user.userID?.email;
    if (!email || emails.has(email)) continue;
    if (
      await user.verify().then(
        () => true,
        () => false,
      )
    )
      emails.add(email);
  }
  return [...emails];
}

function expiry(time: Date | number | null): string | null {
  return time instanceof Date ? timestamp(time) : null;
}

/** The same key (by key id) may be added once per user (docs/DECISIONS.md). */
export function assertNewGpgKey(keys: readonly StoredGpgKey[], user: string, keyId: string): void {
  if (keys.some((k) => k.user === user && k.keyId === keyId)) {
    throw validationFailed({
      resource: GPG_RESOURCE,
      field: "key_id",
      code: "already_exists",
      message: `key_id ${keyId} already exists`,
    });
  }
}

/** The addresses the user owns: a key's email is verified when it is one of them. */
export function userEmails(fixture: Readonly<Fixture>, user: UserRecord): readonly string[] {
  return ownValue(fixture.userEmails ?? {}, user.login) ?? [];
}

// ---------------------------------------------------------------------------------------------
// SSH keys

/** The body of a POST to `/user/keys` or `/user/ssh_signing_keys`, checked. */
export interface SshKeyInput {
  title: string;
  key: string;
}

/**
 * Reads `{title, key}`. `key` must be `<type> <base64> [comment]` of an accepted type whose base64
 * decodes to that type's OpenSSH public key, one OpenSSH would accept; `title` (optional) a string,
 * defaulting to the key's comment. The key is kept in its canonical form, the comment dropped.
 */
export function parseSshKeyInput(body: Record<string, unknown>, resource: string): SshKeyInput {
  if (body.key === undefined || body.key === null) throw missingField(resource, "key");
  if (typeof body.key !== "string") throw invalidField(resource, "key", "key must be a string");
  const parts = body.key.trim().split(/\s+/);
  const [type, data] = parts;
  const comment = parts.slice(2).join(" ");
  const refuse = (why: string) =>
    validationFailed({
      resource,
      field: "key",
      code: "custom",
      message: `key is invalid. ${why}. Keys start with ${SSH_KEY_TYPES.map((t) => `'${t}'`).join(", ")}`,
    } satisfies ErrorItem);
  if (!type || !(SSH_KEY_TYPES as readonly string[]).includes(type)) {
    throw refuse(type ? `'${type}' is not an accepted key type` : "It is empty");
  }
  if (!data) throw refuse("The key data after the type is missing");
  const decoded = decodeSshKey(type as SshKeyType, data);
  if ("problem" in decoded) throw refuse(sshKeyProblem(type, decoded.problem));
  let title = comment;
  if (body.title !== undefined && body.title !== null) {
    if (typeof body.title !== "string") throw invalidField(resource, "title", "title must be a string");
    title = body.title;
  }
  return { title, key: decoded.key };
}

/** Why the base64 part is not a public key of the declared type, in the platform's words. */
function sshKeyProblem(type: string, problem: SshKeyDataProblem): string {
  switch (problem.kind) {
    case "not base64":
      return "The key data is not base64";
    case "truncated":
      return "The key data is truncated";
    case "other type":
      return `The key data is of type '${problem.embedded}', not '${type}'`;
    case "malformed":
      return "The key data is not a well-formed public key of its type";
    case "invalid":
      return `The key data is not a valid public key of its type: ${problem.why}`;
  }
}

/**
 * A key already in use (among `keys`) is refused with the platform's message. `key` is canonical;
 * a stored key is compared by its identity too (one kept before keys were stored canonical).
 */
export function assertSshKeyUnused(keys: readonly StoredSshKey[], key: string, resource: string): void {
  const type = `${key.slice(0, key.indexOf(" "))} `;
  if (keys.some((k) => k.key === key || (k.key.startsWith(type) && sshKeyIdentity(k.key) === key))) {
    throw validationFailed({ resource, field: "key", code: "custom", message: "key is already in use" });
  }
}
