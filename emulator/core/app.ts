/**
 * The sandbox server's request pipeline: request log and fault injection for every API request;
 * then, per route, the guard (`guard.ts`: authentication, API version, secondary rate limit, access
 * rule) and the handler, as one transaction of the store. Paths no route serves go through
 * the same guard before their 404.
 */
import { timingSafeEqual } from "node:crypto";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { authenticate } from "./auth";
import type { ServerEnv } from "./context";
import { controlRoutes } from "./control-routes";
import type { Controls, Fault } from "./controls";
import type { Family } from "./family";
import { guard } from "./guard";
import { API_PREFIX, ApiFailure, apiPath, bufferBody, DOCS_URL, notFound } from "./http";
import { settleJobs } from "./jobs";
import { notifyObservers, observed } from "./observe";
import { useRepoRoleSources } from "./repo-access";
import { type Store, timestamp } from "./store";

/** The server of `families` (in the order their routes are matched) over `store`. */
export function createApp(
  families: readonly Family[],
  store: Store,
  controls: Controls,
  controlToken?: string,
): Hono<ServerEnv> {
  useRepoRoleSources(families);
  const app = new Hono<ServerEnv>();
  app.use("*", async (c, next) => {
    c.set("store", store);
    c.set("controls", controls);
    await next();
  });
  app.onError((err, c) => {
    if (err instanceof ApiFailure) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return c.json(err.body(), err.status);
    }
    console.error(err);
    return c.json({ message: "Server Error", documentation_url: DOCS_URL }, 500);
  });
  // Outside the API root the platform's web front answers, with an HTML page: a client pointed at a
  // wrong API root (`/api/v4`) can tell that from a missing object.
  app.notFound((c) =>
    c.req.path.startsWith("/_emulator")
      ? c.json({ message: "Not Found", documentation_url: DOCS_URL }, 404)
      : c.html("<!DOCTYPE html><html><body><h1>Page not found</h1></body></html>", 404),
  );

  // Middleware runs only for routes registered after it: it goes first, the routes after.
  const control = new Hono<ServerEnv>();
  if (controlToken !== undefined) control.use("*", requireControlToken(controlToken));
  control.use("*", transact({ anonymousBodies: true }));
  control.route("/", controlRoutes(families));
  app.route("/_emulator", control);

  const api = new Hono<ServerEnv>();
  // Faults come first: one answering `after` replaces the answer of a request already committed.
  api.use("*", requestLog, faults, transact({ anonymousBodies: false }));
  for (const family of families) family.routes?.(api);
  // Registered last: reached only when no route above answered. Unknown paths still need a token.
  api.all("*", guard({}), () => {
    throw notFound();
  });
  app.route(API_PREFIX, api);
  return app;
}

/** With a control token, every control route needs it (compared in constant time). */
function requireControlToken(token: string): MiddlewareHandler<ServerEnv> {
  const expected = Buffer.from(`Bearer ${token}`);
  return async (c, next) => {
    const given = Buffer.from(c.req.header("authorization") ?? "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return c.json(
        {
          message: "The control routes need Authorization: Bearer <control token>",
          documentation_url: DOCS_URL,
        },
        401,
      );
    }
    return next();
  };
}

const requestLog: MiddlewareHandler<ServerEnv> = async (c, next) => {
  await next();
  const matched = c.req.matchedRoutes.filter((r) => r.method !== "ALL");
  // Routes run in the order they were registered, so the first match is the one that answered:
  // `.../apps` also matches `.../:protection_rule_id`, registered after it.
  const template = matched[0]?.path ?? "(unmatched)";
  const request = {
    method: c.req.method,
    path: apiPath(c.req.url),
    // A parameter that takes slashes (`:branch{.+}`) is logged as the spec names it (`{branch}`).
    route: template.replace(API_PREFIX, "").replace(/:([a-z_]+)(?:\{[^}]*\})?/g, "{$1}"),
  };
  const dropped = c.get("dropped") === true;
  c.get("controls").record({ ...request, status: dropped ? 0 : c.res.status, at: timestamp() });
  // Only tests observe responses (`observe.ts`); a dropped connection has no answer to observe.
  if (!dropped && observed()) await notifyObservers(c.res, request);
};

const faults: MiddlewareHandler<ServerEnv> = async (c, next) => {
  const fault = c.get("controls").takeFault(c.req.method, apiPath(c.req.url));
  if (!fault) return next();
  if (fault.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
  if (fault.when === "after") await next();
  if (fault.drop) {
    c.env.incoming.socket.destroy();
    c.set("dropped", true);
    c.res = new Response(null, { status: 204 }); // never written: the socket is gone
    return;
  }
  if (fault.status !== undefined) {
    c.res = undefined;
    c.res = faultResponse(fault);
    return;
  }
  if (fault.when === "before") await next();
};

function faultResponse(fault: Fault): Response {
  return new Response(
    JSON.stringify({ message: `Injected fault (status ${fault.status})`, documentation_url: DOCS_URL }),
    {
      status: fault.status ?? 500,
      headers: { "content-type": "application/json; charset=utf-8", ...fault.headers },
    },
  );
}

/** Thrown out of a transaction whose request failed: what it wrote is undone. */
const DISCARD = Symbol("discard");

/**
 * Each request is one transaction of the store, run after the transactions before it: its body is
 * read first (a slow body holds up no one and acts on no stale view), and a request that fails, at
 * any point up to and including the commit, leaves nothing applied. The body of an API request
 * without valid credentials is not read at all: its guard answers 401 without it.
 */
function transact(options: { anonymousBodies: boolean }): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    if (options.anonymousBodies || authenticates(c)) await bufferBody(c);
    try {
      const store = c.get("store");
      await store.transaction(async () => {
        settleJobs(store);
        await next();
        if (c.error !== undefined || c.res.status >= 400) throw DISCARD;
      });
    } catch (e) {
      if (e === DISCARD) return;
      // The commit failed (a full disk, an unwritable file): nothing of the request is kept.
      console.error(`hosting-emulator: ${c.req.method} ${apiPath(c.req.url)}: ${(e as Error).message}`);
      c.res = undefined;
      c.res = c.json({ message: "Server Error", documentation_url: DOCS_URL }, 500);
    }
  };
}

function authenticates(c: Context<ServerEnv>): boolean {
  try {
    return authenticate(c) !== undefined;
  } catch {
    return false;
  }
}
