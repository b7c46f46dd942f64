/**
 * The reference pages (`docs/reference/<Kind>.md`, `docs/reference/<function>.md` and an index),
 * generated as tfplugindocs does for Terraform providers: from the package schema (types,
 * descriptions, secrets, what replaces, nested types) and the declarations it comes from (defaults,
 * sets, create-only fields, identity, adoption), with the kind's example taken from the runnable
 * programs in `examples/` and the prose that is not a declaration (drift, adoption, guards) from
 * `docs/reference/notes/<Name>.md`, written by hand.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import type { FunctionDeclaration } from "../provider/internal/declare";
import type { FieldRule } from "../provider/internal/diff";
import type { AnyHostingProvider } from "../provider/internal/lifecycle";
import { typeToken } from "../provider/internal/tokens";
import { PROVIDERS } from "../provider/providers";
import { FUNCTIONS } from "../provider/registry";
import { type PackageSchema, type PropertySpec, packageSchema } from "./schema";

/** The repository root: the folder of the package.json named pulumi-hosting above this file. */
export function repositoryRoot(from = __dirname): string {
  let dir = resolve(from);
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === "pulumi-hosting")
      return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no pulumi-hosting package.json above ${from}`);
    dir = up;
  }
}

export const REFERENCE_DIR = "docs/reference";

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
const anchor = (name: string) => name.toLowerCase();

/** A JSON Schema node as zod writes it (what the type column reads). */
interface Json {
  type?: string | string[];
  $ref?: string;
  anyOf?: Json[];
  items?: Json;
  enum?: unknown[];
  const?: unknown;
  additionalProperties?: Json | boolean;
}

/** A field's type as a reader writes it: `string`, `"json" | "form"`, `list(string)`, a named type's link. */
function typeText(node: Json): string {
  if (node.$ref !== undefined) {
    const name = node.$ref.replace(/^#\/\$defs\//, "");
    return `[${name}](#${anchor(name)})`;
  }
  if (node.enum !== undefined) return node.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (node.const !== undefined) return JSON.stringify(node.const);
  const choices = [
    ...(node.anyOf ?? []).flatMap((c) => (c.anyOf ? c.anyOf : [c])),
    ...(Array.isArray(node.type) ? node.type.map((t) => ({ type: t })) : []),
  ].filter((c) => c.type !== "null");
  if (choices.length > 0) {
    const nullable = (node.anyOf ?? []).some((c) => c.type === "null");
    return [...choices.map(typeText), ...(nullable ? ["null"] : [])].join(" | ");
  }
  if (node.type === "array") return `list(${node.items ? typeText(node.items) : "any"})`;
  if (node.type === "object") {
    return typeof node.additionalProperties === "object"
      ? `map(${typeText(node.additionalProperties)})`
      : "object";
  }
  return typeof node.type === "string" ? node.type : "any";
}

interface JsonObject {
  properties?: Record<string, Json & { description?: string }>;
  required?: string[];
  $defs?: Record<string, JsonObject & { description?: string }>;
}

const jsonOf = (schema: z.ZodObject, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonObject;

/** The default of a field left out, as the program would write it; undefined when none. */
function defaultOf(schema: z.ZodObject, name: string): string | undefined {
  const field = schema.shape[name] as z.ZodType | undefined;
  const parsed = field?.safeParse(undefined);
  if (!parsed?.success || parsed.data === undefined) return undefined;
  return JSON.stringify(parsed.data);
}

function onChange(rule: FieldRule | undefined): string {
  if (rule === undefined) return "";
  if (rule.refusedAfterCreate) return "refused after create";
  if (rule.createOnly) return "ignored after create";
  if (rule.replace) return "**replaces**";
  return "updates";
}

/** The table of a kind's arguments. */
function inputsTable(provider: AnyHostingProvider, spec: Record<string, PropertySpec>): string[] {
  const { inputs, rules } = provider.declared;
  const json = jsonOf(inputs, "input");
  const required = new Set(json.required ?? []);
  const rows = Object.entries(json.properties ?? {}).map(([name, node]) => {
    const rule = rules[name];
    const type = [
      `${typeText(node)}`,
      rule?.set ? "compared as a set" : "",
      rule?.secret ? "a secret in state" : "",
    ]
      .filter(Boolean)
      .join("; ");
    const fallback = defaultOf(inputs, name);
    return `| \`${name}\`${required.has(name) ? " (required)" : ""} | ${cell(type)} | ${fallback ? `\`${cell(fallback)}\`` : ""} | ${onChange(rule)} | ${cell(spec[name]?.description ?? "")} |`;
  });
  return ["| Argument | Type | Default | On change | Description |", "|---|---|---|---|---|", ...rows];
}

/** A table of fields (outputs, a function's result, a nested type's fields). */
function fieldsTable(
  json: JsonObject,
  descriptions: Record<string, string | undefined>,
  head: string,
): string[] {
  const required = new Set(json.required ?? []);
  return [
    `| ${head} | Type | Description |`,
    "|---|---|---|",
    ...Object.entries(json.properties ?? {}).map(
      ([name, node]) =>
        `| \`${name}\`${required.has(name) ? "" : " (optional)"} | ${cell(typeText(node))} | ${cell(descriptions[name] ?? node.description ?? "")} |`,
    ),
  ];
}

