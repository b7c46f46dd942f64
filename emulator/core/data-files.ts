/**
 * Data files of earlier versions, opened by this one with everything they hold: JSON state files
 * (what 0.2.0 and before wrote) become SQLite databases, and a state of schema 2 is brought to the
 * current schema. What a schema added comes from the families' declarations (`Slice.since`,
 * `Slice.ids`), so the upgrade names none of them.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { Database, DataFileError, type Loaded } from "./database";
import type { Fixture } from "./fixture";
import { type CounterKey, type EmulatorState, isState, STATE_SCHEMA, type StateModel } from "./state";

/** The schema of the JSON state files earlier versions wrote, and of databases before schema 3. */
const SCHEMA_2 = 2;

/**
 * Earlier versions wrote `<file>.<pid>.tmp` and renamed it over the data file; one killed between
 * the two left it behind. Nothing writes them any more: they are removed.
 */
export function removeStaleTemporaries(file: string): void {
  const folder = dirname(file);
  const prefix = `${basename(file)}.`;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return; // the folder is made when the database is opened
  }
  for (const name of names) {
    if (name.startsWith(prefix) && /^\d+\.tmp$/.test(name.slice(prefix.length))) {
      rmSync(join(folder, name), { force: true });
    }
  }
}

/**
 * The state a database holds, as this version keeps it: of the current schema, or of schema 2
 * upgraded (`upgraded`: to be written whole). Keys added within a schema (a new family's) start
 * fresh in a file written before them. A file of another schema, or without a fixture, is refused.
 */
export function openedState(
  loaded: Loaded,
  model: StateModel,
  where: string,
): { state: EmulatorState; upgraded: boolean } {
  const schema = loaded.schema;
  const fixture = loaded.fixture as Fixture | undefined;
  if ((schema !== STATE_SCHEMA && schema !== SCHEMA_2) || !fixture) {
    throw new DataFileError(
      where,
      `holds sandbox state of schema ${schema}; expected ${STATE_SCHEMA} (or ${SCHEMA_2}, which is upgraded): delete it (or use another --data file) to start from the fixture`,
    );
  }
  const upgraded = schema === SCHEMA_2;
  const held = upgraded ? upgradeSchema2({ ...loaded, fixture }, model) : { ...loaded, fixture };
  const state = { ...model.fresh(held.fixture), ...held, schema: STATE_SCHEMA };
  if (!isState(state, model)) throw new DataFileError(where, "lacks a key of the state");
  return { state, upgraded };
}

/**
 * A JSON state file of schema 2 (what earlier versions wrote) becomes a database of the current
 * schema (`upgradeSchema2`) at the same path; the JSON is kept beside it as `<file>.schema-2.json`.
 * A file of another shape is refused, untouched.
 */
export function migrateJsonFile(file: string, model: StateModel): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new DataFileError(file, `is not valid JSON (${(e as Error).message})`);
  }
  const result = jsonState(model).safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "the file";
    throw new DataFileError(file, `is not sandbox state of schema ${SCHEMA_2}: ${where}: ${issue?.message}`);
  }
  const { fixture, ...rest } = result.data;
  if (!isFixture(fixture)) throw new DataFileError(file, "holds no fixture");
  const held = upgradeSchema2({ ...rest, fixture }, model);
  const state = { ...model.fresh(held.fixture), ...held, schema: STATE_SCHEMA };
  if (!isState(state, model)) throw new DataFileError(file, "lacks a key of the state");
  passIdsHeld(state, model);
  const next = `${file}.migrating`;
  rmSync(next, { force: true });
  const database = new Database(next, model.layout);
  try {
    database.commit(state, model.everything());
  } finally {
    database.close();
  }
  rmSync(`${next}-wal`, { force: true });
  rmSync(`${next}-shm`, { force: true });
  let kept = `${file}.schema-2.json`;
  for (let n = 1; existsSync(kept); n++) kept = `${file}.schema-2.${n}.json`;
  renameSync(file, kept);
  renameSync(next, file);
  console.error(
    `hosting-emulator: ${file} was sandbox state in JSON; it is now an SQLite database (the JSON is kept as ${kept})`,
  );
}

