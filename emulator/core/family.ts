/**
 * A family of the sandbox: one folder of emulator/families/ serving one part of the API. It owns
 * its keys of the state (state.ts), its facts of the default fixture, its routes and its controls,
 * and registers itself with one line in families/index.ts. The core runs what the list holds and
 * names no family.
 */
import type { Hono } from "hono";
import type { ServerEnv } from "./context";
import type { RepoRoleSource } from "./repo-access";
import type { FamilyState } from "./state";

export interface Family extends FamilyState {
  /** Registers its API routes (below the API root), in the order of the family list. */
  readonly routes?: (api: Hono<ServerEnv>) => void;
  /** Registers its routes under `/_emulator/` (out-of-band actions, switches, test views). */
  readonly controls?: (control: Hono<ServerEnv>) => void;
  /** What it grants people on repositories beyond their organisation's rule (teams, collaborators). */
  readonly repoRoles?: RepoRoleSource;
}
