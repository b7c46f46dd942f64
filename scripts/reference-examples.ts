/**
 * The examples of the reference pages, in TypeScript, YAML, Python and Go, each a whole program.
 * One source per kind and function: the programs in `examples/`, run under Pulumi's mocks
 * (scripts/reference-capture.ts), give the arguments a kind's resource or a function's call really
 * gets; the kind's example is its most complete resource there (the one with the most arguments,
 * then the first by name), with the resources it refers to. The importer's own writers write the
 * resources in each language (so every name is the SDK's: Python's snake_case, Go's Title case and
 * `...Args` structs, enums as the SDKs' constants); a function's call is written here. A function no
 * program calls gets a call with sample values (SAMPLES, by argument name).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Document, YAMLMap } from "yaml";
import { declarationsSource as goDeclarations, goString, keyValues } from "../importer/go";
import type { InventoryItem } from "../importer/inventory";
import { literal } from "../importer/layout";
import { identifier } from "../importer/naming";
import { declarationsSource as pythonDeclarations, pythonValue } from "../importer/python";
import {
  functionArgShapes,
  goName,
  inputShapes,
  pythonName,
  type Shape,
  shapeFor,
  withSchema,
} from "../importer/sdk-types";
import { declarationsSource as typescriptDeclarations } from "../importer/typescript";
import { declarationsSource as yamlDeclarations } from "../importer/yaml";
import type { FunctionDeclaration } from "../provider/internal/declare";
import { typeToken } from "../provider/internal/tokens";
import type { Captured, CapturedResource } from "./reference-capture";
import type { PackageSchema } from "./schema";

export const EXAMPLE_LANGUAGES = ["typescript", "yaml", "python", "go"] as const;
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

/** A kind's or a function's example: where its values come from, and the program in each language. */
export interface Example {
  /** The folder below examples/ whose program gave the values; undefined for sample values. */
  folder?: string;
  /** The file of that folder that declares the kind or calls the function. */
  file?: string | undefined;
  programs: Record<ExampleLanguage, string>;
  /** Stack config keys the program reads as secrets. */
  secrets: string[];
}

/** The project name of every example program. */
export const EXAMPLE_PROJECT = "hosting-example";

const captures = new Map<string, Captured>();

/**
 * What the programs in `examples/` declare and call (scripts/reference-capture.ts, run from the
 * built package: `npm run build` first), once per checkout.
 */
