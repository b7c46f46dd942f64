/**
 * Organisation webhooks (`/orgs/{org}/hooks`), as the platform's published description has them:
 * the organisation's owners only (404 to anyone else, which hides the hooks), with the classic
 * scope `admin:org_hook` or the fine-grained permission `organization_hooks`. Rules shared with
 * repository hooks (`hooks.ts`): a secret is masked, and kept by an update only when sent again;
 * one hook per URL; deliveries recorded, not sent, and paged by cursor.
 */

import type { Context, Hono } from "hono";
import { ORG_WEBHOOK_DEFAULT_EVENTS, ORG_WEBHOOK_EVENTS, ROUTES } from "../../../api";
import { type AccessRule, callerOf, orgRole } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import { guard } from "../../core/guard";
import { missingField, notFound, paginate, pathId, readBody, urlOf } from "../../core/http";
import { findOrg } from "../../core/lookup";
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

const READ: AccessRule = { scopes: ["admin:org_hook"], permission: ["organization_hooks", "read"] };
const WRITE: AccessRule = { scopes: ["admin:org_hook"], permission: ["organization_hooks", "write"] };

const R = ROUTES.orgHooks;

export function orgHookRoutes(app: Hono<ServerEnv>): void {
  app.get(R.list.pattern, guard(READ), (c) => {
    const { hooks } = context(c);
    return c.json(paginate(c, hooks).map((h) => render(c, h)));
  });

  app.post(R.create.pattern, guard(WRITE), async (c) => {
    const { store, org, hooks } = context(c);
    const body = await readBody(c);
    // The description requires `name` ("web") and `config` on create.
    if (body.name === undefined) throw missingField("Hook", "name");
    parseName(body.name);
    if (body.config === undefined) throw missingField("Hook", "config");
    const config = parseConfig(body.config, undefined);
    assertUniqueUrl(hooks, config.url, undefined, "organization");
    const hook = newHook(store, {
      org,
      active: body.active === undefined ? true : parseActive(body.active),
      events:
        body.events === undefined
          ? [...ORG_WEBHOOK_DEFAULT_EVENTS]
          : parseEvents(body.events, ORG_WEBHOOK_EVENTS),
      config,
    });
    store.state.orgHooks.push(hook);
    return c.json(render(c, hook), 201);
  });

  app.get(R.get.pattern, guard(READ), (c) => c.json(render(c, findHook(c).hook)));

  app.patch(R.update.pattern, guard(WRITE), async (c) => {
    const { hook, hooks } = findHook(c);
    const body = await readBody(c);
    if (body.name !== undefined) parseName(body.name);
    // A config sent without its secret removes the secret (the description of this PATCH).
    const config = body.config === undefined ? hook.config : parseConfig(body.config, hook.config);
    assertUniqueUrl(hooks, config.url, hook.id, "organization");
    const events = body.events === undefined ? hook.events : parseEvents(body.events, ORG_WEBHOOK_EVENTS);
    const active = body.active === undefined ? hook.active : parseActive(body.active);
    Object.assign(hook, { config, events, active, updated_at: timestamp() });
    return c.json(render(c, hook));
  });

  app.delete(R.delete.pattern, guard(WRITE), (c) => {
    const { store, hook } = findHook(c);
    deleteHook(store, hook);
    return c.body(null, 204);
  });

  app.get(R.getConfig.pattern, guard(READ), (c) => c.json(renderConfig(findHook(c).hook.config)));

  app.patch(R.updateConfig.pattern, guard(WRITE), async (c) => {
    const { hook, hooks } = findHook(c);
    const config = parseConfig(await readBody(c), hook.config);
    assertUniqueUrl(hooks, config.url, hook.id, "organization");
    Object.assign(hook, { config, updated_at: timestamp() });
    return c.json(renderConfig(hook.config));
  });

  app.get(R.deliveries.pattern, guard(READ), (c) => {
    const { store, hook } = findHook(c);
    return c.json(deliveriesPage(c, store, hook));
  });

  app.post(R.ping.pattern, guard(WRITE), (c) => {
    const { store, hook } = findHook(c);
    recordDelivery(store, hook, "ping", null);
    return c.body(null, 204);
  });
}

/** The organisation the caller owns, and its hooks; 404 for an unknown organisation or a non-owner. */
function context(c: Context<ServerEnv>) {
  const caller = callerOf(c);
  const store = c.get("store");
  const org = findOrg(store.state, c.req.param("org") ?? "");
  if (!org || orgRole(caller, org) !== "admin") throw notFound();
  const hooks = store.raw.orgHooks.filter((h) => h.org === org.login);
  return { store, org: org.login, hooks };
}

function findHook(c: Context<ServerEnv>) {
  const ctx = context(c);
  const id = pathId(c, "hook_id");
  const hook = ctx.hooks.find((h) => h.id === id);
  if (!hook) throw notFound();
  return { ...ctx, hook: ctx.store.tracked("orgHooks", hook) };
}

function render(c: Context<ServerEnv>, hook: StoredHook): Record<string, unknown> {
  const url = urlOf(c, ROUTES.orgHooks.get, { org: hook.org ?? "", hook_id: hook.id });
  return { ...renderHook(hook, "Organization", url), deliveries_url: `${url}/deliveries` };
}
