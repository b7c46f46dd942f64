/**
 * The repositories of an organisation secret or variable with visibility `selected`: list them,
 * replace the list, add or remove one. Each answers 409 while the visibility is another (as the
 * platform's description gives for the variables' routes). These writes change the list only:
 * `updated_at` is the secret's or variable's own (its value and visibility).
 */
import type { Context, Hono } from "hono";
import type { AccessRule } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import { guard } from "../../core/guard";
import { ApiFailure, missingField, notFound, paginate, pathId, readBody } from "../../core/http";
import { repoSummary } from "../git/repository";
import { type ActionsScope, repositoryIds, repositoryIdsOf, type Settings } from "./rules";

export interface SelectedPlace {
  routes: {
    repositories: { pattern: string };
    setRepositories: { pattern: string };
    addRepository: { pattern: string };
    removeRepository: { pattern: string };
  };
  read: AccessRule;
  write: AccessRule;
  /** The secret or variable the path names, and its scope; 404 when there is none. */
  find: (c: Context<ServerEnv>) => { scope: ActionsScope; record: Partial<Settings> & { name: string } };
}

export function selectedRepositoryRoutes(app: Hono<ServerEnv>, place: SelectedPlace): void {
  const { routes } = place;
  const selected = (c: Context<ServerEnv>) => {
    const found = place.find(c);
    if (found.record.visibility !== "selected") {
      throw new ApiFailure(409, `The visibility of ${found.record.name} is not set to selected`);
    }
    return { ...found, ids: found.record.selectedRepositoryIds ?? [] };
  };

  app.get(routes.repositories.pattern, guard(place.read), (c) => {
    const { scope, ids } = selected(c);
    const repos = c.get("store").state.fixture.repos.filter((r) => ids.includes(r.id));
    return c.json({
      total_count: repos.length,
      repositories: paginate(c, repos).map((r) => repoSummary(c, r, scope.org)),
    });
  });

  app.put(routes.setRepositories.pattern, guard(place.write), async (c) => {
    const { scope, record } = selected(c);
    const body = await readBody(c);
    if (body.selected_repository_ids === undefined || body.selected_repository_ids === null) {
      throw missingField("Repository", "selected_repository_ids");
    }
    const repoIds = repositoryIdsOf(c.get("store").state, scope.org);
    record.selectedRepositoryIds = repositoryIds("Repository", body.selected_repository_ids, repoIds);
    return c.body(null, 204);
  });

  app.put(routes.addRepository.pattern, guard(place.write), (c) => {
    const { scope, record, ids } = selected(c);
    const id = repositoryOf(c, scope);
    if (!ids.includes(id)) record.selectedRepositoryIds = [...ids, id];
    return c.body(null, 204);
  });

  app.delete(routes.removeRepository.pattern, guard(place.write), (c) => {
    const { scope, record, ids } = selected(c);
    const id = repositoryOf(c, scope);
    if (ids.includes(id)) record.selectedRepositoryIds = ids.filter((r) => r !== id);
    return c.body(null, 204);
  });
}

/** The path's `repository_id`: a repository of the organisation, else 404. */
function repositoryOf(c: Context<ServerEnv>, scope: ActionsScope): number {
  const id = pathId(c, "repository_id");
  if (!repositoryIdsOf(c.get("store").state, scope.org).has(id)) throw notFound();
  return id;
}
