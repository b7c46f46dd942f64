/**
 * The Python writer: the same inventory as the TypeScript writer, as a Pulumi Python program for
 * the native plugin and the Python SDK (`pulumi_hosting`). The modules of the TypeScript program
 * become the modules of a package `installation` (a login never shadows a module of Python's own),
 * imported by `__main__.py` in the same order; the same resource names, the same arguments in the
 * same order (snake_case, as the SDK names them; a value of an enum as the SDK's constant) and the
 * same destroy policy; each resource adopts
 * its object with Pulumi's `import_` option. Secrets come from stack config (`require_secret`); a
 * reference to another object's output is that resource's attribute. Beside it a `package.json`
 * whose `npm install` puts the plugin in `node_modules/.bin` (named in Pulumi.yaml) and the SDK in
 * `node_modules/pulumi-hosting/sdk/python`, which `requirements.txt` installs from.
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
import { slug, takeUnique } from "./naming";
import { enumNameOf, inputShapes, pythonName, type Shape, shapeFor } from "./sdk-types";
import { commentText, pyString } from "./text";
import { yamlScalar } from "./yaml";

const INDENT = "    ";
/** Black's line width, the formatter most Python projects use. */
const LINE_WIDTH = 88;
/** The package the modules are written in. */
const PACKAGE = "installation";
export interface PythonProgramOptions extends PackageOptions {
  /**
   * The folder, relative to the program, holding the `node_modules` `npm install` fills and the
   * virtualenv: the program's own (`.`, the default), or a fleet's root (`..`), shared by its projects.
   */
  root?: string;
}

/** File name -> contents, every file of the program. */
export function writePythonProgram(inventory: Inventory, options: PythonProgramOptions): Map<string, string> {
  const root = options.root ?? ".";
  const files = new Map<string, string>();
  const referenced = referencedKeys(inventory);
  const byKey = itemsByKey(inventory);
  const taken = new Set<string>();
  const modules = modulesOf(inventory).map((m) => {
    const base = pythonIdentifier(m.file);
    // A second `a-b` (or `a_b`) gets `_2`.
    return { ...m, module: takeUnique(base, taken, (n) => `${base}_${n}`) };
  });
  for (const { key, module, items } of modules) {
    files.set(`${PACKAGE}/${module}.py`, moduleSource(key, items, referenced, byKey, inventory.apiRoot));
  }
  files.set(
    `${PACKAGE}/__init__.py`,
    '"""The installation as code: one module per organisation, enterprise or site administration."""\n',
  );
  files.set("__main__.py", mainSource(modules.map((m) => m.module)));
  files.set("Pulumi.yaml", pulumiYaml(options.project, root));
  files.set("requirements.txt", requirements(root));
  files.set("package.json", `${literal(packageJsonOf(options), 0, true)}\n`);
  return files;
}

/** A name as a Python identifier: slug words joined by `_`, never a keyword or a name the program uses. */
export function pythonIdentifier(name: string): string {
  const id = slug(name).replaceAll("-", "_");
  return /^[0-9]/.test(id) || PY_RESERVED.has(id) ? `_${id}` : id;
}

const PY_RESERVED = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally " +
    "for from global if import in is lambda nonlocal not or pass raise return try while with yield " +
    "pulumi hosting config installation"
  ).split(" "),
);

function moduleSource(
  key: ModuleKey,
  ordered: InventoryItem[],
  referenced: ReadonlySet<string>,
  byKey: ReadonlyMap<string, InventoryItem>,
  apiRoot: string,
): string {
  const lines = [
    `"""${docstringText(`${moduleTitle(key)}, as read from ${apiRoot}.`)}`,
    "",
    "Each resource adopts the object it names.",
    '"""',
    "",
    "import pulumi",
    "import pulumi_hosting as hosting",
    "",
  ];
  if (ordered.some((i) => Object.keys(i.secrets).length > 0)) lines.push("config = pulumi.Config()", "");
  for (const item of ordered) {
    lines.push("", ...resourceSource(item, referenced.has(itemKey(item.kind, item.id)), byKey));
  }
  return `${lines.join("\n").replace(/\n{4,}/g, "\n\n\n")}\n`;
}

