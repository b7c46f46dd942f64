/**
 * Change tracking for the sandbox server's state. Handlers keep working on plain objects and arrays
 * (`state.repoHooks.push(hook)`, `hook.active = false`, `state.x = state.x.filter(...)`), but what
 * they reach through `Journal.view` is a proxy that records every write: the old value, so a failed
 * request is undone in memory, and which stored record it touched, so a commit writes only those
 * records. Each top-level key of the state declares how it is stored (`Layout`):
 *
 * - `rows`: an array of records, one stored row each; appending costs one row, whatever the length.
 * - `map`: an object of records by key, one stored entry each.
 * - `document`: a value stored whole (counters, the fixture, small lists).
 */

export type Layout = "rows" | "map" | "document";

/** Where a write landed: the top-level key, and the record of a `rows` or `map` collection. */
interface Owner {
  top: string;
  /** The element of a `rows` collection. */
  row?: object;
  /** The key of a `map` collection. */
  key?: string;
}

interface Change {
  target: object;
  key: PropertyKey;
  had: boolean;
  old: unknown;
}

/** What a transaction changed, per top-level key: enough for the store to write only that. */
export interface Dirty {
  /** `document` keys to write whole. */
  documents: Set<string>;
  /** `rows` collections: the records written to, and whether records were removed or reordered. */
  rows: Map<string, { touched: Set<object>; reshaped: boolean }>;
  /** `map` collections: the keys written to, or `"all"` when the whole object was replaced. */
  maps: Map<string, Set<string> | "all">;
}

const isObject = (v: unknown): v is object => typeof v === "object" && v !== null;

const isIndex = (key: PropertyKey): boolean => typeof key === "string" && /^(0|[1-9]\d*)$/.test(key);

export class Journal<S extends object> {
  private readonly proxies = new WeakMap<object, object>();
  private readonly targets = new WeakMap<object, object>();
  private readonly owners = new WeakMap<object, Owner>();
  private changes: Change[] = [];
  private dirty = emptyDirty();
  readonly view: S;

  constructor(
    private readonly root: S,
    private readonly layout: Readonly<Record<string, Layout>>,
  ) {
    this.view = this.wrap(root, { top: "" }) as S;
  }

  /** The state itself, never a proxy (for serialising it). */
  get raw(): S {
    return this.root;
  }

  /** Whether anything was written since the last `settle` or `undo`. */
  get pending(): boolean {
    return this.changes.length > 0;
  }

  /** What was written since the last `settle` or `undo`. */
  get changed(): Dirty {
    return this.dirty;
  }

  /** Forgets the undo records: what was written is committed. */
  settle(): void {
    this.changes = [];
    this.dirty = emptyDirty();
  }

  /** Puts back every value written since the last `settle`, newest first. */
  undo(): void {
    for (const change of this.changes.reverse()) {
      const target = change.target as Record<PropertyKey, unknown>;
      if (change.had) target[change.key] = change.old;
      else delete target[change.key];
    }
    this.changes = [];
    this.dirty = emptyDirty();
  }

  /** The tracked view of a record of the `rows` collection `top`, found by a raw read. */
  track<T>(top: string, record: T): T {
    const target = record as object;
    return (this.proxies.get(target) ?? this.wrap(target, { top, row: target })) as T;
  }

