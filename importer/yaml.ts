/**
 * The YAML writer: the same inventory as the TypeScript writer, as a Pulumi YAML program for the
 * native plugin (`hosting:index:<Kind>`). One `Pulumi.yaml` (a YAML program is one file) with the
 * modules of the TypeScript program as commented sections in the same order, the same resource
 * names, the same arguments in the same order and the same destroy policy; each resource adopts
 * its object with Pulumi's own `import` option, which the plugin supports (the dynamic resources'
 * `importId` is left out). Secrets come from stack config declared `secret: true`; a reference to
 * another object's output is `${name.output}`. Beside it a `package.json` whose `npm install` puts
 * the plugin in `node_modules/.bin`, where `plugins.providers` names it (docs/install.md, "The
 * native plugin", way B).
 *
 * The document is built and written by the `yaml` package, which owns quoting, escapes, block
 * scalars and keys of any length; this module only decides the layout (comments, blank lines,
 * short lists inline) and two things YAML itself does not know: Pulumi YAML reads `${...}` in any
 * string as an expression and `$$` as `$`, so every `$` of a value read from the server is written
 * `$$`; and Pulumi YAML is read by Go's yaml.v3, which takes more plain words for numbers than the
 * YAML 1.2 core schema does (`0X1F`, `1_000`), so any text that begins like a number is quoted.
 */
import { Document, isScalar, type Pair, type Scalar, type Tags, YAMLMap, YAMLSeq } from "yaml";
import { typeToken } from "../provider/internal/tokens";
import type { Inventory, InventoryItem } from "./inventory";
import {
  type Argument,
  argumentsOf,
  itemKey,
  itemsByKey,
  LINE_WIDTH,
  literal,
  modulesOf,
  moduleTitle,
  type PackageOptions,
  PLUGIN_COMMENT,
  packageJsonOf,
  pluginPath,
  REFRESH_COMMENT,
} from "./layout";
import { commentText, needsEscapes, yamlDoubleQuoted } from "./text";

const INDENT = 2;

/**
 * Why the plugin's version is named (docs/DECISIONS.md): the CLI then loads the program's schema
 * from the plugin process it serves the resources from, instead of starting a second one.
 */
const PLUGIN_VERSION_COMMENT = "Its version lets one plugin process serve the schema and the resources.";

/** File name -> contents: `Pulumi.yaml` and `package.json`. */
export function writeYamlProgram(
  inventory: Inventory,
  options: PackageOptions & {
    /** The folder of the `node_modules` `npm install` fills: `..` for a fleet's projects, which share their root's. */
    root?: string;
    /** This package's version: the plugin's, named beside its folder. */
    sdkVersion: string;
  },
): Map<string, string> {
  const byKey = itemsByKey(inventory);
  // In the program's order, so the same inventory in another order writes the same file.
  const secrets = modulesOf(inventory).flatMap((m) => m.items.flatMap((i) => Object.values(i.secrets)));
  const doc = newDocument();
  const top = new YAMLMap<unknown, unknown>();
  doc.contents = top;
  add(
    doc,
    top,
    "name",
    options.project,
    [
      `Hosting platform settings as code, as read from ${inventory.apiRoot}.`,
      "Each resource adopts the object it names (`import`): the first `pulumi up` changes nothing on the",
      "server beyond the secrets set from stack config.",
    ].join("\n"),
  );
  add(doc, top, "description", "Hosting platform settings as code");
  add(doc, top, "runtime", "yaml");
  add(doc, top, "options", { refresh: "always" }, REFRESH_COMMENT);
  add(
    doc,
    top,
    "plugins",
    { providers: [{ name: "hosting", path: pluginPath(options.root), version: options.sdkVersion }] },
    `${PLUGIN_COMMENT}\n${PLUGIN_VERSION_COMMENT}`,
  );
  if (secrets.length > 0) {
    const config = new YAMLMap<unknown, unknown>();
    for (const key of secrets) add(doc, config, key, { type: "string", secret: true });
    add(
      doc,
      top,
      "config",
      config,
      "Secrets the API never returns: `pulumi config set --secret <key>` for each.",
    );
  }
  const resources = new YAMLMap<unknown, unknown>();
  for (const [at, { key, items }] of modulesOf(inventory).entries()) {
    for (const [i, item] of items.entries()) {
      // The module's title above its first resource, a blank line between resources.
      const title = i === 0 ? `${moduleTitle(key)}.\n\n` : "";
      const pair = add(
        doc,
        resources,
        item.name,
        resourceNode(doc, item, byKey),
        `${title}${item.adopted?.comment ?? ""}`,
      );
      (pair.key as Scalar).spaceBefore = at > 0 || i > 0;
    }
  }
  add(doc, top, "resources", resources);
  const files = new Map<string, string>();
  files.set("Pulumi.yaml", doc.toString(TO_STRING));
  files.set("package.json", `${literal(packageJsonOf(options), 0, true)}\n`);
  return files;
}

