/**
 * The sandbox server's state: the fixture plus everything created through the API. It is kept in
 * an SQLite database (in memory without a data file) and changed only inside transactions, one
 * request at a time (docs/DECISIONS.md).
 */
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import type {
  BudgetScope,
  BudgetType,
  PrivateRegistryAuthType,
  PrivateRegistryOidcField,
  PrivateRegistryType,
  PrivateRegistryVisibility,
} from "../../provider/client/schemas";
import {
  type GitRepo,
  type StatisticsCache,
  type StoredBranch,
  type StoredCommit,
  type StoredRedirect,
  seedGit,
} from "../families/git/git";
import type { DependencyAlertRecord, ManifestRecord, PullRequestRecord } from "../families/security/seed";
import type { StoredGpgKey, StoredSshKey } from "../families/user-keys/keys";
import { DATABASE_FORMAT, Database, DataFileError, inspectDataFile } from "./database";
import { defaultFixture, type Fixture } from "./fixture";
import type { StoredJob } from "./jobs";
import { type Dirty, Journal, type Layout } from "./journal";

export interface StoredHookConfig {
  url: string;
  content_type: "json" | "form";
  insecure_ssl: "0" | "1";
  secret?: string;
}

export interface StoredHook {
  id: number;
  /** `owner/repo` (lower case) for repository hooks; absent for global hooks. */
  repo?: string;
  active: boolean;
  events: string[];
  config: StoredHookConfig;
  created_at: string;
  updated_at: string;
  last_response: { code: number | null; status: string; message: string | null };
}

export interface Delivery {
  id: number;
  guid: string;
  hook_id: number;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
}

export interface StoredRunnerGroup {
  id: number;
  /** An enterprise group (owner = enterprise slug) or an organisation group (owner = org login). */
  scope: "enterprise" | "org";
  owner: string;
  name: string;
  visibility: "all" | "selected" | "private";
  default: boolean;
  selectedOrganizationIds: number[];
  selectedRepositoryIds: number[];
  allowsPublicRepositories: boolean;
  restrictedToWorkflows: boolean;
  selectedWorkflows: string[];
}

export interface Invitation {
  id: number;
  org: string;
  login: string;
  role: "admin" | "member";
  inviter: string;
  created_at: string;
}

/** A custom deployment protection rule: an app enabled on one environment of a repository. */
export interface StoredProtectionRule {
  id: number;
  /** `owner/repo` (lower case) of the repository. */
  repo: string;
  /** The environment's name as the fixture spells it. */
  environment: string;
  appId: number;
}

/** A custom property's value of one organisation or one repository (absent: no value). */
export interface StoredPropertyValue {
  /** The organisation's login, or `owner/repo` (lower case) for a repository. */
  target: string;
  /** The property's name, spelled as its definition. */
  name: string;
  /** A string (string, single select) or the chosen values (multi select). */
  value: string | string[];
}

export interface StoredBudget {
  /** A UUID. */
  id: string;
  /** The enterprise slug. */
  enterprise: string;
  type: BudgetType;
  sku: string;
  scope: BudgetScope;
  /** The organisation, repository (`owner/name`) or cost centre; empty where the scope names none. */
  entityName: string;
  /** The login of a user-scoped budget. */
  user?: string;
  amount: number;
  preventFurtherUsage: boolean;
  willAlert: boolean;
  recipients: string[];
}

