/**
 * The YAML writer: the same inventory as the TypeScript writer, as a Pulumi YAML program for the
 * native plugin (`hosting:index:<Kind>`). One `Pulumi.yaml` (a YAML program is one file) with the
 * modules of the TypeScript program as commented sections in the same order, the same resource
 * names, the same arguments in the same order and the same destroy policy; each resource adopts
 * its object with Pulumi's own `import` option, which the plugin supports (the dynamic resources'
 * `importId` is left out). Secrets come from stack config declared `secret: true`; a reference to
 * another object's output is `${name.output}`. Beside it a `package.json` whose `npm install` puts
 * the plugin in `node_modules/.bin`, where `plugins.providers` names it (README, "The native
 * plugin", way B).
 */
import { resourceToken } from "../provider/plugin/resources";
import type { Inventory, InventoryItem } from "./inventory";
import {
  type Argument,
  argumentsOf,
  itemsByKey,
  LINE_WIDTH,
  modulesOf,
  moduleTitle,
  type PackageOptions,
  packageJsonOf,
  pluginFrom,
  REFRESH_ALWAYS,
} from "./layout";
import { literal } from "./typescript";

const INDENT = "  ";

/** File name -> contents: `Pulumi.yaml` and `package.json`. */
export function writeYamlProgram(
  inventory: Inventory,
  options: PackageOptions & {
    /** The folder of the `node_modules` `npm install` fills: `..` for a fleet's projects, which share their root's. */
    root?: string;
  },
): Map<string, string> {
  const byKey = itemsByKey(inventory);
  const modules = modulesOf(inventory);
  // In the program's order, so the same inventory in another order writes the same file.
  const secrets = modules.flatMap((m) => m.items.flatMap((i) => Object.values(i.secrets)));
  const lines = [
    `# Hosting platform settings as code, as read from ${inventory.apiRoot}.`,
    "# Each resource adopts the object it names (`import`): the first `pulumi up` changes nothing on the",
    "# server beyond the secrets set from stack config.",
    `name: ${scalar(options.project)}`,
    "description: Hosting platform settings as code",
    "runtime: yaml",
    ...REFRESH_ALWAYS,
    ...pluginFrom(options.root),
  ];
  if (secrets.length > 0) {
    lines.push(
      "# Secrets the API never returns: `pulumi config set --secret <key> <value>` for each.",
      "config:",
    );
    for (const key of secrets) lines.push(`  ${scalar(key)}:`, "    type: string", "    secret: true");
  }
  lines.push("resources:");
  for (const [at, { file, items }] of modules.entries()) {
    lines.push(...(at === 0 ? [] : [""]), `${INDENT}# ${moduleTitle(file)}.`);
    for (const item of items) lines.push("", ...resourceLines(item, byKey));
  }
  const files = new Map<string, string>();
  files.set("Pulumi.yaml", `${lines.join("\n")}\n`);
  files.set("package.json", `${literal(packageJsonOf(options), 0, true)}\n`);
  return files;
}

function resourceLines(item: InventoryItem, byKey: ReadonlyMap<string, InventoryItem>): string[] {
  const at = INDENT.repeat(3);
  const lines = [
    `${INDENT}# ${item.adopted.comment}`,
    `${INDENT}${scalar(item.name)}:`,
    `${INDENT}${INDENT}type: ${resourceToken(item.kind)}`,
  ];
  const args = argumentsOf(item, byKey, false);
  if (args.length > 0) {
    lines.push(`${INDENT}${INDENT}properties:`);
    for (const arg of args) lines.push(...entry(arg.key, written(arg), at));
  }
  lines.push(`${INDENT}${INDENT}options:`, `${at}import: ${scalar(item.id)}`);
  if (item.adopted.retainOnDelete) lines.push(`${at}retainOnDelete: true`);
  return lines;
}

/** An argument as the value written: literals as they are, the others as `${...}` expressions. */
function written(arg: Argument): Value {
  if ("secret" in arg) return new Expression(`\${${arg.secret}}`);
  if ("ref" in arg) return new Expression(`\${${arg.ref.target.name}.${arg.ref.output}}`);
  return arg.value;
}

/** A string written as it is: Pulumi YAML reads `${...}` in it as an expression. */
class Expression {
  constructor(readonly text: string) {}
}

type Value = unknown;

/**
 * `key: value` at an indentation, the value laid out as a person writes YAML: scalars on the line,
 * lists of scalars inline where they fit in the line (else one `- item` a line), objects and lists
 * of objects as blocks, text of several lines as a literal block (`|`).
 */
