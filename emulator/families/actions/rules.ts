/**
 * Actions secret and variable rules shared by the routes and the controls: the scopes (an
 * organisation, a repository, an environment of one) and who may use them, names as the platform
 * keeps them (upper-case, compared case-insensitively, letters, digits and `_` only, not starting
 * with a digit or the reserved prefix), each scope's Curve25519 key pair (made on first use,
 * rotated by a control), opening a sealed value, values' limits, and timestamps that move forward
 * on every write. Everything is validated before anything changes, so a refused request changes
 * nothing.
 */
import { randomBytes } from "node:crypto";
import {
  ACTIONS_VALUE_MAX_BYTES,
  ACTIONS_VISIBILITIES,
  type ActionsVisibility,
  actionsNameProblem,
  storedActionsName,
} from "../../../api";
import { newBoxKeyPair, openBox } from "../../../api/sealed-box";
import { orgRole } from "../../core/auth";
import type { Caller } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { forbidden, invalidField, missingField, notFound } from "../../core/http";
import { adminRepo, findOrg, findRepo } from "../../core/lookup";
import { ownValue } from "../../core/records";
import { type EmulatorState, type Store, timestamp } from "../../core/store";
import { findEnvironment, whenEnvironmentRemoved } from "../environments/environments";
import type { ScopeKey, StoredActionsKey, StoredActionsSecret, StoredActionsVariable } from "./state";

/** A place secrets and variables live: its key in the state, and what answers name it. */
export interface ActionsScope {
  key: ScopeKey;
  /** The organisation the scope belongs to (an environment's and a repository's: the owner). */
  org: OrgRecord;
  /** Repository and environment scopes. */
  repo?: RepoRecord;
  /** Environment scopes: the name as the repository spells it. */
  environment?: string;
}

export const orgScopeKey = (org: OrgRecord): ScopeKey => `org:${org.id}`;
export const repoScopeKey = (repo: RepoRecord): ScopeKey => `repo:${repo.id}`;
export const environmentScopeKey = (repo: RepoRecord, environment: string): ScopeKey =>
  `env:${repo.id}:${environment.toLowerCase()}`;

// ---------------------------------------------------------------------------------------------
// Scopes, and who may use them
// ---------------------------------------------------------------------------------------------

/**
 * The organisation of `/orgs/{org}/actions/...`: 404 when unknown, 403 when the caller is not one
 * of its owners (the platform keeps organisation secrets and variables to them).
 */
export function orgScope(state: EmulatorState, caller: Caller, login: string, what: string): ActionsScope {
  const org = findOrg(state, login);
  if (!org) throw notFound();
  if (orgRole(caller, org) !== "admin") throw forbidden(`Must be an organization owner to manage ${what}`);
  return { key: orgScopeKey(org), org };
}

/**
 * The repository of `/repos/{owner}/{repo}/...`, which the caller must administer: anything else is
 * a 404, which hides the repository, as on the platform's other repository administration routes.
 */
export function repoScope(state: EmulatorState, caller: Caller, owner: string, name: string): ActionsScope {
  const repo = adminRepo(state, caller, owner, name);
  const org = findOrg(state, repo.owner);
  if (!org) throw notFound();
  return { key: repoScopeKey(repo), org, repo };
}

/** An environment of a repository the caller administers; 404 when the environment does not exist. */
export function environmentScope(
  state: EmulatorState,
  caller: Caller,
  owner: string,
  name: string,
  environment: string,
): ActionsScope {
  const { org, repo } = repoScope(state, caller, owner, name);
  if (!repo) throw notFound();
  const found = environmentOf(state, repo, environment);
  if (found === undefined) throw notFound();
  return { key: environmentScopeKey(repo, found), org, repo, environment: found };
}

/**
 * The repository's environment of this name as it spells it (environment names are
 * case-insensitive), or undefined. The environments family owns what environments exist.
 */
function environmentOf(state: EmulatorState, repo: RepoRecord, name: string): string | undefined {
  return findEnvironment(state, repo, name)?.name;
}

/** The ids of the repositories of the scope's organisation (what `selected_repository_ids` may hold). */
export function repositoryIdsOf(state: EmulatorState, org: OrgRecord): Set<number> {
  const owner = org.login.toLowerCase();
  return new Set(state.fixture.repos.filter((r) => r.owner.toLowerCase() === owner).map((r) => r.id));
}

