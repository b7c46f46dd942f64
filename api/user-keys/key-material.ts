/**
 * SSH key material checked on this machine, before any request: an SSH public key line down to
 * its key (the type among those the platform accepts, the base64 decoding to that type's OpenSSH
 * wire form, a key OpenSSH would accept and `node:crypto` imports, known by its canonical form).
 * The sandbox server checks keys with this code, so a key it refuses fails at preview.
 */
import { createPublicKey, type JsonWebKey } from "node:crypto";

// The GPG half, for the callers that check both kinds of key.
export * from "./gpg-material";
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

/**
 * `<type> <base64>` of an OpenSSH public key line in its canonical form (what identifies the key,
 * whatever text it came in; `decodeSshKey`), the comment dropped (the platform stores and returns
 * keys without it), or why the line is not an acceptable key.
 */
export function parseSshKeyLine(line: string): { key: string } | { problem: string } {
  const [type, data] = line.trim().split(/\s+/);
  if (!type) return { problem: "is empty" };
  if (!(SSH_KEY_TYPES as readonly string[]).includes(type)) {
    return { problem: `type "${type}" is not accepted; it must be one of ${SSH_KEY_TYPES.join(", ")}` };
  }
  if (!data) return { problem: `has no key data after "${type}"` };
  const decoded = decodeSshKey(type as SshKeyType, data);
  return "problem" in decoded ? { problem: sshKeyProblem(type, decoded.problem) } : { key: decoded.key };
}

/**
 * The key a line the API returned names, as keys are compared: its canonical `<type> <base64>`
 * where it decodes (valid or not), else its first two words.
 */
export function sshKeyIdentity(line: string): string {
  const [type = "", data = ""] = line.trim().split(/\s+/);
  const fields = (SSH_KEY_TYPES as readonly string[]).includes(type)
    ? readSshKey(type as SshKeyType, data)
    : undefined;
  return fields && !("problem" in fields) ? canonicalLine(fields) : `${type} ${data}`.trim();
}

function sshKeyProblem(type: string, problem: SshKeyDataProblem): string {
  switch (problem.kind) {
    case "not base64":
      return "has key data that is not base64";
    case "truncated":
      return "has truncated key data";
    case "other type":
      return `has key data of type "${problem.embedded}", not "${type}"`;
    case "malformed":
      return `has key data that is not a well-formed ${type} public key`;
    case "invalid":
      return `has key data that is not a valid ${type} public key: ${problem.why}`;
  }
}

/** Why the base64 part of a key line is not a public key of its type (each side words it). */
export type SshKeyDataProblem =
  | { kind: "not base64" | "truncated" | "malformed" }
  | { kind: "other type"; embedded: string }
  /** Well-formed, but not a key OpenSSH would use: `why` says what is wrong, in words. */
  | { kind: "invalid"; why: string };

/**
 * Decodes the base64 part of an OpenSSH key line (RFC 4253 6.6, RFC 5656 3.1, OpenSSH's
 * PROTOCOL.u2f): its wire form names `type` and holds a public key of that type that OpenSSH would
 * accept (`sshKeyWeakness`) and `node:crypto` imports. Answers the key's canonical line,
 * `<type> <base64>` of its fields written again (minimal integers, canonical base64), so two texts
 * of one key (other padding bits, leading zero bytes of an integer) are one key. The sandbox server
 * checks keys with the same code.
 */
export function decodeSshKey(
  type: SshKeyType,
  data: string,
): { key: string } | { problem: SshKeyDataProblem } {
  const fields = readSshKey(type, data);
  if ("problem" in fields) return fields;
  const why = sshKeyWeakness(fields);
  if (why) return { problem: { kind: "invalid", why } };
  try {
    createPublicKey({ key: jwkOf(fields), format: "jwk" });
  } catch {
    const why = fields.kty === "ecdsa" ? "its point is not on the curve" : "node:crypto cannot import it";
    return { problem: { kind: "invalid", why } };
  }
  return { key: canonicalLine(fields) };
}