  /** A value as stored: any proxy inside it replaced by its target. */
  unwrap<T>(value: T): T {
    if (!isObject(value)) return value;
    const target = this.targets.get(value);
    if (target) return target as T;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const inner = record[key];
      if (isObject(inner)) record[key] = this.unwrap(inner);
    }
    return value;
  }

  /**
   * The proxy of `target`, made on first use. Reads are the hot path (a list scans every record),
   * so a known proxy costs one lookup, and where a record lives is worked out once, when its proxy
   * is made: records are not moved from one collection to another.
   */
  private wrap(target: object, owner: Owner): object {
    const known = this.proxies.get(target);
    if (known !== undefined) return known;
    this.owners.set(target, owner);
    const proxy = new Proxy(target, {
      get: (t, key) => {
        const value = (t as Record<PropertyKey, unknown>)[key];
        if (typeof value !== "object" || value === null) return value;
        return this.proxies.get(value) ?? this.wrap(value, this.childOwner(t, key as string, value));
      },
      set: (t, key, value) => {
        const stored = this.unwrap(value);
        this.record(t, key, stored);
        (t as Record<PropertyKey, unknown>)[key] = stored;
        return true;
      },
      deleteProperty: (t, key) => {
        if (!Object.hasOwn(t, key)) return true;
        this.record(t, key);
        delete (t as Record<PropertyKey, unknown>)[key];
        return true;
      },
      defineProperty: (t, key, descriptor) => {
        const stored = this.unwrap(descriptor.value);
        this.record(t, key, stored);
        return Reflect.defineProperty(t, key, { ...descriptor, value: stored });
      },
    });
    this.proxies.set(target, proxy);
    this.targets.set(proxy, target);
    return proxy;
  }

  private childOwner(parent: object, key: string, child: object): Owner {
    if (parent === this.root) return { top: key };
    const owner = this.owners.get(parent) ?? { top: "" };
    const layout = this.layout[owner.top];
    const isCollection = owner.row === undefined && owner.key === undefined;
    if (isCollection && layout === "rows" && Array.isArray(parent)) return { top: owner.top, row: child };
    if (isCollection && layout === "map") return { top: owner.top, key };
    return owner;
  }

  private record(target: object, key: PropertyKey, value?: unknown): void {
    // A write at or past an array's end also grows its length, without a write to `length` that
    // would record the old one: without this, undoing an append would leave a hole (read back as
    // `null`) where the element was.
    if (Array.isArray(target) && isIndex(key) && Number(key) >= target.length) {
      this.changes.push({ target, key: "length", had: true, old: target.length });
    }
    // A shorter length drops the elements past it, again without a write of theirs to record.
    if (Array.isArray(target) && key === "length" && typeof value === "number") {
      for (let i = value; i < target.length; i++) {
        if (Object.hasOwn(target, i))
          this.changes.push({ target, key: String(i), had: true, old: target[i] });
      }
    }
    const had = Object.hasOwn(target, key);
    const old = (target as Record<PropertyKey, unknown>)[key];
    this.changes.push({ target, key, had, old });
    this.markDirty(target, key, had, old, value);
  }

  private markDirty(target: object, key: PropertyKey, had: boolean, old: unknown, value: unknown): void {
    const whole = target === this.root;
    const owner: Owner = whole ? { top: String(key) } : (this.owners.get(target) ?? { top: "" });
    const layout = this.layout[owner.top] ?? "document";
    if (layout === "document") {
      this.dirty.documents.add(owner.top);
    } else if (layout === "map") {
      const keys = this.dirty.maps.get(owner.top);
      if (whole || keys === "all") this.dirty.maps.set(owner.top, "all");
      else this.dirty.maps.set(owner.top, (keys ?? new Set<string>()).add(owner.key ?? String(key)));
    } else {
      let entry = this.dirty.rows.get(owner.top);
      if (!entry) {
        entry = { touched: new Set<object>(), reshaped: false };
        this.dirty.rows.set(owner.top, entry);
      }
      if (whole) entry.reshaped = true;
      else if (owner.row) entry.touched.add(owner.row);
      else if (isIndex(key) && !had && isObject(value))
        entry.touched.add(value); // an append
      else if (key === "length" && typeof value === "number" && typeof old === "number" && value >= old) {
        // the length an append leaves: its row was recorded by the index write
      } else entry.reshaped = true; // overwritten or removed indexes: splice, pop, sort, `length = n`
    }
  }
}

function emptyDirty(): Dirty {
  return { documents: new Set(), rows: new Map(), maps: new Map() };
}
