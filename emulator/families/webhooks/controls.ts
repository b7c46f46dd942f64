/**
 * The webhook family's controls: what happens on the platform outside the API. An event in an
 * organisation (a member added in the web UI, a push) is delivered to each of its active hooks
 * subscribed to it (recorded, not sent), as the platform does by itself.
 */
import type { Hono } from "hono";
import type { ServerEnv } from "../../core/context";
import { invalidField, notFound, readBody } from "../../core/http";
import { findOrg } from "../../core/lookup";
import { recordDelivery } from "./hooks";

export function webhookControls(app: Hono<ServerEnv>): void {
  app.post("/orgs/:org/hooks/events", async (c) => {
    const store = c.get("store");
    const org = findOrg(store.state, c.req.param("org"));
    if (!org) throw notFound();
    const { event } = await readBody(c);
    if (typeof event !== "string" || !/^[a-z][a-z0-9_]*$/.test(event)) {
      throw invalidField("Event", "event", "event must be an event name such as push or organization");
    }
    const delivered: number[] = [];
    for (const raw of store.raw.orgHooks) {
      if (raw.org !== org.login || !raw.active) continue;
      if (!raw.events.includes(event) && !raw.events.includes("*")) continue;
      recordDelivery(store, store.tracked("orgHooks", raw), event, null);
      delivered.push(raw.id);
    }
    return c.json({ event, delivered });
  });
}
