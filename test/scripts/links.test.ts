/**
 * The README is a short guide whose links reach everything else: each link of it, of the guides in
 * docs/ and of the reference resolves (file and heading), and what it says of the package's size
 * follows the declarations.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROVIDERS } from "../../provider/providers";
import { FUNCTIONS } from "../../provider/registry";
import { anchors, brokenLinks, documentationPages, relativeLinks, slug } from "../../scripts/links";
import { repositoryRoot } from "../../scripts/reference";

const root = repositoryRoot(__dirname);
const readme = readFileSync(join(root, "README.md"), "utf8");

describe("documentation links", () => {
  it("resolve: every relative link of the README, docs/*.md and docs/reference/ names a file and a heading", () => {
    const pages = documentationPages(root);
    expect(pages).toEqual(
      expect.arrayContaining(["README.md", "docs/sandbox.md", "docs/reference/README.md"]),
    );
    expect(brokenLinks(root, pages)).toEqual([]);
  });

  it("reach every guide in docs/ from the README, and the reference index", () => {
    const linked = new Set(relativeLinks(readme).map((l) => l.target.split("#")[0]));
    const guides = readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md"));
    expect(guides.filter((g) => !linked.has(`docs/${g}`))).toEqual([]);
    expect(linked).toContain("docs/reference/README.md");
  });
});

describe("the README", () => {
  it("is a guide of at most 600 lines", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(600);
  });

  it("counts the kinds and functions the package has", () => {
    expect(readme).toContain(`**${PROVIDERS.length} kinds** and **${FUNCTIONS.length} read functions**`);
  });

  it("lists each kind once in its table of families", () => {
    const table = readme.slice(readme.indexOf("| Family | Kinds |"));
    const rows = table.slice(0, table.indexOf("\n\n")).split("\n").slice(2);
    const kinds = rows.flatMap((row) =>
      [...row.matchAll(/\[(\w+)\]\(docs\/reference\/\1\.md\)/g)].map((m) => m[1]),
    );
    expect(kinds.sort()).toEqual(PROVIDERS.map((p) => p.kind).sort());
  });
});

describe("the link check", () => {
  const dir = mkdtempSync(join(tmpdir(), "links-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("makes GitHub's anchors: code and links reduced to text, punctuation dropped, repeats numbered", () => {
    expect(slug("Control routes (`/_emulator/`, not part of the API)")).toBe(
      "control-routes-_emulator-not-part-of-the-api",
    );
    expect(slug("`hosting-import`: a program for a whole installation")).toBe(
      "hosting-import-a-program-for-a-whole-installation",
    );
    expect(slug("See [the reference](docs/reference/README.md)")).toBe("see-the-reference");
    expect([...anchors("# Notes\n\n## Notes\n\n```\n# not a heading\n```\n#4, no heading either\n")]).toEqual(
      ["notes", "notes-1"],
    );
  });

  it("finds a missing file, a missing heading, an anchor on a page that is not Markdown, and nothing in code", () => {
    mkdirSync(join(dir, "docs"), { recursive: true });
    writeFileSync(join(dir, "docs", "guide.md"), "# Guide\n\n## Set up\n");
    writeFileSync(join(dir, "data.json"), "{}");
    writeFileSync(
      join(dir, "README.md"),
      [
        "# Top",
        "[ok](docs/guide.md#set-up) [here](#top) [web](https://example.com/x.md#nothing)",
        "[gone](docs/missing.md) [moved](docs/guide.md#setup) [json](data.json#key)",
        "`[in code](docs/none.md)`",
        "```",
        "[in a fence](docs/none.md)",
        "```",
        "[up](../elsewhere.md)",
      ].join("\n"),
    );
    expect(brokenLinks(dir, ["README.md", "docs/guide.md"])).toEqual([
      "README.md:3: docs/missing.md (no such file)",
      "README.md:3: docs/guide.md#setup (no heading with this anchor)",
      "README.md:3: data.json#key (an anchor on a page that is not Markdown)",
      "README.md:8: ../elsewhere.md (outside the repository)",
    ]);
  });
});
