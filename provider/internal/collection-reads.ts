/**
 * Reads of single objects answered from their collection's list. A refresh reads every resource on
 * its own: 1,000 hooks of one repository cost 1,000 GETs, a fifth of an hour's rate limit on the
 * platform. Where the API lists a collection with the same fields as the single read, the reads of
 * one collection in one provider process share one paginated list (`per_page=100`) instead.
 *
 * - The first read of a collection is a single GET: a stack with one object there pays nothing
 *   more. From the second read on, reads share the list (joined while it is in flight, reused for
 *   `SHARED_READ_MS` after it was sent, as `SharedReads` does).
 * - An object the list does not hold is read with its single GET, so a 404 still means gone (and a
 *   route whose 404 is ambiguous, as site administration's, is explained as before).
 * - A list that fails (a token that may read an object but not list them) is not tried again for
 *   that collection in this process: its reads go back to single GETs.
 * - A write through `write` forgets the collection's list, and from then on the collection's reads
 *   in this process are single GETs: no answer that may predate this process's own write is used,
 *   and a run that writes many objects of a collection and reads each back (an update that answers
 *   without a body) never lists the collection once per object. A drift check writes nothing, so
 *   all its reads share the lists. The engine starts a provider process per command, so nothing is
 *   reused across two runs.
 */
import type { HostingClient } from "../client/http";
import { SharedReads } from "./shared-reads";

/**
 * How long after it was sent a list answers reads: long enough for every read of one refresh,
 * short enough that a process living longer (tests calling providers directly) soon sees changes
 * made by other means.
 */
export const SHARED_READ_MS = 10_000;

/** How one kind finds its objects in a list. */
export interface CollectionRead<T> {
  /** The collection's path (the key the reads share). */
  collection: string;
  /** The object's key, as `keyOf` gives it for the list's items. */
  key: string;
  keyOf(item: T): string;
  /** Every item of the collection, all pages. */
  list(): Promise<T[]>;
  /** The single GET (whose 404 means gone). */
  single(): Promise<T>;
}

interface Counters {
  reads: Map<string, number>;
  /** Collections read with single GETs from now on: their list failed, or this process wrote there. */
  unlistable: Set<string>;
}

export class CollectionReads {
  private readonly lists: SharedReads<Map<string, unknown>>;
  private counters = new WeakMap<HostingClient, Counters>();

  constructor(freshMs = SHARED_READ_MS, now: () => number = Date.now) {
    this.lists = new SharedReads(freshMs, now);
  }

  /** The object: from the collection's shared list when it holds it, else its single GET. */
  async read<T>(client: HostingClient, read: CollectionRead<T>): Promise<T> {
    const counters = this.countersOf(client);
    const seen = (counters.reads.get(read.collection) ?? 0) + 1;
    counters.reads.set(read.collection, seen);
    if (seen < 2 || counters.unlistable.has(read.collection)) return read.single();
    let items: Map<string, unknown>;
    try {
      items = await this.lists.read(client, read.collection, async () => {
        const list = await read.list();
        return new Map(list.map((item) => [read.keyOf(item), item]));
      });
    } catch {
      counters.unlistable.add(read.collection);
      return read.single();
    }
    const found = items.get(read.key) as T | undefined;
    return found ?? read.single();
  }

  /**
   * The object, from its collection's shared list, where the API has no single GET (issue types
   * and issue fields): every read of the collection in a run shares one list, the first included;
   * undefined when the list does not hold it (gone). A failed list fails the read.
   */
  async find<T>(client: HostingClient, read: Omit<CollectionRead<T>, "single">): Promise<T | undefined> {
    const items = await this.lists.read(client, read.collection, async () => {
      const list = await read.list();
      return new Map(list.map((item) => [read.keyOf(item), item]));
    });
    return items.get(read.key) as T | undefined;
  }

  /** Runs a write to an object of `collection`; lists from before or during it are not used after it. */
  write<R>(client: HostingClient, collection: string, run: () => Promise<R>): Promise<R> {
    this.countersOf(client).unlistable.add(collection);
    return this.lists.write(client, collection, run);
  }

  /** Forgets every list and count (for a process that changed the server by other means). */
  clear(): void {
    this.lists.clear();
    this.counters = new WeakMap();
  }

  private countersOf(client: HostingClient): Counters {
    let counters = this.counters.get(client);
    if (!counters) {
      counters = { reads: new Map(), unlistable: new Set() };
      this.counters.set(client, counters);
    }
    return counters;
  }
}

/** The process's collection reads, shared by every kind (collections are keyed by their paths). */
export const collectionReads = new CollectionReads();