export function captured(root: string): Captured {
  const known = captures.get(root);
  if (known !== undefined) return known;
  const script = join(root, "dist/scripts/reference-capture.js");
  if (!existsSync(script)) throw new Error(`${script} is missing: run npm run build first`);
  let out: string;
  try {
    out = execFileSync(process.execPath, [script, root], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? "";
    throw new Error(`running the programs of examples/ failed: ${stderr || String(error)}`);
  }
  const result = JSON.parse(out) as Captured;
  captures.set(root, result);
  return result;
}

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const argCount = (r: CapturedResource) => Object.keys(r.args).length;

/** The file of a program's folder that declares `needle` (`new hosting.Kind(`, `getX(`). */
function fileOf(root: string, folder: string, needle: string): string | undefined {
  const dir = join(root, "examples", folder);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .find((f) => readFileSync(join(dir, f), "utf8").includes(needle));
}

interface Ref {
  $ref: { kind: string; name: string; output: string };
}
const isRef = (v: unknown): v is Ref => typeof v === "object" && v !== null && "$ref" in v;
const isSecret = (v: unknown) => typeof v === "object" && v !== null && "$secret" in v;

/** A value with each object's keys in the order its named type declares them. */
function ordered(value: unknown, shape: Shape | undefined, where: string): unknown {
  if (shape === undefined || value === null || typeof value !== "object") return value;
  const s = shapeFor(shape, value, where);
  if (Array.isArray(value))
    return "list" in s ? value.map((v, i) => ordered(v, s.list, `${where}[${i}]`)) : value;
  if (!("object" in s)) return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const rank = (k: string) => {
    const at = Object.keys(s.fields).indexOf(k);
    return at < 0 ? Number.MAX_SAFE_INTEGER : at;
  };
  return Object.fromEntries(
    entries
      .sort(([a], [b]) => rank(a) - rank(b))
      .map(([k, v]) => [k, ordered(v, s.fields[k], `${where}.${k}`)]),
  );
}

/** A captured resource as an inventory item the writers take: secrets from config, references kept. */
function itemOf(resource: CapturedResource): InventoryItem {
  const shapes = inputShapes(resource.kind);
  const args: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  const refs: InventoryItem["refs"] = {};
  for (const [key, value] of Object.entries(resource.args)) {
    if (isSecret(value)) secrets[key] = `${identifier(resource.name)}${upperFirst(key)}`;
    else if (isRef(value))
      refs[key] = { kind: value.$ref.kind, id: itemId(value.$ref), output: value.$ref.output };
    else if (JSON.stringify(value).includes('"$ref"')) {
      throw new Error(
        `${resource.kind} ${resource.name}: ${key} holds another resource's output inside a value`,
      );
    } else args[key] = ordered(value, shapes[key], `${resource.kind}.${key}`);
  }
  return {
    kind: resource.kind,
    id: itemId(resource),
    name: resource.name,
    module: { org: "example" },
    args,
    secrets,
    refs,
  };
}

const itemId = (r: { kind: string; name: string }) => `${r.kind}/${r.name}`;

/** Every example program of one set of resources, `items` in the order they are declared. */
function programsOf(items: InventoryItem[], schema: PackageSchema): Record<ExampleLanguage, string> {
  return withSchema(schema, () => ({
    typescript: typescriptDeclarations(items),
    yaml: yamlDeclarations(items, EXAMPLE_PROJECT),
    python: pythonDeclarations(items),
    go: goDeclarations(items),
  }));
}

/**
 * A kind's example: its most complete resource in the programs of `examples/`, after the resources
 * it refers to (a RunnerGroupRunners after the group whose `runnerGroupId` it takes).
 */
export function kindExample(root: string, kind: string, schema: PackageSchema): Example {
  const all = captured(root);
  const candidates = all.resources
    .filter((r) => r.kind === kind)
    .sort((a, b) => argCount(b) - argCount(a) || a.name.localeCompare(b.name));
  const chosen = candidates[0];
  if (chosen === undefined) {
    const failed = all.failures.map((f) => `\n  examples/${f.folder}: ${f.message}`).join("");
    throw new Error(
      `no program in examples/ declares a ${kind}${failed ? ` (programs that failed:${failed})` : ""}`,
    );
  }
  const chain: CapturedResource[] = [];
  const visit = (resource: CapturedResource) => {
    if (chain.includes(resource)) return;
    for (const value of Object.values(resource.args)) {
      if (!isRef(value)) continue;
      const target = all.resources.find(
        (r) => r.kind === value.$ref.kind && r.name === value.$ref.name && r.folder === resource.folder,
      );
      if (target === undefined)
        throw new Error(
          `${kind} ${resource.name} refers to ${value.$ref.kind} ${value.$ref.name}, not found`,
        );
      visit(target);
    }
    chain.push(resource);
  };
  visit(chosen);
  const items = withSchema(schema, () => chain.map(itemOf));
  return {
    folder: chosen.folder,
    file: fileOf(root, chosen.folder, `hosting.${kind}(`) ?? fileOf(root, chosen.folder, `${kind}(`),
    programs: programsOf(items, schema),
    secrets: items.flatMap((i) => Object.values(i.secrets)),
  };
}

/** Sample values for a function no program calls, by argument name (the sandbox's fixture). */
const SAMPLES: Record<string, unknown> = {
  org: "acme-eng",
  owner: "acme-eng",
  repository: "api",
  branch: "main",
  enterprise: "acme",
  username: "mona",
  kind: "participation",
  slug: "platform",
};

/** A function's example: its call in a program of `examples/` with the most arguments, else one of samples. */
export function functionExample(root: string, fn: FunctionDeclaration, schema: PackageSchema): Example {
  const call = captured(root)
    .calls.filter((c) => c.function === fn.name)
    .sort((a, b) => Object.keys(b.args).length - Object.keys(a.args).length)[0];
  const spec = schema.functions[typeToken(fn.name)];
  if (spec === undefined) throw new Error(`schema.json has no ${typeToken(fn.name)}`);
  const args: Record<string, unknown> = {};
  if (call !== undefined) {
    // In the order the function declares its arguments.
    for (const key of Object.keys(spec.inputs.properties))
      if (call.args[key] !== undefined) args[key] = call.args[key];
  } else {
    for (const key of spec.inputs.required) {
      const sample = SAMPLES[key] ?? firstEnumValue(schema, spec.inputs.properties[key]);
      if (sample === undefined)
        throw new Error(`${fn.name}: no sample value for its argument ${key} (SAMPLES)`);
      args[key] = sample;
    }
  }
  const shapes = withSchema(schema, () => functionArgShapes(fn.name));
  const result = lowerFirst(fn.name.replace(/^get(?=[A-Z])/, ""));
  return {
    ...(call === undefined ? {} : { folder: call.folder, file: fileOf(root, call.folder, `${fn.name}(`) }),
    programs: {
      typescript: typescriptCall(fn.name, args, result),
      yaml: yamlCall(fn.name, args, result),
      python: withSchema(schema, () => pythonCall(fn.name, args, shapes, result)),
      go: goCall(fn.name, args, shapes, new Set(spec.inputs.required), result),
    },
    secrets: [],
  };
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

function firstEnumValue(schema: PackageSchema, property: { oneOf?: Array<{ $ref?: string }> } | undefined) {
  const ref = property?.oneOf?.find((t) => t.$ref !== undefined)?.$ref?.replace("#/types/", "");
  const type = ref === undefined ? undefined : schema.types[ref];
  return type?.type === "string" ? type.enum[0]?.value : undefined;
}

function typescriptCall(name: string, args: Record<string, unknown>, result: string): string {
  const head = `export const ${result} = hosting.${name}Output(`;
  return [
    'import * as hosting from "pulumi-hosting";',
    "",
    `// ${name}Output takes Inputs (another resource's outputs too) and gives an Output;`,
    `// ${name} takes plain values and gives a promise.`,
    `${head}${literal(args, head.length)});`,
    "",
  ].join("\n");
}

function yamlCall(name: string, args: Record<string, unknown>, result: string): string {
  const doc = new Document(null, { compat: "yaml-1.1" });
  const top = new YAMLMap<unknown, unknown>();
  doc.contents = top;
  // Pulumi YAML reads `${...}` in any string as an expression: a `$` of a value is written `$$`.
  const escaped = JSON.parse(JSON.stringify(args), (_k, v: unknown) =>
    typeof v === "string" ? v.replaceAll("$", "$$$$") : v,
  ) as Record<string, unknown>;
  top.set("name", EXAMPLE_PROJECT);
  top.set("runtime", "yaml");
  top.set(
    "variables",
    doc.createNode({
      [result]: {
        "fn::invoke": {
          function: typeToken(name),
          ...(Object.keys(escaped).length > 0 ? { arguments: escaped } : {}),
        },
      },
    }),
  );
  top.set("outputs", doc.createNode({ [result]: `\${${result}}` }));
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

function pythonCall(
  name: string,
  args: Record<string, unknown>,
  shapes: Record<string, Shape>,
  result: string,
): string {
  const variable = pythonName(result);
  const parts = Object.entries(args).map(([key, value]) => {
    const shape = shapes[key];
    if (shape === undefined) throw new Error(`${name}.${key} is not in schema.json`);
    return `${pythonName(key)}=${pythonValue(value, shape, 4 + pythonName(key).length + 1, `${name}.${key}`)}`;
  });
  const head = `${variable} = hosting.${pythonName(name)}(`;
  const inline = `${head}${parts.join(", ")})`;
  const call =
    inline.length <= 88 && !inline.includes("\n")
      ? inline
      : [head, ...parts.map((p) => `    ${p.replace(/\n/g, "\n    ")},`), ")"].join("\n");
  return [
    "import pulumi",
    "import pulumi_hosting as hosting",
    "",
    call,
    `pulumi.export(${JSON.stringify(result)}, ${variable})`,
    "",
  ].join("\n");
}

/** Each scalar's Go type and the SDK's function making a pointer of one (an optional argument). */
const GO_SCALARS = {
  string: ["string", "StringRef"],
  integer: ["int", "IntRef"],
  number: ["float64", "Float64Ref"],
  boolean: ["bool", "BoolRef"],
} as const;

/** A function argument as Go writes it: plain Go values (an invoke's Args are no Inputs). */
function goPlain(value: unknown, shape: Shape, required: boolean, where: string): string {
  const literalOf = (v: unknown, scalar: keyof typeof GO_SCALARS) =>
    scalar === "string" ? goString(String(v)) : scalar === "boolean" ? String(Boolean(v)) : String(v);
  if ("oneOf" in shape || "any" in shape) {
    // A choice (one value or a list) is Go's interface{}: the value as it is.
    const s = shapeFor(shape, value, where);
    if ("scalar" in s) return literalOf(value, s.scalar);
    if ("list" in s && "scalar" in s.list) {
      const scalar = s.list.scalar;
      return `[]${GO_SCALARS[scalar][0]}{${(value as unknown[]).map((v) => literalOf(v, scalar)).join(", ")}}`;
    }
    throw new Error(`${where}: ${JSON.stringify(value)} has no counterpart in the Go example`);
  }
  if ("scalar" in shape) {
    const text = literalOf(value, shape.scalar);
    return required ? text : `pulumi.${GO_SCALARS[shape.scalar][1]}(${text})`;
  }
  if ("list" in shape && "scalar" in shape.list) {
    const scalar = shape.list.scalar;
    return `[]${GO_SCALARS[scalar][0]}{${(value as unknown[]).map((v) => literalOf(v, scalar)).join(", ")}}`;
  }
  throw new Error(`${where}: ${JSON.stringify(value)} has no counterpart in the Go example`);
}

function goCall(
  name: string,
  args: Record<string, unknown>,
  shapes: Record<string, Shape>,
  required: ReadonlySet<string>,
  result: string,
): string {
  const TAB = "\t";
  const entries = Object.entries(args).map(([key, value]): [string, string] => {
    const shape = shapes[key];
    if (shape === undefined) throw new Error(`${name}.${key} is not in schema.json`);
    return [goName(key), goPlain(value, shape, required.has(key), `${name}.${key}`)];
  });
  const fn = goName(name);
  return [
    "package main",
    "",
    "import (",
    `${TAB}"github.com/pulumi-hosting/pulumi-hosting/sdk/go/hosting"`,
    `${TAB}"github.com/pulumi/pulumi/sdk/v3/go/pulumi"`,
    ")",
    "",
    "func main() {",
    `${TAB}pulumi.Run(func(ctx *pulumi.Context) error {`,
    ...(entries.length === 0
      ? [`${TAB}${TAB}${result}, err := hosting.${fn}(ctx, &hosting.${fn}Args{})`]
      : [
          `${TAB}${TAB}${result}, err := hosting.${fn}(ctx, &hosting.${fn}Args{`,
          ...keyValues(entries, TAB.repeat(3)),
          `${TAB}${TAB}})`,
        ]),
    `${TAB}${TAB}if err != nil {`,
    `${TAB}${TAB}${TAB}return err`,
    `${TAB}${TAB}}`,
    `${TAB}${TAB}ctx.Export(${goString(result)}, pulumi.Any(${result}))`,
    `${TAB}${TAB}return nil`,
    `${TAB}})`,
    "}",
    "",
  ].join("\n");
}
