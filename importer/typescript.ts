/**
 * The TypeScript writer: turns an inventory into a Pulumi program a reviewer would accept as
 * written by hand. One module per organisation, per enterprise and for site-admin objects, so a
 * large installation stays readable; resources in a fixed order; values in the project's format
 * (Biome, 2 spaces, double quotes, 110 columns), so the files pass the formatter unchanged and two
 * runs over the same installation write the same bytes.
 */
import type { Inventory, InventoryItem } from "./inventory";
import {
  argumentsOf,
  indentRest,
  itemKey,
  itemsByKey,
  LINE_WIDTH,
  modulesOf,
  moduleTitle,
  type PackageOptions,
  packageJsonOf,
  REFRESH_ALWAYS,
  referencedKeys,
} from "./layout";
import { identifier } from "./naming";

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
  for (const { file, items } of modules) {
    files.set(`${file}.ts`, moduleSource(file, items, referenced, byKey, inventory.apiRoot));
  }
  const names = modules.map((m) => m.file);
  files.set("index.ts", indexSource(names));
  files.set("Pulumi.yaml", pulumiYaml(options.project));
  files.set("package.json", packageJson(options));
  files.set("tsconfig.json", tsconfig(names));
  return files;
}

function moduleSource(
  file: string,
  ordered: InventoryItem[],
  referenced: ReadonlySet<string>,
  byKey: ReadonlyMap<string, InventoryItem>,
  apiRoot: string,
): string {
  const needsConfig = ordered.some((i) => Object.keys(i.secrets).length > 0);
  const lines: string[] = [
    "/**",
    ` * ${moduleTitle(file)}, as read from ${apiRoot}.`,
    " * Each resource adopts the object it names.",
    " */",
  ];
  if (needsConfig) lines.push('import * as pulumi from "@pulumi/pulumi";');
  lines.push('import * as hosting from "pulumi-hosting";', "");
  if (needsConfig) lines.push("const config = new pulumi.Config();", "");
  for (const item of ordered) {
    lines.push(...resourceSource(item, referenced.has(itemKey(item.kind, item.id)), byKey), "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

function resourceSource(
  item: InventoryItem,
  isReferenced: boolean,
  byKey: ReadonlyMap<string, InventoryItem>,
): string[] {
  const head = `${isReferenced ? `const ${identifier(item.name)} = ` : ""}new hosting.${item.kind}(`;
  const name = JSON.stringify(item.name);
  const hugged = `${head}${name}, {`;
  // Where the call does not fit on its first line, the formatter puts one argument per line.
  const fits = hugged.length <= LINE_WIDTH;
  const indent = fits ? INDENT : INDENT + INDENT;
  const entries = argumentsOf(item, byKey).map((arg): [string, string] => {
    if ("secret" in arg) return [arg.key, `config.requireSecret(${JSON.stringify(arg.secret)})`];
    if ("ref" in arg) return [arg.key, `${identifier(arg.ref.target.name)}.${arg.ref.output}`];
    return [arg.key, literal(arg.value, indent.length + propertyKey(arg.key).length + 2)];
  });
  const comment = `// ${item.adopted.comment}`;
  if (item.adopted.retainOnDelete) {
    // A second argument after the object: the formatter no longer hugs the object.
    const body = entries.map(
      ([key, value]) => `${INDENT + INDENT}${propertyKey(key)}: ${indentRest(value, INDENT + INDENT)},`,
    );
    return [
      comment,
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
  if (fits) return [comment, hugged, ...body, "});"];
  return [comment, head, `${INDENT}${name},`, `${INDENT}{`, ...body, `${INDENT}},`, ");"];
}

/**
 * A value as TypeScript (or, with `json`, JSON) source as the formatter lays it out: objects one
 * property per line, lists inline where they fit in the line, else one element per line.
 */
export function literal(value: unknown, column: number, json = false): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  if (Array.isArray(value)) {
    const parts = value.map((v) => literal(v, column + INDENT.length, json));
    const inline = `[${parts.join(", ")}]`;
    if (!inline.includes("\n") && column + inline.length + 1 <= LINE_WIDTH) return inline;
    const comma = json ? "" : ",";
    return `[\n${parts.map((p) => `${INDENT}${indentRest(p, INDENT)}`).join(",\n")}${comma}\n]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  const lines = entries.map(([k, v]) => {
    const key = json ? JSON.stringify(k) : propertyKey(k);
    const text = literal(v, column + INDENT.length + key.length + 2, json);
    return `${INDENT}${key}: ${indentRest(text, INDENT)}`;
  });
  return `{\n${lines.join(",\n")}${json ? "" : ","}\n}`;
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

function indexSource(modules: string[]): string {
  const lines = [
    "/**",
    " * The installation as code: each module declares the objects of one organisation, one enterprise",
    " * or the site administration. The first `pulumi up` adopts them and changes nothing on the server",
    " * beyond the secrets set from stack config.",
    " */",
    ...modules.map((m) => `import "./${m}";`),
  ];
  return `${lines.join("\n")}\n`;
}

function pulumiYaml(project: string): string {
  return [
    `name: ${project}`,
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