/**
 * Removes an environment's secrets and variables, and its key pair: what deleting the environment
 * does on the platform. Nothing happens for an unknown repository or an environment without any.
 */
export function dropEnvironmentActions(
  state: EmulatorState,
  owner: string,
  repo: string,
  environment: string,
): void {
  const found = findRepo(state, owner, repo);
  if (!found) return;
  const key = environmentScopeKey(found, environment);
  if (state.actionsSecrets.some((s) => s.scope === key)) {
    state.actionsSecrets = state.actionsSecrets.filter((s) => s.scope !== key);
  }
  if (state.actionsVariables.some((v) => v.scope === key)) {
    state.actionsVariables = state.actionsVariables.filter((v) => v.scope !== key);
  }
  if (ownValue(state.actionsKeys, key) !== undefined) delete state.actionsKeys[key];
}

// ---------------------------------------------------------------------------------------------
// Names, values, visibility
// ---------------------------------------------------------------------------------------------

/** A name of the platform's kind, upper-cased as it is stored; a 422 naming `field` otherwise. */
export function parseName(resource: string, field: string, raw: unknown): string {
  if (raw === undefined || raw === null) throw missingField(resource, field);
  if (typeof raw !== "string") throw invalidField(resource, field, `${field} must be a string`);
  const problem = actionsNameProblem(raw, field);
  if (problem !== undefined) throw invalidField(resource, field, problem);
  return storedActionsName(raw);
}

/** The record of this name (compared case-insensitively) in the scope. */
export function findNamed<T extends { scope: ScopeKey; name: string }>(
  records: readonly T[],
  scope: ActionsScope,
  name: string,
): T | undefined {
  const stored = storedActionsName(name);
  return records.find((r) => r.scope === scope.key && r.name === stored);
}

/** A value within the platform's limit (48 KB); a 422 naming `field` otherwise. */
export function checkValueSize(resource: string, field: string, value: string): string {
  if (Buffer.byteLength(value, "utf8") > ACTIONS_VALUE_MAX_BYTES) {
    throw invalidField(resource, field, `the value must be at most ${ACTIONS_VALUE_MAX_BYTES / 1024} KB`);
  }
  return value;
}

export function parseVisibility(resource: string, raw: unknown): ActionsVisibility | undefined {
  if (raw === undefined) return undefined;
  const match = ACTIONS_VISIBILITIES.find((v) => v === raw);
  if (match === undefined) {
    throw invalidField(
      resource,
      "visibility",
      `visibility must be one of ${ACTIONS_VISIBILITIES.join(", ")}`,
    );
  }
  return match;
}

/** An organisation secret's or variable's settings, as a write sets them. */
export interface Settings {
  visibility: ActionsVisibility;
  selectedRepositoryIds?: number[];
}

/** Sets a record's settings: leaving `selected` forgets its repositories. */
export function applySettings(record: Partial<Settings>, settings: Settings): void {
  record.visibility = settings.visibility;
  if (settings.selectedRepositoryIds === undefined) delete record.selectedRepositoryIds;
  else record.selectedRepositoryIds = settings.selectedRepositoryIds;
}

/**
 * `selected_repository_ids` for visibility `visibility`: taken only with `selected` (a 422
 * otherwise), each a repository of the organisation; absent, `current` stays (none for a new one).
 */
export function parseSelected(
  resource: string,
  raw: unknown,
  visibility: ActionsVisibility,
  repoIds: ReadonlySet<number>,
  current: readonly number[] | undefined,
): number[] | undefined {
  if (raw === undefined || raw === null) {
    return visibility === "selected" ? [...(current ?? [])] : undefined;
  }
  if (visibility !== "selected") {
    throw invalidField(
      resource,
      "selected_repository_ids",
      "selected_repository_ids is allowed only when visibility is selected",
    );
  }
  return repositoryIds(resource, raw, repoIds);
}

/** A list of repository ids of the organisation, without repeats; a 422 naming the field otherwise. */
export function repositoryIds(resource: string, raw: unknown, repoIds: ReadonlySet<number>): number[] {
  const field = "selected_repository_ids";
  if (!Array.isArray(raw) || !raw.every((v) => Number.isSafeInteger(v) && v > 0)) {
    throw invalidField(resource, field, `${field} must be an array of repository ids`);
  }
  const ids = [...new Set(raw as number[])];
  const unknown = ids.filter((id) => !repoIds.has(id));
  if (unknown.length > 0) {
    throw invalidField(resource, field, `not repositories of the organization: ${unknown.join(", ")}`);
  }
  return ids;
}

