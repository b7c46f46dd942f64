import { beforeAll, describe, expect, it } from "vitest";
import {
  DIGEST_COST,
  digestFor,
  digestOf,
  isDigest,
  matchesDigest,
  plaintextOf,
  useDigestCost,
} from "../../../provider/internal/secret-digest";

// The default cost, which the other in-process files lower (test/in-process.ts): each digest costs
// scrypt's 32 MiB and a tenth of a second of an idle core, more on a busy one.
beforeAll(() => useDigestCost(DIGEST_COST));

describe("secret digests", { timeout: 60_000 }, () => {
  it("are salted scrypt with their parameters, and match only their value", async () => {
    const digest = await digestOf("hunter2");
    expect(digest).toMatch(/^scrypt\$N=32768,r=8,p=1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(digest).not.toContain("hunter2");
    expect(await digestOf("hunter2")).not.toBe(digest);
    expect(await matchesDigest(digest, "hunter2")).toBe(true);
    expect(await matchesDigest(digest, "hunter3")).toBe(false);
  });

  it("refuse forms that are not theirs or ask for too much memory", () => {
    expect(isDigest("hunter2")).toBe(false);
    expect(isDigest("scrypt$N=1048577,r=8,p=1$AAAA$AAAA")).toBe(false);
    expect(isDigest("scrypt$N=2097152,r=8,p=1$AAAA$AAAA")).toBe(false);
    expect(isDigest("scrypt$N=16384,r=64,p=1$AAAA$AAAA")).toBe(false);
    expect(isDigest("scrypt$N=16384,r=8,p=1$AAAA$AAAA")).toBe(true);
  });

  it("keep a recorded digest that still matches, and remember the plaintext for this process only", async () => {
    const recorded = await digestOf("token-a");
    expect(await digestFor("token-a", recorded)).toBe(recorded);
    expect(plaintextOf(recorded)).toBe("token-a");
    const changed = await digestFor("token-b", recorded);
    expect(changed).not.toBe(recorded);
    expect(plaintextOf(changed)).toBe("token-b");
    expect(await digestFor("token-c", "not a digest")).toMatch(/^scrypt\$/);
    expect(plaintextOf(await digestOf("never checked"))).toBeUndefined();
  });

  it("tell apart texts that differ only in their bytes (the registry sees the bytes)", async () => {
    const composed = "caf\u00e9";
    const decomposed = "cafe\u0301";
    expect(await matchesDigest(await digestOf(composed), decomposed)).toBe(false);
  });
});
