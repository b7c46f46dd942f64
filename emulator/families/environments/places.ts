/**
 * Who may reach an environment, and the environment a path names (`environment_name` arrives
 * URL-encoded, `release%2Feu`; hono matches the encoded segment and decodes the parameter).
 *
 * - Reads are public: anyone reads the environments of a public repository; on a private one the
 *   caller must see the repository (a member, or the app installed on its owner) with a token
 *   holding `repo` or Actions read, else 404, which hides the repository.
 * - Writes (an environment, its branch policies, its protection rules) are for the repository's
 *   admins (`repo`; Administration write); anyone else gets 404, as on other repository
 *   administration routes.
 */
import type { Context } from "hono";
import type { AccessRule } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { RepoRecord } from "../../core/fixture";
import { notFound } from "../../core/http";
import { pathAdminRepo, readableRepo } from "../../core/lookup";
import type { EmulatorState, Store } from "../../core/store";
import { findEnvironment } from "./environments";
import type { StoredEnvironment } from "./state";

export const READ: AccessRule = { scopes: ["repo"], permission: ["actions", "read"] };
export const PUBLIC_READ: AccessRule = { ...READ, public: true };
export const WRITE: AccessRule = { scopes: ["repo"], permission: ["administration", "write"] };

export interface RepoPlace {
  store: Store;
  state: EmulatorState;
  repo: RepoRecord;
}

export interface EnvironmentWhere extends RepoPlace {
  environment: StoredEnvironment;
}

/** The repository as the caller may read it (public repositories: anyone); else 404. */
export function readableRepoOf(c: Context<ServerEnv>): RepoPlace {
  const store = c.get("store");
  const owner = c.req.param("owner") ?? "";
  const { repo } = readableRepo(store.state, c.get("caller"), owner, c.req.param("repo") ?? "", READ);
  return { store, state: store.state, repo };
}

/** A repository the caller administers; else 404. */
export function administeredRepo(c: Context<ServerEnv>): RepoPlace {
  const store = c.get("store");
  const { repo } = pathAdminRepo(c);
  return { store, state: store.state, repo };
}

/** The environment of a repository the caller may read; else 404. */
export function readableEnvironment(c: Context<ServerEnv>): EnvironmentWhere {
  return withEnvironment(c, readableRepoOf(c));
}

/** The environment of a repository the caller administers; else 404. */
export function administeredEnvironment(c: Context<ServerEnv>): EnvironmentWhere {
  return withEnvironment(c, administeredRepo(c));
}

function withEnvironment(c: Context<ServerEnv>, place: RepoPlace): EnvironmentWhere {
  const environment = findEnvironment(place.state, place.repo, c.req.param("environment_name") ?? "");
  if (!environment) throw notFound();
  return { ...place, environment };
}
