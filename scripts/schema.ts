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

/** One value of an enum type: the value state records, and the name each SDK gives its constant. */
export interface EnumValueSpec {
  value: string;
  name: string;
}

/** A string enum type (`hosting:index:OrgMembershipRole`): the SDKs' enum classes and constants. */
export interface EnumTypeSpec {
  type: "string";
  description?: string;
  enum: EnumValueSpec[];
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
  types: Record<string, ObjectTypeSpec | EnumTypeSpec>;
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

/** Turns zod's JSON Schema into Pulumi types, collecting named object and enum types on the way. */
export class Converter {
  readonly types: Record<string, ObjectTypeSpec | EnumTypeSpec> = {};
  /** Where each enum type was first met, for the error when another place gives the name other values. */
  private readonly enumSources = new Map<string, string>();

  constructor(private readonly where: string) {}

  /**
   * A property's type; `defs` are the `$defs` of the JSON Schema it came from; `name` is the name an
   * enum met here takes (`OrgMembershipRole` for `OrgMembership.role`), unless it has its own
   * (`.meta({ id })`). A list's items and a union's alternatives keep the name of their property.
   */
  type(node: JsonSchema, defs: Record<string, JsonSchema>, at: string, name = enumNameOf(at)): TypeSpec {
    if (node.$ref !== undefined) {
      const id = node.$ref.replace(/^#\/\$defs\//, "");
      const def = defs[id];
      if (def === undefined) throw new Error(`${this.where} ${at}: unresolved ${node.$ref}`);
      if (isStringEnum(def)) return this.enumType(id, def, at, def.description);
      this.objectType(id, def, defs);
      return { $ref: `#/types/${typeToken(id)}` };
    }
    if (isStringEnum(node)) return this.enumType(name, node, at, undefined);
    const choices = [...(node.anyOf ?? []), ...(node.oneOf ?? [])].flatMap((c) =>
      c.anyOf !== undefined ? c.anyOf : [c],
    );
    const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
    const alternatives = [
      ...choices.filter((c) => c.type !== "null"),
      ...(types.length > 1 ? types.filter((t) => t !== "null").map((t) => ({ ...node, type: t })) : []),
    ];
    if (alternatives.length === 1) return this.type(alternatives[0] as JsonSchema, defs, at, name);
    if (alternatives.length > 1) {
      // An enum alternative is itself a choice (the enum, or any string): one flat list of choices.
      const flat = alternatives.flatMap((c, i) => {
        const t = this.type(c, defs, `${at}[${i}]`, name);
        return t.oneOf ?? [t];
      });
      const unique = flat.filter(
        (t, i) => flat.findIndex((u) => JSON.stringify(u) === JSON.stringify(t)) === i,
      );
      // Beside anything but a string, the enum goes: Go's generator types a choice of a string, an
      // enum and a list as a string alone (a list no longer compiles), where without the enum it
      // takes any value. A list's items keep theirs.
      const others = unique.filter((t) => t.type !== "string" && !this.isEnumRef(t));
      return { oneOf: others.length > 0 ? unique.filter((t) => !this.isEnumRef(t)) : unique };
    }
    const type = types.find((t) => t !== "null");
    switch (type) {
      case "string":
      case "integer":
      case "number":
      case "boolean":
        return { type };
      case "array":
        return {
          type: "array",
          items: node.items ? this.type(node.items, defs, `${at}[]`, singular(name)) : {},
        };
      case "object":
        if (node.properties !== undefined && Object.keys(node.properties).length > 0) {
          throw new Error(`${this.where} ${at}: a nested object needs a name (.meta({ id }))`);
        }
        if (typeof node.additionalProperties === "object") {
          return {
            type: "object",
            additionalProperties: this.type(node.additionalProperties, defs, at, name),
          };
        }
        return { $ref: "pulumi.json#/Any" };
      default:
        if (node.const !== undefined) return { type: typeof node.const === "number" ? "number" : "string" };
        return { $ref: "pulumi.json#/Any" };
    }
  }

  private isEnumRef(t: TypeSpec): boolean {
    return t.$ref !== undefined && this.types[t.$ref.replace(/^#\/types\//, "")]?.type === "string";
  }

  /** A named object type (`hosting:index:BudgetAlerting`), from its JSON Schema definition. */
  objectType(name: string, def: JsonSchema, defs: Record<string, JsonSchema>): void {
    const token = typeToken(name);
    const known = this.types[token];
    if (known !== undefined) {
      if (known.type !== "object") throw new Error(`${this.where}: ${name} names an enum and an object type`);
      return;
    }
    const spec: ObjectTypeSpec = { type: "object", properties: {} };
    this.types[token] = spec; // before its fields: a type may refer to itself
    if (def.description) spec.description = def.description;
    for (const [key, prop] of Object.entries(def.properties ?? {})) {
      spec.properties[key] = withDescription(
        this.type(prop, defs, `${name}.${key}`, `${name}${upperFirst(key)}`),
        prop.description,
      );
    }
    if (def.required?.length) spec.required = [...def.required];
  }

  /**
   * A zod enum as a string enum type, and the property's type: the enum or any string, so the SDKs
   * offer the enum's constants while a program that passes a plain string keeps compiling (Python's
   * generator types a property of the enum alone as the enum class, which mypy refuses a `str` for;
   * Go's as the enum's input type, which `pulumi.String(...)` is not). The provider's check still
   * refuses a value outside the enum, naming the allowed ones.
   */
  private enumType(name: string, node: JsonSchema, at: string, description: string | undefined): TypeSpec {
    const token = typeToken(name);
    const values = (node.enum ?? []) as string[];
    const known = this.types[token];
    if (known !== undefined) {
      const same =
        known.type === "string" && JSON.stringify(known.enum.map((e) => e.value)) === JSON.stringify(values);
      if (!same) {
        throw new Error(
          `${this.where} ${at}: the enum type ${name} (from ${this.enumSources.get(token) ?? "an object type"}) has other values; name one of them with .meta({ id })`,
        );
      }
    } else {
      const names = values.map(enumValueName);
      const clash = names.find((n, i) => names.indexOf(n) !== i);
      if (clash !== undefined)
        throw new Error(`${this.where} ${at}: two values of ${name} are both named ${clash}`);
      this.types[token] = {
        type: "string",
        description: description ?? `The values of \`${at.replace(/\[[^\]]*\]/g, "")}\`.`,
        enum: values.map((value, i) => ({ value, name: names[i] as string })),
      };
      this.enumSources.set(token, at);
    }
    return { oneOf: [{ type: "string" }, { $ref: `#/types/${token}` }] };
  }
}

/** A JSON Schema node of a zod enum of strings. */
function isStringEnum(node: JsonSchema): boolean {
  return Array.isArray(node.enum) && node.enum.length > 0 && node.enum.every((v) => typeof v === "string");
}

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The name an enum at `Kind.field` takes: `KindField` (a function's `getX.field`: `GetXField`). */
function enumNameOf(at: string): string {
  return at
    .replace(/\[[^\]]*\]/g, "")
    .split(".")
    .map(upperFirst)
    .join("");
}

/**
 * The name of one item of a list (`GlobalWebhookEvents` -> `GlobalWebhookEvent`): an enum of a
 * list's items is the type of one of them.
 */
export function singular(name: string): string {
  if (/ies$/.test(name)) return `${name.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh|us)es$/.test(name)) return name.slice(0, -2);
  if (/[^su]s$/.test(name)) return name.slice(0, -1);
  return name;
}

const DIGITS = ["Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"];

/**
 * The name of an enum value's constant, which every SDK derives its own from: the value's words in
 * PascalCase (`npm_registry` -> `NpmRegistry`, `ProductPricing` as it is), leading digits spelled
 * out (`2fa_disabled` -> `TwoFaDisabled`), since no language's identifier starts with a digit.
 */
export function enumValueName(value: string): string {
  const words = value.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map(upperFirst).join("");
  const digits = name.match(/^[0-9]+/)?.[0] ?? "";
  const rest = name.slice(digits.length);
  const spelled = [...digits].map((d) => DIGITS[Number(d)]).join("") + upperFirst(rest);
  if (spelled === "")
    throw new Error(`the enum value ${JSON.stringify(value)} has no letter or digit to name it by`);
  return spelled;
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
