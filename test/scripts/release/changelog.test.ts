/**
 * The CHANGELOG in a release (scripts/release/changelog.ts): the section the notes come from, the
 * bump that dates the Unreleased section, and the manifests' version.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  bumpChangelog,
  bumpManifest,
  publishedManifest,
  releaseSection,
} from "../../../scripts/release/changelog";

const CHANGELOG = `# Changelog

Intro.

## Unreleased

### Added

- The release.

## 0.2.0 (2026-10-01)

- Plugin.

## 0.1.0

First release.
`;

describe("releaseSection", () => {
  it("is the version's own section, with or without its date", () => {
    expect(releaseSection(CHANGELOG, "0.2.0")).toEqual({
      heading: "0.2.0 (2026-10-01)",
      body: "- Plugin.",
      unreleased: false,
    });
    expect(releaseSection(CHANGELOG, "0.1.0")).toEqual({
      heading: "0.1.0",
      body: "First release.",
      unreleased: false,
    });
  });

  it("is the Unreleased section for a version without one, and says so", () => {
    expect(releaseSection(CHANGELOG, "0.3.0")).toEqual({
      heading: "Unreleased",
      body: "### Added\n\n- The release.",
      unreleased: true,
    });
    // 0.2.0 is not 0.2.0-rc.1's section, nor 0.2.1's.
    expect(releaseSection(CHANGELOG, "0.2.0-rc.1").unreleased).toBe(true);
    expect(() => releaseSection("# Changelog\n", "0.3.0")).toThrow('no section "## 0.3.0 (<date>)"');
  });

  it("finds the project's own Unreleased section", () => {
    const own = readFileSync(join(__dirname, "../../../CHANGELOG.md"), "utf8");
    expect(releaseSection(own, "0.99.0").body).toMatch(/^### /);
  });
});

describe("bumpChangelog", () => {
  it("dates the Unreleased section as the version's, with a new empty Unreleased above it", () => {
    const bumped = bumpChangelog(CHANGELOG, "0.3.0", "2026-11-27");
    expect(bumped).toBe(CHANGELOG.replace("## Unreleased\n", "## Unreleased\n\n## 0.3.0 (2026-11-27)\n"));
    expect(releaseSection(bumped, "0.3.0")).toEqual({
      heading: "0.3.0 (2026-11-27)",
      body: "### Added\n\n- The release.",
      unreleased: false,
    });
  });

  it("refuses a version already there, an empty Unreleased section or none", () => {
    expect(() => bumpChangelog(CHANGELOG, "0.2.0", "2026-11-27")).toThrow("already has a section for 0.2.0");
    const bumped = bumpChangelog(CHANGELOG, "0.3.0", "2026-11-27");
    expect(() => bumpChangelog(bumped, "0.4.0", "2026-11-28")).toThrow(
      "the Unreleased section of CHANGELOG.md is empty",
    );
    expect(() => bumpChangelog("# Changelog\n\n## 0.1.0\n", "0.2.0", "2026-11-27")).toThrow(
      'no "## Unreleased" section',
    );
  });
});

describe("bumpManifest", () => {
  it("sets package.json's version, and the lockfile's root and packages[''] versions", () => {
    expect(bumpManifest('{\n  "name": "p",\n  "version": "0.2.0"\n}\n', "0.3.0", "package.json")).toBe(
      '{\n  "name": "p",\n  "version": "0.3.0"\n}\n',
    );
    const lock = JSON.parse(
      bumpManifest(
        JSON.stringify({
          version: "0.2.0",
          packages: { "": { version: "0.2.0" }, "node_modules/x": { version: "0.2.0" } },
        }),
        "0.3.0",
        "package-lock.json",
      ),
    );
    expect(lock).toEqual({
      version: "0.3.0",
      packages: { "": { version: "0.3.0" }, "node_modules/x": { version: "0.2.0" } },
    });
    expect(() => bumpManifest("{}", "0.3.0", "package.json")).toThrow("--bump: package.json has no version");
  });
});

describe("publishedManifest", () => {
  it("is the checkout's package.json with the release's version and no prepare (npm's install-scripts notice)", () => {
    const checkout = readFileSync(join(__dirname, "../../../package.json"), "utf8");
    const published = JSON.parse(publishedManifest(checkout, "0.3.0")) as {
      version: string;
      scripts: Record<string, string>;
      bin: Record<string, string>;
    };
    expect(published.version).toBe("0.3.0");
    expect(Object.keys(published.scripts)).not.toContain("prepare");
    const scripts = JSON.parse(checkout).scripts as Record<string, string>;
    expect(scripts.prepare).toBe("node scripts/prepare.js");
    // Nothing else of the manifest changes.
    const { prepare: _, ...others } = scripts;
    expect(published.scripts).toEqual(others);
    expect(published.bin).toEqual(JSON.parse(checkout).bin);
  });
});
