/**
 * The reference pages (`docs/reference/<Kind>.md`, `docs/reference/<function>.md` and an index),
 * generated as tfplugindocs does for Terraform providers: from the package schema (types,
 * descriptions, secrets, what replaces, nested types) and the declarations it comes from (defaults,
 * sets, create-only fields, identity, adoption), with each kind's and function's example in
 * TypeScript, YAML, Python and Go from the runnable programs in `examples/` (reference-examples.ts),
 * every name as each SDK spells it, and the prose that is not a declaration (drift, adoption,
 * guards) from `docs/reference/notes/<Name>.md`, written by hand.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { goName, pythonName } from "../importer/sdk-types";
import type { FunctionDeclaration } from "../provider/internal/declare";
import type { FieldRule } from "../provider/internal/diff";
import type { AnyHostingProvider } from "../provider/internal/lifecycle";
import { typeToken } from "../provider/internal/tokens";
import { PROVIDERS } from "../provider/providers";
import { FUNCTIONS } from "../provider/registry";
import { type Example, functionExample, kindExample } from "./reference-examples";
import { type EnumTypeSpec, type PackageSchema, type PropertySpec, packageSchema } from "./schema";

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

/** A field's Python and Go names (`selected_repository_ids` / `SelectedRepositoryIds`). */
const spellings = (name: string) => `\`${pythonName(name)}\` / \`${goName(name)}\``;

/** The enum types a schema property refers to (itself, its list's items, its choices). */
function enumsOf(spec: PropertySpec | undefined, schema: PackageSchema): string[] {
  if (spec === undefined) return [];
  const found: string[] = [];
  const visit = (t: PropertySpec) => {
    if (t.$ref?.startsWith("#/types/")) {
      const token = t.$ref.slice("#/types/".length);
      if (schema.types[token]?.type === "string") found.push(token.replace(/^.*:/, ""));
    }
    for (const c of t.oneOf ?? []) visit(c);
    if (t.items) visit(t.items);
  };
  visit(spec);
  return [...new Set(found)];
}

