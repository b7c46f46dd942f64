/**
 * Organisation private registry rules shared by the routes and the control routes: each
 * organisation's Curve25519 key pair (made on first use, rotated by a control), opening a sealed
 * value, the secret name derived from the registry type, and the validation of create and update
 * bodies. Everything is validated before anything changes, so a refused request changes nothing.
 */
import { randomBytes } from "node:crypto";
import {
  isOidcAuthType,
  PRIVATE_REGISTRY_AUTH_TYPES,
  PRIVATE_REGISTRY_OIDC_FIELDS,
  PRIVATE_REGISTRY_OIDC_SETTINGS,
  PRIVATE_REGISTRY_TYPES,
  PRIVATE_REGISTRY_VISIBILITIES,
  type PrivateRegistryAuthType,
  type PrivateRegistryOidcField,
  type PrivateRegistryType,
} from "../../../api";
import { newBoxKeyPair, openBox } from "../../../api/sealed-box";
import type { OrgRecord } from "../../core/fixture";
import { invalidField, missingField } from "../../core/http";
import { ownValue } from "../../core/records";
import type { EmulatorState, Store } from "../../core/store";
import type { StoredPrivateRegistry, StoredRegistryKey } from "./state";

export const RESOURCE = "PrivateRegistry";
const invalid = (field: string, message: string) => invalidField(RESOURCE, field, message);

// ---------------------------------------------------------------------------------------------
// Keys and sealed values
// ---------------------------------------------------------------------------------------------

/** A new Curve25519 key pair with a fresh key id. */
function newKey(): StoredRegistryKey {
  // The platform's key ids are long decimal strings.
  return { keyId: BigInt(`0x${randomBytes(8).toString("hex")}`).toString(), ...newBoxKeyPair() };
}

/** The organisation's current key pair, made (and saved) on first use. */
export function currentKey(store: Store, org: OrgRecord): StoredRegistryKey {
  const existing = ownValue(store.state.registryKeys, org.login.toLowerCase());
  return existing ?? rotateKey(store, org);
}

/** Replaces the organisation's key pair: values sealed for the old one no longer open. */
export function rotateKey(store: Store, org: OrgRecord): StoredRegistryKey {
  const key = newKey();
  store.state.registryKeys[org.login.toLowerCase()] = key;
  return key;
}

/**
 * Opens `encrypted_value` (a base64 libsodium sealed box) with the organisation's current key. A
 * stale `key_id`, a value sealed for another key, or bytes that do not open are a 422 naming the
 * field.
 */
export async function openValue(key: StoredRegistryKey, encrypted: unknown, keyId: unknown): Promise<string> {
  if (typeof keyId !== "string" || keyId === "") throw invalid("key_id", "key_id must be a string");
  if (keyId !== key.keyId) {
    throw invalid("key_id", `key_id ${keyId} is not the organization's current public key; fetch it again`);
  }
  if (typeof encrypted !== "string" || encrypted === "") {
    throw invalid("encrypted_value", "encrypted_value must be a base64 string");
  }
  const opened = await openBox(encrypted, key);
  if (opened === undefined) {
    throw invalid("encrypted_value", `encrypted_value does not open with the key ${key.keyId}`);
  }
  return opened;
}

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------

/**
 * The secret name, derived from the registry type as the platform does (`maven_repository` ->
 * `MAVEN_REPOSITORY_SECRET`); a second registry of one type in the organisation gets `_2`, and so
 * on (docs/DECISIONS.md).
 */
export function registryName(state: EmulatorState, org: string, type: PrivateRegistryType): string {
  const base = `${type.toUpperCase()}_SECRET`;
  const taken = new Set(state.privateRegistries.filter((r) => r.org === org).map((r) => r.name));
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  return name;
}

export function findRegistry(
  state: EmulatorState,
  org: string,
  name: string,
): StoredPrivateRegistry | undefined {
  return state.privateRegistries.find((r) => r.org === org && r.name === name);
}

// ---------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------

/** A registry's settings as a body sets them; the sealed value travels apart. */
export type RegistrySettings = Omit<
  StoredPrivateRegistry,
  "org" | "name" | "value" | "createdAt" | "updatedAt"
>;

/**
 * The settings of a create (`current` undefined: registry_type, url and visibility required,
 * auth_type defaulting to token) or of an update merged onto `current` (every field optional;
 * auth_type must equal the existing one if sent).
 */
export function parseSettings(
  body: Record<string, unknown>,
  repoIds: ReadonlySet<number>,
  current: StoredPrivateRegistry | undefined,
): RegistrySettings {
  const authType = parseAuthType(body.auth_type, current?.authType);
  const registryType = oneOf(body, "registry_type", PRIVATE_REGISTRY_TYPES) ?? current?.registryType;
  if (registryType === undefined) throw missingField(RESOURCE, "registry_type");
  const url = parseUrl(body.url) ?? current?.url;
  if (url === undefined) throw missingField(RESOURCE, "url");
  const visibility = oneOf(body, "visibility", PRIVATE_REGISTRY_VISIBILITIES) ?? current?.visibility;
  if (visibility === undefined) throw missingField(RESOURCE, "visibility");
  return {
    registryType,
    url,
    username: parseUsername(body.username, current?.username ?? null),
    replacesBase: parseBoolean(body, "replaces_base") ?? current?.replacesBase ?? false,
    visibility,
    selectedRepositoryIds: parseSelected(body.selected_repository_ids, visibility, repoIds, current),
    authType,
    oidc: parseOidc(body, authType, current?.oidc ?? {}),
  };
}

