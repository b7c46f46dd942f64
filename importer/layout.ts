/**
 * What every writer of an inventory shares, so a TypeScript program, a YAML program and a
 * `pulumi import` file list the same objects in the same order under the same names: the modules
 * (one per organisation, per enterprise, for site administration, for the user's keys) in a fixed
 * order, the resources of a module in kind and name order, each resource's arguments in the order a
 * person reads them (identity, then what it belongs to, then its settings), what each module is, and
 * the project files' common parts.
 */
import { type Inventory, type InventoryItem, KINDS, type ModuleKey, moduleFile } from "./inventory";
import { tsString } from "./text";

/** The width the writers lay values out to (the project's formatter's). */
export const LINE_WIDTH = 110;

/** One module of a program: its place, its file name (without extension) and its resources, in order. */
export interface Module {
  key: ModuleKey;
  file: string;
  items: InventoryItem[];
}

const kindRank = (kind: string) => (KINDS as readonly string[]).indexOf(kind);

/** The key an item (or a reference to one) is known by. */
export const itemKey = (kind: string, id: string): string => `${kind}\u0000${id}`;

/**
 * The modules of a program in order (organisations by name, then enterprises, then site
 * administration, then the user's keys), each with its resources by kind (in the order discovery
 * declares them) and then by name.
 */
export function modulesOf(inventory: Inventory): Module[] {
  const byModule = new Map<string, Module>();
  for (const item of inventory.items) {
    const file = moduleFile(item.module);
    const module = byModule.get(file) ?? { key: item.module, file, items: [] };
    module.items.push(item);
    byModule.set(file, module);
  }
  return [...byModule.values()]
    .sort((a, b) => placeRank(a.key) - placeRank(b.key) || a.file.localeCompare(b.file))
    .map((m) => ({
      ...m,
      items: referencedFirst(
        [...m.items].sort((a, b) => kindRank(a.kind) - kindRank(b.kind) || a.name.localeCompare(b.name)),
      ),
    }));
}

/**
 * The items in their order, except that an item an earlier one refers to is moved up just before
 * it (a protection rule's environment, a group's runners after the group): a program declares a
 * resource before another reads its output. Items already in order do not move.
 */
function referencedFirst(items: readonly InventoryItem[]): InventoryItem[] {
  const key = (kind: string, id: string) => `${kind}\u0000${id}`;
  const byKey = new Map(items.map((i) => [key(i.kind, i.id), i]));
  const placed = new Set<InventoryItem>();
  const out: InventoryItem[] = [];
  const visit = (item: InventoryItem, path: Set<InventoryItem>): void => {
    // A circle of references (none today) keeps the order it was met in rather than looping.
    if (placed.has(item) || path.has(item)) return;
    path.add(item);
    for (const ref of Object.values(item.refs)) {
      const target = byKey.get(key(ref.kind, ref.id));
      if (target !== undefined) visit(target, path);
    }
    placed.add(item);
    out.push(item);
  };
  for (const item of items) visit(item, new Set());
  return out;
}

/** Organisations first, then enterprises, then site administration, then the user's keys. */
function placeRank(key: ModuleKey): number {
  if ("org" in key) return 0;
  if ("enterprise" in key) return 1;
  if ("siteAdmin" in key) return 2;
  return 3;
}

/** What a module holds, for the comment above it: from its place, whatever its file is called. */
export function moduleTitle(key: ModuleKey): string {
  if ("user" in key) return "The keys of the signed-in user (the token's user)";
  if ("siteAdmin" in key) return "Site administration";
  if ("enterprise" in key) return `The enterprise ${key.enterprise}`;
  return `The organisation ${key.org}`;
}

/** The items whose outputs another item refers to. */
export function referencedKeys(inventory: Inventory): Set<string> {
  return new Set(inventory.items.flatMap((i) => Object.values(i.refs).map((r) => itemKey(r.kind, r.id))));
}

/** One argument of a resource: a value, a secret read from stack config, or another resource's output. */
export type Argument =
  | { key: string; value: unknown }
  | { key: string; secret: string }
  | { key: string; ref: { target: InventoryItem; output: string } };

/**
 * A resource's arguments in the order a person reads them: identity first, then the object it
 * belongs to (references), then the settings as the kind declares them, `importId` last (unless
 * `withImportId` is false: a program that adopts with Pulumi's `import` option leaves it out).
 */
export function argumentsOf(
  item: InventoryItem,
  byKey: ReadonlyMap<string, InventoryItem>,
  withImportId = true,
): Argument[] {
  const args: Argument[] = [];
  for (const [key, value] of Object.entries(item.args)) {
    if (key !== "importId" || withImportId) args.push({ key, value });
  }
  for (const [key, secret] of Object.entries(item.secrets)) args.push({ key, secret });
  for (const [key, ref] of Object.entries(item.refs)) {
    const target = byKey.get(itemKey(ref.kind, ref.id));
    if (target) args.push({ key, ref: { target, output: ref.output } });
  }
  return args.sort((a, b) => argOrder(item, a.key) - argOrder(item, b.key));
}

