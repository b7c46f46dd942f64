/**
 * Actions secrets of organisations, repositories and environments: every route of the platform's
 * description (notes/api.md), the three scopes served by one set of handlers.
 *
 * - Organisation secrets: classic scope `admin:org`, fine-grained `organization_secrets`, owners of
 *   the organisation only (403 for others). Repository and environment secrets: `repo`, and
 *   `secrets` or `environments`; the repository's administrators only (404 to anyone else, which
 *   hides the repository). An unknown organisation, repository or environment: 404.
 * - `PUT .../secrets/{secret_name}` answers 201 (`{}`) when it creates and 204 when it updates; the
 *   value arrives sealed for the scope's key and is opened (422 naming `encrypted_value` or
 *   `key_id` when it does not open). Organisation secrets need `visibility`, and may leave the value
 *   out when they exist (the settings alone change). Every PUT moves `updated_at` forward.
 * - No answer carries a value. Names are upper-cased; invalid ones are a 422 naming `secret_name`.
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import type { AccessRule } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import { guard } from "../../core/guard";
import { missingField, notFound, paginate, readBody, urlOf } from "../../core/http";
import {
  type ActionsScope,
  applySettings,
  currentKey,
  findNamed,
  openSealed,
  parseName,
  parseSelected,
  parseVisibility,
  renderSecret,
  repositoryIdsOf,
  type Settings,
  sealedPart,
  writtenAt,
} from "./rules";
import { access, environmentOf, orgOf, param, repoOf } from "./scopes";
import { selectedRepositoryRoutes } from "./selected-repositories";
import type { StoredActionsSecret } from "./state";

const WHAT = "secrets";

/** One scope's secret routes: where they are, who may use them, how a request finds its scope. */
interface Place {
  routes: {
    list: { pattern: string };
    publicKey: { pattern: string };
    get: { pattern: string };
    put: { pattern: string };
    delete: { pattern: string };
  };
  read: AccessRule;
  write: AccessRule;
  scope: (c: Context<ServerEnv>) => ActionsScope;
  /** Organisation secrets have a visibility and selected repositories. */
  org: boolean;
}

const ORG_PLACE: Place = {
  routes: ROUTES.orgActionsSecrets,
  ...access("admin:org", "organization_secrets"),
  scope: orgOf(WHAT),
  org: true,
};

const SECRET_PLACES: readonly Place[] = [
  ORG_PLACE,
  {
    routes: ROUTES.repoActionsSecrets,
    ...access("repo", "secrets"),
    scope: repoOf,
    org: false,
  },
  {
    routes: ROUTES.envActionsSecrets,
    ...access("repo", "environments"),
    scope: environmentOf,
    org: false,
  },
];

export function secretRoutes(app: Hono<ServerEnv>): void {
  for (const place of SECRET_PLACES) placeRoutes(app, place);
  selectedRepositoryRoutes(app, {
    routes: ROUTES.orgActionsSecrets,
    ...access("admin:org", "organization_secrets"),
    find: (c) => {
      const scope = ORG_PLACE.scope(c);
      const secret = findNamed(c.get("store").state.actionsSecrets, scope, param(c, "secret_name"));
      if (!secret) throw notFound();
      return { scope, record: secret };
    },
  });
}

function placeRoutes(app: Hono<ServerEnv>, place: Place): void {
  const { routes } = place;

  app.get(routes.list.pattern, guard(place.read), (c) => {
    const scope = place.scope(c);
    const secrets = c.get("store").state.actionsSecrets.filter((s) => s.scope === scope.key);
    return c.json({
      total_count: secrets.length,
      secrets: paginate(c, secrets).map((s) => renderSecret(s, repositoriesUrl(c, place, scope, s))),
    });
  });

  // Registered before `{secret_name}`, which would otherwise take "public-key" as a name.
  app.get(routes.publicKey.pattern, guard(place.read), (c) => {
    const key = currentKey(c.get("store"), place.scope(c));
    return c.json({ key_id: key.keyId, key: key.publicKey });
  });

  app.get(routes.get.pattern, guard(place.read), (c) => {
    const scope = place.scope(c);
    const secret = findNamed(c.get("store").state.actionsSecrets, scope, param(c, "secret_name"));
    if (!secret) throw notFound();
    return c.json(renderSecret(secret, repositoriesUrl(c, place, scope, secret)));
  });

  app.put(routes.put.pattern, guard(place.write), async (c) => {
    const store = c.get("store");
    const scope = place.scope(c);
    const name = parseName("Secret", "secret_name", param(c, "secret_name"));
    const body = await readBody(c);
    const existing = findNamed(store.state.actionsSecrets, scope, name);
    const settings = place.org ? orgSettings(c, scope, body, existing) : undefined;
    // Organisation secrets may change their settings alone; a new secret needs its value.
    const sealed = sealedPart(body, place.org && existing !== undefined);
    const value = sealed === undefined ? undefined : await openSealed(currentKey(store, scope), sealed);
    if (value === "") throw missingField("Secret", "encrypted_value");
    if (existing) {
      if (settings) applySettings(existing, settings);
      if (value !== undefined) existing.value = value;
      existing.updatedAt = writtenAt(existing.updatedAt);
      return c.body(null, 204);
    }
    const now = writtenAt();
    const secret: StoredActionsSecret = {
      scope: scope.key,
      name,
      value: value ?? "",
      ...settings,
      createdAt: now,
      updatedAt: now,
    };
    store.state.actionsSecrets.push(secret);
    return c.json({}, 201);
  });

  app.delete(routes.delete.pattern, guard(place.write), (c) => {
    const state = c.get("store").state;
    const secret = findNamed(state.actionsSecrets, place.scope(c), param(c, "secret_name"));
    if (!secret) throw notFound();
    state.actionsSecrets = state.actionsSecrets.filter((s) => s !== secret);
    return c.body(null, 204);
  });
}

/** An organisation secret's `visibility` (required) and selected repositories. */
function orgSettings(
  c: Context<ServerEnv>,
  scope: ActionsScope,
  body: Record<string, unknown>,
  existing: StoredActionsSecret | undefined,
): Settings {
  const visibility = parseVisibility("Secret", body.visibility);
  if (visibility === undefined) throw missingField("Secret", "visibility");
  const repoIds = repositoryIdsOf(c.get("store").state, scope.org);
  const current = existing?.visibility === "selected" ? existing.selectedRepositoryIds : undefined;
  const selected = parseSelected("Secret", body.selected_repository_ids, visibility, repoIds, current);
  return { visibility, ...(selected === undefined ? {} : { selectedRepositoryIds: selected }) };
}

/** The list of a selected organisation secret's repositories (answers carry it when selected). */
function repositoriesUrl(
  c: Context<ServerEnv>,
  place: Place,
  scope: ActionsScope,
  secret: StoredActionsSecret,
): string | undefined {
  if (!place.org || secret.visibility !== "selected") return undefined;
  return urlOf(c, ROUTES.orgActionsSecrets.repositories, { org: scope.org.login, secret_name: secret.name });
}
