/**
 * The sandbox server's state: the fixture plus everything created through the API, kept as one
 * JSON document. With a data file it survives restarts: every change is written to a temporary file
 * and renamed over the old one, so a crash never leaves half a file behind.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type {
  BudgetScope,
  BudgetType,
  PrivateRegistryAuthType,
  PrivateRegistryOidcField,
  PrivateRegistryType,
  PrivateRegistryVisibility,
} from "../provider/client/schemas";
import { defaultFixture, type Fixture } from "./fixture";

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
}

/**
 * The shape of the stored state, fixture included. 2: the fixture gained billie, solo, release/eu
 * and repository property definitions, and the state the families that use them.
 */
export const STATE_SCHEMA = 2;

/**
 * Runner group ids come from their own counter (`nextGroupId`), apart from the one hooks,
 * deliveries and invitations share (`nextId`). Both start at 1, so a group and a hook can have the
 * same id; ids are only unique within their kind, as on the platform.
 */
const FIRST_GROUP_ID = 1;

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
  };
  // Every enterprise and organisation has a default runner group holding its runners.
  let groupId = FIRST_GROUP_ID;
  const defaultGroup = (scope: StoredRunnerGroup["scope"], owner: string): StoredRunnerGroup => ({
    id: groupId++,
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
  });
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

export class Store {
  state: EmulatorState;

  constructor(
    private readonly fixture: Fixture,
    private readonly dataFile: string | undefined,
  ) {
    this.state = this.load() ?? freshState(fixture);
    this.save();
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

  reset(): void {
    this.state = freshState(this.fixture);
    this.save();
  }

  /** Writes the state to the data file, when there is one (atomic: temp file, then rename). */
  save(): void {
    if (!this.dataFile) return;
    mkdirSync(dirname(this.dataFile), { recursive: true });
    const temp = `${this.dataFile}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(this.state));
    renameSync(temp, this.dataFile);
  }

  private load(): EmulatorState | undefined {
    if (!this.dataFile) return undefined;
    let text: string;
    try {
      text = readFileSync(this.dataFile, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw e;
    }
    const parsed = JSON.parse(text) as EmulatorState;
    if (parsed.schema !== STATE_SCHEMA) {
      throw new Error(
        `${this.dataFile} holds sandbox state of schema ${parsed.schema}; expected ${STATE_SCHEMA}: delete it (or use another --data file) to start from the fixture`,
      );
    }
    // Collections added within a schema (a new family's) start empty in a file written before them.
    return { ...freshState(parsed.fixture), ...parsed };
  }
}

/** Timestamps as the platform writes them: ISO 8601, seconds precision, `Z`. */
export function timestamp(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
