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
 */
import { resourceToken } from "../provider/plugin/resources";
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
      items.map((item) => ({ type: resourceToken(item.kind), name: item.name, id: item.id })),
    ),
  };
}

/** The file's text: JSON laid out as the project's formatter lays it out. */
export function writeImportFile(inventory: Inventory): string {
  return `${literal(importFileOf(inventory), 0, true)}\n`;
}

/** What the CLI's code generator turns into an interpolation, or reads back as another value. */
const DOLLAR_HAZARD = /\$\{|\$\$/;

/**
 * The objects whose code `pulumi import` would write wrongly, each as `Kind name (id): its field`
 * (the first such value of each): any text holding `${` or `$$`, in a value or an object's key.
 */
export function dollarHazards(inventory: Inventory): string[] {
  return inventory.items.flatMap((item) => {
    const field = hazardIn(item);
    return field === undefined
      ? []
      : [`${item.kind} ${item.name} (${JSON.stringify(item.id)}): its ${field}`];
  });
}

function hazardIn(item: InventoryItem): string | undefined {
  const find = (value: unknown, path: string): string | undefined => {
    if (typeof value === "string") return DOLLAR_HAZARD.test(value) ? path : undefined;
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) {
        const found = find(v, `${path}[${i}]`);
        if (found !== undefined) return found;
      }
    } else if (typeof value === "object" && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        const found = DOLLAR_HAZARD.test(k) ? path : find(v, `${path}.${k}`);
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
