/**
 * The TypeScript writer: turns an inventory into a Pulumi program a reviewer would accept as
 * written by hand. One module per organisation, per enterprise and for site-admin objects, so a
 * large installation stays readable; resources in a fixed order; values in the project's format
 * (Biome, 2 spaces, double quotes, 110 columns), so the files pass the formatter unchanged and two
 * runs over the same installation write the same bytes.
 */
import type { Inventory, InventoryItem, ModuleKey } from "./inventory";
import {
  argumentsOf,
  indentRest,
  itemKey,
  itemsByKey,
  LINE_WIDTH,
  literal,
  modulesOf,
  moduleTitle,
  type PackageOptions,
  packageJsonOf,
  propertyKey,
  REFRESH_ALWAYS,
  referencedKeys,
} from "./layout";
import { identifier, uniqueFileName } from "./naming";
import { commentText, tsString } from "./text";
import { yamlScalar } from "./yaml";

export { literal };

const INDENT = "  ";

export interface ProgramOptions extends PackageOptions {
  /** The versions of typescript and @types/node the program depends on. */
  typescriptVersion: string;
  nodeTypesVersion: string;
}

/** File name -> contents, every file of the program. */
export function writeProgram(inventory: Inventory, options: ProgramOptions): Map<string, string> {
  const files = new Map<string, string>();
  const modules = modulesOf(inventory);
  const referenced = referencedKeys(inventory);
  const byKey = itemsByKey(inventory);
  // A module never takes the name of the program's own index.ts, nor another module's on a file
  // system that ignores case.
  const taken = new Set(["index"]);
  const names: string[] = [];
  for (const { key, file, items } of modules) {
    const name = uniqueFileName(file, taken);
    names.push(name);
    files.set(`${name}.ts`, moduleSource(key, items, referenced, byKey, inventory.apiRoot));
  }
  files.set("index.ts", indexSource(names));
  files.set("Pulumi.yaml", pulumiYaml(options.project));
  files.set("package.json", packageJson(options));
  files.set("tsconfig.json", tsconfig(names));
  return files;
}

/**
 * The imports, stack config where an argument is a secret, then each resource of `items`, a
 * resource another refers to as a variable. `Config` comes from its own module: `@pulumi/pulumi`'s
 * index also loads the Automation API and the closure serialiser (npm's arborist, the TypeScript
 * compiler), 0.1 to 0.3 CPU-s of every run of every stack (docs/DECISIONS.md).
 */
function declarations(
  items: readonly InventoryItem[],
  referenced: ReadonlySet<string>,
  byKey: ReadonlyMap<string, InventoryItem>,
): string[] {
  const needsConfig = items.some((i) => Object.keys(i.secrets).length > 0);
  const lines: string[] = [];
  if (needsConfig) lines.push('import { Config } from "@pulumi/pulumi/config";');
  lines.push('import * as hosting from "pulumi-hosting";', "");
  if (needsConfig) lines.push("const config = new Config();", "");
  for (const item of items) {
    lines.push(...resourceSource(item, referenced.has(itemKey(item.kind, item.id)), byKey), "");
  }
  return lines;
}

function moduleSource(
  key: ModuleKey,
  ordered: InventoryItem[],
  referenced: ReadonlySet<string>,
  byKey: ReadonlyMap<string, InventoryItem>,
  apiRoot: string,
): string {
  const lines = [
    "/**",
    ` * ${commentText(`${moduleTitle(key)}, as read from ${apiRoot}.`)}`,
    " * Each resource adopts the object it names.",
    " */",
    ...declarations(ordered, referenced, byKey),
  ];
  return `${lines.join("\n").trimEnd()}\n`;
}

function resourceSource(
  item: InventoryItem,
  isReferenced: boolean,
  byKey: ReadonlyMap<string, InventoryItem>,
): string[] {
  const head = `${isReferenced ? `const ${identifier(item.name)} = ` : ""}new hosting.${item.kind}(`;
  const name = tsString(item.name);
  const hugged = `${head}${name}, {`;
  // Where the call does not fit on its first line, the formatter puts one argument per line.
  const fits = hugged.length <= LINE_WIDTH;
  const indent = fits ? INDENT : INDENT + INDENT;
  const entries = argumentsOf(item, byKey).map((arg): [string, string] => {
    if ("secret" in arg) return [arg.key, `config.requireSecret(${tsString(arg.secret)})`];
    if ("ref" in arg) return [arg.key, `${identifier(arg.ref.target.name)}.${arg.ref.output}`];
    return [arg.key, literal(arg.value, indent.length + propertyKey(arg.key).length + 2)];
  });
  const comment = item.adopted === undefined ? [] : [`// ${item.adopted.comment}`];
  if (item.adopted?.retainOnDelete) {
    // A second argument after the object: the formatter no longer hugs the object.
    const body = entries.map(
      ([key, value]) => `${INDENT + INDENT}${propertyKey(key)}: ${indentRest(value, INDENT + INDENT)},`,
    );
    return [
      ...comment,
      head,
      `${INDENT}${name},`,
      `${INDENT}{`,
      ...body,
      `${INDENT}},`,
      `${INDENT}{ retainOnDelete: true },`,
      ");",
    ];
  }
  const body = entries.map(([key, value]) => `${indent}${propertyKey(key)}: ${indentRest(value, indent)},`);
  if (fits) return [...comment, hugged, ...body, "});"];
  return [...comment, head, `${INDENT}${name},`, `${INDENT}{`, ...body, `${INDENT}},`, ");"];
}

/**
 * A program that declares `items` (objects it makes: no adoption), as the reference pages show it:
 * the imports, stack config where an argument is a secret, then each resource, a resource another
 * refers to as a variable.
 */
export function declarationsSource(items: readonly InventoryItem[]): string {
  const byKey = new Map(items.map((i) => [itemKey(i.kind, i.id), i]));
  const referenced = new Set(items.flatMap((i) => Object.values(i.refs).map((r) => itemKey(r.kind, r.id))));
  return `${declarations(items, referenced, byKey).join("\n").trimEnd()}\n`;
}

function indexSource(modules: string[]): string {
  const lines = [
    "/**",
    " * The installation as code: each module declares the objects of one organisation, one enterprise",
    " * or the site administration. The first `pulumi up` adopts them and changes nothing on the server",
    " * beyond the secrets set from stack config.",
    " */",
    ...modules.map((m) => `import ${tsString(`./${m}`)};`),
  ];
  return `${lines.join("\n")}\n`;
}

function pulumiYaml(project: string): string {
  return [
    `name: ${yamlScalar(project)}`,
    "description: Hosting platform settings as code",
    "main: index.ts",
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    typescript: true",
    ...REFRESH_ALWAYS,
    "",
  ].join("\n");
}

function packageJson(o: ProgramOptions): string {
  const json = packageJsonOf(o, {
    main: "index.ts",
    devDependencies: { "@types/node": o.nodeTypesVersion, typescript: o.typescriptVersion },
  });
  return `${literal(json, 0, true)}\n`;
}

function tsconfig(modules: string[]): string {
  const json = {
    compilerOptions: {
      target: "ES2023",
      module: "node16",
      moduleResolution: "node16",
      strict: true,
      skipLibCheck: true,
      types: ["node"],
    },
    files: ["index.ts", ...modules.map((m) => `${m}.ts`)],
  };
  return `${literal(json, 0, true)}\n`;
}
