/**
 * The Go writer: the same inventory as the TypeScript writer, as a Pulumi Go program for the native
 * plugin and the Go SDK (`github.com/pulumi-hosting/pulumi-hosting/sdk/go/hosting`). Each module of
 * the TypeScript program becomes a file with one function, called by `main.go` in the same order;
 * the same resource names, the same arguments in the same order (as the SDK names them) and the
 * same destroy policy; each resource adopts its object with `pulumi.Import`. Secrets come from stack
 * config (`RequireSecret`); a reference to another object's output is that resource's field. Files
 * are laid out as gofmt lays them out. Beside them a `package.json` whose `npm install` puts the
 * plugin in `node_modules/.bin` (named in Pulumi.yaml) and the SDK in
 * `node_modules/pulumi-hosting/sdk/go`, which `go.mod` replaces the module with.
 */
import type { Inventory, InventoryItem, ModuleKey } from "./inventory";
import {
  argumentsOf,
  indentRest,
  itemKey,
  itemsByKey,
  literal,
  modulesOf,
  moduleTitle,
  type PackageOptions,
  packageJsonOf,
  pluginFrom,
  REFRESH_ALWAYS,
  referencedKeys,
} from "./layout";
import { identifier, takeUnique, uniqueFileName } from "./naming";
import { enumNameOf, goName, inputShapes, type Shape, shapeFor, type ValueShape } from "./sdk-types";
import { commentText, goString } from "./text";
import { yamlScalar } from "./yaml";

export { goString };

const TAB = "\t";
/** The module path of the Go SDK (schema.json's `language.go.importBasePath`, less the package). */
export const GO_SDK_MODULE = "github.com/pulumi-hosting/pulumi-hosting/sdk/go";
/** The Pulumi Go SDK the generated SDK is built against (its go.mod). */
const GO_PULUMI_SDK = "v3.259.0";
export interface GoProgramOptions extends PackageOptions {
  /** The version of pulumi-hosting the program requires (replaced by its folder in node_modules). */
  sdkVersion: string;
  /**
   * The folder, relative to the program, holding the `node_modules` `npm install` fills: the
   * program's own (`.`, the default), or a fleet's root (`..`), shared by its projects.
   */
  root?: string;
}

/** File name -> contents, every file of the program. */
export function writeGoProgram(inventory: Inventory, options: GoProgramOptions): Map<string, string> {
  const files = new Map<string, string>();
  const referenced = referencedKeys(inventory);
  const byKey = itemsByKey(inventory);
  const taken = new Set<string>();
  // main.go is the program's own; `a_b` and `a-b` would both be `a-b.go`.
  const fileNames = new Set(["main"]);
  const modules = modulesOf(inventory).map((m) => {
    const base = goIdentifier(m.file);
    return { ...m, fn: takeUnique(base, taken, (n) => `${base}${n}`) };
  });
  for (const { key, file, fn, items } of modules) {
    // A hyphen keeps a file name clear of Go's `_test` and `_<os>` suffixes.
    files.set(
      `${uniqueFileName(file.replaceAll("_", "-"), fileNames)}.go`,
      moduleSource(key, fn, items, referenced, byKey, inventory.apiRoot),
    );
  }
  files.set("main.go", mainSource(modules.map((m) => m.fn)));
  files.set("go.mod", goMod(options));
  files.set("Pulumi.yaml", pulumiYaml(options.project, options.root ?? "."));
  files.set("package.json", `${literal(packageJsonOf(options), 0, true)}\n`);
  return files;
}

/** A name as a Go identifier (camelCase, unexported), never a keyword or a name the program uses. */
export function goIdentifier(name: string): string {
  const id = identifier(name).replace(/^_/, "");
  return /^[0-9]/.test(id) || GO_RESERVED.has(id) ? `_${id}` : id;
}

