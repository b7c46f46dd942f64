/**
 * The CHANGELOG's part in a release: the section a release's notes are taken from, and the bump
 * that turns "Unreleased" into the version's dated section (with a new, empty "Unreleased" above
 * it). Headings are `## Unreleased` and `## <version> (<date>)`.
 */

export interface Section {
  /** The heading's text after `## `. */
  heading: string;
  /** The section's lines up to the next `## ` heading, trimmed. */
  body: string;
  /** Whether it is the Unreleased section, used because the version has none yet. */
  unreleased: boolean;
}

const HEADING = /^## (.+)$/gm;

function sections(
  changelog: string,
): Array<{ heading: string; start: number; bodyStart: number; end: number }> {
  const found = [...changelog.matchAll(HEADING)];
  return found.map((match, i) => ({
    heading: (match[1] ?? "").trim(),
    start: match.index,
    bodyStart: match.index + match[0].length,
    end: found[i + 1]?.index ?? changelog.length,
  }));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether a heading is the one of `version` (`0.3.0`, `0.3.0 (2026-11-27)`, `v0.3.0`). */
function isVersionHeading(heading: string, version: string): boolean {
  return new RegExp(`^v?${escapeRegExp(version)}(\\s|$)`).test(heading);
}

/**
 * The notes of `version`: its own section, or the Unreleased one when it has none yet (a release
 * built before `--bump`, such as a test's).
 */
export function releaseSection(changelog: string, version: string): Section {
  const all = sections(changelog);
  const own = all.find((s) => isVersionHeading(s.heading, version));
  const chosen = own ?? all.find((s) => /^unreleased$/i.test(s.heading));
  if (chosen === undefined) {
    throw new Error(`CHANGELOG.md has no section "## ${version} (<date>)" and no "## Unreleased" section`);
  }
  return {
    heading: chosen.heading,
    body: changelog.slice(chosen.bodyStart, chosen.end).trim(),
    unreleased: own === undefined,
  };
}

/** The CHANGELOG with its Unreleased section made `## <version> (<date>)` and a new Unreleased above. */
export function bumpChangelog(changelog: string, version: string, date: string): string {
  const all = sections(changelog);
  if (all.some((s) => isVersionHeading(s.heading, version))) {
    throw new Error(`--bump: CHANGELOG.md already has a section for ${version}`);
  }
  const unreleased = all.find((s) => /^unreleased$/i.test(s.heading));
  if (unreleased === undefined)
    throw new Error('--bump: CHANGELOG.md has no "## Unreleased" section to date');
  if (changelog.slice(unreleased.bodyStart, unreleased.end).trim() === "") {
    throw new Error(
      `--bump: the Unreleased section of CHANGELOG.md is empty: nothing to release as ${version}`,
    );
  }
  return `${changelog.slice(0, unreleased.start)}## Unreleased\n\n## ${version} (${date})${changelog.slice(unreleased.bodyStart)}`;
}

/** A JSON manifest changed by `change`, written back with the indentation it had. */
function rewriteJson<T>(text: string, change: (parsed: T) => void): string {
  const parsed = JSON.parse(text) as T;
  change(parsed);
  const indent = /^\{\n( +)"/.exec(text)?.[1]?.length ?? 2;
  return `${JSON.stringify(parsed, null, indent)}\n`;
}

type Manifest = {
  version?: string;
  packages?: Record<string, { version?: string }>;
  scripts?: Record<string, string>;
};

/** Sets the package's own version: package.json's top-level `version`, and the lockfile's root's. */
function setVersion(parsed: Manifest, version: string, file: string): void {
  if (parsed.version === undefined) throw new Error(`--bump: ${file} has no version`);
  parsed.version = version;
  const root = parsed.packages?.[""];
  if (root !== undefined) root.version = version;
}

/**
 * A package.json or package-lock.json with the package's own version set, its formatting kept:
 * package.json's top-level `version`, and in the lockfile the root's and `packages[""]`'s.
 */
export function bumpManifest(text: string, version: string, file: string): string {
  return rewriteJson<Manifest>(text, (parsed) => setVersion(parsed, version, file));
}

/**
 * The package.json a release's npm tarball carries: the release's version, and no `prepare`. npm 11
 * names every installed package with an install-time script ("install scripts not yet covered by
 * allowScripts: pulumi-hosting (prepare)"), though it runs `prepare` only for a git URL, where it
 * builds the library; a release's package is built already (docs/DECISIONS.md, 2026-11-27).
 */
export function publishedManifest(text: string, version: string): string {
  return rewriteJson<Manifest>(text, (parsed) => {
    setVersion(parsed, version, "package.json");
    if (parsed.scripts !== undefined) delete parsed.scripts.prepare;
  });
}
