/**
 * The signed-in user's keys: GPG keys (spec, User GPG keys), SSH authentication keys and SSH
 * signing keys (bodies from the platform's published description; docs/DECISIONS.md). Keys are
 * immutable: no route updates one (a new title is a delete and a create). Every GET answers
 * conditional requests (`conditional.ts`).
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, callerOf } from "../../core/auth";
import { conditionalJson } from "../../core/conditional";
import type { ServerEnv } from "../../core/context";
import type { UserRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { invalidField, notFound, paginate, pathId, readBody, urlOf } from "../../core/http";
import { findUser } from "../../core/lookup";
import { type RawState, timestamp } from "../../core/store";
import {
  assertNewGpgKey,
  assertSshKeyUnused,
  type GpgCapabilities,
  parseGpgKey,
  parseSshKeyInput,
  type StoredGpgKey,
  type StoredSshKey,
  userEmails,
} from "./keys";

/**
 * A rule of a `/user/...` route: the classic scope, or the user permission of a fine-grained token
 * (the matrix's "UAT only": an installation acts for no user, so its tokens are refused).
 */
const userRule = (scope: string, group: string, level: "read" | "write"): AccessRule => ({
  scopes: [scope],
  permission: [group, level],
  refuse: ["app_installation"],
});

const GPG = {
  read: userRule("read:gpg_key", "gpg_keys", "read"),
  write: userRule("write:gpg_key", "gpg_keys", "write"),
  admin: userRule("admin:gpg_key", "gpg_keys", "write"),
  // "No permission needed": anyone, anonymous callers and installations included.
  public: { public: true } satisfies AccessRule,
};
const SSH = {
  read: userRule("read:public_key", "git_ssh_keys", "read"),
  write: userRule("write:public_key", "git_ssh_keys", "write"),
  admin: userRule("admin:public_key", "git_ssh_keys", "write"),
  // "Accessible by anyone"; the matrix names Git SSH keys read (UAT IAT) for it.
  public: { public: true, permission: ["git_ssh_keys", "read"] } satisfies AccessRule,
};
const SIGNING = {
  read: userRule("read:ssh_signing_key", "ssh_signing_keys", "read"),
  write: userRule("write:ssh_signing_key", "ssh_signing_keys", "write"),
  admin: userRule("admin:ssh_signing_key", "ssh_signing_keys", "write"),
};

/** The `resource` of validation errors, as the platform names them. */
const SSH_RESOURCE = "PublicKey";
const SIGNING_RESOURCE = "SshSigningKey";

export function userKeyRoutes(app: Hono<ServerEnv>): void {
  const G = ROUTES.gpgKeys;
  app.get(G.list.pattern, guard(GPG.read), (c) => {
    const { state, user } = signedIn(c);
    const keys = state.gpgKeys.filter((k) => k.user === user.login);
    return conditionalJson(
      c,
      paginate(c, keys).map((k) => renderGpgKey(k, state, user)),
    );
  });

  app.post(G.create.pattern, guard(GPG.write), async (c) => {
    const { store, user } = signedIn(c);
    const body = await readBody(c);
    if (body.name !== undefined && body.name !== null && typeof body.name !== "string") {
      throw invalidField("GpgKey", "name", "name must be a string");
    }
    const parsed = await parseGpgKey(body.armored_public_key);
    assertNewGpgKey(store.raw.gpgKeys, user.login, parsed.keyId);
    const key: StoredGpgKey = {
      ...parsed,
      id: store.nextId(),
      user: user.login,
      name: typeof body.name === "string" ? body.name : null,
      subkeys: parsed.subkeys.map((s) => ({ ...s, id: store.nextId() })),
      rawKey: body.armored_public_key as string,
    };
    store.state.gpgKeys.push(key);
    return c.json(renderGpgKey(key, store.raw, user), 201);
  });

  app.get(G.get.pattern, guard(GPG.read), (c) => {
    const { state, user } = signedIn(c);
    const key = ownKey(state.gpgKeys, user, pathId(c, "gpg_key_id"));
    return conditionalJson(c, renderGpgKey(key, state, user), key.createdAt);
  });

  app.delete(G.delete.pattern, guard(GPG.admin), (c) => {
    const { store, user } = signedIn(c);
    const key = ownKey(store.raw.gpgKeys, user, pathId(c, "gpg_key_id"));
    store.state.gpgKeys = store.state.gpgKeys.filter((k) => k.id !== key.id);
    return c.body(null, 204);
  });

  app.get(G.listForUser.pattern, guard(GPG.public), (c) => {
    const { state, user } = named(c);
    const keys = state.gpgKeys.filter((k) => k.user === user.login);
    return conditionalJson(
      c,
      paginate(c, keys).map((k) => renderGpgKey(k, state, user)),
    );
  });

  const S = ROUTES.sshKeys;
  app.get(S.list.pattern, guard(SSH.read), (c) => {
    const { state, user } = signedIn(c);
    const keys = state.sshKeys.filter((k) => k.user === user.login);
    return conditionalJson(
      c,
      paginate(c, keys).map((k) => renderSshKey(c, k)),
    );
  });

  app.post(S.create.pattern, guard(SSH.write), async (c) => {
    const { store, user } = signedIn(c);
    const input = parseSshKeyInput(await readBody(c), SSH_RESOURCE);
    // An authentication key names the account it logs in to: no two accounts may hold it.
    assertSshKeyUnused(store.raw.sshKeys, input.key, SSH_RESOURCE);
    const key = newSshKey(store.nextId(), user, input);
    store.state.sshKeys.push(key);
    return c.json(renderSshKey(c, key), 201);
  });

  app.get(S.get.pattern, guard(SSH.read), (c) => {
    const { state, user } = signedIn(c);
    const key = ownKey(state.sshKeys, user, pathId(c, "key_id"));
    return conditionalJson(c, renderSshKey(c, key), key.createdAt);
  });

  app.delete(S.delete.pattern, guard(SSH.admin), (c) => {
    const { store, user } = signedIn(c);
    const key = ownKey(store.raw.sshKeys, user, pathId(c, "key_id"));
    store.state.sshKeys = store.state.sshKeys.filter((k) => k.id !== key.id);
    return c.body(null, 204);
  });

  app.get(S.listForUser.pattern, guard(SSH.public), (c) => {
    const { state, user } = named(c);
    const keys = state.sshKeys.filter((k) => k.user === user.login);
    return conditionalJson(
      c,
      paginate(c, keys).map((k) => ({ id: k.id, key: k.key, created_at: k.createdAt, last_used: null })),
    );
  });

  const K = ROUTES.sshSigningKeys;
  app.get(K.list.pattern, guard(SIGNING.read), (c) => {
    const { state, user } = signedIn(c);
    const keys = state.sshSigningKeys.filter((k) => k.user === user.login);
    return conditionalJson(c, paginate(c, keys).map(renderSigningKey));
  });

  app.post(K.create.pattern, guard(SIGNING.write), async (c) => {
    const { store, user } = signedIn(c);
    const input = parseSshKeyInput(await readBody(c), SIGNING_RESOURCE);
    // A signing key only attests to commits its owner signs: unique per user (docs/DECISIONS.md).
    assertSshKeyUnused(
      store.raw.sshSigningKeys.filter((k) => k.user === user.login),
      input.key,
      SIGNING_RESOURCE,
    );
    const key = newSshKey(store.nextId(), user, input);
    store.state.sshSigningKeys.push(key);
    return c.json(renderSigningKey(key), 201);
  });

  app.get(K.get.pattern, guard(SIGNING.read), (c) => {
    const { state, user } = signedIn(c);
    const key = ownKey(state.sshSigningKeys, user, pathId(c, "ssh_signing_key_id"));
    return conditionalJson(c, renderSigningKey(key), key.createdAt);
  });

  app.delete(K.delete.pattern, guard(SIGNING.admin), (c) => {
    const { store, user } = signedIn(c);
    const key = ownKey(store.raw.sshSigningKeys, user, pathId(c, "ssh_signing_key_id"));
    store.state.sshSigningKeys = store.state.sshSigningKeys.filter((k) => k.id !== key.id);
    return c.body(null, 204);
  });
}