const GO_RESERVED = new Set(
  (
    "break case chan const continue default defer else fallthrough for func go goto if import " +
    "interface map package range return select struct switch type var " +
    "bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string " +
    "uint uint8 uint16 uint32 uint64 uintptr true false iota nil any append cap clear close complex " +
    "copy delete imag len make max min new panic print println real recover " +
    "pulumi hosting config ctx cfg err main"
  ).split(" "),
);

function moduleSource(
  key: ModuleKey,
  fn: string,
  ordered: InventoryItem[],
  referenced: ReadonlySet<string>,
  byKey: ReadonlyMap<string, InventoryItem>,
  apiRoot: string,
): string {
  const needsConfig = ordered.some((i) => Object.keys(i.secrets).length > 0);
  const lines = [
    "package main",
    "",
    "import (",
    `${TAB}"${GO_SDK_MODULE}/hosting"`,
    `${TAB}"github.com/pulumi/pulumi/sdk/v3/go/pulumi"`,
    `${TAB}"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"`,
    ")",
    "",
    `// ${commentText(`${fn} declares ${lowerFirst(moduleTitle(key))}, as read from ${apiRoot}.`)}`,
    "// Each resource adopts the object it names.",
    `func ${fn}(ctx *pulumi.Context, ${needsConfig ? "cfg" : "_"} *config.Config) error {`,
  ];
  for (const [at, item] of ordered.entries()) {
    if (at > 0) lines.push("");
    lines.push(...resourceSource(item, referenced.has(itemKey(item.kind, item.id)), byKey));
  }
  lines.push(`${TAB}return nil`, "}");
  return `${lines.join("\n")}\n`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function resourceSource(
  item: InventoryItem,
  isReferenced: boolean,
  byKey: ReadonlyMap<string, InventoryItem>,
): string[] {
  const shapes = inputShapes(item.kind);
  const entries: Array<[string, string]> = argumentsOf(item, byKey, false).map((arg) => {
    const key = goName(arg.key);
    if ("secret" in arg) return [key, `cfg.RequireSecret(${goString(arg.secret)})`];
    if ("ref" in arg) return [key, `${goIdentifier(arg.ref.target.name)}.${goName(arg.ref.output)}`];
    const shape = shapes[arg.key];
    if (shape === undefined) throw new Error(`${item.kind}.${arg.key} is not in schema.json`);
    return [key, goValue(arg.value, shape, `${item.kind}.${arg.key}`)];
  });
  const options: string[] = [];
  if (item.adopted !== undefined) options.push(`pulumi.Import(pulumi.ID(${goString(item.id)}))`);
  if (item.adopted?.retainOnDelete) options.push("pulumi.RetainOnDelete(true)");
  const call = `hosting.New${item.kind}(ctx, ${goString(item.name)}, &hosting.${item.kind}Args{`;
  const body = keyValues(entries, TAB + TAB);
  const close = `${TAB}}${options.map((o) => `, ${o}`).join("")})`;
  const comment = item.adopted === undefined ? [] : [`${TAB}// ${item.adopted.comment}`];
  if (isReferenced) {
    return [
      ...comment,
      `${TAB}${goIdentifier(item.name)}, err := ${call}`,
      ...body,
      close,
      `${TAB}if err != nil {`,
      `${TAB}${TAB}return err`,
      `${TAB}}`,
    ];
  }
  return [
    ...comment,
    `${TAB}if _, err := ${call}`,
    ...body,
    `${close}; err != nil {`,
    `${TAB}${TAB}return err`,
    `${TAB}}`,
  ];
}

/**
 * A program that declares `items` (objects it makes: no adoption), as the reference pages show it:
 * `main.go` whose `pulumi.Run` declares each resource, a resource another refers to as a variable,
 * reading stack config where an argument is a secret.
 */
export function declarationsSource(items: readonly InventoryItem[]): string {
  const byKey = new Map(items.map((i) => [itemKey(i.kind, i.id), i]));
  const referenced = new Set(items.flatMap((i) => Object.values(i.refs).map((r) => itemKey(r.kind, r.id))));
  const needsConfig = items.some((i) => Object.keys(i.secrets).length > 0);
  const body: string[] = [];
  if (needsConfig) body.push(`${TAB}cfg := config.New(ctx, "")`);
  for (const item of items) {
    body.push(...resourceSource(item, referenced.has(itemKey(item.kind, item.id)), byKey));
  }
  body.push(`${TAB}return nil`);
  return [
    "package main",
    "",
    "import (",
    `${TAB}"${GO_SDK_MODULE}/hosting"`,
    `${TAB}"github.com/pulumi/pulumi/sdk/v3/go/pulumi"`,
    ...(needsConfig ? [`${TAB}"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"`] : []),
    ")",
    "",
    "func main() {",
    `${TAB}pulumi.Run(func(ctx *pulumi.Context) error {`,
    // The declarations are written for a function body: one level deeper here.
    ...body
      .join("\n")
      .split("\n")
      .map((line) => (line === "" ? line : `${TAB}${line}`)),
    `${TAB}})`,
    "}",
    "",
  ].join("\n");
}

/**
 * `Key: value,` lines of a composite literal as gofmt aligns them: the values of consecutive
 * single-line entries start in one column; an entry of several lines ends such a run.
 */
export function keyValues(entries: Array<[string, string]>, indent: string): string[] {
  const lines: string[] = [];
  let run: Array<[string, string]> = [];
  const flush = () => {
    const width = Math.max(...run.map(([k]) => k.length));
    for (const [k, v] of run) lines.push(`${indent}${`${k}:`.padEnd(width + 2)}${v},`);
    run = [];
  };
  for (const [key, value] of entries) {
    if (!value.includes("\n")) {
      run.push([key, value]);
      continue;
    }
    if (run.length > 0) flush();
    lines.push(`${indent}${key}: ${indentRest(value, indent)},`);
  }
  if (run.length > 0) flush();
  return lines;
}

/** A value as Go source of the SDK's input types. */
export function goValue(value: unknown, shape: Shape, where: string): string {
  if (value === null) return "nil";
  const s = shapeFor(shape, value, where);
  if ("object" in s) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => {
        const field = s.fields[k];
        if (field === undefined) throw new Error(`${where}.${k} is not in schema.json`);
        return [goName(k), goValue(v, field, `${where}.${k}`)];
      });
    return [`&hosting.${s.object}Args{`, ...keyValues(entries, TAB), "}"].join("\n");
  }
  if ("map" in s) {
    // A map's keys are the program's own (a rule's camelCase parameters).
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [goString(k), goValue(v, s.map, `${where}.${k}`)]);
    return entries.length === 0
      ? "pulumi.Map{}"
      : ["pulumi.Map{", ...keyValues(entries, TAB), "}"].join("\n");
  }
  if ("list" in s) {
    const items = value as unknown[];
    const element = shapeFor(s.list, items[0], `${where}[0]`);
    if ("scalar" in element) {
      const [go, array, wrapper] = SCALARS[element.scalar];
      if (items.some((v) => enumNameOf(element, v) !== undefined)) {
        // Constants of an enum are values of the element type, not of Go's `string`.
        const values = items.map(
          (v) => goEnumConstant(element, v) ?? `pulumi.${wrapper}(${goString(String(v))})`,
        );
        return `pulumi.${array}{${values.join(", ")}}`;
      }
      return `pulumi.To${array}([]${go}{${items.map((v) => scalarLiteral(v, element.scalar)).join(", ")}})`;
    }
    if ("object" in element) {
      // An empty list on one line, as gofmt writes it (`{\n}` is not gofmt's form).
      if (items.length === 0) return `hosting.${element.object}Array{}`;
      const inner = items.map((v, i) => indentRest(goValue(v, element, `${where}[${i}]`), TAB));
      return [`hosting.${element.object}Array{`, ...inner.map((v) => `${TAB}${v},`), "}"].join("\n");
    }
    if ("map" in element) {
      const inner = items.map((v, i) => indentRest(goValue(v, element, `${where}[${i}]`), TAB));
      return ["pulumi.Array{", ...inner.map((v) => `${TAB}${v},`), "}"].join("\n");
    }
    throw new Error(`${where}: a list of ${JSON.stringify(s.list)} has no counterpart in the Go writer`);
  }
  const [, , wrapper] = SCALARS[s.scalar];
  return goEnumConstant(s, value) ?? `pulumi.${wrapper}(${scalarLiteral(value, s.scalar)})`;
}

