/**
 * Control routes under `/_emulator/`: not part of the API. Tests and demos use them to reset the
 * server, read the request log, inject faults and switch on the secondary rate limit, and to do
 * what users do outside the API (accept or decline an organisation invitation, leave an
 * organisation, turn an enterprise's budgets feature off).
 */
import { type Context, Hono } from "hono";
import { setBudgetsFeature } from "../budgets";
import type { ServerEnv } from "../context";
import type { OrgRecord, UserRecord } from "../fixture";
import { ApiFailure, badRequest, notFound, readBody } from "../http";
import { findEnterprise, findOrg, findUser } from "../lookup";
import { acceptInvitation, cancelInvitation, isLastOwner, removeMember } from "../memberships";
import { privateRegistryControls } from "./private-registries";

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

  // What the user does on the platform's web UI: accept or decline an invitation, or leave.
  app.post("/orgs/:org/invitations/:username/accept", (c) => {
    const { org, user } = orgAndUser(c);
    const membership = acceptInvitation(c.get("store"), org, user);
    if (!membership) throw notFound();
    return c.json({ org: org.login, username: user.login, ...membership });
  });

  app.post("/orgs/:org/invitations/:username/decline", (c) => {
    const { org, user } = orgAndUser(c);
    if (!cancelInvitation(c.get("store"), org, user)) throw notFound();
    return c.body(null, 204);
  });

  app.post("/orgs/:org/members/:username/leave", (c) => {
    const { org, user } = orgAndUser(c);
    if (isLastOwner(org, user.login)) {
      throw new ApiFailure(409, `${user.login} is the last owner of ${org.login} and cannot leave it`);
    }
    if (!removeMember(org, user)) throw notFound();
    return c.body(null, 204);
  });

  // An enterprise whose budgets feature is off (enhanced billing not enabled): budget routes answer 404.
  app.put("/enterprises/:enterprise/features/budgets", async (c) => {
    const state = c.get("store").state;
    const enterprise = findEnterprise(state, c.req.param("enterprise") ?? "");
    if (!enterprise) throw notFound();
    const body = await readBody(c);
    if (typeof body.enabled !== "boolean") throw badRequest("enabled is required: true or false");
    setBudgetsFeature(state, enterprise, body.enabled);
    return c.json({ enterprise: enterprise.slug, budgets: body.enabled });
  });
  privateRegistryControls(app);

  return app;
}

function orgAndUser(c: Context<ServerEnv>): { org: OrgRecord; user: UserRecord } {
  const state = c.get("store").state;
  const org = findOrg(state, c.req.param("org") ?? "");
  const user = findUser(state, c.req.param("username") ?? "");
  if (!org || !user) throw notFound();
  return { org, user };
}
