/**
 * The release's output folder (scripts/release.ts): emptied only when it is new, empty or an
 * earlier release, never when it holds the checkout; and SHA256SUMS in sha256sum's format.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { archiveName, emptyReleaseFolder, sameFiles, sha256sums } from "../../scripts/release";

const work = mkdtempSync(join(tmpdir(), "release-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const root = join(work, "checkout");
mkdirSync(root);

describe("emptyReleaseFolder", () => {
  it("makes a new folder, and empties an earlier release", () => {
    const fresh = join(work, "fresh", "v1");
    emptyReleaseFolder(fresh, root);
    expect(readdirSync(fresh)).toEqual([]);
    writeFileSync(join(fresh, "SHA256SUMS"), "");
    writeFileSync(join(fresh, "old.tar.gz"), "x");
    emptyReleaseFolder(fresh, root);
    expect(readdirSync(fresh)).toEqual([]);
  });

  it("refuses a folder with other files, a file, and the checkout or a folder above it", () => {
    const other = join(work, "other");
    mkdirSync(other);
    writeFileSync(join(other, "notes.txt"), "mine");
    expect(() => emptyReleaseFolder(other, root)).toThrow(
      `--out: ${other} is not empty and is not an earlier release (no SHA256SUMS)`,
    );
    expect(existsSync(join(other, "notes.txt"))).toBe(true);
    expect(() => emptyReleaseFolder(join(other, "notes.txt"), root)).toThrow("is a file, not a folder");
    expect(() => emptyReleaseFolder(root, root)).toThrow("holds the checkout");
    expect(() => emptyReleaseFolder(work, root)).toThrow("holds the checkout");
    expect(existsSync(root)).toBe(true);
  });
});

it("SHA256SUMS lists every other file, below folders too, as sha256sum writes it", () => {
  const dir = join(work, "sums");
  mkdirSync(join(dir, "sub"), { recursive: true });
  writeFileSync(join(dir, "b.txt"), "b");
  writeFileSync(join(dir, "sub", "a.txt"), "a");
  writeFileSync(join(dir, "SHA256SUMS"), "stale");
  const digest = (text: string) => createHash("sha256").update(text).digest("hex");
  expect(sha256sums(dir)).toBe(`${digest("b")}  b.txt\n${digest("a")}  sub/a.txt\n`);
});

it("names the plugin archives as the Pulumi CLI asks for them", () => {
  expect(archiveName("0.3.0", "darwin-arm64")).toBe("pulumi-resource-hosting-v0.3.0-darwin-arm64.tar.gz");
});

it("sameFiles: the same files with the same bytes (whether the checkout's sdk/go is the release's)", () => {
  const a = join(work, "same-a");
  const b = join(work, "same-b");
  for (const dir of [a, b]) {
    mkdirSync(join(dir, "hosting"), { recursive: true });
    writeFileSync(join(dir, "go.mod"), "module m\n");
    writeFileSync(join(dir, "hosting", "pulumi-plugin.json"), '{"version":"0.3.0"}');
  }
  expect(sameFiles(a, b)).toBe(true);
  writeFileSync(join(b, "hosting", "pulumi-plugin.json"), '{"version":"0.3.1"}');
  expect(sameFiles(a, b)).toBe(false);
  writeFileSync(join(b, "hosting", "pulumi-plugin.json"), '{"version":"0.3.0"}');
  writeFileSync(join(b, "extra.go"), "");
  expect(sameFiles(a, b)).toBe(false);
  expect(sameFiles(a, join(work, "missing"))).toBe(false);
});
