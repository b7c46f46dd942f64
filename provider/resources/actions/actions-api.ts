/**
 * Talking to the Actions secret and variable routes of one scope (an organisation, a repository or
 * an environment): reads that share the scope's list within a run, and writes. A secret's value
 * leaves this module only sealed for the scope's public key (`withSealedValue`: fetched once per
 * scope per process, fetched again when the server says the key changed); requests are described
 * by method and path, so no error or log line carries a value.
 *
 * Names are stored upper-case by the platform: a name is looked up in a list by its upper-case form.
 */
import {
  type ApiActionsSecret,
  type ApiActionsSecretWrite,
  type ApiActionsVariable,
  type ApiActionsVariableWrite,
  storedActionsName,
} from "../../../api/actions";
import type { AnyRoute, BodyRoute, ListRoute } from "../../../api/route";
import { isHostingApiError, isNotFound, notFoundError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { collectionReads } from "../../internal/collection-reads";
import { readOrGone } from "../../internal/lifecycle";
import { type KeyRoute, withSealedValue } from "../../internal/sealed-box";

type SecretAt<P> = P & { readonly secret_name: string };
type VariableAt<P> = P & { readonly name: string };

/** A scope's secret routes (`ROUTES.orgActionsSecrets`, `.repoActionsSecrets`, `.envActionsSecrets`). */
export interface SecretRoutes<P> {
  list: ListRoute<P, ApiActionsSecret>;
  publicKey: KeyRoute<P>;
  get: BodyRoute<"GET", SecretAt<P>, ApiActionsSecret>;
  put: AnyRoute<"PUT", SecretAt<P>>;
  delete: AnyRoute<"DELETE", SecretAt<P>>;
}

/** A scope's variable routes (`ROUTES.orgActionsVariables`, `.repoActionsVariables`, `.envActionsVariables`). */
export interface VariableRoutes<P> {
  list: ListRoute<P, ApiActionsVariable>;
  create: AnyRoute<"POST", P>;
  get: BodyRoute<"GET", VariableAt<P>, ApiActionsVariable>;
  update: AnyRoute<"PATCH", VariableAt<P>>;
  delete: AnyRoute<"DELETE", VariableAt<P>>;
}

/** Where the objects live, as errors name it. */
export interface Scope<P> {
  /** The route parameters of the scope. */
  params: P;
  /** "organisation acme-eng", "repository acme-eng/api", "environment production of acme-eng/api". */
  what: string;
  /** Why a write there may answer 404, in the order they are met. */
  causes: readonly string[];
}

/**
 * A 404 of a write (or of the key it needs) means the scope is not there for this token: the
 * organisation, repository or environment does not exist, or the token may not reach it.
 */
function explained<P>(scope: Scope<P>, kind: string, method: string, path: string) {
  return (e: unknown): never => {
    throw isNotFound(e)
      ? notFoundError({ method, path, what: `${kind} of ${scope.what}`, causes: scope.causes })
      : e;
  };
}

export function secretApi<P>(c: HostingClient, routes: SecretRoutes<P>, scope: Scope<P>, kind: string) {
  const at = scope.params;
  const one = (name: string): SecretAt<P> => ({ ...at, secret_name: name });
  const collection = routes.list.path(at);
  const writing = <T>(run: () => Promise<T>) => collectionReads.write(c, collection, run);
  const list = () => c.paginate(routes.list, at);
  return {
    /** One secret; reads of several secrets of the scope in a run share its list. */
    get: (name: string) =>
      collectionReads.read(c, {
        collection,
        key: storedActionsName(name),
        keyOf: (s: ApiActionsSecret) => storedActionsName(s.name),
        list,
        single: async () => (await c.get(routes.get, one(name))).data,
      }),
    list,
    /**
     * PUT (201 created, 204 updated): the whole desired state, so repeating it is safe. With a
     * plaintext, it is sealed for the scope's key first; without one, the value stays as it is
     * (the organisation's settings alone are sent).
     */
    put: async (name: string, plaintext: string | undefined, body: ApiActionsSecretWrite = {}) => {
      const path = routes.put.path(one(name));
      const send = (sealed: Partial<ApiActionsSecretWrite>) =>
        writing(() => c.put(routes.put, one(name), { ...body, ...sealed }));
      await (plaintext === undefined
        ? send({})
        : withSealedValue(c, routes.publicKey, at, plaintext, send)
      ).catch(explained(scope, kind, "PUT", path));
    },
    delete: (name: string) => writing(() => c.delete(routes.delete, one(name))),
  };
}

export function variableApi<P>(c: HostingClient, routes: VariableRoutes<P>, scope: Scope<P>, kind: string) {
  const at = scope.params;
  const one = (name: string): VariableAt<P> => ({ ...at, name });
  const collection = routes.list.path(at);
  const writing = <T>(run: () => Promise<T>) => collectionReads.write(c, collection, run);
  const list = () => c.paginate(routes.list, at);
  return {
    /** One variable; reads of several variables of the scope in a run share its list. */
    get: (name: string) =>
      collectionReads.read(c, {
        collection,
        key: storedActionsName(name),
        keyOf: (v: ApiActionsVariable) => storedActionsName(v.name),
        list,
        single: async () => (await c.get(routes.get, one(name))).data,
      }),
    list,
    /**
     * POST (201). A variable of that name already there (409, or 422 `already_exists`) is not an
     * error: the answer says so (`exists`), so the caller adopts it, as a retry after an
     * ambiguous failure of this very POST also finds it.
     */
    create: async (body: ApiActionsVariableWrite): Promise<{ exists: boolean }> => {
      try {
        await writing(() => c.post(routes.create, at, body));
        return { exists: false };
      } catch (e) {
        if (isAlreadyThere(e)) return { exists: true };
        return explained(scope, kind, "POST", routes.create.path(at))(e);
      }
    },
    /** PATCH (204) with the whole desired state, so repeating it is safe. */
    update: async (name: string, body: ApiActionsVariableWrite) => {
      await writing(() => c.patch(routes.update, one(name), body, { idempotent: true })).catch(
        explained(scope, kind, "PATCH", routes.update.path(one(name))),
      );
    },
    delete: (name: string) => writing(() => c.delete(routes.delete, one(name))),
  };
}

export type VariableApi<P> = ReturnType<typeof variableApi<P>>;

/**
 * Makes the variable what `body` says, writing only what differs: one read first, then a POST for
 * a new variable, or a PATCH for one already there that `differs` (adoption by its name, which
 * writes nothing for a variable already as the program says); the variable as it is then.
 */
export async function convergeVariable<P>(
  api: VariableApi<P>,
  body: ApiActionsVariableWrite,
  differs: (current: ApiActionsVariable) => Promise<boolean>,
): Promise<ApiActionsVariable> {
  let current = await readOrGone(() => api.get(body.name));
  if (current === undefined) {
    const { exists } = await api.create(body);
    // The POST answers without the variable: one GET for its timestamps.
    if (!exists) return api.get(body.name);
    // Made meanwhile (or by an earlier attempt of this POST that failed ambiguously): adopt it.
    current = await api.get(body.name);
  }
  if (!(await differs(current))) return current;
  await api.update(current.name, body);
  return api.get(body.name);
}

function isAlreadyThere(e: unknown): boolean {
  if (!isHostingApiError(e)) return false;
  return e.status === 409 || (e.status === 422 && e.errors.some((d) => d.code === "already_exists"));
}
