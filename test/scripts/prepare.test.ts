/**
 * `prepare` builds only when the sources differ from those `dist` was built from: the digest it
 * compares covers every source file's path and bytes, and the configuration. The build leaves the
 * package's commands executable.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeTree } from "../file-tree";

const { sourcesDigest } = require("../../scripts/prepare.js") as { sourcesDigest: (root: string) => string };

const work = mkdtempSync(join(tmpdir(), "prepare-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const tree = (name: string, files: Record<string, string>) => writeTree(join(work, name), files);

const SOURCES = {
  "package.json": "{}",
  "tsconfig.json": "{}",
  "provider/index.ts": "export const a = 1;\n",
  "emulator/core/http.ts": "export const b = 2;\n",
};

describe("the sources' digest", () => {
  it("is the same for the same files, wherever they are", () => {
    expect(sourcesDigest(tree("one", SOURCES))).toBe(sourcesDigest(tree("two", SOURCES)));
  });

  it("changes with a file's bytes, a new file, a renamed file, the configuration or the lockfile", () => {
    const base = sourcesDigest(tree("base", SOURCES));
    const variants = [
      { ...SOURCES, "provider/index.ts": "export const a = 2;\n" },
      { ...SOURCES, "fleet/run.ts": "" },
      { ...SOURCES, "provider/index.ts": undefined, "provider/main.ts": SOURCES["provider/index.ts"] },
      { ...SOURCES, "tsconfig.json": '{"compilerOptions":{}}' },
      { ...SOURCES, "package-lock.json": '{"lockfileVersion":3}' },
    ].map((files, i) =>
      sourcesDigest(
        tree(
          `variant-${i}`,
          Object.fromEntries(Object.entries(files).filter((e): e is [string, string] => e[1] !== undefined)),
        ),
      ),
    );
    expect(new Set([base, ...variants]).size).toBe(6);
  });

  it("leaves out what is not built: dist and node_modules", () => {
    const base = sourcesDigest(tree("plain", SOURCES));
    const built = tree("built", {
      ...SOURCES,
      "dist/provider/index.js": "exports.a = 1;\n",
      "provider/node_modules/x/index.js": "",
    });
    expect(sourcesDigest(built)).toBe(base);
  });
});

describe("the build", () => {
  it("leaves every command of the package executable, as an install does (a checkout's dist is run directly too)", () => {
    const root = join(__dirname, "../..");
    const { bin } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    };
    for (const file of Object.values(bin)) {
      expect((statSync(join(root, file)).mode & 0o111).toString(8), file).toBe("111");
    }
  });
});
