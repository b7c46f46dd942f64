/**
 * Control routes under `/_emulator/`: not part of the API. Tests and demos use them to reset the
 * server, read the request log, inject faults and switch on the secondary rate limit.
 */
import { Hono } from "hono";
import type { ServerEnv } from "../context";
import { badRequest, readBody } from "../http";

export function controlRoutes(): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();

  app.get("/health", (c) => c.json({ ok: true }));

  app.post("/reset", (c) => {
    c.get("store").reset();
    c.get("controls").reset();
    return c.body(null, 204);
  });

  app.get("/state", (c) => c.json(c.get("store").state));

  app.get("/requests", (c) => {
    const controls = c.get("controls");
    return c.json({ requests: controls.log, counts: controls.counts() });
  });

  app.delete("/requests", (c) => {
    c.get("controls").clearLog();
    return c.body(null, 204);
  });

  app.get("/faults", (c) => c.json(c.get("controls").faults));

  app.post("/faults", async (c) => {
    const body = await readBody(c);
    if (typeof body.path !== "string" || !body.path.startsWith("/")) {
      throw badRequest(
        "path is required: a path below the API root such as /repos/acme-eng/api/hooks (* matches any run)",
      );
    }
    if (body.status === undefined && body.latencyMs === undefined && body.drop !== true) {
      throw badRequest("a fault needs status, latencyMs or drop");
    }
    if (body.when !== undefined && body.when !== "before" && body.when !== "after") {
      throw badRequest('when must be "before" or "after"');
    }
    const fault = c.get("controls").addFault({
      path: body.path,
      when: (body.when as "before" | "after" | undefined) ?? "before",
      remaining: typeof body.count === "number" && body.count > 0 ? body.count : 1,
      ...(typeof body.method === "string" ? { method: body.method } : {}),
      ...(typeof body.status === "number" ? { status: body.status } : {}),
      ...(typeof body.latencyMs === "number" ? { latencyMs: body.latencyMs } : {}),
      ...(body.drop === true ? { drop: true } : {}),
      ...(typeof body.headers === "object" && body.headers !== null
        ? { headers: body.headers as Record<string, string> }
        : {}),
    });
    return c.json(fault, 201);
  });

  app.delete("/faults", (c) => {
    c.get("controls").faults = [];
    return c.body(null, 204);
  });

  app.put("/rate-limit", async (c) => {
    const body = await readBody(c);
    const controls = c.get("controls");
    controls.rateLimit = {
      retryAfter: typeof body.retryAfter === "number" ? body.retryAfter : 1,
      remaining: typeof body.count === "number" ? body.count : Number.POSITIVE_INFINITY,
      ...(typeof body.method === "string" ? { method: body.method } : {}),
      ...(typeof body.path === "string" ? { path: body.path } : {}),
    };
    return c.json(controls.rateLimit);
  });

  app.delete("/rate-limit", (c) => {
    c.get("controls").rateLimit = undefined;
    return c.body(null, 204);
  });

  return app;
}