/**
 * Whether the body carries a sealed value, checked against the auth type: OIDC registries take
 * none; token and password registries need one at create, and an update sends both parts or
 * neither.
 */
export function sealedPart(
  body: Record<string, unknown>,
  authType: PrivateRegistryAuthType,
  creating: boolean,
): { encrypted: unknown; keyId: unknown } | undefined {
  const given = ["encrypted_value", "key_id"].filter((f) => body[f] !== undefined && body[f] !== null);
  if (isOidcAuthType(authType)) {
    const [field] = given;
    if (field) throw invalid(field, `${field} must be omitted for auth_type ${authType}`);
    return undefined;
  }
  if (given.length === 0 && !creating) return undefined;
  for (const field of ["encrypted_value", "key_id"]) {
    if (!given.includes(field)) throw missingField(RESOURCE, field);
  }
  return { encrypted: body.encrypted_value, keyId: body.key_id };
}

function oneOf<T extends string>(
  body: Record<string, unknown>,
  field: string,
  allowed: readonly T[],
): T | undefined {
  const raw = body[field];
  if (raw === undefined) return undefined;
  const match = allowed.find((a) => a === raw);
  if (match === undefined) throw invalid(field, `${field} must be one of ${allowed.join(", ")}`);
  return match;
}

function parseAuthType(raw: unknown, current: PrivateRegistryAuthType | undefined): PrivateRegistryAuthType {
  const given = oneOf({ auth_type: raw }, "auth_type", PRIVATE_REGISTRY_AUTH_TYPES);
  if (current === undefined) return given ?? "token";
  if (given !== undefined && given !== current) {
    throw invalid("auth_type", `auth_type cannot change after creation; it is ${current}`);
  }
  return current;
}

function parseUrl(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== "string" || !isHttpUrl(raw)) throw invalid("url", "url must be an absolute http(s) URL");
  return raw;
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === "https:" || u.protocol === "http:") && u.hostname !== "";
  } catch {
    return false;
  }
}

function parseUsername(raw: unknown, current: string | null): string | null {
  if (raw === undefined) return current;
  if (raw === null) return null;
  if (typeof raw !== "string" || raw === "")
    throw invalid("username", "username must be a non-empty string or null");
  return raw;
}

function parseBoolean(body: Record<string, unknown>, field: string): boolean | undefined {
  const raw = body[field];
  if (raw === undefined) return undefined;
  if (typeof raw !== "boolean") throw invalid(field, `${field} must be a boolean`);
  return raw;
}

/** Repository ids only with visibility selected; leaving selected clears them. */
function parseSelected(
  raw: unknown,
  visibility: StoredPrivateRegistry["visibility"],
  repoIds: ReadonlySet<number>,
  current: StoredPrivateRegistry | undefined,
): number[] {
  if (raw === undefined || raw === null)
    return visibility === "selected" ? (current?.selectedRepositoryIds ?? []) : [];
  if (visibility !== "selected") {
    throw invalid(
      "selected_repository_ids",
      "selected_repository_ids is allowed only when visibility is selected",
    );
  }
  if (!isIdList(raw)) {
    throw invalid("selected_repository_ids", "selected_repository_ids must be an array of repository ids");
  }
  const ids = [...new Set(raw)];
  const unknown = ids.filter((id) => !repoIds.has(id));
  if (unknown.length > 0) {
    throw invalid("selected_repository_ids", `not repositories of the organization: ${unknown.join(", ")}`);
  }
  return ids;
}

function isIdList(raw: unknown): raw is number[] {
  return Array.isArray(raw) && raw.every((v) => Number.isSafeInteger(v) && v > 0);
}

/** The OIDC settings of the auth type: required ones present, none of another auth type. */
function parseOidc(
  body: Record<string, unknown>,
  authType: PrivateRegistryAuthType,
  current: Partial<Record<PrivateRegistryOidcField, string>>,
): Partial<Record<PrivateRegistryOidcField, string>> {
  const settings = isOidcAuthType(authType) ? PRIVATE_REGISTRY_OIDC_SETTINGS[authType] : undefined;
  const accepted: readonly PrivateRegistryOidcField[] = settings
    ? [...settings.required, ...settings.optional]
    : [];
  const oidc = { ...current };
  for (const field of PRIVATE_REGISTRY_OIDC_FIELDS) {
    const raw = body[field];
    if (raw === undefined) continue;
    if (raw === null) {
      // null clears an optional setting; a required one is then missing.
      if (accepted.includes(field)) delete oidc[field];
      continue;
    }
    if (!accepted.includes(field)) throw invalid(field, `${field} is not used with auth_type ${authType}`);
    if (typeof raw !== "string" || raw.trim() === "")
      throw invalid(field, `${field} must be a non-empty string`);
    oidc[field] = raw;
  }
  for (const field of settings?.required ?? []) {
    if (oidc[field] === undefined) throw missingField(RESOURCE, field);
  }
  return oidc;
}

/** A registry as the API shows it; the value never appears. */
export function renderRegistry(r: StoredPrivateRegistry): Record<string, unknown> {
  return {
    name: r.name,
    registry_type: r.registryType,
    auth_type: r.authType,
    url: r.url,
    username: r.username,
    replaces_base: r.replacesBase,
    visibility: r.visibility,
    ...(r.visibility === "selected" ? { selected_repository_ids: r.selectedRepositoryIds } : {}),
    ...r.oidc,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}
