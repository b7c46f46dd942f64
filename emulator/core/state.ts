/**
 * The shape of the sandbox server's state, assembled from the families. The core owns four keys
 * (the schema, the shared id counter, the fixture and the job queue); every other key is declared
 * by the family that owns it, as a `Slice` (how it is stored, what a fresh state holds), and added
 * to `EmulatorState` by that family's own declaration:
 *
 * ```ts
 * export const hookState = { repoHooks: rows<StoredHook>() };
 * declare module "../../core/state" {
 *   interface EmulatorState extends StateOf<typeof hookState> {}
 * }
 * ```
 *
 * so the state's type is the union of what the families declare, and the core names none of them.
 * `StateModel` puts the declarations of one list of families together (families/index.ts).
 */
import type { Fixture, OrgRecord, RepoRecord } from "./fixture";
import type { Dirty, Layout } from "./journal";

/**
 * The version of the stored state's shape, fixture included. 2: the fixture gained billie, solo,
 * release/eu and repository property definitions, and the state the families that use them. 3: the
 * fixture gained git data, teams, issues, pull requests, dependency alerts and graph sources, user
 * emails, notifications, the repository acme-eng/empty and the app user token `svcu_user`, and the
 * state the families that use them (their slices say `since: 3`); a file of schema 2 is upgraded
 * when it is opened (data-files.ts). A family that adds a key within a schema needs no new one: a
 * file without the key starts it fresh.
 */
export const STATE_SCHEMA = 3;

/** One pending job: a kind with its own handler (`registerJob`) and the data it needs. */
export interface StoredJob {
  id: number;
  kind: string;
  /** When it is done: ISO 8601. */
  dueAt: string;
  data: Record<string, unknown>;
}

/** The keys every state has, whatever the families; the families' own are merged in. */
export interface EmulatorState {
  schema: number;
  /** The id counter shared by the families whose records say `ids: "nextId"`. */
  nextId: number;
  fixture: Fixture;
  /** Background jobs not yet done (jobs.ts). */
  jobs: StoredJob[];
}

/** One key of the state as a family declares it. */
export interface Slice<T> {
  /** How it is stored (journal.ts): `rows` and `map` cost one row per record written. */
  readonly layout: Layout;
  /** What a fresh state holds, from its fixture. */
  readonly fresh: (fixture: Fixture) => T;
  /** The schema that added it: a file of an earlier schema starts it from the upgraded fixture. */
  readonly since?: number;
  /**
   * The counter its records' ids come from: a JSON file migrated from an earlier version has its
   * counter moved past every id it holds, so none is handed out twice.
   */
  readonly ids?: CounterKey;
}

/** The state's id counters (a document holding a number). */
export type CounterKey = "nextId" | "nextGroupId";

type SliceOptions = Pick<Slice<unknown>, "since" | "ids">;

/** A list stored one row per record. */
export function rows<T extends object>(
  fresh: (fixture: Fixture) => T[] = () => [],
  options: SliceOptions = {},
): Slice<T[]> {
  return { layout: "rows", fresh, ...options };
}

/** An object of records stored one entry per key. */
export function map<T>(
  fresh: (fixture: Fixture) => Record<string, T> = () => ({}),
  options: SliceOptions = {},
): Slice<Record<string, T>> {
  return { layout: "map", fresh, ...options };
}

/** A value stored whole (a counter, a short list). */
export function document<T>(fresh: (fixture: Fixture) => T, options: SliceOptions = {}): Slice<T> {
  return { layout: "document", fresh, ...options };
}

/** The slices of one family, by state key. */
export type Slices = Readonly<Record<string, Slice<unknown>>>;

/** The state keys and value types that `slices` declare: what a family merges into `EmulatorState`. */
export type StateOf<S extends Slices> = { [K in keyof S]: S[K] extends Slice<infer T> ? T : never };

/** The keys of the state kept as `rows`, and their records. */
export type RowsKey = {
  [K in keyof EmulatorState]: EmulatorState[K] extends Array<infer U>
    ? U extends object
      ? K
      : never
    : never;
}[keyof EmulatorState];
export type RowOf<K extends RowsKey> = EmulatorState[K] extends Array<infer U> ? U : never;

/** The state as `Store.raw` shows it: records read-only. */
export type RawState = {
  readonly [K in keyof EmulatorState]: EmulatorState[K] extends Array<infer U>
    ? ReadonlyArray<Readonly<U>>
    : Readonly<EmulatorState[K]>;
};

