/**
 * `--split`: the inventory as a fleet, one Pulumi project per module (each organisation, the
 * enterprise, the site administration, the user's keys) in a folder named after it, so each is a
 * stack of its own: its own lock, its own state, run side by side with the others by
 * `hosting-fleet`. Each project is the program the single-project writers write for that module's
 * objects alone, its project name the folder's. A `package.json` at the root lists the projects as
 * npm workspaces, so one `npm install` there installs the dependencies once for all of them.
 */
import type { Inventory } from "./inventory";
import { itemKey, modulesOf } from "./layout";
import { literal } from "./typescript";
import { type Language, type WriterOptions, writeProgramIn } from "./writers";

export interface SplitOptions extends WriterOptions {
  language: Language;
}

/** Path relative to the output folder -> contents; the projects in `modulesOf` order. */
export function writeSplit(inventory: Inventory, options: SplitOptions): Map<string, string> {
  const files = new Map<string, string>();
  const modules = modulesOf(inventory);
  const moduleOf = new Map(modules.flatMap((m) => m.items.map((i) => [itemKey(i.kind, i.id), m.file])));
  for (const { file, items } of modules) {
    // A reference is an output of another resource of the same program: across projects it would
    // need a stack reference, which no kind needs today (a runner set and its group share an org).
    for (const item of items) {
      for (const ref of Object.values(item.refs)) {
        const target = moduleOf.get(itemKey(ref.kind, ref.id));
        if (target !== undefined && target !== file) {
          throw new Error(
            `${item.name} refers to ${ref.kind} ${ref.id} of ${target}: --split cannot write it`,
          );
        }
      }
    }
    const part: Inventory = { ...inventory, items };
    // The projects share the root's node_modules (and, for Python, its virtualenv): `..`.
    const program = writeProgramIn(options.language, part, { ...options, project: file, root: ".." });
    for (const [name, text] of program) files.set(`${file}/${name}`, text);
  }
  const root = {
    name: options.project,
    private: true,
    description: "Hosting platform settings as code: one Pulumi project per folder (hosting-fleet runs them)",
    workspaces: modules.map((m) => m.file),
  };
  files.set("package.json", `${literal(root, 0, true)}\n`);
  return files;
}
