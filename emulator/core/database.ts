/**
 * Where the sandbox server's state is kept: an SQLite database through Node's built-in `node:sqlite`
 * (`:memory:` without a data file). The state lives in memory as plain objects; the database holds
 * one row per record of each `rows` collection, one entry per key of each `map` collection and one
 * value per `document` key, so a commit writes only what a request changed, inside one SQLite
 * transaction. The families' slices (state.ts) say which key is which.
 */
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { Dirty, Layout } from "./journal";

/** The database's own format; a file of another is refused with what to do. */
export const DATABASE_FORMAT = 1;

const SQLITE_HEADER = "SQLite format 3\0";

/** A data file that cannot be used, with the one line that says why. */
export class DataFileError extends Error {
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = "DataFileError";
  }
}

/** What a data file holds before it is opened. */
export type DataFileKind = "missing" | "sqlite" | "json";

/**
 * Looks at `file` without changing it: missing, an SQLite database, or (by its first character) a
 * JSON state file of an earlier version. Anything else, a folder or a device is refused.
 */
export function inspectDataFile(file: string): DataFileKind {
  if (file === "")
    throw new DataFileError('""', "the data file path is empty; name a file, or leave --data out");
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw new DataFileError(file, `cannot be read (${(e as Error).message})`);
  }
  if (stats.isDirectory()) throw new DataFileError(file, "is a folder; --data names a file");
  if (!stats.isFile()) throw new DataFileError(file, "is not a regular file");
  if (stats.size === 0) return "missing";
  const head = Buffer.alloc(SQLITE_HEADER.length);
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    throw new DataFileError(file, `cannot be read (${(e as Error).message})`);
  }
  try {
    const read = readSync(fd, head, 0, head.length, 0);
    if (read === head.length && head.toString("latin1") === SQLITE_HEADER) return "sqlite";
    const first = head.subarray(0, read).toString("utf8").trimStart()[0];
    if (first === "{" || first === "[" || first === "n") return "json";
  } finally {
    closeSync(fd);
  }
  throw new DataFileError(
    file,
    "is not a sandbox data file (neither an SQLite database nor a JSON state file)",
  );
}

/**
 * `mkdir -p` one level at a time: Node's `{ recursive: true }` spins for ever on a path below
 * `/proc` that does not exist, where a plain `mkdir` fails at once.
 */