/** Ids are never handed out twice: each counter passes every id of the records it numbers. */
function passIdsHeld(state: EmulatorState, model: StateModel): void {
  const highest = new Map<CounterKey, number>();
  for (const [key, slice] of model.slices) {
    const records = Reflect.get(state, key);
    if (slice.ids === undefined || !Array.isArray(records)) continue;
    for (const record of records) {
      const id = record?.id;
      if (typeof id === "number") highest.set(slice.ids, Math.max(highest.get(slice.ids) ?? 0, id));
    }
  }
  for (const [counter, id] of highest) {
    const now = Reflect.get(state, counter);
    Reflect.set(state, counter, Math.max(typeof now === "number" ? now : 1, id + 1));
  }
}

const record = z.looseObject({});
const withId = z.looseObject({ id: z.number().int().nonnegative() });

/** A fixture as far as the server relies on its shape. */
const fixtureShape = z.looseObject({
  enterprises: z.array(record),
  users: z.array(record),
  orgs: z.array(record),
  repos: z.array(record),
  runners: z.array(record),
  apps: z.array(record).optional(),
  tokens: z.record(z.string(), record),
});

function isFixture(value: unknown): value is Fixture {
  return fixtureShape.safeParse(value).success;
}

/**
 * The shape of a schema-2 JSON state file, as far as the server relies on it: the counters, the
 * fixture's lists, and each collection as its layout stores it (a list, or an object of records).
 */
function jsonState(model: StateModel) {
  const collections: Record<string, z.ZodType> = {};
  for (const [key, slice] of model.slices) {
    if (slice.layout === "rows") collections[key] = z.array(slice.ids ? withId : record).optional();
    else if (slice.layout === "map") collections[key] = z.record(z.string(), z.unknown()).optional();
  }
  return z.looseObject({
    ...collections,
    schema: z.literal(SCHEMA_2),
    nextId: z.number().int().positive(),
    nextGroupId: z.number().int().positive().optional(),
    fixture: fixtureShape,
  });
}

/**
 * A state of schema 2 (a database, or a JSON file being migrated) brought to the current schema.
 * Everything it holds is kept. Its fixture gains the keys it lacks, from the default fixture (git
 * data, teams, issues, pull requests, alerts, graph sources, user emails, notifications), and the
 * tokens, users and repositories of the default fixture it has none of by key (the token, the
 * login, `owner/name`; case-insensitively) nor by id: a token only when its user (or, for an
 * installation, its organisation) is in the fixture, a repository only when its owner organisation
 * is. The collections a later schema added that it lacks, or holds empty, are dropped, so they
 * start from the model's fresh state of that fixture (the caller spreads it in).
 */
export function upgradeSchema2(
  loaded: Loaded & { fixture: Fixture },
  model: StateModel,
): Loaded & { fixture: Fixture } {
  const seed = model.defaultFixture();
  const fixture: Fixture = { ...seed, ...loaded.fixture };

  const users = [...fixture.users];
  const logins = new Set(users.map((u) => u.login.toLowerCase()));
  const userIds = new Set(users.map((u) => u.id));
  for (const user of seed.users) {
    if (logins.has(user.login.toLowerCase()) || userIds.has(user.id)) continue;
    users.push(user);
    logins.add(user.login.toLowerCase());
    userIds.add(user.id);
  }
  fixture.users = users;

  const orgs = new Set(fixture.orgs.map((o) => o.login.toLowerCase()));
  const repos = [...fixture.repos];
  const paths = new Set(repos.map((r) => `${r.owner}/${r.name}`.toLowerCase()));
  const repoIds = new Set(repos.map((r) => r.id));
  for (const repo of seed.repos) {
    const path = `${repo.owner}/${repo.name}`.toLowerCase();
    if (paths.has(path) || repoIds.has(repo.id) || !orgs.has(repo.owner.toLowerCase())) continue;
    repos.push(repo);
    paths.add(path);
    repoIds.add(repo.id);
  }
  fixture.repos = repos;

  const tokens = { ...fixture.tokens };
  for (const [token, record] of Object.entries(seed.tokens)) {
    if (Object.hasOwn(tokens, token)) continue;
    const holder = record.installationOrg
      ? orgs.has(record.installationOrg.toLowerCase())
      : logins.has(record.user.toLowerCase());
    if (holder) tokens[token] = record;
  }
  fixture.tokens = tokens;

  const upgraded: Loaded = { ...loaded };
  for (const [key, slice] of model.slices) {
    if (slice.since === undefined || slice.since <= SCHEMA_2) continue;
    const held = upgraded[key];
    if (
      held === undefined ||
      (Array.isArray(held) ? held.length === 0 : Object.keys(held ?? {}).length === 0)
    )
      delete upgraded[key];
  }
  return { ...upgraded, schema: STATE_SCHEMA, fixture };
}
