/**
 * Reads shared by the resources of one run. The engine reads every resource on its own, so where
 * many resources take their state from one collection (the custom property values of one
 * organisation), refresh would send one GET per resource. Here a read of a key joins the GET in
 * flight for it, or reuses one sent less than `freshMs` ago; a write to the key (through `write`)
 * forgets it, both when the write starts and when it ends, so a read after a write always asks the
 * server again and an answer that may predate the write is never reused. A failed read is not kept.
 *
 * The engine starts a provider process per command, so sharing never spans two commands; within a
 * command, the window bounds how old an answer can be (docs/DECISIONS.md). Entries belong to one
 * client (one set of settings): a rotated token or another server never sees another's answers.
 */
import type { HostingClient } from "../client/http";

interface Entry<T> {
  answer: Promise<T>;
  sentAt: number;
  settled: boolean;
}

export class SharedReads<T> {
  private byClient = new WeakMap<HostingClient, Map<string, Entry<T>>>();

  /**
   * @param freshMs how long after it was sent an answer is reused
   * @param now the clock (tests)
   */
  constructor(
    private readonly freshMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The answer for `key`: the one in flight, one sent less than `freshMs` ago, or a new `load()`. */
  read(client: HostingClient, key: string, load: () => Promise<T>): Promise<T> {
    const entries = this.entriesOf(client);
    const known = entries.get(key);
    if (known && (!known.settled || this.now() - known.sentAt < this.freshMs)) {
      // A refused token is said in full by the read that sent the request, not by each that joined it.
      return known.answer.catch((e: unknown) => {
        throw client.sharedFailure(e);
      });
    }
    const entry: Entry<T> = { answer: load(), sentAt: this.now(), settled: false };
    entries.set(key, entry);
    entry.answer.then(
      () => {
        entry.settled = true;
      },
      () => {
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return entry.answer;
  }

  /** Runs a write to `key`; reads before and during it are not reused after it. */
  async write<R>(client: HostingClient, key: string, run: () => Promise<R>): Promise<R> {
    const entries = this.entriesOf(client);
    entries.delete(key);
    try {
      return await run();
    } finally {
      entries.delete(key);
    }
  }

  /** Forgets every answer (for a process that changed the server by other means). */
  clear(): void {
    this.byClient = new WeakMap();
  }

  private entriesOf(client: HostingClient): Map<string, Entry<T>> {
    let entries = this.byClient.get(client);
    if (!entries) {
      entries = new Map();
      this.byClient.set(client, entries);
    }
    return entries;
  }
}
