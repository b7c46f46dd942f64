/**
 * Dependency snapshots (spec, Dependency snapshots): `POST .../dependency-graph/snapshots`, and a
 * control route that shows the effective dependency set it yields. Rules in `../dependency-graph.ts`.
 */
import type { Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, callerOf, orgRole } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import { guard } from "../../core/guard";
import { forbidden, notFound, readBody } from "../../core/http";
import { findRepo, readableRepo, repoKey } from "../../core/lookup";
import { type Store, timestamp } from "../../core/store";
import { gitRepo } from "../git/git";
import { effectiveGraph, parseSnapshot, storeSnapshot } from "./graph";
import type { StoredSnapshot } from "./state";

/** Scope repo; FG Contents write. */
const WRITE: AccessRule = { scopes: ["repo"], permission: ["contents", "write"] };

/** The ref the dependency graph shows: the repository's default branch, as the git data has it now. */
function defaultRef(store: Store, key: string): string {
  return `refs/heads/${gitRepo(store, key).defaultBranch}`;
}

export function dependencySnapshotRoutes(app: Hono<ServerEnv>): void {
  app.post(ROUTES.dependencySnapshots.create.pattern, guard(WRITE), async (c) => {
    const caller = callerOf(c);
    const store = c.get("store");
    const { repo, org } = readableRepo(store.state, caller, c.req.param("owner"), c.req.param("repo"), WRITE);
    // Submitting writes to the repository's dependency graph: its organisation's members write.
    if (!orgRole(caller, org))
      throw forbidden("Resource not accessible: write access to the repository is required");
    const parsed = parseSnapshot(await readBody(c));
    const snapshot: StoredSnapshot = {
      id: store.nextId(),
      repo: repoKey(repo),
      created_at: timestamp(),
      ...parsed,
    };
    storeSnapshot(store.state, snapshot);
    // The dependency graph shows the default branch: a snapshot of another ref is kept, and changes nothing.
    const shown = defaultRef(store, snapshot.repo);
    const counted = snapshot.ref === shown;
    return c.json(
      {
        id: snapshot.id,
        created_at: snapshot.created_at,
        result: counted ? "SUCCESS" : "ACCEPTED",
        message: counted
          ? "Dependency results for the repo have been successfully updated."
          : `Snapshot accepted; the dependency graph shows ${shown} only, so the repository's dependencies were not updated.`,
      },
      201,
    );
  });
}

/**
 * Control: the effective manifests of a repository's default branch, each with where it came from
 * (`user` snapshots with their ids and correlators, `automatic` submission, or `static` analysis).
 */
export function dependencySnapshotControls(app: Hono<ServerEnv>): void {
  app.get("/repos/:owner/:repo/dependency-graph", (c) => {
    const store = c.get("store");
    const state = store.state;
    const repo = findRepo(state, c.req.param("owner"), c.req.param("repo"));
    if (!repo) throw notFound();
    const key = repoKey(repo);
    const ref = defaultRef(store, key);
    return c.json({
      repository: `${repo.owner}/${repo.name}`,
      ref,
      manifests: effectiveGraph(state, key, ref),
      snapshots: state.dependencySnapshots
        .filter((s) => s.repo === key)
        .map((s) => ({ id: s.id, correlator: s.job.correlator, detector: s.detector.name, ref: s.ref })),
    });
  });
}
