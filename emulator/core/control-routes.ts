/**
 * Control routes under `/_emulator/`: not part of the API. Tests and demos use them to reset the
 * server, read the request log, inject faults, switch on the secondary rate limit and run
 * background jobs; each family adds its own (what users do outside the API, switches of its
 * behaviour) through `Family.controls`.
 */
import { Hono } from "hono";
import type { ServerEnv } from "./context";
import type { Fault } from "./controls";
import type { Family } from "./family";
import { invalidField, readBody } from "./http";
import { settleJobs } from "./jobs";

export function controlRoutes(families: readonly Family[]): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();

  app.get("/health", (c) => c.json({ ok: true }));

  app.post("/reset", (c) => {
    c.get("store").reset();
    c.get("controls").reset();
    return c.body(null, 204);
  });

  // The state as stored: the same JSON as through the journal's view, without a proxy made and
  // looked up for every record (a tenth of the time; the auth matrix reads it after each request).
  app.get("/state", (c) => c.json(c.get("store").raw));

  // The store's disk is full for the next `writes` commits: each fails, its request answers 500 and
  // leaves nothing applied (what a full disk or an unwritable data file does).
  app.put("/store/full", async (c) => {
    const writes = integerField("Store", await readBody(c), "writes", 0, 1_000_000);
    c.get("store").failCommits(writes);
    return c.json({ writes });
  });

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
    const fault = c.get("controls").addFault(parseFault(await readBody(c)));
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

  // How long background jobs take (a statistics computation, a rename): 0 makes each done by the
  // next request. Jobs already queued keep the time they were given.
  app.get("/jobs", (c) =>
    c.json({ delayMs: c.get("controls").jobDelayMs, pending: c.get("store").raw.jobs }),
  );

  app.put("/jobs", async (c) => {
    const delayMs = integerField("Jobs", await readBody(c), "delayMs", 0, 3_600_000);
    c.get("controls").jobDelayMs = delayMs;
    return c.json({ delayMs });
  });

  // Runs every queued job now, as if its delay had passed: a test steps past a delay this way
  // instead of sleeping through it (which races the timer on a loaded machine).
  app.post("/jobs/run", (c) => {
    const store = c.get("store");
    const ran = [...store.raw.jobs];
    settleJobs(store, Number.POSITIVE_INFINITY);
    return c.json({ ran });
  });

  app.delete("/rate-limit", (c) => {
    c.get("controls").rateLimit = undefined;
    return c.body(null, 204);
  });

  // Each family's controls (out-of-band actions, switches), in the order of the family list.
  for (const family of families) family.controls?.(app);

  return app;
}

/** A header name as HTTP allows it (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A header value as HTTP allows it: visible Latin-1 and inner spaces or tabs, no line breaks. */
const HEADER_VALUE = /^[\x21-\x7e\x80-\xff]([\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?$|^$/;

/** An integer field of a control body within `min`..`max`; anything else is a 422 naming it. */
function integerField(
  resource: string,
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
): number {
  const value = body[field];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalidField(resource, field, `${field} must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** `integerField` where the body may leave the field out. */
function optionalInteger(
  resource: string,
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
): number | undefined {
  return body[field] === undefined ? undefined : integerField(resource, body, field, min, max);
}

/** A fault as `POST /_emulator/faults` takes it; a field out of range is a 422 naming it. */
function parseFault(body: Record<string, unknown>): Omit<Fault, "id"> {
  const bad = (field: string, message: string) => invalidField("Fault", field, message);
  if (typeof body.path !== "string" || !body.path.startsWith("/") || body.path.length > 2048) {
    throw bad(
      "path",
      "path is required: a path below the API root such as /repos/acme-eng/api/hooks (* matches any run), at most 2048 characters",
    );
  }
  if (body.status === undefined && body.latencyMs === undefined && body.drop !== true) {
    throw bad("status", "a fault needs status, latencyMs or drop");
  }
  const status = optionalInteger("Fault", body, "status", 100, 599);
  const latencyMs = optionalInteger("Fault", body, "latencyMs", 0, 600_000);
  const count = optionalInteger("Fault", body, "count", 1, 1_000_000);
  if (body.when !== undefined && body.when !== "before" && body.when !== "after") {
    throw bad("when", 'when must be "before" or "after"');
  }
  if (body.method !== undefined && (typeof body.method !== "string" || !HEADER_NAME.test(body.method))) {
    throw bad("method", "method must be an HTTP method such as GET or POST");
  }
  if (body.drop !== undefined && typeof body.drop !== "boolean")
    throw bad("drop", "drop must be true or false");
  let headers: Record<string, string> | undefined;
  if (body.headers !== undefined) {
    if (typeof body.headers !== "object" || body.headers === null || Array.isArray(body.headers)) {
      throw bad("headers", "headers must be an object of header names to string values");
    }
    headers = {};
    for (const [name, value] of Object.entries(body.headers)) {
      if (!HEADER_NAME.test(name)) throw bad(`headers.${name}`, `"${name}" is not a header name HTTP allows`);
      if (typeof value !== "string" || !HEADER_VALUE.test(value)) {
        throw bad(`headers.${name}`, `the value of ${name} must be a string of visible Latin-1 characters`);
      }
      headers[name] = value;
    }
  }
  return {
    path: body.path,
    when: (body.when as "before" | "after" | undefined) ?? "before",
    remaining: count ?? 1,
    ...(typeof body.method === "string" ? { method: body.method } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(latencyMs !== undefined ? { latencyMs } : {}),
    ...(body.drop === true ? { drop: true } : {}),
    ...(headers ? { headers } : {}),
  };
}
