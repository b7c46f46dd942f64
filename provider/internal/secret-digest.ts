/**
 * Secrets that state must not hold at all. A value the API never returns (a private registry's
 * value) is recorded only as a digest, which is enough to tell a value changed in code (a new
 * digest: update) from an unchanged one (the recorded digest: no diff).
 *
 * The digest is scrypt, memory-hard, with a random salt per digest, written
 * `scrypt$N=32768,r=8,p=1$<salt>$<hash>` (base64): the parameters travel with it, so they can be
 * raised later without making recorded digests unreadable. There is no key that could be kept
 * apart from state (the token rotates and is itself in state; see docs/DECISIONS.md), so the
 * protection against guessing a leaked digest offline is the cost of every guess: 32 MiB of memory
 * and about 0.1 s of a core each, with no precomputation across digests.
 *
 * The plaintext lives only in this process's memory, from check (which sees the program's value)
 * to create or update in the same run.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

const SCHEME = "scrypt";
/** The cost of a digest made here: N = 2^15, r = 8 (32 MiB), p = 1. */
export const DIGEST_COST: Readonly<Cost> = { N: 2 ** 15, r: 8, p: 1 };
/** The cost of the next digests: `DIGEST_COST` unless this process set another (`useDigestCost`). */
let cost: Readonly<Cost> = DIGEST_COST;
/** The most a recorded digest may ask for, so a crafted state cannot exhaust memory. */
const MAX_N = 2 ** 20;
const MAX_R = 16;
const MAX_P = 16;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

const DIGEST_PATTERN = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

interface Cost {
  N: number;
  r: number;
  p: number;
}

interface Parsed {
  cost: Cost;
  salt: Buffer;
  hash: Buffer;
}

function parse(digest: string): Parsed | undefined {
  const m = DIGEST_PATTERN.exec(digest);
  if (!m) return undefined;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const powerOfTwo = N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX_N || r < 1 || r > MAX_R || p < 1 || p > MAX_P) return undefined;
  return {
    cost: { N, r, p },
    salt: Buffer.from(m[4] ?? "", "base64"),
    hash: Buffer.from(m[5] ?? "", "base64"),
  };
}

function derive(value: string, salt: Buffer, cost: Parsed["cost"], length: number): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) is exactly the default cost.
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scrypt(value, salt, length, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Whether a text has the form of a digest made here. */
export function isDigest(text: unknown): text is string {
  return typeof text === "string" && parse(text) !== undefined;
}

/**
 * Sets the cost of the digests this process makes from now on. Only the in-process test suites
 * call it (test/in-process.ts): at the default cost their 130 digests took about 13 CPU-seconds.
 * A digest names its parameters, so digests of any cost are matched alike.
 */
export function useDigestCost(next: Readonly<Cost>): void {
  cost = next;
}

/** A new digest of `value`, with a fresh salt. */
export async function digestOf(value: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(value, salt, cost, HASH_BYTES);
  return `${SCHEME}$N=${cost.N},r=${cost.r},p=${cost.p}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

/** Whether `digest` is a digest of `value` (compared in constant time). */
export async function matchesDigest(digest: string, value: string): Promise<boolean> {
  const parsed = parse(digest);
  if (!parsed || parsed.hash.length === 0) return false;
  const hash = await derive(value, parsed.salt, parsed.cost, parsed.hash.length);
  return timingSafeEqual(hash, parsed.hash);
}

/** Plaintexts seen at check in this process, by their digest; never written anywhere. */
const plaintexts = new Map<string, string>();

/** The digest to record for `value`: `recorded` when it still matches, else a new one. */
export async function digestFor(value: string, recorded: unknown): Promise<string> {
  const digest =
    isDigest(recorded) && (await matchesDigest(recorded, value)) ? recorded : await digestOf(value);
  plaintexts.set(digest, value);
  return digest;
}

/** The plaintext behind a digest made by `digestFor` in this process, if any. */
export function plaintextOf(digest: string | undefined): string | undefined {
  return digest === undefined ? undefined : plaintexts.get(digest);
}
