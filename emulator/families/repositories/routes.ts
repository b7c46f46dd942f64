/**
 * Repositories (the spec's repository Administration group, served as the platform's published
 * description serves it: operations `repos/list-for-org`, `create-in-org`, `get`, `update`,
 * `delete`, `get-all-topics`, `replace-all-topics`).
 *
 * - Listing and reading: FG Metadata read; a private repository is hidden (404) from outsiders.
 *   The merge settings are shown to callers who may push (`render.ts`).
 * - Creating: a member of the organisation, classic `repo` (`public_repo` for a public one) or FG
 *   Administration write; a member who is not an owner only as far as the organisation's policies
 *   allow (`members_can_create_*`, 403).
 * - Updating, topics: the repository's admins (404 to whoever cannot see it, 403 to a reader),
 *   `repo` or `public_repo`, FG Administration write. Deleting: the classic scope `delete_repo`.
 * - A renamed repository's old name answers `GET` with 301 and `PATCH`/`DELETE` with 307, each
 *   with `Location` (the description gives these three); an archived repository refuses every
 *   write but unarchiving (403).
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, callerOf, expandScopes, orgRole } from "../../core/auth";
import type { Caller, ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { DOCS_URL, forbidden, notFound, paginate, readBody, urlOf } from "../../core/http";
import { adminRepo, findOrg, findRepo, readableRepo, refuseArchived } from "../../core/lookup";
import { repoSummary } from "../git/repository";
import { SimpleValidationFailure } from "../org-config/config";
import { membersMayCreate } from "../org-config/org-settings";
import { repositoryFull } from "./render";
import { createRepository, deleteRepository, redirectTarget, updateRepository } from "./repositories";
import { parseRepositoryBody, parseTopics, settingsOf } from "./settings";

const METADATA: AccessRule = { permission: ["metadata", "read"] };
const TOPICS_READ: AccessRule = { public: true, permission: ["metadata", "read"] };
const ADMINISTRATION: AccessRule = {
  scopes: ["repo", "public_repo"],
  permission: ["administration", "write"],
};
const DELETE: AccessRule = { scopes: ["delete_repo"], permission: ["administration", "write"] };

const R = ROUTES.repositories;

export function repositoryRoutes(app: Hono<ServerEnv>): void {
  // The organisation's repositories the caller can see (private ones to its members), by name.
  app.get(R.listForOrg.pattern, guard(METADATA), (c) => {
    const state = c.get("store").state;
    const org = findOrg(state, c.req.param("org"));
    if (!org) throw notFound();
    const visible = state.fixture.repos
      .filter((r) => r.owner.toLowerCase() === org.login.toLowerCase())
      .filter((r) => {
        try {
          readableRepo(state, c.get("caller"), r.owner, r.name, METADATA);
          return true;
        } catch {
          return false;
        }
      })
      .sort((a, b) => a.name.localeCompare(b.name));
    return c.json(paginate(c, visible).map((r) => repoSummary(c, r, org)));
  });

  app.post(R.create.pattern, guard(ADMINISTRATION), async (c) => {
    const caller = callerOf(c);
    const store = c.get("store");
    const org = findOrg(store.state, c.req.param("org"));
    if (!org) throw notFound();
    const change = parseRepositoryBody(await readBody(c), "create");
    const visibility = change.visibility ?? "public";
    const role = orgRole(caller, org);
    if (!role) throw forbidden("You must be a member of the organization to create a repository in it");
    if (role !== "admin" && !membersMayCreate(store.raw, org, visibility)) {
      throw forbidden(
        `Members of ${org.login} cannot create ${visibility} repositories (its policy allows owners only)`,
      );
    }
    if (
      caller.token.kind === "classic" &&
      visibility !== "public" &&
      !expandScopes(caller.token.scopes).has("repo")
    ) {
      throw forbidden("Creating a private or internal repository needs the repo scope");
    }
    const repo = createRepository(store, org, caller.user?.login ?? caller.token.user, change);
    c.header("Location", urlOf(c, R.get, { owner: repo.owner, repo: repo.name }));
    return c.json(repositoryFull(c, repo, org), 201);
  });

  app.get(R.get.pattern, guard(METADATA), (c) => {
    const found = located(c, METADATA);
    if ("moved" in found) return found.moved;
    return c.json(repositoryFull(c, found.repo, found.org));
  });

  app.patch(R.update.pattern, guard(ADMINISTRATION), async (c) => {
    const found = located(c, ADMINISTRATION);
    if ("moved" in found) return found.moved;
    const { repo, org } = administered(c, found);
    const change = parseRepositoryBody(await readBody(c), "update");
    updateRepository(c.get("store"), repo, org, change);
    return c.json(repositoryFull(c, repo, org));
  });

  app.delete(R.delete.pattern, guard(DELETE), (c) => {
    const found = located(c, DELETE);
    if ("moved" in found) return found.moved;
    const { repo } = administered(c, found);
    deleteRepository(c.get("store"), repo);
    return c.body(null, 204);
  });

  app.get(R.topics.pattern, guard(TOPICS_READ), (c) => {
    const state = c.get("store").state;
    const { repo } = readableRepo(
      state,
      c.get("caller"),
      c.req.param("owner"),
      c.req.param("repo"),
      TOPICS_READ,
    );
    return c.json({ names: settingsOf(state, repo).topics });
  });

  app.put(R.replaceTopics.pattern, guard(ADMINISTRATION), async (c) => {
    const found = located(c, ADMINISTRATION);
    if ("moved" in found) throw notFound();
    const { repo } = administered(c, found);
    refuseArchived(repo);
    const { topics, problems } = parseTopics(await readBody(c));
    if (problems.length > 0 || topics === undefined) throw new SimpleValidationFailure(problems);
    const store = c.get("store");
    const key = String(repo.id);
    store.state.repositorySettings[key] = { ...settingsOf(store.raw, repo), topics };
    return c.json({ names: topics });
  });
}

type Located = { repo: RepoRecord; org: OrgRecord } | { moved: Response };

/**
 * The repository of the path as the caller may see it; for the old name of a renamed repository
 * the caller can see, the redirect to where it is now (`GET` 301, other methods 307, with
 * `Location`), as the platform answers. Anything else the caller cannot see is a 404.
 */
function located(c: Context<ServerEnv>, rule: AccessRule): Located {
  const state = c.get("store").state;
  const owner = c.req.param("owner") ?? "";
  const name = c.req.param("repo") ?? "";
  const caller = c.get("caller");
  if (findRepo(state, owner, name)) return readableRepo(state, caller, owner, name, rule);
  const target = redirectTarget(c.get("store").raw, owner, name);
  if (!target) throw notFound();
  readableRepo(state, caller, target.owner, target.name, rule);
  const url = urlOf(c, ROUTES.repositories.get, { owner: target.owner, repo: target.name });
  const status = c.req.method === "GET" ? 301 : 307;
  c.header("Location", url);
  const message = status === 301 ? "Moved Permanently" : "Temporary Redirect";
  return { moved: c.json({ message, url, documentation_url: DOCS_URL }, status) };
}

/** The located repository, for a caller who administers it: 403 to one who only reads it. */
function administered(
  c: Context<ServerEnv>,
  found: { repo: RepoRecord; org: OrgRecord },
): {
  repo: RepoRecord;
  org: OrgRecord;
} {
  const caller: Caller = callerOf(c);
  try {
    adminRepo(c.get("store").state, caller, found.repo.owner, found.repo.name);
  } catch {
    throw forbidden("Must have admin rights to Repository.");
  }
  return found;
}
