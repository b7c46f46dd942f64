/**
 * Global webhooks (`/admin/hooks`): site administrators with a classic token only; everyone else
 * gets 404, as on the platform. PATCH resets every omitted parameter to its default.
 */

import type { Context, Hono } from "hono";
import { GLOBAL_WEBHOOK_DEFAULT_EVENTS, GLOBAL_WEBHOOK_EVENTS, ROUTES } from "../../../api";
import { type AccessRule, APP_TOKENS } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import { guard } from "../../core/guard";
import { missingField, notFound, paginate, pathId, readBody, urlOf } from "../../core/http";
import { timestamp } from "../../core/store";
import {
  assertUniqueUrl,
  deleteHook,
  newHook,
  parseActive,
  parseConfig,
  parseEvents,
  parseName,
  recordDelivery,
  renderHook,
} from "./hooks";
import type { StoredHook } from "./state";

const SITE_ADMIN: AccessRule = { siteAdmin: true, refuse: ["fine_grained", ...APP_TOKENS] };

const R = ROUTES.globalHooks;

export function globalHookRoutes(app: Hono<ServerEnv>): void {
  app.get(R.list.pattern, guard(SITE_ADMIN), (c) => {
    return c.json(paginate(c, c.get("store").state.globalHooks).map((h) => render(c, h)));
  });

  app.post(R.create.pattern, guard(SITE_ADMIN), async (c) => {
    const store = c.get("store");
    const body = await readBody(c);
    if (body.name === undefined) throw missingField("Hook", "name");
    parseName(body.name);
    if (body.config === undefined) throw missingField("Hook", "config");
    const config = parseConfig(body.config, undefined);
    assertUniqueUrl(store.state.globalHooks, config.url, undefined, "installation");
    const hook = newHook(store, {
      config,
      events:
        body.events === undefined
          ? [...GLOBAL_WEBHOOK_DEFAULT_EVENTS]
          : parseEvents(body.events, GLOBAL_WEBHOOK_EVENTS),
      active: body.active === undefined ? true : parseActive(body.active),
    });
    store.state.globalHooks.push(hook);
    return c.json(render(c, hook), 201);
  });

  app.get(R.get.pattern, guard(SITE_ADMIN), (c) => c.json(render(c, findHook(c))));

  app.patch(R.update.pattern, guard(SITE_ADMIN), async (c) => {
    const hook = findHook(c);
    const body = await readBody(c);
    // Omitted parameters are reset to their default or removed (spec, global webhooks PATCH).
    const config =
      body.config === undefined
        ? { url: hook.config.url, content_type: "form" as const, insecure_ssl: "0" as const }
        : parseConfig(body.config, { content_type: "form", insecure_ssl: "0" }); // url required when config is sent
    const events =
      body.events === undefined
        ? [...GLOBAL_WEBHOOK_DEFAULT_EVENTS]
        : parseEvents(body.events, GLOBAL_WEBHOOK_EVENTS);
    const active = body.active === undefined ? true : parseActive(body.active);
    assertUniqueUrl(c.get("store").state.globalHooks, config.url, hook.id, "installation");
    Object.assign(hook, { config, events, active, updated_at: timestamp() });
    return c.json(render(c, hook));
  });

  app.delete(R.delete.pattern, guard(SITE_ADMIN), (c) => {
    const hook = findHook(c);
    deleteHook(c.get("store"), hook);
    return c.body(null, 204);
  });

  app.post(R.ping.pattern, guard(SITE_ADMIN), (c) => {
    recordDelivery(c.get("store"), findHook(c), "ping", null);
    return c.body(null, 204);
  });
}

function findHook(c: Context<ServerEnv>): StoredHook {
  const id = pathId(c, "hook_id");
  const hook = c.get("store").state.globalHooks.find((h) => h.id === id);
  if (!hook) throw notFound();
  return hook;
}

function render(c: Context<ServerEnv>, hook: StoredHook): Record<string, unknown> {
  return renderHook(hook, "Global", urlOf(c, ROUTES.globalHooks.get, { hook_id: hook.id }));
}