/** A type cell with the links to its enum types. */
function withEnums(type: string, spec: PropertySpec | undefined, schema: PackageSchema): string {
  const names = enumsOf(spec, schema);
  return names.length === 0 ? type : `${type} (${names.map((n) => `[${n}](#${anchor(n)})`).join(", ")})`;
}

/** The enum types of a page: each with its values' constants in Python and Go. */
function enumSection(properties: Array<PropertySpec | undefined>, schema: PackageSchema): string[] {
  const names = [...new Set(properties.flatMap((p) => enumsOf(p, schema)))].sort();
  if (names.length === 0) return [];
  const lines = [
    "## Enumerations",
    "",
    "An argument of a fixed set of values has an enum type in the Python and Go SDKs (a class of constants, typed constants), which also take the plain string; YAML and TypeScript write the string.",
    "",
  ];
  for (const name of names) {
    const type = schema.types[`hosting:index:${name}`] as EnumTypeSpec;
    lines.push(`### ${name}`, "", ...(type.description ? [type.description, ""] : []));
    lines.push("| Value | Python | Go |", "|---|---|---|");
    for (const e of type.enum) {
      lines.push(
        `| \`${cell(JSON.stringify(e.value))}\` | \`hosting.${name}.${pythonName(e.name).toUpperCase()}\` | \`hosting.${name}${e.name}\` |`,
      );
    }
    lines.push("");
  }
  return lines;
}

/**
 * Where the ids some arguments take come from, by argument name: ids are numbers the API gives, or
 * a cloud's, which a program cannot guess.
 */
const ID_SOURCES: Record<string, string> = {
  selectedRepositoryIds:
    "numeric repository ids, not names: the `id` of each repository, from `getRepository` (its `id`) or the API's `GET /repos/{owner}/{repo}` (`id`).",
  selectedOrganizationIds:
    "numeric organisation ids, not logins: an [Organization](Organization.md)'s `orgId` output, or the `id` of the API's `GET /orgs/{org}`.",
  runnerGroupId:
    "the `runnerGroupId` output of the [OrgRunnerGroup](OrgRunnerGroup.md) that declares the group; for a group made elsewhere, the `id` of the group in the API's `GET /orgs/{org}/actions/runner-groups`.",
  runners:
    "numeric ids of self-hosted runners: the `id` of each runner the API's `GET /orgs/{org}/actions/runners` lists (an enterprise's: `GET /enterprises/{enterprise}/actions/runners`).",
  integrationId:
    "the numeric id of an app installed on the owner: the `id` of one of the apps the API's `GET /repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules/apps` lists.",
  importId:
    "the id of an object that exists already (see [Id, adoption and import](#id-adoption-and-import)); `hosting-import` reads an installation and writes the program, ids included.",
  tenantId:
    "the Directory (tenant) ID of the Microsoft Entra tenant, on its overview page in the Azure portal.",
  clientId: "the Application (client) ID of the app registration, on its overview page in the Azure portal.",
  accountId: "the 12-digit id of the AWS account (`aws sts get-caller-identity --query Account`).",
};

/**
 * A line for each argument that takes an id (named in ID_SOURCES, or ending in `Id`/`Ids`): where
 * such ids come from; for a name of no entry, the kinds with an output of that name.
 */
export function idHints(names: readonly string[]): string[] {
  const lines: string[] = [];
  for (const name of names) {
    const known = ID_SOURCES[name];
    if (known !== undefined) {
      lines.push(`- \`${name}\`: ${known}`);
      continue;
    }
    if (!/Ids?$/.test(name)) continue;
    const output = name.replace(/s$/, "").replace(/^selected([A-Z])/, (_, c: string) => c.toLowerCase());
    const from = PROVIDERS.filter((p) => output in (p.declared.outputs.shape as Record<string, unknown>)).map(
      (p) => `[${p.kind}](${p.kind}.md)`,
    );
    if (from.length > 0) lines.push(`- \`${name}\`: the \`${output}\` output of ${from.join(" or ")}.`);
  }
  return lines.length === 0 ? [] : ["### Finding ids", "", ...lines, ""];
}

/** The example section: one program per language, and where its values come from. */
function exampleSection(example: Example, what: string): string[] {
  const source =
    example.folder === undefined
      ? `With sample values of the sandbox server (no program in \`examples/\` calls ${what}):`
      : `The values are those of the program in [\`examples/${example.folder}/\`](../../examples/${example.folder}/)${example.file ? ` (\`${example.file}\`)` : ""}; each example is a whole program:`;
  const secrets =
    example.secrets.length === 0
      ? []
      : [
          `${example.secrets.map((k) => `\`${k}\``).join(", ")} ${example.secrets.length === 1 ? "is a secret" : "are secrets"} of stack config: \`pulumi config set --secret ${example.secrets[0]} <value>\`.`,
          "",
        ];
  return [
    "## Example",
    "",
    source,
    "",
    ...secrets,
    "TypeScript (the `pulumi-hosting` package):",
    "",
    "```ts",
    example.programs.typescript.trimEnd(),
    "```",
    "",
    "YAML (`Pulumi.yaml`, with the provider plugin):",
    "",
    "```yaml",
    example.programs.yaml.trimEnd(),
    "```",
    "",
    "Python (`pulumi_hosting`):",
    "",
    "```python",
    example.programs.python.trimEnd(),
    "```",
    "",
    "Go (`github.com/pulumi-hosting/pulumi-hosting/sdk/go/hosting`):",
    "",
    "```go",
    example.programs.go.trimEnd(),
    "```",
    "",
  ];
}

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
function inputsTable(
  provider: AnyHostingProvider,
  spec: Record<string, PropertySpec>,
  schema: PackageSchema,
): string[] {
  const { inputs, rules } = provider.declared;
  const json = jsonOf(inputs, "input");
  const required = new Set(json.required ?? []);
  const rows = Object.entries(json.properties ?? {}).map(([name, node]) => {
    const rule = rules[name];
    const type = [
      withEnums(typeText(node), spec[name], schema),
      rule?.set ? "compared as a set" : "",
      rule?.secret ? "a secret in state" : "",
    ]
      .filter(Boolean)
      .join("; ");
    const fallback = defaultOf(inputs, name);
    return `| \`${name}\`${required.has(name) ? " (required)" : ""} | ${spellings(name)} | ${cell(type)} | ${fallback ? `\`${cell(fallback)}\`` : ""} | ${onChange(rule)} | ${cell(spec[name]?.description ?? "")} |`;
  });
  return [
    "| Argument | Python / Go | Type | Default | On change | Description |",
    "|---|---|---|---|---|---|",
    ...rows,
  ];
}

/** A table of fields (outputs, a function's result, a nested type's fields). */
function fieldsTable(
  json: JsonObject,
  descriptions: Record<string, string | undefined>,
  head: string,
  specs: Record<string, PropertySpec | undefined>,
  schema: PackageSchema,
): string[] {
  const required = new Set(json.required ?? []);
  return [
    `| ${head} | Python / Go | Type | Description |`,
    "|---|---|---|---|",
    ...Object.entries(json.properties ?? {}).map(
      ([name, node]) =>
        `| \`${name}\`${required.has(name) ? "" : " (optional)"} | ${spellings(name)} | ${cell(withEnums(typeText(node), specs[name], schema))} | ${cell(descriptions[name] ?? node.description ?? "")} |`,
    ),
  ];
}

