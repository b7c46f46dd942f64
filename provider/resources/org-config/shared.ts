/**
 * What IssueType and IssueField share: the organisation's collection read through one shared list
 * per run (the API has no GET of one type or field), creates that never leave a duplicate after an
 * ambiguous failure, and the platform's refusal of a second object with one name restated as the
 * object to adopt.
 */
import {
  type HostingApiError,
  isHostingApiError,
  isNotFound,
  notFoundError,
  validationError,
} from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { collectionReads } from "../../internal/collection-reads";
import { createWithoutDuplicates, madeSince } from "../../internal/creates";
import { type Discovery, field } from "../../internal/declare";
import { readOrGone } from "../../internal/lifecycle";

/** An object of an organisation's issue configuration, as the list answers it. */
export interface Named {
  id: number;
  name: string;
  created_at?: string | undefined;
}

/** Where one kind's objects live: its collection path and how it lists it. */
export interface ConfigCollection<T extends Named> {
  /** `IssueType` or `IssueField`, for messages. */
  kind: string;
  org: string;
  path: string;
  list(): Promise<T[]>;
}

/** `importId` of an issue type or field: adopts the organisation's existing object by its id. */
export const importIdField = (what: "type" | "field") =>
  field(fields.numericId("importId").optional(), {
    description: `Adopt the organisation's existing ${what} with this id instead of creating one: it is read, then converged to these args. Only read at create; later changes are ignored.`,
    createOnly: true,
  });

/**
 * Discovery of an organisation's issue types or fields: its list, each adopted by its id. `idOf` is
 * the kind's `formatId` for an organisation and an object's id.
 */
export function discoveryOf<T extends Named>(
  what: string,
  names: readonly string[],
  collection: (c: HostingClient, org: string) => ConfigCollection<T>,
  idOf: (org: string, id: T["id"]) => string,
): Discovery {
  return {
    scope: "org",
    what: ({ org }) => `${what} of ${org}`,
    names,
    async list(c, { org = "" }) {
      const items = await collection(c, org).list();
      return items.map((item) => ({ id: idOf(org, item.id), importId: item.id }));
    },
  };
}

/** Names are unique per organisation, compared case-insensitively (trimmed) by the platform. */
export const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The object with `id` from the collection's shared list: N objects of one organisation cost one
 * list per run. undefined when the list does not hold it, or the organisation is gone (404).
 */
export function findInCollection<T extends Named>(
  c: HostingClient,
  at: ConfigCollection<T>,
  id: number | string,
): Promise<T | undefined> {
  return readOrGone(() =>
    collectionReads.find(c, {
      collection: at.path,
      key: String(id),
      keyOf: (item: T) => String(item.id),
      list: at.list,
    }),
  ).then((found) => found ?? undefined);
}

/** Runs a write to the collection: no list read before it answers a read after it. */
export function writingTo<T extends Named, R>(
  c: HostingClient,
  at: ConfigCollection<T>,
  run: () => Promise<R>,
) {
  return collectionReads.write(c, at.path, run);
}

/** The object `importId` names, or the error that says what to check. */
export async function adopted<T extends Named>(
  c: HostingClient,
  at: ConfigCollection<T>,
  importId: string,
): Promise<T> {
  const found = await findInCollection(c, at, importId);
  if (found) return found;
  throw notFoundError({
    method: "GET",
    path: at.path,
    what: `${at.kind} importId ${importId}`,
    causes: [
      `${at.org} has no ${at.kind} with that id (the number its list answers as "id")`,
      `there is no organisation ${at.org}, or the token cannot read it`,
    ],
  });
}

/**
 * POSTs a new object without ever leaving a duplicate: after an ambiguous failure (timeout, 5xx)
 * it lists the collection for an object of that name made since the attempt began before trying
 * again. A 422 for a name already taken becomes the error naming the object to adopt.
 */
export async function createOnce<T extends Named>(
  c: HostingClient,
  at: ConfigCollection<T>,
  name: string,
  post: () => Promise<T>,
): Promise<T> {
  try {
    const made = await createWithoutDuplicates(
      () => writingTo(c, at, post),
      async (startedAt) =>
        (await at.list()).find((item) => sameName(item.name, name) && madeSince(item.created_at, startedAt)),
    );
    return made.value;
  } catch (e) {
    throw (await nameTaken(e, at, name)) ?? collectionNotFound(e, at, "POST");
  }
}

async function nameTaken<T extends Named>(
  e: unknown,
  at: ConfigCollection<T>,
  name: string,
): Promise<HostingApiError | undefined> {
  if (!isHostingApiError(e) || e.status !== 422 || !/already been taken/i.test(e.message)) return undefined;
  const existing = await at
    .list()
    .then((items) => items.find((item) => sameName(item.name, name)))
    .catch(() => undefined);
  return validationError(
    { method: "POST", path: at.path },
    `${at.org} already has a ${at.kind} named ${JSON.stringify(name)}${existing ? ` (id ${existing.id})` : ""}`,
    `Set importId to ${existing ? existing.id : "its id"} to bring it under management instead of creating a second one`,
  );
}

/** A 404 of the collection: the organisation does not exist, or the token cannot see it. */
export function collectionNotFound<T extends Named>(
  e: unknown,
  at: ConfigCollection<T>,
  method: string,
): unknown {
  if (!isNotFound(e)) return e;
  return notFoundError({
    method,
    path: at.path,
    what: `${at.kind} of ${at.org}`,
    causes: [
      `there is no organisation ${at.org}`,
      `the token's user is not an owner of ${at.org} (writes need the classic scope admin:org, or the fine-grained permission ${at.kind === "IssueType" ? "issue_types" : "issue_fields"} write)`,
    ],
  });
}
