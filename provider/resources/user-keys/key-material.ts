/**
 * Key material checked on this machine, before any request: an SSH public key line down to its
 * key (the type among those the platform accepts, the base64 decoding to that type's OpenSSH wire
 * form and accepted by `node:crypto`), and an ASCII-armored PGP public key read with `openpgp`.
 *
 * `openpgp` is an ES module, loaded with `import()` only when a GPG key is checked or matched, so
 * a provider process serving other kinds never pays for it.
 */
import { createPublicKey, type JsonWebKey } from "node:crypto";
import type * as openpgp from "openpgp" with { "resolution-mode": "import" };

// ---------------------------------------------------------------------------------------------
// SSH keys
// ---------------------------------------------------------------------------------------------

/** The key types the platform accepts for authentication and signing keys (DSA is refused). */
export const SSH_KEY_TYPES = [
  "ssh-ed25519",
  "ssh-rsa",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256@openssh.com",
] as const;
export type SshKeyType = (typeof SSH_KEY_TYPES)[number];

const EC_CURVES: Record<string, { crv: string; bytes: number }> = {
  nistp256: { crv: "P-256", bytes: 32 },
  nistp384: { crv: "P-384", bytes: 48 },
  nistp521: { crv: "P-521", bytes: 66 },
};

/**
 * `<type> <base64>` of an OpenSSH public key line, the comment dropped (the platform stores and
 * returns keys without it), or why the line is not an acceptable key.
 */
export function parseSshKeyLine(line: string): { key: string } | { problem: string } {
  const [type, data] = line.trim().split(/\s+/);
  if (!type) return { problem: "is empty" };
  if (!(SSH_KEY_TYPES as readonly string[]).includes(type)) {
    return { problem: `type "${type}" is not accepted; it must be one of ${SSH_KEY_TYPES.join(", ")}` };
  }
  if (!data) return { problem: `has no key data after "${type}"` };
  const why = sshKeyProblem(type as SshKeyType, data);
  return why ? { problem: why } : { key: `${type} ${data}` };
}

/** The stored form of a key line the API returns (type and base64, no comment). */
export function normaliseSshKey(line: string): string {
  return line.trim().split(/\s+/).slice(0, 2).join(" ");
}

function sshKeyProblem(type: SshKeyType, data: string): string | undefined {
  const problem = sshKeyDataProblem(type, data);
  switch (problem?.kind) {
    case undefined:
      return undefined;
    case "not base64":
      return "has key data that is not base64";
    case "truncated":
      return "has truncated key data";
    case "other type":
      return `has key data of type "${problem.embedded}", not "${type}"`;
    case "malformed":
      return `has key data that is not a well-formed ${type} public key`;
    case "invalid":
      return `has key data that is not a valid ${type} public key`;
  }
}

/** Why the base64 part of a key line is not a public key of its type (each side words it). */
export type SshKeyDataProblem =
  | { kind: "not base64" | "truncated" | "malformed" | "invalid" }
  | { kind: "other type"; embedded: string };

/**
 * Checks the base64 part of an OpenSSH key line: its wire form names `type` and holds a public key
 * of that type that `node:crypto` accepts. The sandbox server checks keys with the same code.
 */
export function sshKeyDataProblem(type: SshKeyType, data: string): SshKeyDataProblem | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data) || data.length % 4 !== 0) return { kind: "not base64" };
  const reader = new WireReader(Buffer.from(data, "base64"));
  const embedded = reader.string()?.toString("latin1");
  if (embedded === undefined) return { kind: "truncated" };
  if (embedded !== type) return { kind: "other type", embedded };
  const jwk = sshJwk(type, reader);
  if (!jwk || !reader.done()) return { kind: "malformed" };
  try {
    createPublicKey({ key: jwk, format: "jwk" });
  } catch {
    return { kind: "invalid" };
  }
  return undefined;
}

/** The key after the type string as a JWK, or undefined when its fields are malformed. */
function sshJwk(type: SshKeyType, reader: WireReader): JsonWebKey | undefined {
  const b64url = (b: Buffer) => b.toString("base64url");
  const securityKey = type.startsWith("sk-");
  if (type === "ssh-ed25519" || type === "sk-ssh-ed25519@openssh.com") {
    const point = reader.string();
    if (point?.length !== 32) return undefined;
    if (securityKey && !reader.string()) return undefined; // the application, `ssh:`
    return { kty: "OKP", crv: "Ed25519", x: b64url(point) };
  }
  if (type === "ssh-rsa") {
    const e = reader.string();
    const n = reader.string();
    if (!e || !n) return undefined;
    return { kty: "RSA", e: b64url(withoutLeadingZeros(e)), n: b64url(withoutLeadingZeros(n)) };
  }
  const curveName = reader.string()?.toString("latin1");
  const point = reader.string();
  const curve = curveName ? EC_CURVES[curveName] : undefined;
  if (!curveName || !curve || !point || !type.includes(curveName)) return undefined;
  if (securityKey && !reader.string()) return undefined;
  // Only uncompressed points (0x04 || X || Y), the form OpenSSH writes.
  if (point.length !== 1 + 2 * curve.bytes || point[0] !== 4) return undefined;
  return {
    kty: "EC",
    crv: curve.crv,
    x: b64url(point.subarray(1, 1 + curve.bytes)),
    y: b64url(point.subarray(1 + curve.bytes)),
  };
}

/** An mpint without its sign byte or leading zeros, as a JWK wants it. */
function withoutLeadingZeros(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  return b.subarray(i);
}

/** The SSH wire format (RFC 4251): strings as a 32-bit big-endian length, then the bytes. */
class WireReader {
  private offset = 0;
  constructor(private readonly bytes: Buffer) {}

  string(): Buffer | undefined {
    if (this.offset + 4 > this.bytes.length) return undefined;
    const length = this.bytes.readUInt32BE(this.offset);
    const start = this.offset + 4;
    if (start + length > this.bytes.length) return undefined;
    this.offset = start + length;
    return this.bytes.subarray(start, start + length);
  }

  done(): boolean {
    return this.offset === this.bytes.length;
  }
}

// ---------------------------------------------------------------------------------------------
// GPG keys
// ---------------------------------------------------------------------------------------------

export const PGP_PUBLIC_KEY_HEADER = "-----BEGIN PGP PUBLIC KEY BLOCK-----";
export const PGP_PRIVATE_KEY_HEADER = "-----BEGIN PGP PRIVATE KEY BLOCK-----";

let library: Promise<typeof openpgp> | undefined;
/** `openpgp`, loaded once, on first use (the sandbox server's key routes use it too). */
export const loadOpenpgp = (): Promise<typeof openpgp> => {
  library ??= import("openpgp");
  return library;
};

/** The armored text as compared: line endings and surrounding blank space do not matter. */
export function normaliseArmored(text: string): string {
  return text.replace(/\r\n?/g, "\n").trim();
}

/**
 * The 16-hex-digit key id (upper case, as the platform shows it) of an ASCII-armored PGP public
 * key, or why the block is not one: it does not parse (malformed, truncated, a message or a
 * signature), or it holds a private key.
 */
export async function readGpgKeyId(armored: string): Promise<{ keyId: string } | { problem: string }> {
  const lib = await loadOpenpgp();
  let key: openpgp.Key;
  try {
    key = await lib.readKey({ armoredKey: armored });
  } catch (e) {
    return { problem: `does not parse as a PGP public key block (${(e as Error).message})` };
  }
  if (key.isPrivate()) return { problem: "holds a private key; give the public key only" };
  return { keyId: key.getKeyID().toHex().toUpperCase() };
}
