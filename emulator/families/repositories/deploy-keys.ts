/**
 * Deploy keys: SSH keys granting access to one repository (the description's operations
 * `repos/list-deploy-keys`, `create-deploy-key`, `get-deploy-key`, `delete-deploy-key`).
 *
 * - The repository's admins only (404 to anyone else, which hides the repository), classic `repo`,
 *   FG Administration read (reads) or write (writes).
 * - A key is checked as the user keys are (`user-keys/keys.ts`: a key line OpenSSH would accept,
 *   kept in its canonical form without the comment) and may be in use once on the whole platform:
 *   a key that is already a deploy key or a user's SSH key is a 422. `read_only` defaults to false,
 *   as in the description; the title to the key's comment.
 * - Keys are immutable: no route updates one. An archived repository takes no new key (403).
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, callerOf } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { RepoRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { invalidField, notFound, paginate, pathId, readBody, urlOf } from "../../core/http";
import { pathAdminRepo, refuseArchived } from "../../core/lookup";
import { timestamp } from "../../core/store";
import { assertSshKeyUnused, parseSshKeyInput } from "../user-keys/keys";
import type { StoredDeployKey } from "./state";

const READ: AccessRule = { scopes: ["repo"], permission: ["administration", "read"] };
const WRITE: AccessRule = { scopes: ["repo"], permission: ["administration", "write"] };

/** The `resource` of validation errors: the platform keeps deploy keys as public keys. */
const RESOURCE = "PublicKey";

const K = ROUTES.deployKeys;

export function deployKeyRoutes(app: Hono<ServerEnv>): void {
  app.get(K.list.pattern, guard(READ), (c) => {
    const repo = repository(c);
    const keys = c.get("store").raw.deployKeys.filter((k) => k.repoId === repo.id);
    return c.json(paginate(c, keys).map((k) => renderDeployKey(c, repo, k)));
  });

  app.post(K.create.pattern, guard(WRITE), async (c) => {
    const caller = callerOf(c);
    const repo = repository(c);
    refuseArchived(repo);
    const body = await readBody(c);
    const { title, key } = parseSshKeyInput(body, RESOURCE);
    let readOnly = false;
    if (body.read_only !== undefined && body.read_only !== null) {
      if (typeof body.read_only !== "boolean")
        throw invalidField(RESOURCE, "read_only", "read_only must be true or false");
      readOnly = body.read_only;
    }
    const store = c.get("store");
    const inUse = [
      ...store.raw.sshKeys,
      ...store.raw.deployKeys.map((k) => ({
        id: k.id,
        user: "",
        title: k.title,
        key: k.key,
        createdAt: k.createdAt,
      })),
    ];
    assertSshKeyUnused(inUse, key, RESOURCE);
    const made: StoredDeployKey = {
      id: store.nextId(),
      repoId: repo.id,
      title,
      key,
      readOnly,
      addedBy: caller.user?.login ?? caller.token.user,
      createdAt: timestamp(),
    };
    store.state.deployKeys.push(made);
    return c.json(renderDeployKey(c, repo, made), 201);
  });

  app.get(K.get.pattern, guard(READ), (c) => {
    const repo = repository(c);
    return c.json(renderDeployKey(c, repo, keyOf(c, repo)));
  });

  app.delete(K.delete.pattern, guard(WRITE), (c) => {
    const repo = repository(c);
    const key = keyOf(c, repo);
    refuseArchived(repo);
    const store = c.get("store");
    store.state.deployKeys = store.state.deployKeys.filter((k) => k.id !== key.id);
    return c.body(null, 204);
  });
}

/** The repository of the path, which the caller administers (404 otherwise). */
function repository(c: Context<ServerEnv>): RepoRecord {
  return pathAdminRepo(c).repo;
}

function keyOf(c: Context<ServerEnv>, repo: RepoRecord): StoredDeployKey {
  const id = pathId(c, "key_id");
  const key = c.get("store").raw.deployKeys.find((k) => k.id === id && k.repoId === repo.id);
  if (!key) throw notFound();
  return key;
}

function renderDeployKey(
  c: Context<ServerEnv>,
  repo: RepoRecord,
  key: StoredDeployKey,
): Record<string, unknown> {
  return {
    id: key.id,
    key: key.key,
    url: urlOf(c, K.get, { owner: repo.owner, repo: repo.name, key_id: key.id }),
    title: key.title,
    verified: true,
    created_at: key.createdAt,
    read_only: key.readOnly,
    added_by: key.addedBy,
    last_used: null,
    enabled: true,
  };
}
