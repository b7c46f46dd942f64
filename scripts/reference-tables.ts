/**
 * The tables of the reference pages (scripts/reference.ts): a field's type as a reader writes it,
 * the argument, output and nested-type tables with each name's Python and Go spelling, the enum
 * types with their constants, and where the ids an argument takes come from.
 */
import { z } from "zod";
import { goName, pythonName } from "../importer/sdk-types";
import type { FieldRule } from "../provider/internal/diff";
import type { AnyHostingProvider } from "../provider/internal/lifecycle";
import { PROVIDERS } from "../provider/providers";
import type { EnumTypeSpec, PackageSchema, PropertySpec } from "./schema";

export const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
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

export interface JsonObject {
  properties?: Record<string, Json & { description?: string }>;
  required?: string[];
  $defs?: Record<string, JsonObject & { description?: string }>;
}

export const jsonOf = (schema: z.ZodObject, io: "input" | "output") =>
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
export function enumSection(properties: Array<PropertySpec | undefined>, schema: PackageSchema): string[] {
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
  reviewers:
    "each reviewer's `id` is a number, not a login or a team's slug: a user's is the `id` [getOrgMembers](getOrgMembers.md) gives for the login (or the API's `GET /users/{username}`), a team's the `id` of the API's `GET /orgs/{org}/teams/{team_slug}`.",
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
    // "A", "A or B", "A, B or C".
    const kinds = from.length > 1 ? `${from.slice(0, -1).join(", ")} or ${from.at(-1)}` : from.join("");
    if (from.length > 0) lines.push(`- \`${name}\`: the \`${output}\` output of ${kinds}.`);
  }
  return lines.length === 0 ? [] : ["### Finding ids", "", ...lines, ""];
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
export function inputsTable(
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
export function fieldsTable(
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
export function nestedTypes(schema: PackageSchema, ...schemas: JsonObject[]): string[] {
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
export function nestedProperties(schema: PackageSchema, ...schemas: JsonObject[]): PropertySpec[] {
  return schemas.flatMap((json) =>
    Object.keys(json.$defs ?? {}).flatMap((name) => Object.values(nestedSpecs(schema, name))),
  );
}
