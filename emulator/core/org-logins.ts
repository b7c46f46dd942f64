/**
 * How a family lists the places it keeps an organisation's login (`FamilyState.orgLogins`), which an
 * organisation rename moves to the new login: a field holding the login, a field holding an
 * `owner/name`, or anything else through `OrgLoginKey.move` itself. The same places move one
 * repository (a `Rename` of `owner/name` paths, `isRepositoryMove`): its `owner/name` keys follow,
 * and no login matches such a rename.
 */
import type { OrgLoginKey, Rename, RowOf, RowsKey } from "./state";

/** The string fields of a collection's records. */
type TextField<K extends RowsKey> = {
  [F in keyof RowOf<K>]: RowOf<K>[F] extends string ? F : never;
}[keyof RowOf<K>] &
  string;

/** Whether `value` names the organisation being renamed (logins are case-insensitive). */
export function isOrg(value: string, rename: Rename): boolean {
  return value.toLowerCase() === rename.from.toLowerCase();
}

/** Whether `rename` moves one repository (`owner/name` to `owner/name`) rather than an organisation. */
export function isRepositoryMove(rename: Rename): boolean {
  return rename.from.includes("/");
}

/**
 * An `owner/name` key (lower case) of the renamed organisation, or the moved repository's own key,
 * moved; undefined for others.
 */
export function movedPath(key: string, rename: Rename): string | undefined {
  if (isRepositoryMove(rename)) {
    return key.toLowerCase() === rename.from.toLowerCase() ? rename.to.toLowerCase() : undefined;
  }
  const slash = key.indexOf("/");
  if (slash < 0 || !isOrg(key.slice(0, slash), rename)) return undefined;
  return `${rename.to}${key.slice(slash)}`.toLowerCase();
}

/** Records of `collection` whose `field` is the organisation's login: moved to the new login. */
export function orgLoginsOf<K extends RowsKey>(
  collection: K,
  field: TextField<K>,
  what: string,
): OrgLoginKey {
  return {
    what,
    move: (store, r) => {
      for (const row of store.raw[collection] as ReadonlyArray<Readonly<RowOf<K>>>) {
        const value = row[field] as string;
        if (isOrg(value, r)) (store.tracked(collection, row)[field] as string) = r.to;
      }
    },
  };
}

/** Records of `collection` whose `field` is an `owner/name` of the organisation: moved with it. */
export function repoPathsOf<K extends RowsKey>(
  collection: K,
  field: TextField<K>,
  what: string,
): OrgLoginKey {
  return {
    what,
    move: (store, r) => {
      for (const row of store.raw[collection] as ReadonlyArray<Readonly<RowOf<K>>>) {
        const moved = movedPath(row[field] as string, r);
        if (moved) (store.tracked(collection, row)[field] as string) = moved;
      }
    },
  };
}