/** The named types an object refers to, each with its fields. */
function nestedTypes(schema: PackageSchema, ...schemas: JsonObject[]): string[] {
  const defs = new Map<string, JsonObject & { description?: string }>();
  for (const json of schemas) for (const [name, def] of Object.entries(json.$defs ?? {})) defs.set(name, def);
  if (defs.size === 0) return [];
  const lines = ["## Nested types", ""];
  for (const [name, def] of [...defs].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`### ${name}`, "");
    if (def.description) lines.push(def.description, "");
    lines.push(...fieldsTable(def, {}, "Field", nestedSpecs(schema, name), schema), "");
  }
  return lines;
}

/** The schema's fields of a named object type (none for a type that is not one). */
function nestedSpecs(schema: PackageSchema, name: string): Record<string, PropertySpec> {
  const type = schema.types[`hosting:index:${name}`];
  return type?.type === "object" ? type.properties : {};
}

/** Every schema property of a page's named types, for its enumerations. */
function nestedProperties(schema: PackageSchema, ...schemas: JsonObject[]): PropertySpec[] {
  return schemas.flatMap((json) =>
    Object.keys(json.$defs ?? {}).flatMap((name) => Object.values(nestedSpecs(schema, name))),
  );
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
  const example = kindExample(root, kind, schema);
  const outputDescriptions = Object.fromEntries(
    Object.entries(spec.properties).map(([k, v]) => [k, v.description]),
  );
  const id = declared.idFormat.join("/");
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
    ...exampleSection(example, kind),
    "## Arguments",
    "",
    ...inputsTable(provider, spec.inputProperties, schema),
    "",
    ...idHints(Object.keys(inputs.properties ?? {})),
    "## Outputs",
    "",
    ...(Object.keys(outputs.properties ?? {}).length === 0
      ? ["No outputs beyond the arguments (each argument is also an output)."]
      : [
          "Beyond the arguments (each argument is also an output):",
          "",
          ...fieldsTable(outputs, outputDescriptions, "Output", spec.properties, schema),
        ]),
    "",
    ...nestedTypes(schema, inputs, outputs),
    ...enumSection([...Object.values(spec.properties), ...nestedProperties(schema, inputs, outputs)], schema),
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

/** One function's page. */
export function functionPage(root: string, fn: FunctionDeclaration, schema: PackageSchema): string {
  const spec = schema.functions[typeToken(fn.name)];
  if (spec === undefined) throw new Error(`schema.json has no ${typeToken(fn.name)}`);
  const args = jsonOf(fn.args, "input");
  const result = jsonOf(fn.result, "output");
  const example = functionExample(root, fn, schema);
  return [
    `<!-- Generated by npm run generate from the ${fn.name} declaration; edit the declaration or notes/${fn.name}.md. -->`,
    `# ${fn.name}`,
    "",
    fn.description,
    "",
    ...exampleSection(example, fn.name),
    "## Arguments",
    "",
    ...fieldsTable(
      args,
      Object.fromEntries(Object.entries(spec.inputs.properties).map(([k, v]) => [k, v.description])),
      "Argument",
      spec.inputs.properties,
      schema,
    ),
    "",
    ...idHints(Object.keys(args.properties ?? {})),
    "## Result",
    "",
    ...fieldsTable(
      result,
      Object.fromEntries(Object.entries(spec.outputs.properties).map(([k, v]) => [k, v.description])),
      "Field",
      spec.outputs.properties,
      schema,
    ),
    "",
    ...nestedTypes(schema, args, result),
    ...enumSection(
      [
        ...Object.values(spec.inputs.properties),
        ...Object.values(spec.outputs.properties),
        ...nestedProperties(schema, args, result),
      ],
      schema,
    ),
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
        `| [${p.kind}](${p.kind}.md) | \`${p.declared.idFormat.join("/")}\` | ${cell(summary(p.declared.description))} |`,
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