/**
 * A `Pulumi.yaml` that declares `items` (objects it makes: no adoption), as the reference pages
 * show it: the project, its secrets as config, then each resource (a reference is `${name.output}`).
 */
export function declarationsSource(items: readonly InventoryItem[], project: string): string {
  const byKey = new Map(items.map((i) => [itemKey(i.kind, i.id), i]));
  const doc = newDocument();
  const top = new YAMLMap<unknown, unknown>();
  doc.contents = top;
  add(doc, top, "name", project);
  add(doc, top, "runtime", "yaml");
  const secrets = items.flatMap((i) => Object.values(i.secrets));
  if (secrets.length > 0) {
    const config = new YAMLMap<unknown, unknown>();
    for (const key of secrets) add(doc, config, key, { type: "string", secret: true });
    add(doc, top, "config", config);
  }
  const resources = new YAMLMap<unknown, unknown>();
  for (const item of items) add(doc, resources, item.name, resourceNode(doc, item, byKey));
  add(doc, top, "resources", resources);
  return doc.toString(TO_STRING);
}

/** How the document is written: no folding of long lines (a value stays on its line), `[a, b]`. */
const TO_STRING = { lineWidth: 0, flowCollectionPadding: false, indent: INDENT } as const;

/** A scalar as `writeYamlProgram` writes it, for the other writers' hand-written Pulumi.yaml lines. */
export function yamlScalar(text: string): string {
  const doc = newDocument();
  doc.contents = doc.createNode(text) as Scalar;
  return doc.toString(TO_STRING).replace(/\n$/, "");
}

/**
 * A document whose strings read back as themselves in YAML 1.2 (what the `yaml` package writes
 * for) and 1.1 (`compat`: `yes`, `on`, `~` and the like are quoted), and in Go's yaml.v3, which
 * Pulumi YAML reads with (STRING).
 */
function newDocument(): Document {
  return new Document(null, { compat: "yaml-1.1", customTags: withStrings });
}

/** The schema's tags with the string tag's writing replaced by STRING's. */
function withStrings(tags: Tags): Tags {
  return tags.map((tag) =>
    typeof tag === "object" && tag.tag === "tag:yaml.org,2002:str" && tag.stringify !== undefined
      ? {
          ...tag,
          stringify: (item, ctx, onComment, onChompKeep) => {
            const text = String((item as Scalar).value);
            // Double-quoted with escapes: text holding characters a reader or a reviewer would
            // not see as they are, and text yaml.v3 could read as a number or a merge key.
            if (needsEscapes(text) || notTextWhenPlain(text)) {
              return yamlDoubleQuoted(text);
            }
            return tag.stringify?.(item, ctx, onComment, onChompKeep) ?? yamlDoubleQuoted(text);
          },
        }
      : tag,
  );
}

/**
 * Text some YAML reader takes for something else when it is written plain: anything that begins
 * like a number (a sign or a dot, then a digit, or a digit: yaml.v3 reads `0X1F`, `0B1`, `1_000`
 * as integers, beyond what either YAML schema calls a number, and `2001-12-14` as a time), the
 * words of null, booleans (YAML 1.1's `yes`, `on` too), infinities and not-a-number, the merge
 * key `<<` and YAML 1.1's value key `=`.
 */
