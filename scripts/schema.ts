/**
 * The Pulumi package schema (`schema.json`), derived from the kinds' and functions' declarations:
 * each field's type from its zod schema (through zod's JSON Schema), its description and behaviour
 * (secret, replace-on-change) from `field(...)`, nested objects as named types (`.meta({ id })`).
 * The native plugin serves this file, YAML programs read it, and the SDKs and the reference pages
 * are generated from it, so none of them can fall out of step with the code.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { behaviourOf, type DeclaredKind, type FunctionDeclaration } from "../provider/internal/declare";
import { dynamicToken, PACKAGE, typeToken } from "../provider/internal/tokens";
import { PROVIDERS } from "../provider/providers";
import { FUNCTIONS } from "../provider/registry";

/** The type token the dynamic resources record: a schema alias, so a stack moves without replacement. */

/** A JSON Schema node as zod writes it (the parts this reads). */
interface JsonSchema {
  type?: string | string[];
  $ref?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  $defs?: Record<string, JsonSchema>;
}

/** A type in Pulumi's schema (`TypeSpec`). */
export interface TypeSpec {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  $ref?: string;
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  oneOf?: TypeSpec[];
}

export interface PropertySpec extends TypeSpec {
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
}

export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

export interface ResourceSpec {
  description: string;
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
  properties: Record<string, PropertySpec>;
  required: string[];
  aliases: Array<{ type: string }>;
}

export interface FunctionSpec {
  description: string;
  inputs: { properties: Record<string, PropertySpec>; required: string[] };
  outputs: { properties: Record<string, PropertySpec>; required: string[] };
}

export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  /** Where the Pulumi CLI downloads the plugin from (`--download-url` of scripts/release/options.ts). */
  pluginDownloadURL: string;
  keywords: string[];
  license: string;
  meta: { moduleFormat: string };
  config: { variables: Record<string, PropertySpec> };
  provider: { description: string; inputProperties: Record<string, PropertySpec> };
  types: Record<string, ObjectTypeSpec>;
  resources: Record<string, ResourceSpec>;
  functions: Record<string, FunctionSpec>;
  language: Record<string, Record<string, unknown>>;
}

/** The provider's settings: stack config `hosting:*` and an explicit provider's inputs alike. */
export const PROVIDER_SETTINGS: Record<string, PropertySpec> = {
  baseUrl: {
    type: "string",
    description:
      "The API root (`https://host/api/v3`), or the host (`https://host`, to which the self-managed `/api/v3` prefix is added). Falls back to `HOSTING_BASE_URL`.",
  },
  token: {
    type: "string",
    secret: true,
    description: "The token the requests are made with. Falls back to `HOSTING_TOKEN`.",
  },
  apiVersion: {
    type: "string",
    description:
      "The `X-Service-Api-Version` of every request, in place of each endpoint's documented one. Falls back to `HOSTING_API_VERSION`.",
  },
};

/** Turns zod's JSON Schema into Pulumi types, collecting named object types on the way. */
export class Converter {
  readonly types: Record<string, ObjectTypeSpec> = {};

  constructor(private readonly where: string) {}