/**
 * An organisation renamed (org-admin): its login as it is spelled now, and the new one. Or one
 * repository moved (renamed, or deleted: its data is moved out of reach): `from` and `to` are then
 * `owner/name` paths, which no login equals, so only the repository's `owner/name` keys follow
 * (`movedPath`).
 */
export interface Rename {
  from: string;
  to: string;
}

/** What a family's code reaches the state through (the store). */
export interface StateAccess {
  /** Writes through it are journaled. */
  readonly state: EmulatorState;
  /** Reads without the journal; `tracked` gives the record to write to. */
  readonly raw: RawState;
  tracked<K extends RowsKey>(collection: K, record: Readonly<RowOf<K>>): RowOf<K>;
}

/** A place of a family's state that holds an organisation's login, moved by a rename. */
export interface OrgLoginKey {
  what: string;
  move: (store: StateAccess, rename: Rename) => void;
}

/**
 * What a family brings to the state (family.ts adds its routes): the keys it owns, the facts of the
 * default fixture it serves, what it seeds once every key is fresh, and where it keeps
 * organisations' logins.
 */
export interface FamilyState {
  readonly name: string;
  readonly state?: Slices;
  /** Its part of the default fixture (a key a fixture may lack is optional in `Fixture`). */
  readonly fixture?: () => Partial<Fixture>;
  /** Fills its keys of a fresh state from others (the fixture's git data, its runners). */
  readonly seed?: (state: EmulatorState) => void;
  /** Every place it keeps an organisation's login: what is not listed is lost by a rename. */
  readonly orgLogins?: readonly OrgLoginKey[];
  /**
   * A person left an organisation (removed, left, or their invitation declined or cancelled): what
   * the family drops of theirs there (a team keeps no one its organisation does not).
   */
  readonly onLeave?: (store: StateAccess, org: OrgRecord, login: string) => void;
  /**
   * A repository was deleted: what the family keeps of it by its id goes (a team's access, a
   * collaborator, an invitation), as the platform deletes them with it. What is kept by
   * `owner/name` is moved out of reach by the deletion itself.
   */
  readonly onRepositoryDeleted?: (store: StateAccess, repo: RepoRecord) => void;
}

/** The core's own keys. */
const CORE_SLICES: Slices = {
  schema: document(() => STATE_SCHEMA),
  nextId: document(() => 1),
  fixture: document((fixture) => structuredClone(fixture)),
  jobs: rows<StoredJob>(),
};

/**
 * The state of one list of families: every key's slice, found once, and a fresh state made from
 * them. A key declared twice is refused when the model is made, so two families cannot share one.
 */
export class StateModel {
  readonly slices: ReadonlyMap<string, Slice<unknown>>;
  /** How each key is stored, for the journal and the database. */
  readonly layout: Readonly<Record<string, Layout>>;

  constructor(
    readonly families: readonly FamilyState[],
    /** The fixture a server starts from when given none: the families' facts together. */
    readonly defaultFixture: () => Fixture,
  ) {
    const slices = new Map<string, Slice<unknown>>(Object.entries(CORE_SLICES));
    for (const family of families) {
      for (const [key, slice] of Object.entries(family.state ?? {})) {
        if (slices.has(key)) throw new Error(`state key ${key} of family ${family.name} is declared twice`);
        slices.set(key, slice);
      }
    }
    this.slices = slices;
    this.layout = Object.fromEntries([...slices].map(([key, slice]) => [key, slice.layout]));
  }

  /** A state of `fixture` as a new server holds it: each slice fresh, then each family's seed. */
  fresh(fixture: Fixture = this.defaultFixture()): EmulatorState {
    const state: Partial<Record<string, unknown>> = {};
    for (const [key, slice] of this.slices) state[key] = slice.fresh(fixture);
    if (!isState(state, this)) throw new Error("a fresh state lacks a key of the model");
    for (const family of this.families) family.seed?.(state);
    return state;
  }

  /** Every key written whole: what a fresh, reset or upgraded state commits. */
  everything(): Dirty {
    const dirty: Dirty = { documents: new Set(), rows: new Map(), maps: new Map() };
    for (const [name, layout] of Object.entries(this.layout)) {
      if (layout === "document") dirty.documents.add(name);
      else if (layout === "map") dirty.maps.set(name, "all");
      else dirty.rows.set(name, { touched: new Set(), reshaped: true });
    }
    return dirty;
  }
}

/**
 * Whether `value` holds every key of the model. The model is made from the same declarations that
 * make `EmulatorState`, so a value holding all of them is one.
 */
export function isState(value: object, model: StateModel): value is EmulatorState {
  for (const key of model.slices.keys()) if (!Object.hasOwn(value, key)) return false;
  return true;
}