/**
 * A value of the argument's enum as the SDK's typed constant (`hosting.OrgMembershipRoleAdmin`,
 * which is a `pulumi.StringInput` too); undefined for any other value, written as a plain string
 * (the SDK takes both, and the provider names the allowed values of one it refuses).
 */
function goEnumConstant(shape: ValueShape, value: unknown): string | undefined {
  const member = enumNameOf(shape, value);
  return member === undefined ? undefined : `hosting.${member.type}${member.name}`;
}

/** Each scalar's Go type, the SDK's array type, and its input wrapper. */
const SCALARS = {
  string: ["string", "StringArray", "String"],
  integer: ["int", "IntArray", "Int"],
  number: ["float64", "Float64Array", "Float64"],
  boolean: ["bool", "BoolArray", "Bool"],
} as const;

function scalarLiteral(value: unknown, scalar: keyof typeof SCALARS): string {
  if (scalar === "string") return goString(String(value));
  if (scalar === "boolean") return value ? "true" : "false";
  return String(value);
}

function mainSource(functions: string[]): string {
  return [
    "// The installation as code: each function declares the objects of one organisation, one",
    "// enterprise or the site administration. The first `pulumi up` adopts them and changes nothing",
    "// on the server beyond the secrets set from stack config.",
    "package main",
    "",
    "import (",
    `${TAB}"github.com/pulumi/pulumi/sdk/v3/go/pulumi"`,
    `${TAB}"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"`,
    ")",
    "",
    "func main() {",
    `${TAB}pulumi.Run(func(ctx *pulumi.Context) error {`,
    `${TAB}${TAB}cfg := config.New(ctx, "")`,
    `${TAB}${TAB}for _, declare := range []func(*pulumi.Context, *config.Config) error{`,
    ...functions.map((f) => `${TAB}${TAB}${TAB}${f},`),
    `${TAB}${TAB}} {`,
    `${TAB}${TAB}${TAB}if err := declare(ctx, cfg); err != nil {`,
    `${TAB}${TAB}${TAB}${TAB}return err`,
    `${TAB}${TAB}${TAB}}`,
    `${TAB}${TAB}}`,
    `${TAB}${TAB}return nil`,
    `${TAB}})`,
    "}",
    "",
  ].join("\n");
}

function goMod(options: GoProgramOptions): string {
  return [
    `module ${options.project}`,
    "",
    "go 1.25",
    "",
    "require (",
    `${TAB}${GO_SDK_MODULE} v${options.sdkVersion}`,
    `${TAB}github.com/pulumi/pulumi/sdk/v3 ${GO_PULUMI_SDK}`,
    ")",
    "",
    "// The SDK comes with the plugin: `npm install` puts it below node_modules (package.json).",
    `replace ${GO_SDK_MODULE} => ${options.root ?? "."}/node_modules/pulumi-hosting/sdk/go`,
    "",
  ].join("\n");
}

function pulumiYaml(project: string, root: string): string {
  return [
    `name: ${yamlScalar(project)}`,
    "description: Hosting platform settings as code",
    "runtime: go",
    ...REFRESH_ALWAYS,
    ...pluginFrom(root),
    "",
  ].join("\n");
}