/** The fields of a key's wire form after its type string. */
type SshKeyFields =
  | { type: SshKeyType; kty: "ed25519"; point: Buffer; application?: Buffer }
  | { type: SshKeyType; kty: "rsa"; e: bigint; n: bigint }
  | { type: SshKeyType; kty: "ecdsa"; curve: EcCurve; x: bigint; y: bigint; application?: Buffer };

/** The wire form read into its fields, or why it is not one of `type`; nothing about validity. */
function readSshKey(type: SshKeyType, data: string): SshKeyFields | { problem: SshKeyDataProblem } {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data) || data.length % 4 !== 0) {
    return { problem: { kind: "not base64" } };
  }
  const reader = new WireReader(Buffer.from(data, "base64"));
  const embedded = reader.string()?.toString("latin1");
  if (embedded === undefined) return { problem: { kind: "truncated" } };
  if (embedded !== type) return { problem: { kind: "other type", embedded } };
  const fields = readFields(type, reader);
  return fields && reader.done() ? fields : { problem: { kind: "malformed" } };
}

function readFields(type: SshKeyType, reader: WireReader): SshKeyFields | undefined {
  const securityKey = type.startsWith("sk-");
  if (type === "ssh-ed25519" || type === "sk-ssh-ed25519@openssh.com") {
    const point = reader.string();
    if (point?.length !== ED25519.bytes) return undefined;
    if (!securityKey) return { type, kty: "ed25519", point };
    const application = reader.string();
    return application === undefined ? undefined : { type, kty: "ed25519", point, application };
  }
  if (type === "ssh-rsa") {
    const e = reader.mpint();
    const n = reader.mpint();
    return e === undefined || n === undefined ? undefined : { type, kty: "rsa", e, n };
  }
  const curveName = reader.string()?.toString("latin1");
  const point = reader.string();
  const curve = curveName === undefined ? undefined : EC_CURVES.get(curveName);
  if (!curveName || !curve || !point || !type.includes(curveName)) return undefined;
  // Only uncompressed points (0x04 || X || Y), the form OpenSSH writes.
  if (point.length !== 1 + 2 * curve.bytes || point[0] !== 4) return undefined;
  const x = bigintOf(point.subarray(1, 1 + curve.bytes));
  const y = bigintOf(point.subarray(1 + curve.bytes));
  if (!securityKey) return { type, kty: "ecdsa", curve, x, y };
  const application = reader.string();
  return application === undefined ? undefined : { type, kty: "ecdsa", curve, x, y, application };
}

// ---------------------------------------------------------------------------------------------
// What OpenSSH refuses of a well-formed key (sshkey.c, ssh-rsa.c, ssh-ecdsa.c)

/** OpenSSH's bounds of an RSA modulus (SSH_RSA_MINIMUM_MODULUS_SIZE, SSHBUF_MAX_BIGNUM). */
const RSA_MIN_BITS = 1024;
const RSA_MAX_BITS = 16_384;
/** The smallest public exponent of a usable RSA key. */
const RSA_MIN_EXPONENT = 3n;

/** Why a well-formed key is one OpenSSH would refuse, or undefined when it is usable. */
function sshKeyWeakness(key: SshKeyFields): string | undefined {
  switch (key.kty) {
    case "rsa":
      return rsaWeakness(key.e, key.n);
    case "ed25519":
      return ed25519Weakness(key.point) ?? applicationProblem(key.application);
    case "ecdsa":
      return ecdsaWeakness(key.curve, key.x, key.y) ?? applicationProblem(key.application);
  }
}

function rsaWeakness(e: bigint, n: bigint): string | undefined {
  const bits = bitLength(n);
  if (bits < RSA_MIN_BITS) return `its modulus has ${bits} bits; at least ${RSA_MIN_BITS} are needed`;
  if (bits > RSA_MAX_BITS) return `its modulus has ${bits} bits; at most ${RSA_MAX_BITS} are allowed`;
  if (n % 2n === 0n) return "its modulus is even";
  const rule = `it must be odd and at least ${RSA_MIN_EXPONENT}`;
  if (e < RSA_MIN_EXPONENT) return `its public exponent is ${e}; ${rule}`;
  if (e % 2n === 0n) return `its public exponent is even; ${rule}`;
  if (e >= n) return "its public exponent is not smaller than its modulus";
  return undefined;
}