  /** A property's type; `defs` are the `$defs` of the JSON Schema it came from. */
  type(node: JsonSchema, defs: Record<string, JsonSchema>, at: string): TypeSpec {
    if (node.$ref !== undefined) {
      const name = node.$ref.replace(/^#\/\$defs\//, "");
      const def = defs[name];
      if (def === undefined) throw new Error(`${this.where} ${at}: unresolved ${node.$ref}`);
      this.objectType(name, def, defs);
      return { $ref: `#/types/${typeToken(name)}` };
    }
    const choices = [...(node.anyOf ?? []), ...(node.oneOf ?? [])].flatMap((c) =>
      c.anyOf !== undefined ? c.anyOf : [c],
    );
    const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
    const alternatives = [
      ...choices.filter((c) => c.type !== "null"),
      ...(types.length > 1 ? types.filter((t) => t !== "null").map((t) => ({ ...node, type: t })) : []),
    ];
    if (alternatives.length === 1) return this.type(alternatives[0] as JsonSchema, defs, at);
    if (alternatives.length > 1)
      return { oneOf: alternatives.map((c, i) => this.type(c, defs, `${at}[${i}]`)) };
    const type = types.find((t) => t !== "null");
    switch (type) {
      case "string":
      case "integer":
      case "number":
      case "boolean":
        return { type };
      case "array":
        return { type: "array", items: node.items ? this.type(node.items, defs, `${at}[]`) : {} };
      case "object":
        if (node.properties !== undefined && Object.keys(node.properties).length > 0) {
          throw new Error(`${this.where} ${at}: a nested object needs a name (.meta({ id }))`);
        }
        if (typeof node.additionalProperties === "object") {
          return { type: "object", additionalProperties: this.type(node.additionalProperties, defs, at) };
        }
        return { $ref: "pulumi.json#/Any" };
      default:
        if (node.const !== undefined) return { type: typeof node.const === "number" ? "number" : "string" };
        return { $ref: "pulumi.json#/Any" };
    }
  }

  /** A named object type (`hosting:index:BudgetAlerting`), from its JSON Schema definition. */
  objectType(name: string, def: JsonSchema, defs: Record<string, JsonSchema>): void {
    if (this.types[typeToken(name)] !== undefined) return;
    const spec: ObjectTypeSpec = { type: "object", properties: {} };
    this.types[typeToken(name)] = spec; // before its fields: a type may refer to itself
    if (def.description) spec.description = def.description;
    for (const [key, prop] of Object.entries(def.properties ?? {})) {
      spec.properties[key] = withDescription(this.type(prop, defs, `${name}.${key}`), prop.description);
    }
    if (def.required?.length) spec.required = [...def.required];
  }
}

function withDescription(type: TypeSpec, description: string | undefined): PropertySpec {
  return description ? { ...type, description } : { ...type };
}

/** zod's JSON Schema of an object, as a program writes it (`input`) or as state holds it (`output`). */
function jsonSchema(schema: z.ZodObject, io: "input" | "output"): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
}

/** The properties of an object of declared fields: types from zod, descriptions and behaviour from `field()`. */
function properties(
  convert: Converter,
  schema: z.ZodObject,
  io: "input" | "output" | "resource input",
  where: string,
): { properties: Record<string, PropertySpec>; required: string[] } {
  const json = jsonSchema(schema, io === "output" ? "output" : "input");
  const shape = schema.shape as Record<string, z.ZodType>;
  const result: Record<string, PropertySpec> = {};
  for (const [key, node] of Object.entries(json.properties ?? {})) {
    const behaviour = behaviourOf(shape[key] as z.ZodType, `${where}.${key}`);
    const spec: PropertySpec = { ...convert.type(node, json.$defs ?? {}, `${where}.${key}`) };
    if (io === "resource input" && mixesListAndValue(spec)) {
      // Pulumi's Python runtime refuses a list given for a resource input typed `Union[str,
      // Sequence[str]]` ("Unexpected type. Expected 'list'"): such an input is Any in the schema,
      // its description says what it takes, and check() keeps the rule.
      delete spec.oneOf;
      spec.$ref = "pulumi.json#/Any";
    }
    spec.description = behaviour.description;
    if (behaviour.secret) spec.secret = true;
    if (behaviour.replace) spec.replaceOnChanges = true;
    result[key] = spec;
  }
  return { properties: result, required: [...(json.required ?? [])] };
}

/** A choice between a list and a value that is not a list. */
function mixesListAndValue(spec: TypeSpec): boolean {
  const lists = (spec.oneOf ?? []).filter((t) => t.type === "array").length;
  return lists > 0 && lists < (spec.oneOf ?? []).length;
}

