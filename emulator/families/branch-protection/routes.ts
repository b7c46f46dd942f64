/**
 * Branch protection (the published description's `repos/get-branch-protection`,
 * `update-branch-protection`, `delete-branch-protection`): the repository's administrators only
 * (classic `repo`; fine-grained and app tokens Administration read or write), anyone else a 404
 * as for the repository's other administration routes. Branch names may hold slashes, raw or
 * percent-encoded. An unknown branch is a 404 "Branch not found", a branch without protection a
 * 404 "Branch not protected" (GET and DELETE). The PUT replaces the whole protection and answers it.
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import type { AccessRule } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { ApiFailure, readBody } from "../../core/http";
import { pathAdminRepo, repoKey } from "../../core/lookup";
import type { Store } from "../../core/store";
import { findBranch } from "../git/git";
import type { StoredBranch } from "../git/state";
import { findProtection, parseProtection, renderProtection } from "./protections";

const READ: AccessRule = { scopes: ["repo"], permission: ["administration", "read"] };
const WRITE: AccessRule = { scopes: ["repo"], permission: ["administration", "write"] };

const P = ROUTES.branchProtection;

export function branchProtectionRoutes(app: Hono<ServerEnv>): void {
  app.get(P.get.pattern, guard(READ), (c) => {
    const { store, repo, org, branch } = protectedBranch(c);
    const found = findProtection(store.raw, repoKey(repo), branch.name);
    if (!found) throw notProtected();
    return c.json(renderProtection(c, store.state, repo, org, found));
  });

  app.put(P.set.pattern, guard(WRITE), async (c) => {
    const { store, repo, org, branch } = protectedBranch(c);
    const settings = parseProtection(store.state, org, await readBody(c));
    const key = repoKey(repo);
    const existing = store.state.branchProtections.findIndex(
      (p) => p.repo === key && p.branch === branch.name,
    );
    const protection = { repo: key, branch: branch.name, ...settings };
    if (existing >= 0) store.state.branchProtections.splice(existing, 1, protection);
    else store.state.branchProtections.push(protection);
    if (!branch.protected) store.tracked("branches", branch).protected = true;
    return c.json(renderProtection(c, store.state, repo, org, protection));
  });

  app.delete(P.delete.pattern, guard(WRITE), (c) => {
    const { store, repo, branch } = protectedBranch(c);
    const key = repoKey(repo);
    if (!findProtection(store.raw, key, branch.name)) throw notProtected();
    store.state.branchProtections = store.state.branchProtections.filter(
      (p) => !(p.repo === key && p.branch === branch.name),
    );
    store.tracked("branches", branch).protected = false;
    return c.body(null, 204);
  });
}

const notProtected = () => new ApiFailure(404, "Branch not protected");

/** The repository (its administrators only), its organisation and the branch of the path. */
function protectedBranch(c: Context<ServerEnv>): {
  store: Store;
  repo: RepoRecord;
  org: OrgRecord;
  branch: Readonly<StoredBranch>;
} {
  const store = c.get("store");
  const { repo, org } = pathAdminRepo(c);
  const branch = findBranch(store, repoKey(repo), c.req.param("branch") ?? "");
  if (!branch) throw new ApiFailure(404, "Branch not found");
  return { store, repo, org, branch };
}
