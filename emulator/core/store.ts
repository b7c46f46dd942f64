/**
 * The sandbox server's state: the fixture plus everything created through the API. It is kept in
 * an SQLite database (in memory without a data file) and changed only inside transactions, one
 * request at a time (docs/DECISIONS.md). What the state holds is the families' affair (state.ts):
 * the store sees keys, layouts and records.
 */
import { randomUUID } from "node:crypto";
import { migrateJsonFile, openedState, removeStaleTemporaries } from "./data-files";
import { DATABASE_FORMAT, Database, DataFileError, inspectDataFile } from "./database";
import type { Fixture } from "./fixture";
import { Journal } from "./journal";
import type { EmulatorState, RawState, RowOf, RowsKey, StateAccess, StateModel } from "./state";

export type { EmulatorState, RawState, RowOf, RowsKey } from "./state";
export { STATE_SCHEMA } from "./state";

/**
 * The sandbox server's state, in memory as plain objects and kept in an SQLite database
 * (database.ts). Every API request runs as one transaction (`transaction`): one at a time, its
 * writes journaled, committed together when it succeeds and undone, in memory and in the database,
 * when anything fails.
 */
export class Store implements StateAccess {
  private journal: Journal<EmulatorState>;
  private readonly database: Database;
  private queue: Promise<unknown> = Promise.resolve();
  private active = false;

  /**
   * The state of `model`'s families, from `fixture` or from what `dataFile` holds (upgraded when an
   * earlier version wrote it).
   */
  constructor(
    readonly model: StateModel,
    private readonly fixture: Fixture,
    dataFile: string | undefined,
  ) {
    if (dataFile !== undefined && inspectDataFile(dataFile) === "json") migrateJsonFile(dataFile, model);
    if (dataFile !== undefined) removeStaleTemporaries(dataFile);
    this.database = new Database(dataFile, model.layout);
    try {
      const format = this.database.format;
      if (format !== undefined && format !== DATABASE_FORMAT) {
        throw new DataFileError(
          dataFile ?? ":memory:",
          `is a sandbox database of format ${format}; this server reads ${DATABASE_FORMAT}`,
        );
      }
      if (format === undefined) {
        this.journal = new Journal(model.fresh(fixture), model.layout);
        this.database.commit(this.journal.raw, model.everything());
      } else {
        const { state, upgraded } = openedState(this.database.load(), model, dataFile ?? ":memory:");
        this.journal = new Journal(state, model.layout);
        // An upgraded file is written whole at once, so it is of the new schema from now on.
        if (upgraded) this.database.commit(this.journal.raw, model.everything());
      }
    } catch (e) {
      this.database.close();
      throw e;
    }
  }

  /** The state; what is written through it is journaled and committed with the transaction. */
  get state(): EmulatorState {
    return this.journal.view;
  }

  /**
   * The state itself, for reads on hot paths: a scan of raw records costs a tenth of one through
   * the journal. Records are read-only here; `tracked` gives the one to write to.
   */
  get raw(): RawState {
    return this.journal.raw;
  }

  /** The writable (journaled) view of a record found through `raw`. */
  tracked<K extends RowsKey>(collection: K, record: Readonly<RowOf<K>>): RowOf<K> {
    return this.journal.track(collection, record as RowOf<K>);
  }

  nextId(): number {
    return this.state.nextId++;
  }

  newGuid(): string {
    return randomUUID();
  }

  /**
   * Runs `work` as one transaction, after every transaction before it has finished: its writes
   * are committed when it returns, and undone when it (or the commit) throws.
   */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      this.save();
      this.active = true;
      try {
        const result = await work();
        this.commit();
        return result;
      } catch (e) {
        this.journal.undo();
        throw e;
      } finally {
        this.active = false;
      }
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Commits what was written outside a transaction (by code that holds the store, such as a test
   * or a benchmark filling it); inside one, its commit does that.
   */
  save(): void {
    if (this.active) return;
    try {
      this.commit();
    } catch (e) {
      this.journal.undo();
      throw e;
    }
  }

  /** Back to the fixture: every key replaced, committed like any other write. */
  reset(): void {
    const fresh = this.model.fresh(this.fixture);
    for (const key of this.model.slices.keys()) Reflect.set(this.state, key, Reflect.get(fresh, key));
    this.save();
  }

  /** Makes the next `commits` commits fail as a full disk does (a control of the sandbox). */
  failCommits(commits: number): void {
    this.database.failCommits(commits);
  }

  close(): void {
    this.database.close();
  }

  private commit(): void {
    if (!this.journal.pending) return;
    this.database.commit(this.journal.raw, this.journal.changed);
    this.journal.settle();
  }
}

/** Timestamps as the platform writes them: ISO 8601, seconds precision, `Z`. */
export function timestamp(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