/** The named types an object refers to, each with its fields. */
function nestedTypes(...schemas: JsonObject[]): string[] {
  const defs = new Map<string, JsonObject & { description?: string }>();
  for (const schema of schemas)
    for (const [name, def] of Object.entries(schema.$defs ?? {})) defs.set(name, def);
  if (defs.size === 0) return [];
  const lines = ["## Nested types", ""];
  for (const [name, def] of [...defs].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`### ${name}`, "");
    if (def.description) lines.push(def.description, "");
    lines.push(...fieldsTable(def, {}, "Field"), "");
  }
  return lines;
}

/** The first statement of `examples/` that declares the kind (`new hosting.Kind(` up to its `});`). */
export function exampleOf(root: string, call: string): { file: string; code: string } | undefined {
  const dir = join(root, "examples");
  for (const folder of readdirSync(dir).sort()) {
    const path = join(dir, folder);
    if (!existsSync(join(path, "Pulumi.yaml"))) continue;
    for (const file of readdirSync(path)
      .filter((f) => f.endsWith(".ts"))
      .sort()) {
      const lines = readFileSync(join(path, file), "utf8").split("\n");
      const start = lines.findIndex((l) => l.includes(call));
      if (start < 0) continue;
      const indent = (lines[start]?.match(/^\s*/)?.[0] ?? "").length;
      let end = start;
      while (end < lines.length && !/^\s*}\)[;,]?\s*$|\);\s*$/.test(lines[end] ?? "")) end++;
      const code = lines
        .slice(start, end + 1)
        .map((l) => l.slice(Math.min(indent, (l.match(/^\s*/)?.[0] ?? "").length)))
        .join("\n");
      return { file: `examples/${folder}/${file}`, code };
    }
  }
  return undefined;
}

function notesOf(root: string, name: string): string[] {
  const path = join(root, REFERENCE_DIR, "notes", `${name}.md`);
  if (!existsSync(path)) return [];
  const text = readFileSync(path, "utf8").trimEnd();
  return [...(text.startsWith("## ") ? [] : ["## Notes", ""]), text, ""];
}

const summary = (description: string) => (description.match(/^[^.]*\.(?=\s|$)/)?.[0] ?? description).trim();

/** One kind's page. */
export function kindPage(root: string, provider: AnyHostingProvider, schema: PackageSchema): string {
  const declared = provider.declared;
  const kind = declared.kind;
  const spec = schema.resources[typeToken(kind)];
  if (spec === undefined) throw new Error(`schema.json has no ${typeToken(kind)}`);
  const inputs = jsonOf(declared.inputs, "input");
  const outputs = jsonOf(declared.outputs, "output");
  const example = exampleOf(root, `new hosting.${kind}(`);
  if (example === undefined) throw new Error(`no program in examples/ declares new hosting.${kind}(`);
  const outputDescriptions = Object.fromEntries(
    Object.entries(spec.properties).map(([k, v]) => [k, v.description]),
  );
  const id = declared.idText ?? declared.idFormat.join("/");
  const key = declared.importKey;
  const adoption = declared.adopts
    ? `Adopt an existing object with \`importId\` (${key === undefined ? "the last part of its id" : `its ${key}`}): create then reads it and converges it to the arguments, writing only what differs; a preview shows what adopting it changes, field by field.`
    : `The object is named by its arguments (${declared.identity.map((n) => `\`${n}\``).join(", ")}): a create reads it first and writes only what differs, so an existing object is adopted by declaring it.`;
  return [
    `<!-- Generated by npm run generate from the ${kind} declaration; edit the declaration or notes/${kind}.md. -->`,
    `# ${kind}`,
    "",
    declared.description,
    "",
    "## Example",
    "",
    `From [\`${example.file}\`](../../${example.file}):`,
    "",
    "```ts",
    example.code,
    "```",
    "",
    "## Arguments",
    "",
    ...inputsTable(provider, spec.inputProperties),
    "",
    "## Outputs",
    "",
    ...(Object.keys(outputs.properties ?? {}).length === 0
      ? ["No outputs beyond the arguments (each argument is also an output)."]
      : [
          "Beyond the arguments (each argument is also an output):",
          "",
          ...fieldsTable(outputs, outputDescriptions, "Output"),
        ]),
    "",
    ...nestedTypes(inputs, outputs),
    "## Id, adoption and import",
    "",
    `The id is \`${id}\`${declared.idFormat.length > 1 ? ", each part URL-encoded" : ""}. ${adoption}`,
    "",
    `With the provider plugin: \`pulumi import ${typeToken(kind)} <name> <${key ?? id}>\`${key === undefined ? "" : ` (the API finds it by its ${key}; state records the id, and the ${key} as \`importId\`)`}. The type token of the dynamic resource is \`pulumi-nodejs:dynamic/hosting:${kind}\`; the plugin's, \`${typeToken(kind)}\`.`,
    "",
    ...notesOf(root, kind),
  ]
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/\n*$/, "\n");
}

