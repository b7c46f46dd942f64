/**
 * What the secret and variable routes share about their three scopes (organisation, repository,
 * environment): the access rules of a scope's routes and how a request finds its scope.
 */
import type { Context } from "hono";
import { type AccessRule, callerOf } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import { type ActionsScope, environmentScope, orgScope, repoScope } from "./rules";

/** Classic scope and fine-grained permission group of a scope's routes, to read and to write. */
export const access = (scope: string, group: string) => ({
  read: { scopes: [scope], permission: [group, "read"] } satisfies AccessRule,
  write: { scopes: [scope], permission: [group, "write"] } satisfies AccessRule,
});

export const param = (c: Context<ServerEnv>, name: string) => c.req.param(name) ?? "";

type Locate = (c: Context<ServerEnv>) => ActionsScope;

/** The organisation of the path; `what` names the routes in the error of a caller who may not. */
export const orgOf =
  (what: string): Locate =>
  (c) =>
    orgScope(c.get("store").state, callerOf(c), param(c, "org"), `organization ${what}`);

/** The repository of the path. */
export const repoOf: Locate = (c) =>
  repoScope(c.get("store").state, callerOf(c), param(c, "owner"), param(c, "repo"));

/** The environment of the path's repository. */
export const environmentOf: Locate = (c) =>
  environmentScope(
    c.get("store").state,
    callerOf(c),
    param(c, "owner"),
    param(c, "repo"),
    param(c, "environment_name"),
  );