/** The application of a security key: OpenSSH's `ssh:` and the like, printable ASCII. */
function applicationProblem(application: Buffer | undefined): string | undefined {
  if (application === undefined) return undefined;
  if (application.length === 0) return "its security-key application is empty";
  if (!/^[\x20-\x7e]+$/.test(application.toString("latin1"))) {
    return "its security-key application holds characters other than printable ASCII";
  }
  return undefined;
}

/** The NIST curves of ECDSA keys: JWK name, coordinate size and group order (FIPS 186-4 D.1.2). */
interface EcCurve {
  crv: string;
  bytes: number;
  order: bigint;
}

const EC_CURVES = new Map<string, EcCurve>([
  [
    "nistp256",
    {
      crv: "P-256",
      bytes: 32,
      order: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
    },
  ],
  [
    "nistp384",
    {
      crv: "P-384",
      bytes: 48,
      order:
        0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n,
    },
  ],
  [
    "nistp521",
    {
      crv: "P-521",
      bytes: 66,
      order:
        0x1fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409n,
    },
  ],
]);

/**
 * OpenSSH's `sshkey_ec_validate_public`: each coordinate longer than half the order and below the
 * order less one (a point so small is no key anyone generated); being on the curve (and so not the
 * point at infinity, which has no uncompressed form) is `node:crypto`'s check, at import.
 */
function ecdsaWeakness(curve: EcCurve, x: bigint, y: bigint): string | undefined {
  const half = Math.floor(bitLength(curve.order) / 2);
  if (bitLength(x) <= half || bitLength(y) <= half) {
    return "a coordinate of its point is too small to be a generated key";
  }
  if (x >= curve.order - 1n || y >= curve.order - 1n) {
    return "a coordinate of its point is not below the order of the curve";
  }
  return undefined;
}

/** Curve25519's twisted Edwards form (RFC 8032 5.1): -x^2 + y^2 = 1 + d x^2 y^2 over GF(p). */
const ED25519 = (() => {
  const p = 2n ** 255n - 19n;
  return {
    p,
    bytes: 32,
    d: mod(-121665n * power(121666n, p - 2n, p), p),
    /** A square root of -1. */
    i: power(2n, (p - 1n) / 4n, p),
  };
})();

/**
 * A point OpenSSH's Ed25519 code would use: canonically encoded (y below p), on the curve
 * (RFC 8032 5.1.3 decoding), and not one of the eight points of small order (such as the all-zero
 * encoding), which a signature check would accept for some message whatever the key.
 */
function ed25519Weakness(encoded: Buffer): string | undefined {
  const { p, d, i } = ED25519;
  const bytes = Buffer.from(encoded).reverse(); // little-endian
  const sign = (bytes[0] ?? 0) >> 7;
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  const y = bigintOf(bytes);
  if (y >= p) return "its point is not canonically encoded";
  // x^2 = u / v; x = u v^3 (u v^7)^((p-5)/8), times sqrt(-1) when that squares to -u / v.
  const u = mod(y * y - 1n, p);
  const v = mod(d * y * y + 1n, p);
  const v3 = mod(v * v * v, p);
  let x = mod(u * v3 * power(u * v3 * v3 * v, (p - 5n) / 8n, p), p);
  const vxx = mod(v * x * x, p);
  if (vxx !== u) {
    if (vxx !== mod(-u, p)) return "its point is not on the curve";
    x = mod(x * i, p);
  }
  if (x === 0n && sign === 1) return "its point is not canonically encoded";
  // Eight times a point of small order is the neutral element; for any other point it is not.
  let point = { X: x, Y: y, Z: 1n };
  for (let n = 0; n < 3; n++) point = edwardsDouble(point);
  if (point.X === 0n && point.Y === point.Z) return "its point is of small order";
  return undefined;
}

