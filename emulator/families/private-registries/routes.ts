/**
 * Organisation private registries: every route of the spec's table, the create body from the
 * platform's public REST API (notes/api.md), and the controls tests use to rotate the key and to
 * see the value the server opened.
 *
 * - Scope admin:org, fine-grained "Organization private registries" (read or write), of an owner
 *   of the organisation (403 otherwise); an unknown organisation or registry is a 404.
 * - Values arrive sealed (libsodium sealed box) for the organisation's current key; the server
 *   opens them and keeps the plaintext, which no API answer ever contains.
 * - PATCH answers 204 with no body; `auth_type` cannot change.
 */

import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, callerOf, orgRole } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { forbidden, notFound, paginate, readBody } from "../../core/http";
import { findOrg } from "../../core/lookup";
import { timestamp } from "../../core/store";
import {
  currentKey,
  findRegistry,
  openValue,
  parseSettings,
  type RegistrySettings,
  registryName,
  renderRegistry,
  rotateKey,
  sealedPart,
} from "./registries";
import type { StoredPrivateRegistry } from "./state";

const READ: AccessRule = { scopes: ["admin:org"], permission: ["organization_private_registries", "read"] };
const WRITE: AccessRule = { scopes: ["admin:org"], permission: ["organization_private_registries", "write"] };

const R = ROUTES.privateRegistries;

export function privateRegistryRoutes(app: Hono<ServerEnv>): void {
  app.get(R.list.pattern, guard(READ), (c) => {
    const { state, org } = orgContext(c);
    const registries = state.privateRegistries.filter((r) => r.org === org.login);
    return c.json({
      total_count: registries.length,
      configurations: paginate(c, registries).map(renderRegistry),
    });
  });

  // Registered before `{secret_name}`, which would otherwise take "public-key" as a name.
  app.get(R.publicKey.pattern, guard(READ), (c) => {
    const { store, org } = orgContext(c);
    const key = currentKey(store, org);
    return c.json({ key_id: key.keyId, key: key.publicKey });
  });

  app.post(R.create.pattern, guard(WRITE), async (c) => {
    const { state, org } = orgContext(c);
    const body = await readBody(c);
    const settings = parseSettings(body, repositoriesOf(c, org), undefined);
    const value = await openSealed(c, org, body, settings, true);
    const now = timestamp();
    const registry: StoredPrivateRegistry = {
      org: org.login,
      name: registryName(state, org.login, settings.registryType),
      ...settings,
      value: value ?? null,
      createdAt: now,
      updatedAt: now,
    };
    state.privateRegistries.push(registry);
    return c.json(renderRegistry(registry), 201);
  });

  app.get(R.get.pattern, guard(READ), (c) => c.json(renderRegistry(registryContext(c).registry)));

  app.patch(R.update.pattern, guard(WRITE), async (c) => {
    const { org, registry } = registryContext(c);
    const body = await readBody(c);
    const settings = parseSettings(body, repositoriesOf(c, org), registry);
    const value = await openSealed(c, org, body, settings, false);
    Object.assign(registry, settings, value === undefined ? {} : { value }, { updatedAt: timestamp() });
    return c.body(null, 204);
  });

  app.delete(R.delete.pattern, guard(WRITE), (c) => {
    const { state, registry } = registryContext(c);
    state.privateRegistries = state.privateRegistries.filter((r) => r !== registry);
    return c.body(null, 204);
  });
}

/**
 * Controls (under `/_emulator/`): rotate an organisation's key, as the platform may at any time,
 * and read the plaintext the server holds, which the API never shows.
 */
export function privateRegistryControls(app: Hono<ServerEnv>): void {
  app.post(`${R.publicKey.pattern}/rotate`, (c) => {
    const store = c.get("store");
    const org = findOrg(store.state, c.req.param("org"));
    if (!org) throw notFound();
    const key = rotateKey(store, org);
    return c.json({ key_id: key.keyId, key: key.publicKey });
  });

  app.get(`${R.get.pattern}/value`, (c) => {
    const state = c.get("store").state;
    const org = findOrg(state, c.req.param("org"));
    const registry = org && findRegistry(state, org.login, c.req.param("secret_name"));
    if (!registry) throw notFound();
    return c.json({ name: registry.name, value: registry.value });
  });
}

/** The organisation the caller must own: 404 when unknown, 403 when the caller is not an owner. */
function orgContext(c: Context<ServerEnv>) {
  const caller = callerOf(c);
  const store = c.get("store");
  const org = findOrg(store.state, c.req.param("org") ?? "");
  if (!org) throw notFound();
  if (orgRole(caller, org) !== "admin") {
    throw forbidden("Must be an organization owner to manage private registries");
  }
  return { store, state: store.state, org };
}

function registryContext(c: Context<ServerEnv>) {
  const ctx = orgContext(c);
  const registry = findRegistry(ctx.state, ctx.org.login, c.req.param("secret_name") ?? "");
  if (!registry) throw notFound();
  return { ...ctx, registry };
}

function repositoriesOf(c: Context<ServerEnv>, org: OrgRecord): Set<number> {
  return new Set(
    c
      .get("store")
      .state.fixture.repos.filter((r) => r.owner === org.login)
      .map((r) => r.id),
  );
}

/** The plaintext of the body's sealed value, when it carries one (validated against the auth type). */
async function openSealed(
  c: Context<ServerEnv>,
  org: OrgRecord,
  body: Record<string, unknown>,
  settings: RegistrySettings,
  creating: boolean,
): Promise<string | undefined> {
  const sealed = sealedPart(body, settings.authType, creating);
  if (!sealed) return undefined;
  return openValue(currentKey(c.get("store"), org), sealed.encrypted, sealed.keyId);
}