function entry(key: string, value: Value, indent: string): string[] {
  const head = `${indent}${scalar(key)}:`;
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${head} []`];
    if (value.every(isScalar)) {
      const inline = `${head} [${value.map((v) => scalarValue(v, true)).join(", ")}]`;
      if (inline.length <= LINE_WIDTH) return [inline];
    }
    return [head, ...value.flatMap((v) => listItem(v, indent + INDENT))];
  }
  if (isObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return [`${head} {}`];
    return [head, ...entries.flatMap(([k, v]) => entry(k, v, indent + INDENT))];
  }
  const block = literalBlock(value, indent + INDENT);
  if (block) return [`${head} ${block[0]}`, ...block.slice(1)];
  return [`${head} ${scalarValue(value, false)}`];
}

/** One element of a block list: `- value`, an object with its first entry beside the dash. */
function listItem(value: Value, indent: string): string[] {
  const dash = `${indent}- `;
  if (isObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return [`${dash}{}`];
    const inner = indent + INDENT;
    const lines = entries.flatMap(([k, v]) => entry(k, v, inner));
    return lines.map((line, i) => (i === 0 ? dash + line.slice(inner.length) : line));
  }
  if (Array.isArray(value)) {
    return [
      `${dash}[${value.map((v) => (isScalar(v) ? scalarValue(v, true) : JSON.stringify(v))).join(", ")}]`,
    ];
  }
  const block = literalBlock(value, indent + INDENT);
  if (block) return [`${dash}${block[0]}`, ...block.slice(1)];
  return [`${dash}${scalarValue(value, false)}`];
}

const isObject = (v: Value): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Expression);
const isScalar = (v: Value) =>
  !Array.isArray(v) && !isObject(v) && !(typeof v === "string" && v.includes("\n"));

/** Text that Pulumi YAML reads back as it is: `$$` is its escape of `$`. */
const escapeDollars = (text: string) => text.replaceAll("$", () => "$$");

/** A scalar value: an expression as written, text with each `$` doubled so it is never one. */
function scalarValue(value: Value, flow: boolean): string {
  if (value instanceof Expression) return scalar(value.text, flow);
  if (typeof value === "string") return scalar(escapeDollars(value), flow);
  return JSON.stringify(value) ?? "null";
}

/**
 * Text of several lines as a literal block (`|`, `|-` without a final line break, `|+` keeping
 * several), where it reads back exactly: lines without leading or trailing blanks or control
 * characters. Undefined where it would not.
 */
function literalBlock(value: Value, indent: string): string[] | undefined {
  if (typeof value !== "string" || !value.includes("\n")) return undefined;
  const text = escapeDollars(value);
  const body = text.replace(/\n+$/, "");
  const trailing = text.length - body.length;
  const lines = body.split("\n");
  const readable = lines.every((l) => !/^\s|\s$/.test(l) && ![...l].some(unprintable));
  if (!readable || lines[0] === "") return undefined;
  const chomp = trailing === 0 ? "|-" : trailing === 1 ? "|" : "|+";
  const tail = trailing > 1 ? Array.from({ length: trailing - 1 }, () => "") : [];
  return [chomp, ...lines.map((l) => (l === "" ? "" : indent + l)), ...tail];
}

/** Words YAML (1.1 or 1.2) reads as something other than text when plain. */
const NOT_TEXT = /^(?:y|yes|n|no|on|off|true|false|null)$/i;

/** Plain scalars: a letter (or an expression's `$`) first, then no character YAML gives a meaning to. */
const PLAIN = /^[A-Za-z$][A-Za-z0-9_./@+=~${}-]*(?:[ :][A-Za-z0-9_./@+=~${}-]+)*$/;
/** In a flow list (`[a, b]`), braces are never plain. */
const PLAIN_IN_FLOW = /^[A-Za-z$][A-Za-z0-9_./@+=~$-]*(?:[ :][A-Za-z0-9_./@+=~$-]+)*$/;

/**
 * A string as a YAML scalar: plain where it cannot be read as anything else, else double-quoted
 * (JSON's escapes are YAML's, and the characters YAML would not keep are escaped too).
 */
export function scalar(text: string, flow = false): string {
  if ((flow ? PLAIN_IN_FLOW : PLAIN).test(text) && !NOT_TEXT.test(text)) return text;
  // JSON escapes the characters below U+0020; YAML would not keep the others unprintable ones either.
  const quoted = JSON.stringify(text);
  return [...quoted]
    .map((c) => (unprintable(c) ? `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}` : c))
    .join("");
}

/** Control characters, line and paragraph separators, the byte order mark. */
function unprintable(c: string): boolean {
  const n = c.codePointAt(0) ?? 0;
  return n < 0x20 || (n >= 0x7f && n <= 0x9f) || n === 0x2028 || n === 0x2029 || n === 0xfeff;
}
