/**
 * The import graph of the project's modules, for the structure tests: which modules a module
 * imports (values and types, re-exports and dynamic imports: a circle of types is still a circle
 * to read), and the circles among them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Every `.ts` module under `folder`, sorted. */
export function modulesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts") && !name.split("/").includes("node_modules"))
    .map((name) => join(folder, name))
    .sort();
}

/** The modules under `root` that `file` imports by a relative path (a folder means its `index.ts`). */
export function importsOf(file: string, root: string, text = readFileSync(file, "utf8")): string[] {
  const found = new Set<string>();
  const pattern =
    /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+"(\.{1,2}\/[^"]+)"|import\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g;
  for (const match of text.matchAll(pattern)) {
    const target = resolve(dirname(file), match[1] ?? match[2] ?? "");
    if (!target.startsWith(`${root}/`)) continue;
    const asFile = `${target}.ts`;
    found.add(isModule(asFile) || !isModule(join(target, "index.ts")) ? asFile : join(target, "index.ts"));
  }
  return [...found];
}

const known = new Map<string, boolean>();
function isModule(path: string): boolean {
  let is = known.get(path);
  if (is === undefined) {
    try {
      readFileSync(path);
      is = true;
    } catch {
      is = false;
    }
    known.set(path, is);
  }
  return is;
}

/** Every circle of imports among `graph`'s modules, each as the path that closes it. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}