/** Doubles a point of the curve in projective coordinates (dbl-2008-bbjlp, a = -1): no inverse. */
function edwardsDouble({ X, Y, Z }: { X: bigint; Y: bigint; Z: bigint }): {
  X: bigint;
  Y: bigint;
  Z: bigint;
} {
  const { p } = ED25519;
  const B = mod((X + Y) * (X + Y), p);
  const C = mod(X * X, p);
  const D = mod(Y * Y, p);
  const E = mod(-C, p);
  const F = mod(E + D, p);
  const J = mod(F - 2n * Z * Z, p);
  return { X: mod((B - C - D) * J, p), Y: mod(F * (E - D), p), Z: mod(F * J, p) };
}

function mod(a: bigint, m: bigint): bigint {
  const r = a % m;
  return r < 0n ? r + m : r;
}

function power(base: bigint, exponent: bigint, m: bigint): bigint {
  let result = 1n;
  let b = mod(base, m);
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
  }
  return result;
}

function bigintOf(bytes: Buffer): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${bytes.toString("hex")}`);
}

function bitLength(value: bigint): number {
  if (value === 0n) return 0;
  const hex = value.toString(16);
  return (hex.length - 1) * 4 + Number.parseInt(hex[0] ?? "0", 16).toString(2).length;
}

// ---------------------------------------------------------------------------------------------
// Writing a key again: its JWK for node:crypto, its canonical wire form

function jwkOf(key: SshKeyFields): JsonWebKey {
  const b64url = (b: Buffer) => b.toString("base64url");
  switch (key.kty) {
    case "ed25519":
      return { kty: "OKP", crv: "Ed25519", x: b64url(key.point) };
    case "rsa":
      return { kty: "RSA", e: b64url(unsigned(key.e)), n: b64url(unsigned(key.n)) };
    case "ecdsa":
      return {
        kty: "EC",
        crv: key.curve.crv,
        x: b64url(unsigned(key.x, key.curve.bytes)),
        y: b64url(unsigned(key.y, key.curve.bytes)),
      };
  }
}

/** `<type> <base64>` of the key's fields written as OpenSSH writes them. */
function canonicalLine(key: SshKeyFields): string {
  const text = (t: string) => wireString(Buffer.from(t, "latin1"));
  const parts = [text(key.type)];
  if (key.kty === "rsa") {
    parts.push(wireMpint(key.e), wireMpint(key.n));
  } else if (key.kty === "ed25519") {
    parts.push(wireString(key.point));
  } else {
    const curveName = [...EC_CURVES].find(([, c]) => c === key.curve)?.[0] ?? "";
    const point = Buffer.concat([
      Buffer.from([4]),
      unsigned(key.x, key.curve.bytes),
      unsigned(key.y, key.curve.bytes),
    ]);
    parts.push(text(curveName), wireString(point));
  }
  if (key.kty !== "rsa" && key.application !== undefined) parts.push(wireString(key.application));
  return `${key.type} ${Buffer.concat(parts).toString("base64")}`;
}

/** A non-negative integer as big-endian bytes: the fewest, or `length` of them. */
function unsigned(value: bigint, length?: number): Buffer {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const bytes = Buffer.from(hex === "00" && length === undefined ? "" : hex, "hex");
  return length === undefined || bytes.length >= length
    ? bytes
    : Buffer.concat([Buffer.alloc(length - bytes.length), bytes]);
}

function wireString(bytes: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** An mpint (RFC 4251 5): minimal two's complement, a zero byte before a leading 1 bit. */
function wireMpint(value: bigint): Buffer {
  const bytes = unsigned(value);
  return wireString((bytes[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.alloc(1), bytes]) : bytes);
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

  /**
   * A non-negative mpint. Leading zero bytes are skipped, as OpenSSH does (so they do not make
   * another key); a negative one is malformed.
   */
  mpint(): bigint | undefined {
    const bytes = this.string();
    if (bytes === undefined || ((bytes[0] ?? 0) & 0x80) !== 0) return undefined;
    return bigintOf(bytes);
  }

  done(): boolean {
    return this.offset === this.bytes.length;
  }
}
