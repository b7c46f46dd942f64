/**
 * Resource names and the identifiers derived from them. Names are built from what identifies the
 * object for a person (its organisation, repository, URL host, group or user name), never from
 * server ids, so they read well and survive a re-import. Every name is unique by construction, and
 * so is every identifier and config key derived from it: two names that differ only where the
 * identifier drops a dash (`a-1` and `a1` both give `a1`) count as the same. Where two objects
 * would get the same name, the one with the smallest id keeps it and the others get a suffix
 * derived from their own kind and id (a short hash), so a name depends on its object, not on the
 * order anything was read or listed in. A name longer than MAX_NAME is cut and ends with a hash of
 * the whole, so it stays distinct and stable too.
 */
import { createHash } from "node:crypto";
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

/** Numeric id parts compare as numbers so `hook 9` comes before `hook 10`. */
function compareIds(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}

/** The longest name written: a longer one is cut, and ends with a hash of the whole. */
export const MAX_NAME = 64;

/** A short hex digest of `text`: stable across runs and machines. */
export function shortHash(text: string, length = 8): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, length);
}

/**
 * `name` if it is at most MAX_NAME long, else its first characters (cut after a whole word where
 * one ends near the limit) and `-` and a hash of the whole name: two long names that share their
 * beginning stay two names.
 */
export function shorten(name: string): string {
  if (name.length <= MAX_NAME) return name;
  const hash = shortHash(name);
  const room = MAX_NAME - hash.length - 1;
  let head = name.slice(0, room);
  const lastDash = head.lastIndexOf("-");
  if (name.charAt(room) !== "-" && lastDash > room / 2) head = head.slice(0, lastDash);
  return `${head.replace(/-+$/, "")}-${hash}`;
}

/**
 * The key two names collide under: the camelCase identifier the writers derive variables and
 * config keys from (`a-1` and `a1` are both `a1`).
 */
export const collisionKey = (name: string): string => identifier(name);

/** The suffix an object's name gets where another object wants the same name: from its kind and id. */
function ownSuffix(item: InventoryItem, length = 6): string {
  return shortHash(`${item.kind}\u0000${item.id}`, length);
}

/**
 * Gives every item its final name: the first of `candidates(item)` (from the shortest to the most
 * specific, e.g. a hook's URL host, then host and path) that no other item wants, else the last;
 * where another item took that one already (an item with a smaller kind and id), the last with a
 * suffix of this item's own (ownSuffix). Names are unique in the whole program, as Pulumi needs
 * them to be per kind and as the identifiers and config keys derived from them need them to be
 * (collisionKey).
 */
export function assignNames(items: InventoryItem[], candidates: (item: InventoryItem) => string[]): void {
  const ordered = [...items].sort((a, b) => compareIds(a.kind, b.kind) || compareIds(a.id, b.id));
  const wanted = new Map(ordered.map((item) => [item, candidates(item).map(shorten)]));
  // How many items would take each candidate: a name two items want goes to neither of them.
  const demand = new Map<string, number>();
  for (const names of wanted.values()) {
    for (const key of new Set(names.map(collisionKey))) demand.set(key, (demand.get(key) ?? 0) + 1);
  }
  const taken = new Set<string>();
  const free = (name: string) => !taken.has(collisionKey(name));
  for (const item of ordered) {
    const names = wanted.get(item) ?? [];
    const last = names.at(-1) ?? shorten(slug(`${item.kind}-${item.id}`));
    let name = names.find((n) => demand.get(collisionKey(n)) === 1 && free(n)) ?? last;
    // A longer suffix where even the short one is taken: two ids whose hashes begin alike.
    for (let length = 6; !free(name); length += 2) name = `${last}-${ownSuffix(item, length)}`;
    taken.add(collisionKey(name));
    item.name = name;
  }
}

/**
 * The config key of each secret an item reads from stack config (`item.secrets`, argument name ->
 * key): its name's identifier and the argument's (`acmeEngApiHookSecret`), unique in the program;
 * one that another item's key took already gets the item's own suffix. In kind and id order, as
 * the names.
 */
export function assignSecretKeys(items: InventoryItem[]): void {
  const ordered = [...items].sort((a, b) => compareIds(a.kind, b.kind) || compareIds(a.id, b.id));
  const taken = new Set<string>();
  for (const item of ordered) {
    for (const arg of Object.keys(item.secrets).sort()) {
      const base = `${identifier(item.name)}${arg.charAt(0).toUpperCase()}${arg.slice(1)}`;
      let key = base;
      for (let length = 6; taken.has(key); length += 2) key = `${base}${ownSuffix(item, length)}`;
      taken.add(key);
      item.secrets[arg] = key;
    }
  }
}

/**
 * `base`, or the first of `numbered(2)`, `numbered(3)`, ... that `taken` does not hold; `taken`
 * then holds it too. For names of files and modules, which come from names already unique but may
 * meet once spelt another way (`a_b` and `a-b` are both the Go file `a-b.go`).
 */
export function takeUnique(base: string, taken: Set<string>, numbered: (n: number) => string): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = numbered(n);
  taken.add(name);
  return name;
}

/**
 * `base`, or `base-2`, `base-3`, ... : the first that `taken` (lower case) does not hold, compared
 * without case as a case-insensitive file system compares names; `taken` then holds it too.
 */
export function uniqueFileName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}`;
  taken.add(name.toLowerCase());
  return name;
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
