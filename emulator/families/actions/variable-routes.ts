/**
 * Actions variables of organisations, repositories and environments: every route of the
 * platform's description (notes/api.md), the three scopes served by one set of handlers.
 *
 * - Who may use them: as for secrets (secret-routes.ts), with the fine-grained permission
 *   `organization_actions_variables` (organisations), `actions_variables` (repositories) or
 *   `environments`.
 * - `POST` answers 201 (`{}`), or 409 when a variable of that name (case-insensitively) exists;
 *   `PATCH` answers 204 and may rename (409 when the new name is taken). `name` and `value` are
 *   required at creation, and `visibility` for an organisation's; every write moves `updated_at`
 *   forward. Lists page by at most 30, as the platform's do.
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import type { AccessRule } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import { guard } from "../../core/guard";
import { ApiFailure, invalidField, missingField, notFound, paginate, readBody, urlOf } from "../../core/http";
import {
  type ActionsScope,
  applySettings,
  checkValueSize,
  findNamed,
  parseName,
  parseSelected,
  parseVisibility,
  renderVariable,
  repositoryIdsOf,
  type Settings,
  writtenAt,
} from "./rules";
import { access, environmentOf, orgOf, param, repoOf } from "./scopes";
import { selectedRepositoryRoutes } from "./selected-repositories";
import type { StoredActionsVariable } from "./state";

const WHAT = "variables";
/** The most a page of variables holds (the platform's limit for these lists). */
const VARIABLES_PER_PAGE_MAX = 30;

interface Place {
  routes: {
    list: { pattern: string };
    create: { pattern: string };
    get: { pattern: string };
    update: { pattern: string };
    delete: { pattern: string };
  };
  read: AccessRule;
  write: AccessRule;
  scope: (c: Context<ServerEnv>) => ActionsScope;
  org: boolean;
}

const ORG_PLACE: Place = {
  routes: ROUTES.orgActionsVariables,
  ...access("admin:org", "organization_actions_variables"),
  scope: orgOf(WHAT),
  org: true,
};

const VARIABLE_PLACES: readonly Place[] = [
  ORG_PLACE,
  {
    routes: ROUTES.repoActionsVariables,
    ...access("repo", "actions_variables"),
    scope: repoOf,
    org: false,
  },
  {
    routes: ROUTES.envActionsVariables,
    ...access("repo", "environments"),
    scope: environmentOf,
    org: false,
  },
];

export function variableRoutes(app: Hono<ServerEnv>): void {
  for (const place of VARIABLE_PLACES) placeRoutes(app, place);
  selectedRepositoryRoutes(app, {
    routes: ROUTES.orgActionsVariables,
    ...access("admin:org", "organization_actions_variables"),
    find: (c) => {
      const scope = ORG_PLACE.scope(c);
      const variable = findNamed(c.get("store").state.actionsVariables, scope, param(c, "name"));
      if (!variable) throw notFound();
      return { scope, record: variable };
    },
  });
}

function placeRoutes(app: Hono<ServerEnv>, place: Place): void {
  const { routes } = place;

  app.get(routes.list.pattern, guard(place.read), (c) => {
    const scope = place.scope(c);
    const variables = c.get("store").state.actionsVariables.filter((v) => v.scope === scope.key);
    return c.json({
      total_count: variables.length,
      variables: paginate(c, variables, VARIABLES_PER_PAGE_MAX).map((v) =>
        renderVariable(v, repositoriesUrl(c, place, scope, v)),
      ),
    });
  });

  app.post(routes.create.pattern, guard(place.write), async (c) => {
    const state = c.get("store").state;
    const scope = place.scope(c);
    const body = await readBody(c);
    const name = parseName("Variable", "name", body.name);
    const value = parseValue(body.value);
    if (value === undefined) throw missingField("Variable", "value");
    const settings = place.org ? orgSettings(c, scope, body, undefined) : undefined;
    if (findNamed(state.actionsVariables, scope, name)) throw alreadyExists(name);
    const now = writtenAt();
    state.actionsVariables.push({
      scope: scope.key,
      name,
      value,
      ...settings,
      createdAt: now,
      updatedAt: now,
    });
    return c.json({}, 201);
  });

  app.get(routes.get.pattern, guard(place.read), (c) => {
    const scope = place.scope(c);
    const variable = findNamed(c.get("store").state.actionsVariables, scope, param(c, "name"));
    if (!variable) throw notFound();
    return c.json(renderVariable(variable, repositoriesUrl(c, place, scope, variable)));
  });

  app.patch(routes.update.pattern, guard(place.write), async (c) => {
    const state = c.get("store").state;
    const scope = place.scope(c);
    const variable = findNamed(state.actionsVariables, scope, param(c, "name"));
    if (!variable) throw notFound();
    const body = await readBody(c);
    const name = body.name === undefined ? variable.name : parseName("Variable", "name", body.name);
    const other = findNamed(state.actionsVariables, scope, name);
    if (other && other !== variable) throw alreadyExists(name);
    const value = parseValue(body.value);
    const settings = place.org && hasSettings(body) ? orgSettings(c, scope, body, variable) : undefined;
    variable.name = name;
    if (value !== undefined) variable.value = value;
    if (settings) applySettings(variable, settings);
    variable.updatedAt = writtenAt(variable.updatedAt);
    return c.body(null, 204);
  });

  app.delete(routes.delete.pattern, guard(place.write), (c) => {
    const state = c.get("store").state;
    const variable = findNamed(state.actionsVariables, place.scope(c), param(c, "name"));
    if (!variable) throw notFound();
    state.actionsVariables = state.actionsVariables.filter((v) => v !== variable);
    return c.body(null, 204);
  });
}

const alreadyExists = (name: string) =>
  new ApiFailure(409, `Already exists - Variable ${name} already exists`);

/** A variable's value: a non-empty string within the limit; undefined when the body has none. */
function parseValue(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== "string") throw invalidField("Variable", "value", "value must be a string");
  if (raw === "") throw invalidField("Variable", "value", "value must not be empty");
  return checkValueSize("Variable", "value", raw);
}

const hasSettings = (body: Record<string, unknown>) =>
  body.visibility !== undefined || body.selected_repository_ids !== undefined;

/**
 * An organisation variable's settings: `visibility` (required at creation; an update without it
 * keeps the current one) and the selected repositories.
 */
function orgSettings(
  c: Context<ServerEnv>,
  scope: ActionsScope,
  body: Record<string, unknown>,
  existing: StoredActionsVariable | undefined,
): Settings {
  const visibility = parseVisibility("Variable", body.visibility) ?? existing?.visibility;
  if (visibility === undefined) throw missingField("Variable", "visibility");
  const repoIds = repositoryIdsOf(c.get("store").state, scope.org);
  const current = existing?.visibility === "selected" ? existing.selectedRepositoryIds : undefined;
  const selected = parseSelected("Variable", body.selected_repository_ids, visibility, repoIds, current);
  return { visibility, ...(selected === undefined ? {} : { selectedRepositoryIds: selected }) };
}

function repositoriesUrl(
  c: Context<ServerEnv>,
  place: Place,
  scope: ActionsScope,
  variable: StoredActionsVariable,
): string | undefined {
  if (!place.org || variable.visibility !== "selected") return undefined;
  return urlOf(c, ROUTES.orgActionsVariables.repositories, { org: scope.org.login, name: variable.name });
}
