/** The fleet's TypeScript projects checked once, with the compiler each project resolves. */
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findProjects } from "../../fleet/discover";
import { typeCheck } from "../../fleet/typecheck";
import { writeTree } from "../file-tree";

const ROOT = resolve(__dirname, "../..");

/** Every tree of this file, removed at its end. */
const work = mkdtempSync(join(tmpdir(), "fleet-typecheck-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TSCONFIG = JSON.stringify({
  compilerOptions: { strict: true, target: "ES2022", module: "commonjs", types: [], skipLibCheck: true },
  files: ["index.ts"],
});

/** A fleet whose root `node_modules` is this checkout's (its TypeScript), as `npm install` gives. */
function fleet(files: Record<string, string>): string {
  const root = writeTree(mkdtempSync(join(work, "fleet-")), files);
  symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"), "dir");
  return root;
}

/** A folder for the stamps of passing checks (by default they go beside the compiler). */
const cache = () => mkdtempSync(join(work, "cache-"));

describe("typeCheck", () => {
  it("passes the projects that compile and names each error of the others, in the project it is in", () => {
    const root = fleet({
      "good/Pulumi.yaml": "name: good\nruntime: nodejs\n",
      "good/tsconfig.json": TSCONFIG,
      "good/index.ts": "const count: number = 1;\nexport { count };\n",
      "also-good/Pulumi.yaml":
        "name: also-good\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
      "also-good/tsconfig.json": TSCONFIG,
      "also-good/index.ts": "export const names: string[] = [];\n",
      "bad/Pulumi.yaml": "name: bad\nruntime: nodejs\n",
      "bad/tsconfig.json": TSCONFIG,
      "bad/index.ts": 'const count: number = "one";\nexport { count };\n',
    });
    const { passed, failed } = typeCheck(findProjects(root), cache());
    expect([...passed].sort()).toEqual([join(root, "also-good"), join(root, "good")]);
    expect([...failed.keys()]).toEqual([join(root, "bad")]);
    expect(failed.get(join(root, "bad"))).toMatch(
      /^index\.ts\(1,7\): error TS2322: Type 'string' is not assignable to type 'number'\./,
    );
  });

  it("leaves to ts-node what it cannot check as ts-node would: no tsconfig, JavaScript, another runtime, a tsconfig that does not parse", () => {
    const root = fleet({
      "no-config/Pulumi.yaml": "name: no-config\nruntime: nodejs\n",
      "no-config/index.ts": 'const count: number = "one";\n',
      "javascript/Pulumi.yaml":
        "name: javascript\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n",
      "javascript/tsconfig.json": TSCONFIG,
      "javascript/index.ts": 'const count: number = "one";\n',
      "yaml/Pulumi.yaml": "name: yaml\nruntime: yaml\n",
      "yaml/tsconfig.json": TSCONFIG,
      "yaml/index.ts": 'const count: number = "one";\n',
      "broken/Pulumi.yaml": "name: broken\nruntime: nodejs\n",
      "broken/tsconfig.json": '{ "compilerOptions": { "target": "ES1066" }, "files": ["index.ts"] }',
      "broken/index.ts": "export {};\n",
    });
    const { passed, failed } = typeCheck(findProjects(root), cache());
    expect([...passed]).toEqual([]);
    expect([...failed.keys()]).toEqual([]);
  });

  it("checks the projects of a fleet as one program, remembers each passed, also for a run of some of them, and checks again when a file it read changed", () => {
    const root = fleet({
      "good/Pulumi.yaml": "name: good\nruntime: nodejs\n",
      "good/tsconfig.json": TSCONFIG,
      "good/index.ts": "export const count: number = 1;\n",
      "other/Pulumi.yaml": "name: other\nruntime: nodejs\n",
      "other/tsconfig.json": TSCONFIG,
      "other/index.ts": "export const other: number = 1;\n",
    });
    const stamps = cache();
    const projects = findProjects(root);
    const both = [join(root, "good"), join(root, "other")];
    expect([...typeCheck(projects, stamps).passed].sort()).toEqual(both);
    // One program (the same options, and the same type roots: the fleet's), a stamp per project,
    // written again by each check that passes it (a new file each time).
    const written = () => readdirSync(stamps).map((f) => `${f}@${statSync(join(stamps, f)).ino}`);
    const first = written();
    expect(first).toHaveLength(2);
    for (const stamp of readdirSync(stamps)) {
      const { files } = JSON.parse(readFileSync(join(stamps, stamp), "utf8")) as { files: string[] };
      expect(files).toEqual(
        expect.arrayContaining([join(root, "good/index.ts"), join(root, "other/index.ts")]),
      );
    }
    expect([...typeCheck(projects, stamps).passed].sort()).toEqual(both);
    // A shard's run of one of them finds it checked, as the whole run again did: no check.
    const good = projects.filter((p) => p.dir === join(root, "good"));
    expect([...typeCheck(good, stamps).passed]).toEqual([join(root, "good")]);
    expect(written()).toEqual(first);
    writeFileSync(join(root, "good/index.ts"), 'export const count: number = "one";\n');
    const changed = typeCheck(projects, stamps);
    expect([...changed.failed.keys()]).toEqual([join(root, "good")]);
    expect([...changed.passed]).toEqual([join(root, "other")]);
    writeFileSync(join(root, "good/index.ts"), "export const count: number = 2;\n");
    expect([...typeCheck(projects, stamps).passed].sort()).toEqual(both);
  });
});
