/**
 * The Actions family's controls (under `/_emulator/`): what the platform or a person on its web UI
 * does outside the API. Each path is the API path of the object followed by an action:
 *
 * - `POST .../secrets/public-key/rotate`: a new key pair for the scope (values sealed for the old
 *   one no longer open); answers the new `{key_id, key}`.
 * - `GET .../secrets/{secret_name}/value`: the plaintext the server holds, which no API answer shows.
 * - `PUT .../secrets/{secret_name}/value` `{value}`: a secret's value changed on the web UI (a new
 *   value, a later `updated_at`).
 * - `PUT .../variables/{name}/value` `{value}`: a variable's value changed on the web UI.
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import type { ServerEnv } from "../../core/context";
import { invalidField, notFound, readBody } from "../../core/http";
import { findOrg, findRepo } from "../../core/lookup";
import type { EmulatorState } from "../../core/store";
import { findEnvironment } from "../environments/environments";
import {
  type ActionsScope,
  checkValueSize,
  environmentScopeKey,
  findNamed,
  orgScopeKey,
  repoScopeKey,
  rotateKey,
  writtenAt,
} from "./rules";

const param = (c: Context<ServerEnv>, name: string) => c.req.param(name) ?? "";

/** Where a control path points, without a caller (controls are not the API's). */
type Locate = (state: EmulatorState, c: Context<ServerEnv>) => ActionsScope | undefined;

const inOrg: Locate = (state, c) => {
  const org = findOrg(state, param(c, "org"));
  return org && { key: orgScopeKey(org), org };
};

const inRepo: Locate = (state, c) => {
  const repo = findRepo(state, param(c, "owner"), param(c, "repo"));
  const org = repo && findOrg(state, repo.owner);
  return repo && org && { key: repoScopeKey(repo), org, repo };
};

const inEnvironment: Locate = (state, c) => {
  const scope = inRepo(state, c);
  const environment = scope?.repo && findEnvironment(state, scope.repo, param(c, "environment_name"))?.name;
  return scope?.repo && environment
    ? { ...scope, key: environmentScopeKey(scope.repo, environment), environment }
    : undefined;
};

const PLACES = [
  { secrets: ROUTES.orgActionsSecrets, variables: ROUTES.orgActionsVariables, locate: inOrg },
  { secrets: ROUTES.repoActionsSecrets, variables: ROUTES.repoActionsVariables, locate: inRepo },
  { secrets: ROUTES.envActionsSecrets, variables: ROUTES.envActionsVariables, locate: inEnvironment },
] as const;

export function actionsControls(app: Hono<ServerEnv>): void {
  for (const { secrets, variables, locate } of PLACES) {
    const scopeOf = (c: Context<ServerEnv>) => {
      const scope = locate(c.get("store").state, c);
      if (!scope) throw notFound();
      return scope;
    };
    const secretOf = (c: Context<ServerEnv>) => {
      const found = findNamed(c.get("store").state.actionsSecrets, scopeOf(c), param(c, "secret_name"));
      if (!found) throw notFound();
      return found;
    };

    app.post(`${secrets.publicKey.pattern}/rotate`, (c) => {
      const key = rotateKey(c.get("store"), scopeOf(c));
      return c.json({ key_id: key.keyId, key: key.publicKey });
    });

    app.get(`${secrets.get.pattern}/value`, (c) => {
      const secret = secretOf(c);
      return c.json({ name: secret.name, value: secret.value, updated_at: secret.updatedAt });
    });

    app.put(`${secrets.get.pattern}/value`, async (c) => {
      const secret = secretOf(c);
      secret.value = await newValue(c, "Secret");
      secret.updatedAt = writtenAt(secret.updatedAt);
      return c.json({ name: secret.name, updated_at: secret.updatedAt });
    });

    app.put(`${variables.get.pattern}/value`, async (c) => {
      const state = c.get("store").state;
      const variable = findNamed(state.actionsVariables, scopeOf(c), param(c, "name"));
      if (!variable) throw notFound();
      variable.value = await newValue(c, "Variable");
      variable.updatedAt = writtenAt(variable.updatedAt);
      return c.json({ name: variable.name, value: variable.value, updated_at: variable.updatedAt });
    });
  }
}

/** The body's `value`: a non-empty string within the platform's limit. */
async function newValue(c: Context<ServerEnv>, resource: string): Promise<string> {
  const { value } = await readBody(c);
  if (typeof value !== "string" || value === "") {
    throw invalidField(resource, "value", "value must be a non-empty string");
  }
  return checkValueSize(resource, "value", value);
}
