/**
 * The TypeScript writer: turns an inventory into a Pulumi program a reviewer would accept as
 * written by hand. One module per organisation, per enterprise and for site-admin objects, so a
 * large installation stays readable; resources in a fixed order; values in the project's format
 * (Biome, 2 spaces, double quotes, 110 columns), so the files pass the formatter unchanged and two
 * runs over the same installation write the same bytes.
 */
import { type Inventory, type InventoryItem, KINDS, moduleFile, USER_MODULE } from "./inventory";
import { identifier } from "./naming";

const LINE_WIDTH = 110;
const INDENT = "  ";

export interface ProgramOptions {
  /** The Pulumi project name. */
  project: string;
  /** The dependency spec of pulumi-hosting in package.json (a version, a git URL, a tarball). */
  librarySpec: string;
  /** The versions of @pulumi/pulumi, typescript and @types/node the program depends on. */
  pulumiVersion: string;
  typescriptVersion: string;
  nodeTypesVersion: string;
}

const kindRank = (kind: string) => (KINDS as readonly string[]).indexOf(kind);

/** File name -> contents, every file of the program. */
export function writeProgram(inventory: Inventory, options: ProgramOptions): Map<string, string> {
  const files = new Map<string, string>();
  const byModule = new Map<string, InventoryItem[]>();
  for (const item of inventory.items) {
    const file = moduleFile(item.module);
    byModule.set(file, [...(byModule.get(file) ?? []), item]);
  }
  const modules = [...byModule.keys()].sort(moduleOrder);
  const referenced = new Set(
    inventory.items.flatMap((i) => Object.values(i.refs).map((r) => `${r.kind}\u0000${r.id}`)),
  );
  const byKey = new Map(inventory.items.map((i) => [`${i.kind}\u0000${i.id}`, i]));
  for (const file of modules) {
    files.set(
      `${file}.ts`,
      moduleSource(file, byModule.get(file) ?? [], referenced, byKey, inventory.apiRoot),
    );
  }
  files.set("index.ts", indexSource(modules));
  files.set("Pulumi.yaml", pulumiYaml(options.project));
  files.set("package.json", packageJson(options));
  files.set("tsconfig.json", tsconfig(modules));
  return files;
}

/** Organisations by name, then enterprises, then site administration, then the user's keys. */
function moduleOrder(a: string, b: string): number {
  const rank = (f: string) =>
    f === USER_MODULE ? 3 : f === "site-admin" ? 2 : f.startsWith("enterprise-") ? 1 : 0;
  return rank(a) - rank(b) || a.localeCompare(b);
}

function moduleSource(
  file: string,
  items: InventoryItem[],
  referenced: ReadonlySet<string>,
  byKey: ReadonlyMap<string, InventoryItem>,
  apiRoot: string,
): string {
  const ordered = [...items].sort(
    (a, b) => kindRank(a.kind) - kindRank(b.kind) || a.name.localeCompare(b.name),
  );
  const needsConfig = ordered.some((i) => Object.keys(i.secrets).length > 0);
  const what =
    file === USER_MODULE
      ? "The keys of the signed-in user (the token's user)"
      : file === "site-admin"
        ? "Site administration"
        : file.startsWith("enterprise-")
          ? `The enterprise ${file.slice("enterprise-".length)}`
          : `The organisation ${file}`;
  const lines: string[] = [
    "/**",
    ` * ${what}, as read from ${apiRoot}.`,
    " * Each resource adopts the object it names.",
    " */",
  ];
  if (needsConfig) lines.push('import * as pulumi from "@pulumi/pulumi";');
  lines.push('import * as hosting from "pulumi-hosting";', "");
  if (needsConfig) lines.push("const config = new pulumi.Config();", "");
  for (const item of ordered) {
    lines.push(...resourceSource(item, referenced.has(`${item.kind}\u0000${item.id}`), byKey), "");
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
  const entries: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(item.args)) {
    entries.push([key, literal(value, indent.length + propertyKey(key).length + 2)]);
  }
  for (const [key, configKey] of Object.entries(item.secrets)) {
    entries.push([key, `config.requireSecret(${JSON.stringify(configKey)})`]);
  }
  for (const [key, ref] of Object.entries(item.refs)) {
    const target = byKey.get(`${ref.kind}\u0000${ref.id}`);
    if (target) entries.push([key, `${identifier(target.name)}.${ref.output}`]);
  }
  entries.sort(([a], [b]) => argOrder(item, a) - argOrder(item, b));
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

/** Indents every line of a multi-line value after the first. */
function indentRest(text: string, indent: string): string {
  return text.replace(/\n/g, `\n${indent}`);
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
    "# Every up and preview reads the server first, so a plain `pulumi up` repairs drift.",
    "options:",
    "  refresh: always",
    "",
  ].join("\n");
}

function packageJson(o: ProgramOptions): string {
  const json = {
    name: o.project,
    private: true,
    main: "index.ts",
    dependencies: { "@pulumi/pulumi": o.pulumiVersion, "pulumi-hosting": o.librarySpec },
    devDependencies: { "@types/node": o.nodeTypesVersion, typescript: o.typescriptVersion },
  };
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