/** Sample values of the fixture for a function's generated example. */
const SAMPLES: Record<string, unknown> = {
  org: "acme-eng",
  owner: "acme-eng",
  repository: "api",
  branch: "main",
  enterprise: "acme",
  kind: "participation",
};

/** One function's page. */
export function functionPage(root: string, fn: FunctionDeclaration, schema: PackageSchema): string {
  const spec = schema.functions[typeToken(fn.name)];
  if (spec === undefined) throw new Error(`schema.json has no ${typeToken(fn.name)}`);
  const args = jsonOf(fn.args, "input");
  const result = jsonOf(fn.result, "output");
  const found = exampleOf(root, `${fn.name}(`);
  const call = `${fn.name}({ ${(args.required ?? []).map((k) => `${k}: ${JSON.stringify(SAMPLES[k] ?? k)}`).join(", ")} })`;
  return [
    `<!-- Generated by npm run generate from the ${fn.name} declaration; edit the declaration or notes/${fn.name}.md. -->`,
    `# ${fn.name}`,
    "",
    fn.description,
    "",
    "## Example",
    "",
    ...(found
      ? [`From [\`${found.file}\`](../../${found.file}):`, "", "```ts", found.code, "```"]
      : [
          "```ts",
          `const result = await hosting.${call};`,
          `const later = hosting.${call.replace("(", "Output(")}; // args may be Inputs`,
          "```",
        ]),
    "",
    "## Arguments",
    "",
    ...fieldsTable(
      args,
      Object.fromEntries(Object.entries(spec.inputs.properties).map(([k, v]) => [k, v.description])),
      "Argument",
    ),
    "",
    "## Result",
    "",
    ...fieldsTable(
      result,
      Object.fromEntries(Object.entries(spec.outputs.properties).map(([k, v]) => [k, v.description])),
      "Field",
    ),
    "",
    ...nestedTypes(args, result),
    `With the provider plugin the function is the invoke \`${typeToken(fn.name)}\`.`,
    "",
    ...notesOf(root, fn.name),
  ]
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/\n*$/, "\n");
}

/** The index: every kind and function with its summary. */
export function indexPage(schema: PackageSchema): string {
  const lines = [
    "<!-- Generated by npm run generate. -->",
    "# Reference",
    "",
    "Every resource kind and read function, generated from their declarations (the same ones",
    "`schema.json`, the provider plugin and `hosting-import` use).",
    "",
    "## Resources",
    "",
    "| Kind | Id | What it is |",
    "|---|---|---|",
    ...PROVIDERS.map(
      (p) =>
        `| [${p.kind}](${p.kind}.md) | \`${p.declared.idText ?? p.declared.idFormat.join("/")}\` | ${cell(summary(p.declared.description))} |`,
    ),
    "",
    "## Functions",
    "",
    "Each `getX(args, opts?)` returns a promise; each `getXOutput(args, opts?)` an Output whose args may be Inputs.",
    "",
    "| Function | What it reads |",
    "|---|---|",
    ...FUNCTIONS.map((f) => `| [${f.name}](${f.name}.md) | ${cell(summary(f.description))} |`),
    "",
    `Package schema: [\`schema.json\`](../../schema.json) (package \`${schema.name}\`, version ${schema.version}).`,
  ];
  return `${lines.join("\n")}\n`;
}

/** Every reference page, by path below the repository root. */
export function referencePages(root: string, schema = packageSchema(root)): Map<string, string> {
  const pages = new Map<string, string>();
  pages.set(join(REFERENCE_DIR, "README.md"), indexPage(schema));
  for (const provider of PROVIDERS) {
    pages.set(join(REFERENCE_DIR, `${provider.kind}.md`), kindPage(root, provider, schema));
  }
  for (const fn of FUNCTIONS) pages.set(join(REFERENCE_DIR, `${fn.name}.md`), functionPage(root, fn, schema));
  return pages;
}
