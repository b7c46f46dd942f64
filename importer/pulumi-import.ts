/**
 * The bulk-import writer: the inventory as the file `pulumi import --file` reads, for a program of
 * the native plugin in any language. Each object is `{type, name, id}`: the plugin's type token,
 * the name the program writers give it, and the id its kind's read takes (the kind's `idFormat`;
 * an `Organization` by its login, the only key the API finds organisations by, which read records
 * as the numeric id). In the same order as the programs.
 *
 * What the format cannot say: a reference to another object's output (the runner group a runner
 * set belongs to) is written by `pulumi import` as the value it read, and secrets the API never
 * returns are not in what it reads. Every object is a top-level resource of the default provider,
 * so the name table is empty (it names only parents and explicit providers).
 *
 * What the CLI's YAML code generator breaks (pulumi-yaml v1.25.0, codegen/gen_program.go and the
 * encoding it writes with), each seen with `pulumi import --out code.yaml` and a preview of the code:
 * - it escapes `${` in a value as `$${` but leaves `$$` as it is, while Pulumi YAML reads every
 *   `$$` as `$`: `leak-$${hookSecret}` comes back as `leak-$$${hookSecret}`, `$` and an
 *   interpolation of the secret config `hookSecret`, and the next `up` writes the secret into the
 *   object (before v1.12.0 it escaped nothing, so `${x}` alone was an interpolation);
 * - it writes text plain that its own reader takes for something else: `null`, `~`, `.inf`,
 *   `0o17`, `0X1F`, `2001-12-14`, `<<` (a name `null` became no name at all);
 * - it writes U+2028 and U+2029 inside single quotes, where yaml.v3 reads them as line breaks.
 * The file only names the objects and the code is the CLI's, so an inventory holding any of these
 * is refused (`importHazards`) with each object named, and the program writers, which write every
 * value exactly, are the way to adopt it. docs/DECISIONS.md holds the report for the CLI.
 */
import { typeToken } from "../provider/internal/tokens";
import type { Inventory, InventoryItem } from "./inventory";
import { modulesOf } from "./layout";
import { literal } from "./typescript";

export interface ImportFile {
  nameTable: Record<string, string>;
  resources: Array<{ type: string; name: string; id: string }>;
}

export function importFileOf(inventory: Inventory): ImportFile {
  return {
    nameTable: {},
    resources: modulesOf(inventory).flatMap(({ items }) =>
      items.map((item) => ({ type: typeToken(item.kind), name: item.name, id: item.id })),
    ),
  };
}

/** The file's text: JSON laid out as the project's formatter lays it out. */
export function writeImportFile(inventory: Inventory): string {
  return `${literal(importFileOf(inventory), 0, true)}\n`;
}

/**
 * Why the CLI's YAML code generator would write `text` so that it reads back otherwise (see above),
 * or undefined where it writes it right.
 */
export function importHazard(text: string): string | undefined {
  if (/\$\{|\$\$/.test(text)) return 'holds "${" or "$$" (read back as "$" and an interpolation)';
  if (/[\u0085\u2028\u2029]/.test(text))
    return "holds a line or paragraph separator (read back as a line break)";
  if (readsAsOtherThanText(text)) return `is ${JSON.stringify(text)} (read back as other than text)`;
  return undefined;
}

/**
 * The objects whose code `pulumi import` would write wrongly, each as `Kind name (id): its field
 * <why>` (the first such value of each, in a value or an object's key).
 */
export function importHazards(inventory: Inventory): string[] {
  return inventory.items.flatMap((item) => {
    const found = hazardIn(item);
    return found === undefined
      ? []
      : [`${item.kind} ${item.name} (${JSON.stringify(item.id)}): its ${found}`];
  });
}

function hazardIn(item: InventoryItem): string | undefined {
  const find = (value: unknown, path: string): string | undefined => {
    if (typeof value === "string") {
      const why = importHazard(value);
      return why === undefined ? undefined : `${path} ${why}`;
    }
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) {
        const found = find(v, `${path}[${i}]`);
        if (found !== undefined) return found;
      }
    } else if (typeof value === "object" && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        const why = importHazard(k);
        const found = why === undefined ? find(v, `${path}.${k}`) : `${path} key ${why}`;
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  for (const [key, value] of Object.entries(item.args)) {
    const found = find(value, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Whether a plain scalar reads back as something other than text in Pulumi YAML (Go's yaml.v3):
 * a number in any of its forms (`22`, `1_000`, `0o17`, `0X1F`, `.5e3`), a date, or a word YAML
 * gives a meaning. Only what would be misread is refused: an id such as a budget's UUID that merely
 * starts with a digit (`0a0d2ec1-...`) reads back as text.
 */
function readsAsOtherThanText(text: string): boolean {
  return (
    /^[-+]?(?:0x[0-9a-f_]+|0o[0-7_]+|0b[01_]+|[0-9][0-9_]*(?:\.[0-9_]*)?(?:e[-+]?[0-9]+)?|\.[0-9][0-9_]*(?:e[-+]?[0-9]+)?)$/i.test(
      text,
    ) ||
    /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?$/.test(text) ||
    /^(?:~|null|true|false|yes|no|y|n|on|off|[-+]?\.inf|\.nan|<<|=)$/i.test(text)
  );
}