/** The signed-in user of a `/user/...` route (a token acting for no known user finds nothing). */
function signedIn(c: Context<ServerEnv>) {
  const user = callerOf(c).user;
  if (!user) throw notFound();
  const store = c.get("store");
  return { store, state: store.raw, user };
}

/** The user a `/users/{username}/...` route names; 404 for no such user. */
function named(c: Context<ServerEnv>) {
  const store = c.get("store");
  const user = findUser(store.state, c.req.param("username") ?? "");
  if (!user) throw notFound();
  return { state: store.raw, user };
}

/** One of the user's keys by id; another user's key is as absent as a missing one (404). */
function ownKey<T extends { id: number; user: string }>(keys: readonly T[], user: UserRecord, id: number): T {
  const key = keys.find((k) => k.id === id && k.user === user.login);
  if (!key) throw notFound();
  return key;
}

function newSshKey(id: number, user: UserRecord, input: { title: string; key: string }): StoredSshKey {
  return { id, user: user.login, title: input.title, key: input.key, createdAt: timestamp() };
}

function flags(capabilities: GpgCapabilities) {
  return {
    can_sign: capabilities.sign,
    can_encrypt_comms: capabilities.encryptComms,
    can_encrypt_storage: capabilities.encryptStorage,
    can_certify: capabilities.certify,
  };
}

/** The GPG key object (spec, concepts, GPG key). */
function renderGpgKey(
  key: Readonly<StoredGpgKey>,
  state: RawState,
  user: UserRecord,
): Record<string, unknown> {
  const owned = new Set(userEmails(state.fixture, user).map((e) => e.toLowerCase()));
  return {
    id: key.id,
    name: key.name,
    primary_key_id: null,
    key_id: key.keyId,
    public_key: key.publicKey,
    emails: key.emails.map((email) => ({ email, verified: owned.has(email.toLowerCase()) })),
    subkeys: key.subkeys.map((s) => ({
      id: s.id,
      primary_key_id: key.id,
      key_id: s.keyId,
      public_key: s.publicKey,
      emails: [],
      ...flags(s.capabilities),
      created_at: s.createdAt,
      expires_at: s.expiresAt,
      revoked: s.revoked,
    })),
    ...flags(key.capabilities),
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    revoked: key.revoked,
    raw_key: key.rawKey,
  };
}

/** The SSH key object of the description's `key` schema. */
function renderSshKey(c: Context<ServerEnv>, key: Readonly<StoredSshKey>): Record<string, unknown> {
  return {
    id: key.id,
    key: key.key,
    url: urlOf(c, ROUTES.sshKeys.get, { key_id: key.id }),
    title: key.title,
    created_at: key.createdAt,
    // Keys added through the API are verified; a user's key is never read-only (deploy keys are).
    verified: true,
    read_only: false,
    // The sandbox sees no SSH connections, so no key has been used.
    last_used: null,
  };
}

function renderSigningKey(key: Readonly<StoredSshKey>): Record<string, unknown> {
  return { id: key.id, key: key.key, title: key.title, created_at: key.createdAt };
}