/**
 * The time of a write to a record last written at `previous`: now, or a second after `previous`
 * when now is not later. Timestamps have whole seconds, so two writes within one second are still
 * told apart by `updated_at`, which is how a client sees a secret changed since it wrote it.
 */
export function writtenAt(previous?: string): string {
  const now = timestamp();
  if (previous === undefined || now > previous) return now;
  return timestamp(new Date(Date.parse(previous) + 1000));
}

// ---------------------------------------------------------------------------------------------
// Keys and sealed values
// ---------------------------------------------------------------------------------------------

/** The scope's current key pair, made (and saved) on first use. */
export function currentKey(store: Store, scope: ActionsScope): StoredActionsKey {
  return ownValue(store.state.actionsKeys, scope.key) ?? rotateKey(store, scope);
}

/** Replaces the scope's key pair: values sealed for the old one no longer open. */
export function rotateKey(store: Store, scope: ActionsScope): StoredActionsKey {
  // The platform's key ids are long decimal strings.
  const key = { keyId: BigInt(`0x${randomBytes(8).toString("hex")}`).toString(), ...newBoxKeyPair() };
  store.state.actionsKeys[scope.key] = key;
  return key;
}

/**
 * The sealed part of a secret's body: both `encrypted_value` and `key_id`, or (where `optional`)
 * neither; one without the other is a 422 naming the missing one.
 */
export function sealedPart(
  body: Record<string, unknown>,
  optional: boolean,
): { encrypted: unknown; keyId: unknown } | undefined {
  const given = ["encrypted_value", "key_id"].filter((f) => body[f] !== undefined && body[f] !== null);
  if (given.length === 0 && optional) return undefined;
  for (const field of ["encrypted_value", "key_id"]) {
    if (!given.includes(field)) throw missingField("Secret", field);
  }
  return { encrypted: body.encrypted_value, keyId: body.key_id };
}

/**
 * Opens `encrypted_value` (a base64 libsodium sealed box) with the scope's current key. A stale
 * `key_id`, a value sealed for another key, bytes that do not open or a value over the limit are a
 * 422 naming the field.
 */
export async function openSealed(
  key: StoredActionsKey,
  sealed: { encrypted: unknown; keyId: unknown },
): Promise<string> {
  const { encrypted, keyId } = sealed;
  if (typeof keyId !== "string" || keyId === "")
    throw invalidField("Secret", "key_id", "key_id must be a string");
  if (keyId !== key.keyId) {
    throw invalidField("Secret", "key_id", `key_id ${keyId} is not the current public key; fetch it again`);
  }
  if (typeof encrypted !== "string" || encrypted === "") {
    throw invalidField("Secret", "encrypted_value", "encrypted_value must be a base64 string");
  }
  const opened = await openBox(encrypted, key);
  if (opened === undefined) {
    throw invalidField(
      "Secret",
      "encrypted_value",
      `encrypted_value does not open with the key ${key.keyId}`,
    );
  }
  return checkValueSize("Secret", "encrypted_value", opened);
}

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** A secret as the API shows it: never its value. */
export function renderSecret(s: StoredActionsSecret, repositoriesUrl?: string): Record<string, unknown> {
  return {
    name: s.name,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    ...(s.visibility === undefined ? {} : { visibility: s.visibility }),
    ...(s.visibility === "selected" && repositoriesUrl ? { selected_repositories_url: repositoriesUrl } : {}),
  };
}

/** A variable as the API shows it, value included. */
export function renderVariable(v: StoredActionsVariable, repositoriesUrl?: string): Record<string, unknown> {
  return {
    name: v.name,
    value: v.value,
    created_at: v.createdAt,
    updated_at: v.updatedAt,
    ...(v.visibility === undefined ? {} : { visibility: v.visibility }),
    ...(v.visibility === "selected" && repositoriesUrl ? { selected_repositories_url: repositoriesUrl } : {}),
  };
}

// Deleting an environment removes its secrets and variables (the environments family calls this).
whenEnvironmentRemoved((store, where) =>
  dropEnvironmentActions(store.state, where.owner, where.repo, where.environment),
);
