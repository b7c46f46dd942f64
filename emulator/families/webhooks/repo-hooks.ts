/** Repository webhooks: every route of the spec's table H. */

import type { Context, Hono } from "hono";
import { REPOSITORY_WEBHOOK_DEFAULT_EVENTS, REPOSITORY_WEBHOOK_EVENTS, ROUTES } from "../../../api";
import type { AccessRule } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import { guard } from "../../core/guard";
import { missingField, notFound, paginate, pathId, readBody, urlOf } from "../../core/http";
import { pathAdminRepo, repoKey } from "../../core/lookup";
import { timestamp } from "../../core/store";
import {
  assertUniqueUrl,
  deleteHook,
  deliveriesPage,
  newHook,
  parseActive,
  parseConfig,
  parseEvents,
  parseName,
  recordDelivery,
  renderConfig,
  renderHook,
} from "./hooks";
import type { StoredHook } from "./state";

const READ: AccessRule = { scopes: ["read:repo_hook", "repo"], permission: ["repository_hooks", "read"] };
const WRITE: AccessRule = { scopes: ["write:repo_hook", "repo"], permission: ["repository_hooks", "write"] };
const ADMIN: AccessRule = { scopes: ["admin:repo_hook", "repo"], permission: ["repository_hooks", "write"] };

const R = ROUTES.repoHooks;

export function repoHookRoutes(app: Hono<ServerEnv>): void {
  app.get(R.list.pattern, guard(READ), (c) => {
    const { hooks } = context(c);
    return c.json(paginate(c, hooks).map((h) => render(c, h)));
  });

  app.post(R.create.pattern, guard(WRITE), async (c) => {
    const { store, repo, hooks } = context(c);
    const body = await readBody(c);
    parseName(body.name);
    if (body.config === undefined) throw missingField("Hook", "config");
    const config = parseConfig(body.config, undefined);
    assertUniqueUrl(hooks, config.url, undefined, "repository");
    const hook = newHook(store, {
      repo: repoKey(repo),
      active: body.active === undefined ? true : parseActive(body.active),
      events:
        body.events === undefined
          ? [...REPOSITORY_WEBHOOK_DEFAULT_EVENTS]
          : parseEvents(body.events, REPOSITORY_WEBHOOK_EVENTS),
      config,
    });
    store.state.repoHooks.push(hook);
    return c.json(render(c, hook), 201);
  });

  app.get(R.get.pattern, guard(READ), (c) => c.json(render(c, findHook(c).hook)));

  app.patch(R.update.pattern, guard(WRITE), async (c) => {
    const { hook, hooks } = findHook(c);
    const body = await readBody(c);
    const config = body.config === undefined ? hook.config : parseConfig(body.config, hook.config);
    assertUniqueUrl(hooks, config.url, hook.id, "repository");
    let events =
      body.events === undefined ? hook.events : parseEvents(body.events, REPOSITORY_WEBHOOK_EVENTS);
    if (body.add_events !== undefined) {
      events = [
        ...new Set([...events, ...parseEvents(body.add_events, REPOSITORY_WEBHOOK_EVENTS, "add_events")]),
      ];
    }
    if (body.remove_events !== undefined) {
      const removed = parseEvents(body.remove_events, REPOSITORY_WEBHOOK_EVENTS, "remove_events");
      events = events.filter((e) => !removed.includes(e));
    }
    const active = body.active === undefined ? hook.active : parseActive(body.active);
    Object.assign(hook, { config, events, active, updated_at: timestamp() });
    return c.json(render(c, hook));
  });

  app.delete(R.delete.pattern, guard(ADMIN), (c) => {
    const { store, hook } = findHook(c);
    deleteHook(store, hook);
    return c.body(null, 204);
  });

  app.get(R.getConfig.pattern, guard(READ), (c) => c.json(renderConfig(findHook(c).hook.config)));

  app.patch(R.updateConfig.pattern, guard(WRITE), async (c) => {
    const { hook, hooks } = findHook(c);
    const config = parseConfig(await readBody(c), hook.config);
    assertUniqueUrl(hooks, config.url, hook.id, "repository");
    Object.assign(hook, { config, updated_at: timestamp() });
    return c.json(renderConfig(hook.config));
  });

  app.get(R.deliveries.pattern, guard(READ), (c) => {
    const { store, hook } = findHook(c);
    return c.json(deliveriesPage(c, store, hook));
  });

  app.post(R.ping.pattern, guard(WRITE), (c) => {
    const { store, hook, repo } = findHook(c);
    recordDelivery(store, hook, "ping", repo.id);
    return c.body(null, 204);
  });

  app.post(R.test.pattern, guard(WRITE), (c) => {
    const { store, hook, repo } = findHook(c);
    if (hook.events.includes("push") || hook.events.includes("*"))
      recordDelivery(store, hook, "push", repo.id);
    return c.body(null, 204);
  });
}

function context(c: Context<ServerEnv>) {
  const store = c.get("store");
  const { repo } = pathAdminRepo(c);
  const key = repoKey(repo);
  const hooks = store.raw.repoHooks.filter((h) => h.repo === key);
  return { store, repo, hooks };
}

function findHook(c: Context<ServerEnv>) {
  const ctx = context(c);
  const id = pathId(c, "hook_id");
  const hook = ctx.hooks.find((h) => h.id === id);
  if (!hook) throw notFound();
  return { ...ctx, hook: ctx.store.tracked("repoHooks", hook) };
}

function render(c: Context<ServerEnv>, hook: StoredHook): Record<string, unknown> {
  const [owner = "", repo = ""] = (hook.repo ?? "").split("/");
  const url = urlOf(c, ROUTES.repoHooks.get, { owner, repo, hook_id: hook.id });
  return {
    ...renderHook(hook, "Repository", url),
    test_url: `${url}/tests`,
    deliveries_url: `${url}/deliveries`,
    last_response: hook.last_response,
  };
}