export function resourceSpec(convert: Converter, declared: DeclaredKind): ResourceSpec {
  // State records the inputs as the program wrote them (check returns them so): their input types.
  const inputs = properties(convert, declared.inputs, "resource input", declared.kind);
  const outputs = properties(convert, declared.outputs, "output", declared.kind);
  return {
    description: declared.description,
    inputProperties: inputs.properties,
    requiredInputs: inputs.required,
    properties: { ...inputs.properties, ...outputs.properties },
    required: [...new Set([...inputs.required, ...outputs.required])],
    aliases: [{ type: dynamicToken(declared.kind) }],
  };
}

export function functionSpec(convert: Converter, declared: FunctionDeclaration): FunctionSpec {
  return {
    description: declared.description,
    inputs: properties(convert, declared.args, "input", declared.name),
    outputs: properties(convert, declared.result, "output", declared.name),
  };
}

function packageVersion(root: string): string {
  return (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
}

/**
 * Where the Pulumi CLI downloads the plugin from unless a release says otherwise: the GitHub
 * repository the Go SDK's module path names, whose release `v<version>` carries the archives. The
 * committed schema.json and SDKs carry it, so the Go module a user gets from the tag
 * `sdk/go/v<version>` is the one a default release zips (docs/DECISIONS.md, 2026-11-27).
 */
export const DEFAULT_PLUGIN_DOWNLOAD_URL = "github://api.github.com/pulumi-hosting/pulumi-hosting";

/**
 * What a release sets in the schema: its version (in place of package.json's) and where the CLI
 * downloads the plugin from (in place of DEFAULT_PLUGIN_DOWNLOAD_URL).
 */
export interface SchemaRelease {
  version?: string;
  pluginDownloadURL?: string;
}

/** The whole package schema, from every kind's and function's declaration. */
export function packageSchema(root: string, release: SchemaRelease = {}): PackageSchema {
  const convert = new Converter("schema");
  const resources: Record<string, ResourceSpec> = {};
  for (const provider of PROVIDERS) {
    resources[typeToken(provider.kind)] = resourceSpec(convert, provider.declared);
  }
  const functions: Record<string, FunctionSpec> = {};
  for (const fn of FUNCTIONS) functions[typeToken(fn.name)] = functionSpec(convert, fn);
  return {
    name: PACKAGE,
    displayName: "Hosting",
    version: release.version ?? packageVersion(root),
    description:
      "Organisation settings of a self-managed source-code hosting platform: webhooks, runner groups, budgets, memberships, private registries, custom property values, deployment protection rules, organisations, issue types and fields, blocks and user keys.",
    pluginDownloadURL: release.pluginDownloadURL ?? DEFAULT_PLUGIN_DOWNLOAD_URL,
    keywords: ["pulumi", "hosting", "category/infrastructure", "kind/native"],
    license: "Apache-2.0",
    meta: { moduleFormat: "(.*)" },
    config: { variables: PROVIDER_SETTINGS },
    provider: {
      description:
        "The settings of one installation: its API root and the token requests are made with. A program may declare several, one per installation or token.",
      inputProperties: PROVIDER_SETTINGS,
    },
    types: Object.fromEntries(Object.entries(convert.types).sort(([a], [b]) => a.localeCompare(b))),
    resources,
    functions,
    // Versions follow the package's: the generators write placeholders unless told to use it.
    language: {
      nodejs: {
        packageName: "@pulumi-hosting/sdk",
        packageDescription: "Typed resources of the hosting provider plugin.",
        respectSchemaVersion: true,
      },
      python: { packageName: "pulumi_hosting", respectSchemaVersion: true },
      go: {
        importBasePath: "github.com/pulumi-hosting/pulumi-hosting/sdk/go/hosting",
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
    },
  };
}

/** The schema as written to `schema.json`: stable key order, two-space indent, final newline. */
export function schemaText(root: string, release: SchemaRelease = {}): string {
  return `${JSON.stringify(packageSchema(root, release), null, 2)}\n`;
}
