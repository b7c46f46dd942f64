/**
 * Resource names and the identifiers derived from them. Names are built from what identifies the
 * object for a person (its organisation, repository, URL host, group or user name), never from
 * server ids, so they read well and survive a re-import; where two objects would get the same name,
 * the one with the larger id gets `-2`, `-3`, ... in id order, so the result is the same on every run.
 */
import type { InventoryItem } from "./inventory";

/** Lower-case words of letters and digits joined by `-`: `Build & Test` -> `build-test`. */
export function slug(text: string): string {
  const words = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
  return words.length > 0 ? words.join("-") : "x";
}

/** The host of a URL without `www.`, as a slug (`https://ci.example.com/hook` -> `ci-example-com`). */
export function hostSlug(url: string): string {
  try {
    return slug(new URL(url).hostname.replace(/^www\./, ""));
  } catch {
    return slug(url);
  }
}

/**
 * A name from a kind's template (its declaration's `discovery.names`): each `{...}` is replaced by
 * the first of its alternatives (`|`) that is set, as a slug: an argument, `label`, `module`, a
 * URL's `url:host` or `url:hostpath`, or a literal `=text`.
 */
export function nameFrom(template: string, item: InventoryItem, module: string): string {
  const args = item.args as Record<string, unknown>;
  const value = (name: string): string | undefined => {
    if (name.startsWith("=")) return name.slice(1);
    if (name === "label") return item.label;
    if (name === "module") return module;
    const [arg = "", form] = name.split(":");
    const v = args[arg];
    if (v === undefined || v === null || v === "") return undefined;
    if (form === "host") return hostSlug(String(v));
    if (form === "hostpath") return hostAndPathSlug(String(v));
    return slug(String(v));
  };
  return template.replace(/\{([^}]+)\}/g, (_, alternatives: string) => {
    for (const name of alternatives.split("|")) {
      const v = value(name);
      if (v !== undefined) return slug(v);
    }
    return "x";
  });
}

/** A camelCase identifier from a name (`acme-eng-api-hook` -> `acmeEngApiHook`), never a keyword. */
export function identifier(name: string): string {
  const [first = "x", ...rest] = slug(name).split("-");
  const id = first + rest.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
  return /^[0-9]/.test(id) || RESERVED.has(id) ? `_${id}` : id;
}

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false " +
    "finally for function if import in instanceof new null return super switch this throw true try " +
    "typeof var void while with yield let static implements interface package private protected public " +
    "await hosting pulumi config"
  ).split(" "),
);

/**
 * `base`, or the first of `numbered(2)`, `numbered(3)`, ... that `taken` does not hold; `taken`
 * then holds it too.
 */
export function takeUnique(base: string, taken: Set<string>, numbered: (n: number) => string): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = numbered(n);
  taken.add(name);
  return name;
}

/** Numeric id parts compare as numbers so `hook 9` comes before `hook 10`. */
function compareIds(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}

/**
 * Gives every item its final name: the first of `candidates(item)` (from the shortest to the most
 * specific, e.g. a hook's URL host, then host and path) that no other item wants, else the last
 * with `-2`, `-3`, ... in kind and id order. Names are unique in the whole program, as Pulumi needs
 * them to be per kind and as the config keys derived from them need them to be.
 */
export function assignNames(items: InventoryItem[], candidates: (item: InventoryItem) => string[]): void {
  const ordered = [...items].sort((a, b) => compareIds(a.kind, b.kind) || compareIds(a.id, b.id));
  const wanted = new Map(ordered.map((item) => [item, candidates(item)]));
  // How many items would take each candidate: a name two items want goes to neither of them.
  const demand = new Map<string, number>();
  for (const names of wanted.values()) {
    for (const name of new Set(names)) demand.set(name, (demand.get(name) ?? 0) + 1);
  }
  const taken = new Set<string>();
  for (const item of ordered) {
    const names = wanted.get(item) ?? [];
    const last = names.at(-1) ?? slug(`${item.kind}-${item.id}`);
    let name = names.find((n) => demand.get(n) === 1 && !taken.has(n)) ?? last;
    for (let n = 2; taken.has(name); n++) name = `${last}-${n}`;
    taken.add(name);
    item.name = name;
  }
}

/** The slug of a URL's host and path (`https://ci.example.com/hooks/a` -> `ci-example-com-hooks-a`). */
export function hostAndPathSlug(url: string): string {
  try {
    const u = new URL(url);
    return slug(`${u.hostname.replace(/^www\./, "")} ${u.pathname}`);
  } catch {
    return slug(url);
  }
}
