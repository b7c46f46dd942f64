/**
 * The sandbox's shape (docs/ARCHITECTURE.md, "The sandbox server"): no module imports itself
 * through others (type imports count: a circle of types is still a circle to read), none is over
 * 450 lines, the core imports no family, and the core converts no type through `unknown`: the
 * state's types come from the families' declarations.
 */
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { circles, importsOf as importsOfUnder, modulesUnder } from "../import-graph";

const EMULATOR = resolve(__dirname, "../../emulator");
const MAX_LINES = 450;

const modules = () => modulesUnder(EMULATOR);
const importsOf = (file: string, text?: string) => importsOfUnder(file, EMULATOR, text);

const name = (file: string) => relative(EMULATOR, file);

describe("the sandbox's modules", () => {
  const files = modules();
  const graph = new Map(files.map((file) => [file, importsOf(file)]));

  it("finds circles, and the import forms that make them (so the next check can fail)", () => {
    const a = join(EMULATOR, "a.ts");
    const b = join(EMULATOR, "core/b.ts");
    expect(importsOf(a, 'import type { X } from "./core/b";\nexport { y } from "./c";')).toEqual([
      b,
      join(EMULATOR, "c.ts"),
    ]);
    expect(importsOf(b, 'const m = await import("../a");')).toEqual([a]);
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([[a, b, a]]);
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, []],
        ]),
      ),
    ).toEqual([]);
  });

  it("import each other in no circle", () => {
    expect(files.length).toBeGreaterThan(40);
    expect(circles(graph).map((circle) => circle.map(name).join(" -> "))).toEqual([]);
  });

  it(`are at most ${MAX_LINES} lines each`, () => {
    const long = files
      .map((file) => ({ file: name(file), lines: readFileSync(file, "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it("keep the core free of families: it imports none, and only the family list names them all", () => {
    const core = files.filter((file) => name(file).startsWith("core/"));
    expect(core.length).toBeGreaterThan(10);
    const reaching = core.flatMap((file) =>
      importsOf(file)
        .filter((target) => name(target).startsWith("families/"))
        .map((target) => `${name(file)} -> ${name(target)}`),
    );
    expect(reaching).toEqual([]);
  });

  it("declare each family with its own type, so the package's declarations load its state and seed", () => {
    // `export const x: Family = ...` would type the list as Family[], and the declaration files
    // would no longer import the modules whose declarations make EmulatorState and Fixture whole.
    const indexes = files.filter((file) => /^families\/[^/]+\/index\.ts$/.test(name(file)));
    expect(indexes.length).toBeGreaterThan(10);
    const annotated = indexes.filter((file) => !readFileSync(file, "utf8").includes("} satisfies Family;"));
    expect(annotated.map(name)).toEqual([]);
  });

  it("convert no type through unknown in the core", () => {
    const core = files.filter((file) => name(file).startsWith("core/"));
    const casts = core.filter((file) => readFileSync(file, "utf8").includes("as unknown as")).map(name);
    expect(casts).toEqual([]);
  });
});