export interface StoredPrivateRegistry {
  /** The organisation's login. */
  org: string;
  /** The secret name, derived from the registry type at creation; the path id. */
  name: string;
  registryType: PrivateRegistryType;
  url: string;
  username: string | null;
  replacesBase: boolean;
  visibility: PrivateRegistryVisibility;
  selectedRepositoryIds: number[];
  authType: PrivateRegistryAuthType;
  /** OIDC settings of the auth type, by wire name. */
  oidc: Partial<Record<PrivateRegistryOidcField, string>>;
  /** The plaintext the server opened (null for OIDC); never returned by the API, read by tests. */
  value: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An organisation's Curve25519 key pair for private registry values (raw keys, base64). */
export interface StoredRegistryKey {
  keyId: string;
  publicKey: string;
  privateKey: string;
}

/** A notification thread of one user (spec, concepts, Notification thread; notifications.ts). */
export interface StoredThread {
  /** A decimal integer as a string, unique among threads. */
  id: string;
  /** The login of the user it belongs to. */
  user: string;
  /** The repository's id: an organisation rename leaves it valid. */
  repoId: number;
  subject: { title: string; type: string; path: string };
  reason: string;
  unread: boolean;
  updatedAt: string;
  lastReadAt: string | null;
  participating: boolean;
  /** The last time anything of the thread changed (Last-Modified): ISO 8601, seconds. */
  changedAt: string;
}

/** A dependency snapshot a user submitted (only the latest per correlator and detector is kept). */
export interface StoredSnapshot {
  id: number;
  /** `owner/repo` (lower case). */
  repo: string;
  version: number;
  job: { id: string; correlator: string; html_url?: string };
  sha: string;
  ref: string;
  detector: { name: string; version: string; url: string };
  metadata?: Record<string, string | number | boolean | null>;
  manifests: Record<string, ManifestRecord>;
  scanned: string;
  created_at: string;
}

/** A security manager of an organisation: reads and updates every alert of it. */
export interface StoredSecurityManager {
  /** The organisation's login (lower case). */
  org: string;
  login: string;
}

/** A user blocked by an organisation. */
export interface StoredOrgBlock {
  /** The organisation's login. */
  org: string;
  /** The blocked user's login, as the fixture spells it. */
  login: string;
  createdAt: string;
}

export type IssueColor = "gray" | "blue" | "green" | "yellow" | "orange" | "red" | "pink" | "purple";

/** An organisation's issue type. */
export interface StoredIssueType {
  id: number;
  /** The organisation's login. */
  org: string;
  name: string;
  description: string | null;
  color: IssueColor | null;
  isEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export type IssueFieldDataType = "text" | "date" | "single_select" | "multi_select" | "number";

/** One option of a select issue field. */
export interface StoredIssueFieldOption {
  id: number;
  name: string;
  description: string | null;
  color: IssueColor;
  priority: number;
  createdAt: string;
  updatedAt: string;
}

/** An organisation's issue field. */
export interface StoredIssueField {
  id: number;
  /** The organisation's login. */
  org: string;
  name: string;
  description: string | null;
  dataType: IssueFieldDataType;
  visibility: "organization_members_only" | "all";
  /** The options of a select field, by priority; empty for the other data types. */
  options: StoredIssueFieldOption[];
  createdAt: string;
  updatedAt: string;
}

export interface EmulatorState {
  schema: typeof STATE_SCHEMA;
  nextId: number;
  fixture: Fixture;
  repoHooks: StoredHook[];
  globalHooks: StoredHook[];
  deliveries: Delivery[];
  runnerGroups: StoredRunnerGroup[];
  /** Runner id -> the group it is in (every runner is in exactly one group). */
  runnerGroupOf: Record<string, number>;
  invitations: Invitation[];
  nextGroupId: number;
  protectionRules: StoredProtectionRule[];
  /** Organisation custom property values (organisations of an enterprise only). */
  orgPropertyValues: StoredPropertyValue[];
  /** Repository custom property values. */
  repoPropertyValues: StoredPropertyValue[];
  budgets: StoredBudget[];
  /** Enterprises whose budgets feature is turned off (`/_emulator/`): their budget routes answer 404. */
  budgetsOff: string[];
  privateRegistries: StoredPrivateRegistry[];
  /** Organisation login (lower case) -> its current registry key pair, made on first use. */
  registryKeys: Record<string, StoredRegistryKey>;
  /** Background jobs not yet done (jobs.ts). */
  jobs: StoredJob[];
  /** Users' GPG keys, SSH authentication keys and SSH signing keys (user-keys.ts). */
  gpgKeys: StoredGpgKey[];
  sshKeys: StoredSshKey[];
  sshSigningKeys: StoredSshKey[];
  /** Notification threads of every user (notifications.ts), seeded from the fixture. */
  notificationThreads: StoredThread[];
  /** Git data (git.ts). Repository key (`owner/name`, lower case) -> default branch, upstream, switches. */
  gitRepos: Record<string, GitRepo>;
  /** Every commit of every repository, one store shared by forks (as the platform's fork networks). */
  commits: StoredCommit[];
  branches: StoredBranch[];
  /** Old branch names that answer 301 to the branch's current name. */
  branchRedirects: StoredRedirect[];
  /** Repository key -> the default-branch commit its statistics were (or are being) computed for. */
  statisticsCache: Record<string, StatisticsCache>;
  // Security and review families.
  /** Pull requests, from the fixture; review requests add to them. */
  pullRequests: PullRequestRecord[];
  /** Dependency alerts, from the fixture; updates change them. */
  dependencyAlerts: DependencyAlertRecord[];
  /** User-submitted dependency snapshots. */
  dependencySnapshots: StoredSnapshot[];
  /** Security managers by organisation (a control sets them). */
  securityManagers: StoredSecurityManager[];
  /** Users blocked by organisations, oldest block first. */
  orgBlocks: StoredOrgBlock[];
  issueTypes: StoredIssueType[];
  issueFields: StoredIssueField[];
}

/**
 * The shape of the stored state, fixture included. 2: the fixture gained billie, solo, release/eu
 * and repository property definitions, and the state the families that use them. 3: the fixture
 * gained git data, teams, issues, pull requests, dependency alerts and graph sources, user emails,
 * notifications, the repository acme-eng/empty and the app user token `svcu_user`, and the state
 * the families that use them; a file of schema 2 is upgraded when it is opened (`upgradeSchema2`).
 */
export const STATE_SCHEMA = 3;

/** The schema of the JSON state files earlier versions wrote, and of databases before schema 3. */
const SCHEMA_2 = 2;

/**
 * The collections schema 3 added. A file of schema 2 holds none (a database reads them back empty):
 * they start from `freshState` of the upgraded fixture, unless the file does hold records of one.
 */
const SCHEMA_3_COLLECTIONS = [
  "gpgKeys",
  "sshKeys",
  "sshSigningKeys",
  "notificationThreads",
  "gitRepos",
  "commits",
  "branches",
  "branchRedirects",
  "statisticsCache",
  "pullRequests",
  "dependencyAlerts",
  "dependencySnapshots",
  "securityManagers",
  "orgBlocks",
  "issueTypes",
  "issueFields",
] as const satisfies ReadonlyArray<keyof EmulatorState>;

/** A state as a data file holds it: of this schema or an earlier one, keys of later families absent. */
type LoadedState = Omit<Partial<EmulatorState>, "schema"> & { schema?: unknown };

/**
 * Runner group ids come from their own counter (`nextGroupId`), apart from the one hooks,
 * deliveries and invitations share (`nextId`). Both start at 1, so a group and a hook can have the
 * same id; ids are only unique within their kind, as on the platform.
 */
const FIRST_GROUP_ID = 1;

/** The default runner group every enterprise and organisation has, holding its runners. */
export function defaultRunnerGroup(
  id: number,
  scope: StoredRunnerGroup["scope"],
  owner: string,
): StoredRunnerGroup {
  return {
    id,
    scope,
    owner,
    name: "Default",
    visibility: "all",
    default: true,
    selectedOrganizationIds: [],
    selectedRepositoryIds: [],
    allowsPublicRepositories: false,
    restrictedToWorkflows: false,
    selectedWorkflows: [],
  };
}

export function freshState(fixture: Fixture = defaultFixture()): EmulatorState {
  const state: EmulatorState = {
    schema: STATE_SCHEMA,
    nextId: 1,
    fixture: structuredClone(fixture),
    repoHooks: [],
    globalHooks: [],
    deliveries: [],
    runnerGroups: [],
    runnerGroupOf: {},
    invitations: [],
    nextGroupId: FIRST_GROUP_ID,
    protectionRules: [],
    orgPropertyValues: [],
    repoPropertyValues: [],
    budgets: [],
    budgetsOff: [],
    privateRegistries: [],
    registryKeys: {},
    jobs: [],
    gpgKeys: [],
    sshKeys: [],
    sshSigningKeys: [],
    notificationThreads: (fixture.notifications ?? []).map((n) => ({
      ...structuredClone(n),
      changedAt: n.lastReadAt && n.lastReadAt > n.updatedAt ? n.lastReadAt : n.updatedAt,
    })),
    gitRepos: {},
    commits: [],
    branches: [],
    branchRedirects: [],
    statisticsCache: {},
    pullRequests: structuredClone(fixture.pullRequests ?? []),
    dependencyAlerts: structuredClone(fixture.dependencyAlerts ?? []),
    dependencySnapshots: [],
    securityManagers: [],
    orgBlocks: [],
    issueTypes: [],
    issueFields: [],
  };
  // Data files written before the fixture had git data hold a fixture without it.
  seedGit(state, state.fixture.git ?? [], Date.now());
  // Every enterprise and organisation has a default runner group holding its runners.
  let groupId = FIRST_GROUP_ID;
  const defaultGroup = (scope: StoredRunnerGroup["scope"], owner: string) =>
    defaultRunnerGroup(groupId++, scope, owner);
  for (const e of state.fixture.enterprises) state.runnerGroups.push(defaultGroup("enterprise", e.slug));
  for (const o of state.fixture.orgs) state.runnerGroups.push(defaultGroup("org", o.login));
  for (const runner of state.fixture.runners) {
    const group = state.runnerGroups.find((g) =>
      runner.org
        ? g.scope === "org" && g.owner === runner.org
        : g.scope === "enterprise" && g.owner === runner.enterprise,
    );
    if (group) state.runnerGroupOf[String(runner.id)] = group.id;
  }
  state.nextGroupId = groupId;
  return state;
}

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
 * How each key of the state is stored (journal.ts): collections that grow with use are `rows` or
 * `map`, so writing one record costs the same at 100 records as at 50,000.
 */
export const STATE_LAYOUT: { readonly [K in keyof EmulatorState]-?: Layout } = {
  schema: "document",
  nextId: "document",
  nextGroupId: "document",
  fixture: "document",
  repoHooks: "rows",
  globalHooks: "rows",
  deliveries: "rows",
  runnerGroups: "rows",
  runnerGroupOf: "map",
  invitations: "rows",
  protectionRules: "rows",
  orgPropertyValues: "rows",
  repoPropertyValues: "rows",
  budgets: "rows",
  budgetsOff: "document",
  privateRegistries: "rows",
  registryKeys: "map",
  jobs: "rows",
  gpgKeys: "rows",
  sshKeys: "rows",
  sshSigningKeys: "rows",
  notificationThreads: "rows",
  gitRepos: "map",
  commits: "rows",
  branches: "rows",
  branchRedirects: "rows",
  statisticsCache: "map",
  pullRequests: "rows",
  dependencyAlerts: "rows",
  dependencySnapshots: "rows",
  securityManagers: "rows",
  orgBlocks: "rows",
  issueTypes: "rows",
  issueFields: "rows",
};

/** Every key written whole: what a fresh or reset state commits. */
function everything(): Dirty {
  const dirty: Dirty = { documents: new Set(), rows: new Map(), maps: new Map() };
  for (const [name, layout] of Object.entries(STATE_LAYOUT)) {
    if (layout === "document") dirty.documents.add(name);
    else if (layout === "map") dirty.maps.set(name, "all");
    else dirty.rows.set(name, { touched: new Set(), reshaped: true });
  }
  return dirty;
}

/**
 * The sandbox server's state, in memory as plain objects and kept in an SQLite database
 * (database.ts). Every API request runs as one transaction (`transaction`): one at a time, its
 * writes journaled, committed together when it succeeds and undone, in memory and in the database,
 * when anything fails.
 */
export class Store {
  private journal: Journal<EmulatorState>;
  private readonly database: Database;
  private queue: Promise<unknown> = Promise.resolve();
  private active = false;