function resourceSource(
  item: InventoryItem,
  isReferenced: boolean,
  byKey: ReadonlyMap<string, InventoryItem>,
): string[] {
  const shapes = inputShapes(item.kind);
  const head = `${isReferenced ? `${pythonIdentifier(item.name)} = ` : ""}hosting.${item.kind}(`;
  const body = [`${INDENT}${pyString(item.name)},`];
  for (const arg of argumentsOf(item, byKey, false)) {
    const key = pythonName(arg.key);
    let value: string;
    if ("secret" in arg) value = `config.require_secret(${pyString(arg.secret)})`;
    else if ("ref" in arg) value = `${pythonIdentifier(arg.ref.target.name)}.${pythonName(arg.ref.output)}`;
    else {
      const shape = shapes[arg.key];
      if (shape === undefined) throw new Error(`${item.kind}.${arg.key} is not in schema.json`);
      value = pythonValue(arg.value, shape, INDENT.length + key.length + 1, `${item.kind}.${arg.key}`);
    }
    body.push(`${INDENT}${key}=${indentRest(value, INDENT)},`);
  }
  if (item.adopted === undefined) return [head, ...body, ")"];
  const options = [`import_=${pyString(item.id, `${item.kind} ${item.name}'s id`)}`];
  if (item.adopted.retainOnDelete) options.push("retain_on_delete=True");
  const opts = `${INDENT}opts=pulumi.ResourceOptions(${options.join(", ")}),`;
  body.push(
    opts.length <= LINE_WIDTH
      ? opts
      : [
          `${INDENT}opts=pulumi.ResourceOptions(`,
          ...options.map((o) => `${INDENT}${INDENT}${o},`),
          `${INDENT}),`,
        ].join("\n"),
  );
  return [`# ${item.adopted.comment}`, head, ...body, ")"];
}

/**
 * A program that declares `items` (objects it makes: no adoption), as the reference pages show it:
 * the imports, stack config where an argument is a secret, then each resource, a resource another
 * refers to as a variable.
 */
export function declarationsSource(items: readonly InventoryItem[]): string {
  const byKey = new Map(items.map((i) => [itemKey(i.kind, i.id), i]));
  const referenced = new Set(items.flatMap((i) => Object.values(i.refs).map((r) => itemKey(r.kind, r.id))));
  const needsConfig = items.some((i) => Object.keys(i.secrets).length > 0);
  const lines = [...(needsConfig ? ["import pulumi"] : []), "import pulumi_hosting as hosting", ""];
  if (needsConfig) lines.push("config = pulumi.Config()", "");
  for (const item of items) {
    lines.push(...resourceSource(item, referenced.has(itemKey(item.kind, item.id)), byKey), "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/**
 * A value as Python source of the SDK's types: nested objects as their `...Args` class, lists
 * inline where they fit in the line (else one element per line), text as JSON writes it (a valid
 * Python string literal).
 */
export function pythonValue(value: unknown, shape: Shape, column: number, where: string): string {
  if (value === null) return "None";
  const s = shapeFor(shape, value, where);
  if ("object" in s) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    const lines = entries.map(([k, v]) => {
      const field = s.fields[k];
      if (field === undefined) throw new Error(`${where}.${k} is not in schema.json`);
      const key = pythonName(k);
      return `${INDENT}${key}=${indentRest(pythonValue(v, field, column + INDENT.length + key.length + 1, `${where}.${k}`), INDENT)},`;
    });
    return `hosting.${s.object}Args(\n${lines.join("\n")}\n)`;
  }
  if ("map" in s) {
    // A map's keys are the program's own (a rule's camelCase parameters), as JSON writes them.
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(
        ([k, v]) => `${JSON.stringify(k)}: ${pythonValue(v, s.map, column + k.length + 4, `${where}.${k}`)}`,
      );
    const inline = `{${entries.join(", ")}}`;
    if (!inline.includes("\n") && column + inline.length + 1 <= LINE_WIDTH) return inline;
    return `{\n${entries.map((e) => `${INDENT}${indentRest(e, INDENT)},`).join("\n")}\n}`;
  }
  if ("list" in s) {
    const items = (value as unknown[]).map((v, i) => pythonValue(v, s.list, column + 1, `${where}[${i}]`));
    const inline = `[${items.join(", ")}]`;
    if (!inline.includes("\n") && column + inline.length + 1 <= LINE_WIDTH) return inline;
    return `[\n${items.map((v) => `${INDENT}${indentRest(v, INDENT)},`).join("\n")}\n]`;
  }
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") {
    // A value of the argument's enum as the SDK's constant; any other string as it is (the SDK
    // takes both, and the provider names the allowed values of one it refuses).
    const member = enumNameOf(s, value);
    return member === undefined
      ? pyString(value, where)
      : `hosting.${member.type}.${pythonEnumMember(member.name)}`;
  }
  return JSON.stringify(value);
}

/** The member of a Python enum class for a value named `name` in the schema (`TwoFaDisabled` -> `TWO_FA_DISABLED`). */
export function pythonEnumMember(name: string): string {
  return pythonName(name).toUpperCase();
}

/** Text for a docstring: a comment's text, with no backslash or quote that would end or escape it. */
function docstringText(text: string): string {
  return commentText(text).replaceAll("\\", "\\\\").replaceAll('"', '\\"');
}

function mainSource(modules: string[]): string {
  return [
    '"""The installation as code.',
    "",
    "Each module declares the objects of one organisation, one enterprise or the site administration.",
    "The first `pulumi up` adopts them and changes nothing on the server beyond the secrets set from",
    "stack config.",
    '"""',
    "",
    ...modules.map((m) => `import ${PACKAGE}.${m}  # noqa: F401`),
    "",
  ].join("\n");
}

function pulumiYaml(project: string, root: string): string {
  return [
    `name: ${yamlScalar(project)}`,
    "description: Hosting platform settings as code",
    "runtime:",
    "  name: python",
    "  options:",
    "    toolchain: pip",
    `    virtualenv: ${root === "." ? "venv" : `${root}/venv`}`,
    ...REFRESH_ALWAYS,
    ...pluginFrom(root),
    "",
  ].join("\n");
}

/** The `pulumi` the SDK's setup.py requires (the generator's floor, this major version). */
const PYTHON_PULUMI = ">=3.231.0,<4.0.0";

function requirements(root: string): string {
  return [
    "# `npm install` first: it puts the SDK below node_modules (package.json).",
    `pulumi${PYTHON_PULUMI}`,
    `${root}/node_modules/pulumi-hosting/sdk/python`,
    "",
  ].join("\n");
}