function makeFolders(folder: string): void {
  const missing: string[] = [];
  for (let at = folder; !existsSync(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const path of missing) mkdirSync(path);
}

/** Rows read back from a database: one value per top-level key of the state. */
export type Loaded = Record<string, unknown>;

export class Database {
  private readonly db: DatabaseSync;
  private readonly statements: {
    putDocument: StatementSync;
    insertRow: StatementSync;
    updateRow: StatementSync;
    deleteRow: StatementSync;
    putEntry: StatementSync;
    deleteEntry: StatementSync;
    deleteEntries: StatementSync;
  };
  /** The row id of every stored record of a `rows` collection. */
  private readonly rowIds = new WeakMap<object, number | bigint>();
  /** The records of each `rows` collection as last committed, for finding removed ones. */
  private readonly members = new Map<string, Set<object>>();
  /** How many more commits fail as if the disk were full (`failCommits`). */
  private failing = 0;
  /** The format the database declared when opened; undefined for a new one, until its first commit. */
  readonly format: number | undefined;

  /**
   * Opens (creating when needed) the database at `file`, or one in memory. Refuses a database of
   * another format and one another process holds.
   */
  constructor(
    private readonly file: string | undefined,
    private readonly layout: Readonly<Record<string, Layout>>,
  ) {
    if (file !== undefined) {
      try {
        makeFolders(dirname(file));
      } catch (e) {
        throw new DataFileError(file, `its folder cannot be created (${(e as Error).message})`);
      }
    }
    try {
      this.db = new DatabaseSync(file ?? ":memory:");
    } catch (e) {
      throw new DataFileError(file ?? ":memory:", `cannot be opened (${(e as Error).message})`);
    }
    try {
      if (file !== undefined) {
        // One server per file: the lock is taken now and held until close. WAL with NORMAL sync
        // keeps every commit through a crash of the process (kill -9) at one write per commit.
        this.db.exec(
          "PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;",
        );
      }
      this.db.exec(`
        BEGIN IMMEDIATE;
        CREATE TABLE IF NOT EXISTS documents (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
        CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY AUTOINCREMENT, collection TEXT NOT NULL, value TEXT NOT NULL) STRICT;
        CREATE INDEX IF NOT EXISTS rows_by_collection ON rows (collection, id);
        CREATE TABLE IF NOT EXISTS entries (collection TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (collection, key)) STRICT;
        COMMIT;`);
    } catch (e) {
      this.db.close();
      const message = (e as Error).message;
      throw new DataFileError(
        file ?? ":memory:",
        /locked|busy/i.test(message)
          ? "is in use by another sandbox server (one server per data file)"
          : `is not a usable sandbox data file (${message})`,
      );
    }
    const declared = this.db.prepare("SELECT value FROM documents WHERE name = '$format'").get() as
      | { value: string }
      | undefined;
    this.format = declared === undefined ? undefined : Number(JSON.parse(declared.value));
    this.statements = {
      putDocument: this.db.prepare("INSERT OR REPLACE INTO documents (name, value) VALUES (?, ?)"),
      insertRow: this.db.prepare("INSERT INTO rows (collection, value) VALUES (?, ?)"),
      updateRow: this.db.prepare("UPDATE rows SET value = ? WHERE id = ?"),
      deleteRow: this.db.prepare("DELETE FROM rows WHERE id = ?"),
      putEntry: this.db.prepare("INSERT OR REPLACE INTO entries (collection, key, value) VALUES (?, ?, ?)"),
      deleteEntry: this.db.prepare("DELETE FROM entries WHERE collection = ? AND key = ?"),
      deleteEntries: this.db.prepare("DELETE FROM entries WHERE collection = ?"),
    };
  }

  /** Every top-level value stored, rebuilt as the state holds it, and the records' row ids noted. */
  load(): Loaded {
    const loaded: Loaded = {};
    const where = this.file ?? ":memory:";
    const parse = (text: string, what: string): unknown => {
      try {
        return JSON.parse(text);
      } catch {
        throw new DataFileError(where, `${what} is not valid JSON`);
      }
    };
    for (const { name, value } of this.db.prepare("SELECT name, value FROM documents").all() as Array<{
      name: string;
      value: string;
    }>) {
      if (name.startsWith("$")) continue;
      loaded[name] = parse(value, name);
    }
    for (const [name, layout] of Object.entries(this.layout)) {
      if (layout === "rows") {
        const records: object[] = [];
        const rows = this.db
          .prepare("SELECT id, value FROM rows WHERE collection = ? ORDER BY id")
          .all(name) as Array<{ id: number; value: string }>;
        for (const row of rows) {
          const record = parse(row.value, `${name} row ${row.id}`);
          if (typeof record !== "object" || record === null) {
            throw new DataFileError(where, `${name} row ${row.id} is not an object`);
          }
          this.rowIds.set(record, row.id);
          records.push(record);
        }
        this.members.set(name, new Set(records));
        loaded[name] = records;
      } else if (layout === "map") {
        const map: Record<string, unknown> = {};
        for (const entry of this.db
          .prepare("SELECT key, value FROM entries WHERE collection = ?")
          .all(name) as Array<{ key: string; value: string }>) {
          map[entry.key] = parse(entry.value, `${name} entry ${entry.key}`);
        }
        loaded[name] = map;
      }
    }
    return loaded;
  }

  /**
   * Writes what `dirty` names from `state`, in one SQLite transaction: all of it or, when anything
   * fails (a full disk, a value that cannot be serialised), none of it, and the error is thrown.
   */
  commit(state: object, dirty: Dirty): void {
    // Row ids given or taken by this commit, put back if it fails.
    const renumbered: Array<[object, number | bigint | undefined]> = [];
    const setRowId = (record: object, id: number | bigint | undefined) => {
      renumbered.push([record, this.rowIds.get(record)]);
      if (id === undefined) this.rowIds.delete(record);
      else this.rowIds.set(record, id);
    };
    const writeRow = (name: string, record: object) => {
      const id = this.rowIds.get(record);
      if (id !== undefined) this.statements.updateRow.run(JSON.stringify(record), id);
      else setRowId(record, this.statements.insertRow.run(name, JSON.stringify(record)).lastInsertRowid);
    };
    const membership = new Map<string, Set<object>>();
    const appended: Array<[Set<object>, Set<object>]> = [];
    this.db.exec("BEGIN IMMEDIATE");
    try {
      for (const name of dirty.documents) {
        this.statements.putDocument.run(name, JSON.stringify(Reflect.get(state, name) ?? null));
      }
      for (const [name, keys] of dirty.maps) {
        const map: Record<string, unknown> = Reflect.get(state, name) ?? {};
        if (keys === "all") this.statements.deleteEntries.run(name);
        for (const key of keys === "all" ? Object.keys(map) : keys) {
          if (Object.hasOwn(map, key)) this.statements.putEntry.run(name, key, JSON.stringify(map[key]));
          else this.statements.deleteEntry.run(name, key);
        }
      }
      for (const [name, { touched, reshaped }] of dirty.rows) {
        let before = this.members.get(name);
        if (!before) {
          before = new Set<object>();
          this.members.set(name, before);
        }
        if (!reshaped) {
          for (const record of touched) writeRow(name, record);
          appended.push([before, touched]);
          continue;
        }
        // Records removed, replaced or moved: compare with what was committed. Rows are read back
        // in the order of their ids, so from the first record out of order on, records are written
        // again under new ids.
        const records: object[] = Reflect.get(state, name) ?? [];
        const now = new Set(records);
        for (const record of before) {
          const id = this.rowIds.get(record);
          if (!now.has(record) && id !== undefined) {
            this.statements.deleteRow.run(id);
            setRowId(record, undefined);
          }
        }
        let last: number | bigint = -1;
        let rewriting = false;
        for (const record of records) {
          const id = before.has(record) ? this.rowIds.get(record) : undefined;
          if (!rewriting && id !== undefined && id > last) {
            last = id;
            if (touched.has(record)) writeRow(name, record);
            continue;
          }
          rewriting = true;
          if (id !== undefined) {
            this.statements.deleteRow.run(id);
            setRowId(record, undefined);
          }
          writeRow(name, record);
        }
        membership.set(name, now);
      }
      // Written with the first state: a database that declares a format holds a whole state.
      if (this.format === undefined)
        this.statements.putDocument.run("$format", JSON.stringify(DATABASE_FORMAT));
      if (this.failing > 0) {
        this.failing--;
        throw new Error("database or disk is full (simulated by /_emulator/store/full)");
      }
      this.db.exec("COMMIT");
    } catch (e) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      for (const [record, id] of renumbered.reverse()) {
        if (id === undefined) this.rowIds.delete(record);
        else this.rowIds.set(record, id);
      }
      throw e;
    }
    for (const [members, records] of appended) for (const record of records) members.add(record);
    for (const [name, members] of membership) this.members.set(name, members);
    (this as { format: number | undefined }).format = DATABASE_FORMAT;
  }

  /** The next `commits` commits write everything, then fail before COMMIT as a full disk does. */
  failCommits(commits: number): void {
    this.failing = commits;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