export function notTextWhenPlain(text: string): boolean {
  return (
    /^[-+.]?\.?[0-9]/.test(text) ||
    /^(?:~|null|true|false|yes|no|y|n|on|off|[-+]?\.inf|\.nan|<<|=)$/i.test(text)
  );
}

/** Adds `key: value` to `map`, with a comment above it; the pair, for its layout. */
function add(
  doc: Document,
  map: YAMLMap<unknown, unknown>,
  key: string,
  value: unknown,
  comment?: string,
): Pair {
  const keyNode = doc.createNode(key) as Scalar;
  if (comment !== undefined) keyNode.commentBefore = commentLines(comment);
  const pair = doc.createPair(keyNode, value);
  map.items.push(pair as Pair<unknown, unknown>);
  return pair;
}

/** A comment's lines as the `yaml` package writes them after `#`: one space first, blank lines blank. */
function commentLines(text: string): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? "" : ` ${commentText(line)}`))
    .join("\n");
}

function resourceNode(
  doc: Document,
  item: InventoryItem,
  byKey: ReadonlyMap<string, InventoryItem>,
): YAMLMap {
  const resource = new YAMLMap<unknown, unknown>();
  add(doc, resource, "type", typeToken(item.kind));
  const args = argumentsOf(item, byKey, false);
  if (args.length > 0) {
    const properties = new YAMLMap<unknown, unknown>();
    // Properties sit at three indents (resources, name, properties).
    for (const arg of args) add(doc, properties, arg.key, valueNode(doc, written(arg), 3 * INDENT, arg.key));
    add(doc, resource, "properties", properties);
  }
  if (item.adopted === undefined) return resource;
  const options = new YAMLMap<unknown, unknown>();
  // Pulumi YAML reads the id as it reads any string: its `$` are doubled too.
  add(doc, options, "import", escapeDollars(item.id));
  if (item.adopted.retainOnDelete) add(doc, options, "retainOnDelete", true);
  add(doc, resource, "options", options);
  return resource;
}

/** An argument as the value written: text with each `$` doubled, the others as `${...}` expressions. */
function written(arg: Argument): unknown {
  if ("secret" in arg) return new Expression(`\${${arg.secret}}`);
  if ("ref" in arg) return new Expression(`\${${arg.ref.target.name}.${arg.ref.output}}`);
  return arg.value;
}

/** A string written as it is: Pulumi YAML reads `${...}` in it as an expression. */
class Expression {
  constructor(readonly text: string) {}
}

/** Text that Pulumi YAML reads back as it is: `$$` is its escape of `$`. */
const escapeDollars = (text: string) => text.replaceAll("$", () => "$$");

/**
 * A value as a node: text with its `$` doubled, an expression as it is, objects as blocks, lists
 * of scalars inline (`[a, b]`) where they fit in the line at `column` after `key: `, else one
 * `- item` a line.
 */
function valueNode(doc: Document, value: unknown, column: number, key: string): unknown {
  if (value instanceof Expression) return doc.createNode(value.text);
  if (typeof value === "string") return doc.createNode(escapeDollars(value));
  if (Array.isArray(value)) {
    const seq = new YAMLSeq<unknown>();
    for (const v of value) seq.items.push(valueNode(doc, v, column + INDENT, "-"));
    if (seq.items.length > 0 && seq.items.every((n) => isScalar(n) && !String(n.value).includes("\n"))) {
      seq.flow = true;
      const probe = newDocument();
      probe.contents = seq;
      const inline = probe.toString(TO_STRING).replace(/\n$/, "");
      seq.flow = !inline.includes("\n") && column + key.length + 2 + inline.length <= LINE_WIDTH;
    }
    return seq;
  }
  if (typeof value === "object" && value !== null) {
    const map = new YAMLMap<unknown, unknown>();
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined) add(doc, map, k, valueNode(doc, v, column + INDENT, k));
    }
    return map;
  }
  return doc.createNode(value);
}
