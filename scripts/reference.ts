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
import type { FunctionDeclaration } from "../provider/internal/declare";
import type { AnyHostingProvider } from "../provider/internal/lifecycle";
import { typeToken } from "../provider/internal/tokens";
import { PROVIDERS } from "../provider/providers";
import { FUNCTIONS } from "../provider/registry";
import { type Example, functionExample, kindExample } from "./reference-examples";
import {
  cell,
  enumSection,
  fieldsTable,
  idHints,
  inputsTable,
  jsonOf,
  nestedProperties,
  nestedTypes,
} from "./reference-tables";
import { type PackageSchema, packageSchema } from "./schema";

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
  const id = declared.idText ?? declared.idFormat.join("/");
  const key = declared.importKey;
  const adoption = declared.adopts
    ? `Adopt an existing object with \`importId\` (${key === undefined ? "the last part of its id" : `its ${key}`}): create then reads it and converges it to the arguments, writing only what differs; a preview shows what adopting it changes, field by field.`
    : declared.secrets.length > 0
      ? // A secret the API never returns cannot be compared: the create writes it whatever is there.
        `The object is named by its arguments (${declared.identity.map((n) => `\`${n}\``).join(", ")}): a create writes it as the program says (${declared.secrets.map((n) => `\`${n}\``).join(", ")} included, which the API never returns), so an existing object is adopted by declaring it.`
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
