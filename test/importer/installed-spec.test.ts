/** The pulumi-hosting dependency a written program gets: the spec this package was installed from. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installedSpec } from "../../importer/run";

/** Every project of this file, removed at its end. */
const work = mkdtempSync(join(tmpdir(), "installed-spec-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A project with pulumi-hosting installed as npm records `resolved` in its hidden lockfile. */
function project(entry: Record<string, unknown> | undefined): string {
  const root = mkdtempSync(join(work, "spec-"));
  const dir = join(root, "app", "node_modules", "pulumi-hosting");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "pulumi-hosting", version: "0.2.0" }));
  if (entry !== undefined) {
    writeFileSync(
      join(root, "app", "node_modules", ".package-lock.json"),
      JSON.stringify({ packages: { "node_modules/pulumi-hosting": entry } }),
    );
  }
  return dir;
}

const quiet = { err: () => undefined };

describe("installedSpec", () => {
  it("writes a tarball as its absolute path", () => {
    const dir = project({ version: "0.2.0", resolved: "file:../pulumi-hosting-0.2.0.tgz" });
    const root = join(dir, "..", "..", "..");
    expect(installedSpec(quiet, dir)).toBe(`file:${join(root, "pulumi-hosting-0.2.0.tgz")}`);
  });

  it("keeps a git URL with its commit", () => {
    const git = "git+ssh://git@example.com/acme/pulumi-hosting.git#0123456789abcdef0123456789abcdef01234567";
    expect(installedSpec(quiet, project({ version: "0.2.0", resolved: git }))).toBe(git);
  });

  it("takes the version of a registry install", () => {
    const url = "https://registry.npmjs.org/pulumi-hosting/-/pulumi-hosting-0.3.1.tgz";
    expect(installedSpec(quiet, project({ version: "0.3.1", resolved: url }))).toBe("0.3.1");
  });

  it("falls back to the version without a lockfile entry", () => {
    expect(installedSpec(quiet, project(undefined))).toBe("0.2.0");
  });

  it("names a checkout as a folder, with a warning", () => {
    const root = mkdtempSync(join(work, "checkout-"));
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "pulumi-hosting", version: "0.2.0" }));
    const lines: string[] = [];
    expect(installedSpec({ err: (l) => lines.push(l) }, root)).toBe(`file:${root}`);
    expect(lines[0]).toContain("--library");
  });
});
