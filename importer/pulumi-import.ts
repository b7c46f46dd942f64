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
import { typeToken } from "../provider/internal/tokens";
import type { Inventory } from "./inventory";
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