  constructor(
    private readonly fixture: Fixture,
    dataFile: string | undefined,
  ) {
    if (dataFile !== undefined && inspectDataFile(dataFile) === "json") migrateJsonFile(dataFile);
    if (dataFile !== undefined) removeStaleTemporaries(dataFile);
    this.database = new Database(dataFile, STATE_LAYOUT);
    try {
      const where = dataFile ?? ":memory:";
      const format = this.database.format;
      if (format !== undefined && format !== DATABASE_FORMAT) {
        throw new DataFileError(
          where,
          `is a sandbox database of format ${format}; this server reads ${DATABASE_FORMAT}`,
        );
      }
      if (format === undefined) {
        this.journal = new Journal(freshState(fixture), STATE_LAYOUT);
        this.database.commit(this.journal.raw as unknown as Record<string, unknown>, everything());
      } else {
        const loaded = this.database.load() as LoadedState;
        const schema = loaded.schema;
        const stored = loaded.fixture;
        if ((schema !== STATE_SCHEMA && schema !== SCHEMA_2) || !stored) {
          throw new DataFileError(
            where,
            `holds sandbox state of schema ${schema}; expected ${STATE_SCHEMA} (or ${SCHEMA_2}, which is upgraded): delete it (or use another --data file) to start from the fixture`,
          );
        }
        const state: Partial<EmulatorState> & { fixture: Fixture } =
          schema === SCHEMA_2
            ? upgradeSchema2({ ...loaded, fixture: stored })
            : { ...loaded, schema: STATE_SCHEMA, fixture: stored };
        // Collections added within a schema (a new family's) start empty in a file written before
        // them; those of an upgrade start from the upgraded fixture.
        this.journal = new Journal({ ...freshState(state.fixture), ...state }, STATE_LAYOUT);
        // An upgraded file is written whole at once, so it is of the new schema from now on.
        if (schema === SCHEMA_2)
          this.database.commit(this.journal.raw as unknown as Record<string, unknown>, everything());
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
    return this.journal.track(collection, record as object) as RowOf<K>;
  }

  nextId(): number {
    return this.state.nextId++;
  }

  newGroupId(): number {
    return this.state.nextGroupId++;
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
    const fresh = freshState(this.fixture);
    const state = this.state as unknown as Record<string, unknown>;
    for (const key of Object.keys(STATE_LAYOUT)) state[key] = fresh[key as keyof EmulatorState];
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
    this.database.commit(this.journal.raw as unknown as Record<string, unknown>, this.journal.changed);
    this.journal.settle();
  }
}

/**
 * Earlier versions wrote `<file>.<pid>.tmp` and renamed it over the data file; one killed between
 * the two left it behind. Nothing writes them any more: they are removed.
 */
function removeStaleTemporaries(file: string): void {
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
 * A JSON state file of schema 2 (what earlier versions wrote) becomes a database of schema 3
 * (`upgradeSchema2`) at the same path; the JSON is kept beside it as `<file>.schema-2.json`. A file
 * of another shape is refused, untouched.
 */
function migrateJsonFile(file: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new DataFileError(file, `is not valid JSON (${(e as Error).message})`);
  }
  const result = jsonState.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "the file";
    throw new DataFileError(file, `is not sandbox state of schema ${SCHEMA_2}: ${where}: ${issue?.message}`);
  }
  const upgraded = upgradeSchema2(result.data as unknown as LoadedState & { fixture: Fixture });
  const state = { ...freshState(upgraded.fixture), ...upgraded } as EmulatorState;
  // Ids are never handed out twice: the counters pass every id the file holds.
  const highest = (items: Array<{ id: number }>) => items.reduce((max, item) => Math.max(max, item.id), 0);
  state.nextId = Math.max(
    state.nextId,
    1 +
      Math.max(
        highest(state.repoHooks),
        highest(state.globalHooks),
        highest(state.deliveries),
        highest(state.invitations),
        highest(state.protectionRules),
      ),
  );
  state.nextGroupId = Math.max(state.nextGroupId, 1 + highest(state.runnerGroups));
  const next = `${file}.migrating`;
  rmSync(next, { force: true });
  const database = new Database(next, STATE_LAYOUT);
  try {
    database.commit(state as unknown as Record<string, unknown>, everything());
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

const record = z.looseObject({});
const withId = z.looseObject({ id: z.number().int().nonnegative() });

/** The shape of a schema-2 JSON state file, as far as the server relies on it. */
const jsonState = z.looseObject({
  schema: z.literal(SCHEMA_2),
  nextId: z.number().int().positive(),
  nextGroupId: z.number().int().positive().optional(),
  fixture: z.looseObject({
    enterprises: z.array(record),
    users: z.array(record),
    orgs: z.array(record),
    repos: z.array(record),
    runners: z.array(record),
    apps: z.array(record).optional(),
    tokens: z.record(z.string(), record),
  }),
  repoHooks: z.array(withId).optional(),
  globalHooks: z.array(withId).optional(),
  deliveries: z.array(withId).optional(),
  runnerGroups: z.array(withId).optional(),
  runnerGroupOf: z.record(z.string(), z.number().int()).optional(),
  invitations: z.array(withId).optional(),
  protectionRules: z.array(withId).optional(),
  orgPropertyValues: z.array(record).optional(),
  repoPropertyValues: z.array(record).optional(),
  budgets: z.array(z.looseObject({ id: z.string() })).optional(),
  budgetsOff: z.array(z.string()).optional(),
  privateRegistries: z.array(record).optional(),
  registryKeys: z.record(z.string(), record).optional(),
});

/**
 * A state of schema 2 (a database, or a JSON file being migrated) brought to schema 3. Everything it
 * holds is kept. Its fixture gains the keys it lacks, from the default fixture (git data, teams,
 * issues, pull requests, alerts, graph sources, user emails, notifications), and the tokens, users
 * and repositories of the default fixture it has none of by key (the token, the login, `owner/name`;
 * case-insensitively) nor by id: a token only when its user (or, for an installation, its
 * organisation) is in the fixture, a repository only when its owner organisation is. The
 * collections it lacks, or holds empty among those of schema 3, then start from `freshState` of
 * that fixture (the caller spreads it in).
 */
export function upgradeSchema2(
  loaded: LoadedState & { fixture: Fixture },
): Partial<EmulatorState> & { fixture: Fixture } {
  const seed = defaultFixture();
  const fixture = { ...loaded.fixture } as Fixture;
  const filled = fixture as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(seed)) if (filled[key] === undefined) filled[key] = value;

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

  const upgraded: LoadedState = { ...loaded };
  for (const key of SCHEMA_3_COLLECTIONS) {
    const held = upgraded[key];
    if (held === undefined || (Array.isArray(held) ? held.length === 0 : Object.keys(held).length === 0))
      delete upgraded[key];
  }
  return { ...upgraded, schema: STATE_SCHEMA, fixture };
}

/** Timestamps as the platform writes them: ISO 8601, seconds precision, `Z`. */
export function timestamp(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