/** Identity first (in the order a person reads it), then the settings as the kind declares them. */
function argOrder(item: InventoryItem, key: string): number {
  const first = [
    "enterprise",
    "org",
    "owner",
    "repository",
    "environment",
    "username",
    "propertyName",
    "name",
  ];
  const at = first.indexOf(key);
  if (at >= 0) return at;
  if (key === "importId") return 1000;
  // References name the object this one belongs to: right after the identity.
  if (key in item.refs) return 50;
  return 100 + Object.keys(item.args).concat(Object.keys(item.secrets)).indexOf(key);
}

/** Every item by its key, for references. */
export function itemsByKey(inventory: Inventory): Map<string, InventoryItem> {
  return new Map(inventory.items.map((i) => [itemKey(i.kind, i.id), i]));
}

/** Why every written program refreshes first (the comment above `options`). */
export const REFRESH_COMMENT =
  "Every up and preview reads the server first, so a plain `pulumi up` repairs drift.";

/** The project options every written program has (Pulumi.yaml lines). */
export const REFRESH_ALWAYS = [`# ${REFRESH_COMMENT}`, "options:", "  refresh: always"];

/** Where the plugin comes from (the comment above `plugins`). */
export const PLUGIN_COMMENT =
  "The plugin pulumi-resource-hosting, installed here by `npm install` (package.json).";

/**
 * Where a program for the plugin finds it (Pulumi.yaml lines): in `node_modules/.bin` below `root`
 * (relative to the program: `.` its own, `..` a fleet's shared root), where the `npm install` of the
 * written package.json puts it (docs/install.md, "The native plugin", way B).
 */
export function pluginFrom(root = "."): string[] {
  return [
    `# ${PLUGIN_COMMENT}`,
    "plugins:",
    "  providers:",
    "    - name: hosting",
    `      path: ${pluginPath(root)}`,
  ];
}

/** The folder `plugins.providers` names: `node_modules/.bin` below `root`. */
export const pluginPath = (root = "."): string => `${root}/node_modules/.bin`;

/** What a written program's package.json depends on. */
export interface PackageOptions {
  /** The Pulumi project name. */
  project: string;
  /** The dependency spec of pulumi-hosting in package.json (a version, a git URL, a tarball). */
  librarySpec: string;
  /** The version of @pulumi/pulumi the program depends on. */
  pulumiVersion: string;
}

/** Indents every line of a multi-line value after the first (a value nested in a writer's layout). */
export function indentRest(text: string, indent: string): string {
  return text.replace(/\n/g, `\n${indent}`);
}

/** The program's package.json as an object: pulumi-hosting and @pulumi/pulumi, and what a language adds. */
export function packageJsonOf(
  o: PackageOptions,
  extra: { main?: string; devDependencies?: Record<string, string> } = {},
): Record<string, unknown> {
  return {
    name: o.project,
    private: true,
    ...(extra.main === undefined ? {} : { main: extra.main }),
    dependencies: { "@pulumi/pulumi": o.pulumiVersion, "pulumi-hosting": o.librarySpec },
    ...(extra.devDependencies === undefined ? {} : { devDependencies: extra.devDependencies }),
  };
}

/**
 * A value as TypeScript (or, with `json`, JSON) source as the formatter lays it out: objects one
 * property per line, lists inline where they fit in the line, else one element per line. Text is
 * written as `tsString` writes it, valid in both and exactly the value.
 */
export function literal(value: unknown, column: number, json = false): string {
  if (typeof value === "string") return tsString(value);
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  const indent = "  ";
  if (Array.isArray(value)) {
    const parts = value.map((v) => literal(v, column + indent.length, json));
    const inline = `[${parts.join(", ")}]`;
    if (!inline.includes("\n") && column + inline.length + 1 <= LINE_WIDTH) return inline;
    const comma = json ? "" : ",";
    return `[\n${parts.map((p) => `${indent}${indentRest(p, indent)}`).join(",\n")}${comma}\n]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  const lines = entries.map(([k, v]) => {
    const key = json ? tsString(k) : propertyKey(k);
    const text = literal(v, column + indent.length + key.length + 2, json);
    return `${indent}${key}: ${indentRest(text, indent)}`;
  });
  return `{\n${lines.join(",\n")}${json ? "" : ","}\n}`;
}

/** An object's key in TypeScript: as it is where it is an identifier, else quoted. */
export function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : tsString(key);
}
