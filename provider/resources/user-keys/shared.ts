/**
 * What the three kinds of key share. Keys belong to the signed-in user (the token's user), are
 * known by the API's integer id, and cannot be changed: there is no update route, so every change
 * replaces the key, deleting the old one first (the platform refuses a key already in use).
 *
 * Create never leaves a duplicate: after an ambiguous failure (timeout, reset, 5xx) it looks for
 * the key by its content in the user's list before posting again, and the 422 "already in use" of
 * a retry after such a failure is never the user's error. `importId` adopts a key the user already
 * has: it must be the same key; a different title or name is converged by replacing it.
 */

import type { AnyRoute, BodyRoute, ListRoute, NoParams } from "../../../api/route";
import {
  configurationError,
  type HostingApiError,
  isAmbiguous,
  isHostingApiError,
  isNotFound,
  notFoundError,
  validationError,
} from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { collectionReads } from "../../internal/collection-reads";
import { notice } from "../../internal/context";
import { createWithoutDuplicates, madeSince } from "../../internal/creates";
import type { Discovery } from "../../internal/declare";

/** Where one kind of key lives and how its answers read. */
export interface KeyPlace<T, I> {
  kind: string;
  /** The input naming the key material, for messages (`key`, `armoredPublicKey`). */
  field: string;
  /** The routes of the user's keys of this kind (`ROUTES.sshKeys`). */
  routes: KeyRoutes<T, I>;
  /** The parameters naming one key (`{key_id}`). */
  item(id: number | string): I;
  idOf(key: T): number;
  /**
   * When the key was added, where the API says so: a key found after an ambiguous failure must
   * have been added since the attempt began. Undefined where `created_at` is something else (a GPG
   * key's is the key's own creation time): the key's uniqueness per user is relied on instead.
   */
  addedAt?(key: T): string | undefined;
}

/** The user's keys of one kind: list and add them; read and delete one (parameters `I`). */
export interface KeyRoutes<T, I> {
  list: ListRoute<NoParams, T>;
  create: BodyRoute<"POST", NoParams, T>;
  get: BodyRoute<"GET", I, T>;
  delete: AnyRoute<"DELETE", I>;
}

export const keyImportId = fields.numericId("importId");

/** The user's keys of one kind. Reads of several keys in a run share the list (`collectionReads`). */
export function keyApi<T, I>(c: HostingClient, { routes, item, idOf }: KeyPlace<T, I>) {
  const collection = routes.list.path({});
  const list = () => c.paginate(routes.list, {});
  const writing = <R>(run: () => Promise<R>) => collectionReads.write(c, collection, run);
  return {
    get: (id: number | string) =>
      collectionReads.read(c, {
        collection,
        key: String(id),
        keyOf: (k: T) => String(idOf(k)),
        list,
        single: async () => (await c.get(routes.get, item(id))).data,
      }),
    list,
    create: (body: object) => writing(async () => (await c.post(routes.create, {}, body)).data),
    delete: (id: number | string) => writing(() => c.delete(routes.delete, item(id))),
  };
}

/**
 * How `hosting-import` finds the signed-in user's keys of one kind: one list read, each key adopted
 * by its id and labelled for its resource name (a title, a name, an address).
 */
export function keyDiscovery<T, I>(
  place: KeyPlace<T, I>,
  name: string,
  labelOf: (key: T) => string | null | undefined,
): Discovery {
  return {
    scope: "user",
    what: () => `${place.kind} keys of the signed-in user`,
    names: [`${name}-{label}`],
    async list(c) {
      const keys = await keyApi(c, place).list();
      return keys.map((k) => {
        const label = labelOf(k);
        return { id: String(place.idOf(k)), importId: place.idOf(k), ...(label ? { label } : {}) };
      });
    },
  };
}

/** What a create asks for: the body to post, and how to tell the key and its settings in an answer. */
export interface KeyRequest<T> {
  importId?: string | undefined;
  body: object;
  /** Whether a key of the list is this one (same key material). */
  isThisKey(key: T): boolean | Promise<boolean>;
  /** Whether the key's title or name is the one asked for. */
  hasSettings(key: T): boolean;
  /** The key material as a person knows it, for messages (a fingerprint, a key id). */
  shown: string;
}

/** Creates the key, or adopts `importId`, never leaving a duplicate. */
export async function createOrAdoptKey<T, I>(
  c: HostingClient,
  place: KeyPlace<T, I>,
  request: KeyRequest<T>,
): Promise<T> {
  const api = keyApi(c, place);
  if (request.importId !== undefined) return adopt(api, place, request, request.importId);
  let ambiguous = false;
  const findMade = async (startedAt: number) => {
    for (const key of await api.list()) {
      const recent = place.addedAt === undefined || madeSince(place.addedAt(key), startedAt);
      if (recent && (await request.isThisKey(key))) return key;
    }
    return undefined;
  };
  const startedAt = Date.now();
  const made = await createWithoutDuplicates(async () => {
    try {
      return await api.create(request.body);
    } catch (e) {
      if (isAmbiguous(e)) ambiguous = true;
      // A retry refused because the failed attempt did add the key (its list read raced the add).
      else if (ambiguous && isAlreadyInUse(e)) return (await findMade(startedAt)) ?? Promise.reject(e);
      throw e;
    }
  }, findMade).catch(async (e: unknown) => {
    throw (await explainInUse(e, api, place, request)) ?? e;
  });
  return made.value;
}

/** Reads the key `importId` names; it must hold the same key. A different title replaces it. */
async function adopt<T, I>(
  api: ReturnType<typeof keyApi<T, I>>,
  place: KeyPlace<T, I>,
  request: KeyRequest<T>,
  importId: string,
): Promise<T> {
  const existing = await api.get(importId).catch((e: unknown) => {
    throw isNotFound(e)
      ? notFoundError({
          method: "GET",
          path: place.routes.get.path(place.item(importId)),
          what: `${place.kind} importId ${importId}`,
          causes: [
            "the signed-in user (the token's user) has no such key: keys belong to that user",
            `the token lacks the permission to read the user's keys`,
          ],
        })
      : e;
  });
  if (!(await request.isThisKey(existing))) {
    throw configurationError(
      `${place.kind} importId ${importId} is another key than ${place.field} (${request.shown})`,
      `Set ${place.field} to the key of ${importId}, or leave importId out to add this key`,
    );
  }
  if (request.hasSettings(existing)) return existing;
  // No route changes a key: its title or name changes by replacing it, old one first.
  notice(
    `${place.kind} ${importId} (importId): adopting it changes its title or name, which replaces the key (it gets a new id)`,
  );
  await api.delete(importId);
  try {
    return await api.create(request.body);
  } catch (e) {
    throw configurationError(
      `${place.kind} importId ${importId} was removed to change its title or name, and adding it again failed: ${(e as Error).message}`,
      "Leave importId out and run up again to add the key",
    );
  }
}

function isAlreadyInUse(e: unknown): boolean {
  return isHostingApiError(e) && e.status === 422 && /already (in use|exists)/i.test(e.message);
}

/**
 * The platform's refusal of a key already in use, in the program's terms: the user's own key (and
 * the importId that adopts it), or another account's.
 */
async function explainInUse<T, I>(
  e: unknown,
  api: ReturnType<typeof keyApi<T, I>>,
  place: KeyPlace<T, I>,
  request: KeyRequest<T>,
): Promise<HostingApiError | undefined> {
  if (!isAlreadyInUse(e)) return undefined;
  let own: T | undefined;
  try {
    for (const key of await api.list()) if (await request.isThisKey(key)) own = key;
  } catch {
    own = undefined;
  }
  const where = { method: "POST", path: place.routes.create.path({}) };
  if (own !== undefined) {
    const id = place.idOf(own);
    return validationError(
      where,
      `${place.kind}: this ${place.field} (${request.shown}) is already one of the user's keys (id ${id})`,
      `Set importId to ${id} to bring it under management instead of adding it again`,
    );
  }
  return validationError(
    where,
    `${place.kind}: this ${place.field} (${request.shown}) is already in use by another account`,
    "A key can be added to one account only: generate a new key for this one",
  );
}
