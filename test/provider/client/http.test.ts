import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, errors, MockAgent } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseLinkHeader, ROUTES, type RouteMethod, route } from "../../../api";
import type { ClientSettings } from "../../../provider/client/config";
import { HostingApiError, isAmbiguous, isNotFound, isRateLimited } from "../../../provider/client/errors";
import {
  type ClientOptions,
  HostingClient,
  MEDIA_TYPE,
  REFUSED_TOKEN_MEMORY_MS,
  USER_AGENT,
} from "../../../provider/client/http";
import {
  AdaptiveLimiter,
  detectRateLimit,
  type HeaderBag,
  parseRetryAfter,
  RESET_MARGIN_MS,
} from "../../../provider/client/rate-limit";

const CAUSES =
  "Not found, or not allowed to this token. Likely causes, in order: (1) a name or id in the path is wrong, " +
  "or the object was deleted; (2) the token's user cannot see it (not a member, or not an admin of it)";

const TOKEN = "hst_S3cretT0kenValue_9f8e7d";

/**
 * A route to the test's own server, whose answer is taken as it comes: the transport is under
 * test here, not a route of the table.
 */
const at = <M extends RouteMethod>(method: M, path: string) =>
  route(`${method} ${path}` as `${M} /${string}`, { body: z.unknown() });

/** One request of any method to the test's server, through the client's method for it. */
function send(client: HostingClient, method: RouteMethod, path: string, body?: unknown) {
  switch (method) {
    case "GET":
      return client.get(at(method, path), {});
    case "DELETE":
      return client.delete(at(method, path), {});
    case "POST":
      return client.post(at(method, path), {}, body);
    case "PATCH":
      return client.patch(at(method, path), {}, body);
    case "PUT":
      return client.put(at(method, path), {}, body);
  }
}
/** A fixed instant on a whole second, so epoch-second headers are exact. */
const T0 = 1_767_225_600_000;

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string, index: number) => void;

let server: Server;
let origin: string;
let agent: Agent;
let handler: Handler;
let seen: Seen[] = [];

function startServer(onRequest: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const s = createServer(onRequest);
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)));
}

function stopServer(s: Server): Promise<void> {
  s.closeAllConnections();
  return new Promise((resolve) => s.close(() => resolve()));
}

function portOf(s: Server): number {
  return (s.address() as AddressInfo).port;
}

beforeAll(async () => {
  server = await startServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      const index = seen.length;
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(req, res, body, index);
    });
  });
  origin = `http://127.0.0.1:${portOf(server)}`;
  agent = new Agent({ keepAliveTimeout: 2_000 });
});

afterAll(async () => {
  await agent.close();
  await stopServer(server);
});

beforeEach(() => {
  seen = [];
  handler = (_req, res) => json(res, 200, {});
});

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

/** Answers the requests in order with the given responses; the last one repeats. */
function sequence(...steps: Array<(res: ServerResponse, req: IncomingMessage) => void>): Handler {
  return (req, res, _body, index) => {
    const step = steps[Math.min(index, steps.length - 1)];
    if (!step) throw new Error("no step");
    step(res, req);
  };
}

const ok =
  (body: unknown = { ok: true }, headers: Record<string, string> = {}) =>
  (res: ServerResponse) =>
    json(res, 200, body, headers);
const status =
  (code: number, body: unknown = { message: `status ${code}` }, headers: Record<string, string> = {}) =>
  (res: ServerResponse) =>
    json(res, code, body, headers);
const reset = () => (_res: ServerResponse, req: IncomingMessage) => {
  req.socket.destroy();
};

interface Harness {
  client: HostingClient;
  delays: number[];
  logs: string[];
  clock: { t: number };
}

/**
 * A client against the local server whose `sleep` records the delay and moves a fake clock
 * forward instead of waiting, so waits are observable and the tests take no real time.
 */
function makeClient(settings: Partial<ClientSettings> = {}, options: ClientOptions = {}): Harness {
  const clock = { t: T0 };
  const delays: number[] = [];
  const logs: string[] = [];
  const client = new HostingClient(
    { apiRoot: `${origin}/api/v3`, token: TOKEN, apiVersion: undefined, ...settings },
    {
      dispatcher: agent,
      baseDelayMs: 10,
      maxDelayMs: 100,
      sleep: (ms) => {
        delays.push(ms);
        clock.t += ms;
        return Promise.resolve();
      },
      now: () => clock.t,
      log: (line) => logs.push(line),
      ...options,
    },
  );
  return { client, delays, logs, clock };
}

async function failure(promise: Promise<unknown>): Promise<HostingApiError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof HostingApiError) return e;
    throw e;
  }
  throw new Error("expected the request to fail");
}

function expectNoToken(error: HostingApiError, logs: string[]): void {
  expect(error.message).not.toContain(TOKEN);
  expect(String(error)).not.toContain(TOKEN);
  expect(JSON.stringify(error)).not.toContain(TOKEN);
  expect(error.apiMessage ?? "").not.toContain(TOKEN);
  expect(error.stack ?? "").not.toContain(TOKEN);
  for (const line of logs) expect(line).not.toContain(TOKEN);
}

describe("request headers", () => {
  it("sends the token, media type, default API version and user agent", async () => {
    handler = sequence(ok());
    const { client } = makeClient();
    const response = await client.get(at("GET", "/orgs/acme"), {});
    expect(response.status).toBe(200);
    expect(response.data).toEqual({ ok: true });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe("GET");
    expect(request?.url).toBe("/api/v3/orgs/acme");
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers.accept).toBe(MEDIA_TYPE);
    expect(request?.headers.accept).toBe("application/vnd.service+json");
    expect(request?.headers["x-service-api-version"]).toBe("2022-11-28");
    expect(request?.headers["user-agent"]).toBe(USER_AGENT);
    expect(request?.headers["user-agent"]).toBe("pulumi-hosting");
    expect(request?.headers["content-type"]).toBeUndefined();
  });

  it("sends the API version the route declares", async () => {
    const { client } = makeClient();
    await client.get(ROUTES.budgets.get, { enterprise: "acme", budget_id: "b-1" }).catch(() => undefined);
    await client.get(route("GET /orgs/{org}", { version: "2026-03-10", body: z.unknown() }), { org: "acme" });
    expect(seen.map((s) => s.headers["x-service-api-version"])).toEqual(["2026-03-10", "2026-03-10"]);
  });

  it("lets settings.apiVersion override the route's version", async () => {
    const { client } = makeClient({ apiVersion: "2030-01-01" });
    await client.get(route("GET /orgs/{org}", { version: "2026-03-10", body: z.unknown() }), { org: "acme" });
    await client.get(at("GET", "/orgs/acme"), {});
    expect(seen.map((s) => s.headers["x-service-api-version"])).toEqual(["2030-01-01", "2030-01-01"]);
  });

  it("builds the path from the route's parameters, encoded", async () => {
    const { client } = makeClient();
    await client.delete(ROUTES.repoHooks.delete, { owner: "acme eng", repo: "api", hook_id: 7 });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["DELETE /api/v3/repos/acme%20eng/api/hooks/7"]);
  });

  it("sends a JSON body with content-type only when there is a body", async () => {
    const { client } = makeClient();
    await client.post(at("POST", "/orgs/acme/hooks"), {}, { name: "web", active: true, events: ["push"] });
    await client.put(at("PUT", "/orgs/acme/blocks/x"), {}, { reason: null });
    await client.post(at("POST", "/orgs/acme/hooks/1/pings"), {});
    await client.delete(at("DELETE", "/orgs/acme/hooks/1"), {});
    await client.patch(at("PATCH", "/orgs/acme"), {}, false);
    expect(seen.map((s) => [s.method, s.headers["content-type"], s.body])).toEqual([
      ["POST", "application/json", '{"name":"web","active":true,"events":["push"]}'],
      ["PUT", "application/json", '{"reason":null}'],
      ["POST", undefined, ""],
      ["DELETE", undefined, ""],
      ["PATCH", "application/json", "false"],
    ]);
    for (const s of seen) expect(s.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("encodes the query and skips undefined values", async () => {
    const { client } = makeClient();
    await client.get(
      at("GET", "/search"),
      {},
      { query: { q: "a b&c", page: 2, archived: false, skip: undefined } },
    );
    expect(seen[0]?.url).toBe("/api/v3/search?q=a+b%26c&page=2&archived=false");
  });

  it("keeps a proxy prefix of the API root", async () => {
    const { client } = makeClient({ apiRoot: `${origin}/hosting/api/v3` });
    await client.get(at("GET", "/meta"), {});
    expect(seen[0]?.url).toBe("/hosting/api/v3/meta");
  });

  it("refuses a path without a leading slash", async () => {
    const { client } = makeClient();
    await expect(client.get(at("GET", "orgs/acme"), {})).rejects.toThrow(
      'API paths start with "/": orgs/acme',
    );
    expect(seen).toHaveLength(0);
  });
});

describe("responses", () => {
  it("returns undefined data for an empty body and exposes headers", async () => {
    handler = (_req, res) => {
      res.writeHead(204, { etag: '"abc"', "x-multi": ["a", "b"] });
      res.end();
    };
    const { client } = makeClient();
    const response = await client.delete(at("DELETE", "/orgs/acme/hooks/1"), {});
    expect(response.status).toBe(204);
    expect(response.data).toBeUndefined();
    expect(response.headers.get("ETag")).toBe('"abc"');
    expect(response.headers.get("x-multi")).toBe("a, b");
    expect(response.headers.get("x-missing")).toBeUndefined();
  });

  it("returns text for a non-JSON body", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end('{"not":"parsed"}');
    };
    const { client } = makeClient();
    expect((await client.get(at("GET", "/raw"), {})).data).toBe('{"not":"parsed"}');
  });

  it("parses JSON without a content type and keeps invalid JSON as text", async () => {
    handler = sequence(
      (res) => {
        res.writeHead(200);
        res.end('{"a":1}');
      },
      (res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{broken");
      },
    );
    const { client } = makeClient();
    expect((await client.get(at("GET", "/a"), {})).data).toEqual({ a: 1 });
    expect((await client.get(at("GET", "/b"), {})).data).toBe("{broken");
  });
});

describe("error mapping", () => {
  it("maps a 401 with its documentation URL and the token hint", async () => {
    handler = (_req, res) =>
      json(res, 401, { message: "Bad credentials", documentation_url: "https://docs.example.com/rest/auth" });
    const { client } = makeClient();
    const error = await failure(client.get(at("GET", "/user"), {}));
    expect(error.code).toBe("unauthorized");
    expect(error.status).toBe(401);
    expect(error.method).toBe("GET");
    expect(error.path).toBe("/user");
    expect(error.apiMessage).toBe("Bad credentials");
    expect(error.documentationUrl).toBe("https://docs.example.com/rest/auth");
    expect(error.message).toBe(
      "GET /user returned 401: Bad credentials. The token is unknown, expired or revoked: " +
        "set hosting:token (or HOSTING_TOKEN) to a valid token [https://docs.example.com/rest/auth]",
    );
    expect(seen).toHaveLength(1);
  });

  it("puts X-Accepted-Service-Permissions of a 403 into the message, and does not retry", async () => {
    handler = (_req, res) =>
      json(
        res,
        403,
        { message: "Resource not accessible by personal access token" },
        { "X-Accepted-Service-Permissions": "organization_administration=write" },
      );
    const { client, delays } = makeClient();
    const error = await failure(client.put(at("PUT", "/orgs/acme/settings"), {}, { a: 1 }));
    expect(error.code).toBe("forbidden");
    expect(error.status).toBe(403);
    expect(error.method).toBe("PUT");
    expect(error.path).toBe("/orgs/acme/settings");
    expect(error.acceptedPermissions).toBe("organization_administration=write");
    expect(error.acceptedScopes).toBeUndefined();
    expect(error.message).toBe(
      "PUT /orgs/acme/settings returned 403: Resource not accessible by personal access token. " +
        "This endpoint needs a fine-grained or app token with the permission organization_administration=write",
    );
    expect(seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("names the rule, not a scope, when the 403 refuses to remove the last owner", async () => {
    // The sandbox's answer, headers included (the route's scopes and permission).
    handler = (_req, res) =>
      json(
        res,
        403,
        { message: "Cannot remove admin: they are the last owner of acme-eng." },
        { "X-Accepted-OAuth-Scopes": "admin:org", "X-Accepted-Service-Permissions": "members=write" },
      );
    const { client } = makeClient();
    const error = await failure(client.delete(at("DELETE", "/orgs/acme-eng/memberships/admin"), {}));
    expect(error.code).toBe("forbidden");
    expect(error.message).toBe(
      "DELETE /orgs/acme-eng/memberships/admin returned 403: Cannot remove admin: they are the last owner of " +
        "acme-eng. An organisation keeps at least one owner, whatever the token: make another member an owner " +
        "(role admin) first, then remove or demote this one",
    );
  });

  it("names the accepted OAuth scopes too", async () => {
    handler = (_req, res) =>
      json(
        res,
        403,
        { message: "Must have admin rights" },
        {
          "x-accepted-oauth-scopes": "admin:org, write:org",
          "x-accepted-service-permissions": "members=write",
        },
      );
    const { client } = makeClient();
    const error = await failure(client.get(at("GET", "/orgs/acme/members"), {}));
    expect(error.acceptedScopes).toBe("admin:org, write:org");
    expect(error.acceptedPermissions).toBe("members=write");
    expect(error.message).toContain(
      "This endpoint needs a classic token with one of the scopes admin:org, write:org, " +
        "or a fine-grained or app token with the permission members=write",
    );
  });

  it("maps a 404 of something that is not the API (a wrong base URL) to a configuration error, never gone", async () => {
    handler = (_req, res) => {
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<html><body>Not Found</body></html>");
    };
    const { client } = makeClient();
    const error = await failure(client.get(at("GET", "/repos/acme/api"), {}));
    expect(error.code).toBe("configuration");
    expect(error.status).toBe(404);
    expect(isNotFound(error)).toBe(false);
    expect(error.message).toMatch(/not the API root\. Check hosting:baseUrl \(or HOSTING_BASE_URL\)/);
  });

  it("maps a 404, with the permission hint when the server names one", async () => {
    handler = sequence(status(404, { message: "Not Found" }), (res) =>
      json(res, 404, { message: "Not Found" }, { "x-accepted-service-permissions": "metadata=read" }),
    );
    const { client, delays } = makeClient();
    const plain = await failure(client.get(at("GET", "/repos/acme/missing"), {}));
    expect(plain.code).toBe("not_found");
    expect(plain.status).toBe(404);
    expect(isNotFound(plain)).toBe(true);
    expect(isAmbiguous(plain)).toBe(false);
    expect(plain.message).toBe(`GET /repos/acme/missing returned 404: Not Found. ${CAUSES}`);
    const hinted = await failure(client.delete(at("DELETE", "/repos/acme/secret"), {}));
    expect(hinted.method).toBe("DELETE");
    expect(hinted.message).toBe(
      `DELETE /repos/acme/secret returned 404: Not Found. ${CAUSES}; ` +
        "(3) the token lacks what the endpoint needs: a fine-grained or app token with the permission metadata=read",
    );
    expect(seen).toHaveLength(2);
    expect(delays).toEqual([]);
  });

  it("maps a 422 with errors[] of objects and bare strings", async () => {
    handler = (_req, res) =>
      json(res, 422, {
        message: "Validation Failed",
        errors: [
          { resource: "Hook", field: "config.url", code: "missing_field" },
          { resource: "Hook", field: "name", code: "custom", message: "name is reserved" },
          "events must not be empty",
          { field: 7, code: "invalid", extra: "dropped" },
          42,
        ],
        documentation_url: "https://docs.example.com/rest/hooks#create",
      });
    const { client } = makeClient();
    const error = await failure(client.post(at("POST", "/orgs/acme/hooks"), {}, { name: "web" }));
    expect(error.code).toBe("validation_failed");
    expect(error.status).toBe(422);
    expect(error.method).toBe("POST");
    expect(error.path).toBe("/orgs/acme/hooks");
    expect(error.errors).toEqual([
      { resource: "Hook", field: "config.url", code: "missing_field" },
      { resource: "Hook", field: "name", code: "custom", message: "name is reserved" },
      { message: "events must not be empty" },
      { code: "invalid" },
      { message: "42" },
    ]);
    expect(error.documentationUrl).toBe("https://docs.example.com/rest/hooks#create");
    expect(error.message).toBe(
      "POST /orgs/acme/hooks returned 422: Validation Failed " +
        "(Hook.config.url missing_field; name: name is reserved; events must not be empty; invalid; 42) " +
        "[https://docs.example.com/rest/hooks#create]",
    );
  });

  it.each([
    [400, "bad_request"],
    [409, "conflict"],
    [418, "unexpected_response"],
  ] as const)("maps %i to %s", async (code, expected) => {
    handler = (_req, res) => json(res, code, { message: "nope" });
    const { client } = makeClient();
    const error = await failure(client.post(at("POST", "/x"), {}));
    expect(error.code).toBe(expected);
    expect(error.status).toBe(code);
    expect(error.message).toBe(`POST /x returned ${code}: nope`);
    expect(seen).toHaveLength(1);
  });

  it("uses a short text body as the message, and HTTP <status> for none", async () => {
    handler = sequence(
      (res) => {
        res.writeHead(400, { "content-type": "text/plain" });
        res.end("  plain text failure \n");
      },
      (res) => {
        res.writeHead(400);
        res.end();
      },
      (res) => {
        res.writeHead(400, { "content-type": "text/html" });
        res.end(`<html>${"x".repeat(400)}</html>`);
      },
      (res) => json(res, 400, { error: "no message field" }),
    );
    const { client } = makeClient();
    expect((await failure(client.get(at("GET", "/a"), {}))).apiMessage).toBe("plain text failure");
    expect((await failure(client.get(at("GET", "/b"), {}))).apiMessage).toBe("HTTP 400");
    expect((await failure(client.get(at("GET", "/c"), {}))).apiMessage).toBe("HTTP 400");
    expect((await failure(client.get(at("GET", "/d"), {}))).apiMessage).toBe('{"error":"no message field"}');
  });

  it("includes the query in the error path", async () => {
    handler = (_req, res) => json(res, 404, { message: "Not Found" });
    const { client } = makeClient();
    const error = await failure(client.get(at("GET", "/orgs/acme/hooks"), {}, { query: { page: 3 } }));
    expect(error.path).toBe("/orgs/acme/hooks?page=3");
  });
});

describe("pagination", () => {
  const NUMBERS = route("GET /orgs/acme/hooks", { list: z.number() });
  const link = (page: number, last = 3) => {
    const parts = [];
    if (page < last)
      parts.push(`<${origin}/api/v3/orgs/acme/hooks?per_page=100&page=${page + 1}>; rel="next"`);
    parts.push(`<${origin}/api/v3/orgs/acme/hooks?per_page=100&page=${last}>; rel="last"`);
    if (page > 1) parts.push(`<${origin}/api/v3/orgs/acme/hooks?per_page=100&page=1>; rel="first"`);
    return parts.join(", ");
  };

  it("follows Link over 3 pages of an envelope, picking items with select", async () => {
    const pages = [[{ id: 1 }, { id: 2 }], [{ id: 3 }, { id: 4 }], [{ id: 5 }]];
    handler = (_req, res, _body, index) =>
      json(res, 200, { total_count: 5, hooks: pages[index] }, { link: link(index + 1) });
    const { client } = makeClient();
    const hooks = route("GET /orgs/acme/hooks", {
      list: z.object({ id: z.number() }),
      select: (body: unknown) => (body as { hooks: unknown }).hooks,
    });
    const items = await client.paginate(hooks, {});
    expect(items.map((i) => i.id)).toEqual([1, 2, 3, 4, 5]);
    expect(seen.map((s) => s.url)).toEqual([
      "/api/v3/orgs/acme/hooks?per_page=100",
      "/api/v3/orgs/acme/hooks?per_page=100&page=2",
      "/api/v3/orgs/acme/hooks?per_page=100&page=3",
    ]);
    for (const s of seen) expect(s.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("takes plain arrays as they are and keeps the caller's query and the route's API version", async () => {
    handler = (_req, res, _body, index) => {
      const headers: Record<string, string> =
        index < 2
          ? { link: `<${origin}/api/v3/orgs/acme/repos?type=all&per_page=100&page=${index + 2}>; rel="next"` }
          : {};
      json(res, 200, [`r${index * 2}`, `r${index * 2 + 1}`], headers);
    };
    const { client } = makeClient();
    const repos = route("GET /orgs/acme/repos", { version: "2026-03-10", list: z.string() });
    const items = await client.paginate(repos, {}, { query: { type: "all" } });
    expect(items).toEqual(["r0", "r1", "r2", "r3", "r4", "r5"]);
    expect(seen.map((s) => s.url)).toEqual([
      "/api/v3/orgs/acme/repos?per_page=100&type=all",
      "/api/v3/orgs/acme/repos?type=all&per_page=100&page=2",
      "/api/v3/orgs/acme/repos?type=all&per_page=100&page=3",
    ]);
    expect(seen.map((s) => s.headers["x-service-api-version"])).toEqual([
      "2026-03-10",
      "2026-03-10",
      "2026-03-10",
    ]);
  });

  it("returns a single page when there is no Link header, and lets the caller pick per_page", async () => {
    handler = (_req, res) => json(res, 200, [1, 2]);
    const { client } = makeClient();
    const teams = route("GET /orgs/acme/teams", { list: z.number() });
    expect(await client.paginate(teams, {}, { query: { per_page: 10 } })).toEqual([1, 2]);
    expect(seen.map((s) => s.url)).toEqual(["/api/v3/orgs/acme/teams?per_page=10"]);
  });

  it("fails on a page that is not a list", async () => {
    handler = (_req, res) => json(res, 200, { total_count: 1, hooks: [] });
    const { client } = makeClient();
    const error = await failure(client.paginate(NUMBERS, {}));
    expect(error.code).toBe("unexpected_response");
    expect(error.message).toBe("GET /orgs/acme/hooks: expected a list in the response body");
  });

  it("refuses a Link to another origin and sends nothing there", async () => {
    const elsewhere: string[] = [];
    const other = await startServer((req, res) => {
      elsewhere.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
      res.end("[]");
    });
    try {
      const otherOrigin = `http://127.0.0.1:${portOf(other)}`;
      handler = (_req, res) =>
        json(res, 200, [1], { link: `<${otherOrigin}/api/v3/orgs/acme/hooks?page=2>; rel="next"` });
      const { client, logs } = makeClient();
      const error = await failure(client.paginate(NUMBERS, {}));
      expect(error.code).toBe("unexpected_response");
      expect(error.message).toBe(
        `GET /api/v3/orgs/acme/hooks: refusing to follow a link to another host (${otherOrigin})`,
      );
      expect(seen).toHaveLength(1);
      expect(elsewhere).toEqual([]);
      expectNoToken(error, logs);

      handler = (_req, res) =>
        json(res, 200, [1], { link: '<https://evil.example/api/v3/x?page=2>; rel="next"' });
      const evil = await failure(client.paginate(NUMBERS, {}));
      expect(evil.message).toContain("refusing to follow a link to another host (https://evil.example)");

      handler = (_req, res) => json(res, 200, [1], { link: `<${origin}/admin/other?page=2>; rel="next"` });
      const outside = await failure(client.paginate(NUMBERS, {}));
      expect(outside.message).toContain("refusing to follow a link outside");
    } finally {
      await stopServer(other);
    }
  });
});

describe("retries", () => {
  it.each(["GET", "PUT", "DELETE"] as const)("retries a %s on 502 and then succeeds", async (method) => {
    handler = sequence(status(502), ok({ done: true }));
    const { client, delays, logs } = makeClient();
    const response = await send(client, method, "/orgs/acme/thing", method === "PUT" ? { a: 1 } : undefined);
    expect(response.data).toEqual({ done: true });
    expect(seen.map((s) => s.method)).toEqual([method, method]);
    if (method === "PUT") expect(seen.map((s) => s.body)).toEqual(['{"a":1}', '{"a":1}']);
    expect(delays).toHaveLength(1);
    // full jitter between half and all of baseDelayMs on the first retry
    expect(delays[0]).toBeGreaterThanOrEqual(5);
    expect(delays[0]).toBeLessThanOrEqual(10);
    expect(logs).toEqual([
      `hosting: ${method} /orgs/acme/thing -> 502 in 0ms attempt 1`,
      `hosting: ${method} /orgs/acme/thing -> 200 in 0ms attempt 2`,
    ]);
  });

  it("retries on 503 twice with growing backoff", async () => {
    handler = sequence(status(503), status(503), ok());
    const { client, delays } = makeClient();
    await client.get(at("GET", "/x"), {});
    expect(seen).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThanOrEqual(5);
    expect(delays[0]).toBeLessThanOrEqual(10);
    expect(delays[1]).toBeGreaterThanOrEqual(10);
    expect(delays[1]).toBeLessThanOrEqual(20);
  });

  it("caps the backoff at maxDelayMs", async () => {
    handler = sequence(status(500));
    const { client, delays } = makeClient({}, { maxAttempts: 6, baseDelayMs: 40, maxDelayMs: 50 });
    await failure(client.get(at("GET", "/x"), {}));
    expect(seen).toHaveLength(6);
    expect(delays).toHaveLength(5);
    for (const d of delays.slice(1)) {
      expect(d).toBeGreaterThanOrEqual(25);
      expect(d).toBeLessThanOrEqual(50);
    }
  });

  it("waits a 503's retry-after in full, never sooner than the server asked", async () => {
    handler = sequence(status(503, { message: "maintenance" }, { "retry-after": "3" }), ok());
    const wide = makeClient({}, { maxDelayMs: 8_000 });
    await wide.client.get(at("GET", "/x"), {});
    expect(wide.delays).toEqual([3000]);

    // The backoff cap does not shorten it: 30 s asked, 30 s waited.
    seen = [];
    handler = sequence(status(503, { message: "maintenance" }, { "retry-after": "30" }), ok());
    const narrow = makeClient({}, { maxDelayMs: 100 });
    await narrow.client.get(at("GET", "/x"), {});
    expect(narrow.delays).toEqual([30_000]);
  });

  it("fails saying when to retry when a 503's retry-after is past the bound, sending nothing more", async () => {
    handler = sequence(status(503, { message: "maintenance" }, { "retry-after": "600" }), ok());
    const { client, delays } = makeClient({}, { maxRetryAfterMs: 60_000 });
    const error = await failure(client.get(at("GET", "/x"), {}));
    expect(error.status).toBe(503);
    expect(seen).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(error.message).toContain(
      "The server asked to retry after 600s, longer than this client waits (60s); try again after ",
    );
    expect(error.message).toMatch(/try again after \d{4}-\d\d-\d\dT/);
  });

  it("gives up after maxAttempts with the last status", async () => {
    handler = sequence(status(503), status(503), status(502, { message: "Bad Gateway" }));
    const { client, delays } = makeClient({}, { maxAttempts: 3 });
    const error = await failure(client.get(at("GET", "/orgs/acme"), {}));
    expect(seen).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(error.status).toBe(502);
    expect(error.code).toBe("server_error");
    expect(error.apiMessage).toBe("Bad Gateway");
    expect(error.message).toBe("GET /orgs/acme returned 502: Bad Gateway");
    expect(isAmbiguous(error)).toBe(true);
  });

  it("uses 4 attempts by default", async () => {
    handler = sequence(status(500));
    const { client } = makeClient();
    await failure(client.get(at("GET", "/x"), {}));
    expect(seen).toHaveLength(4);
  });

  it("does not retry a POST on 502", async () => {
    handler = sequence(status(502, { message: "Bad Gateway" }), ok());
    const { client, delays } = makeClient();
    const error = await failure(client.post(at("POST", "/orgs/acme/hooks"), {}, { name: "web" }));
    expect(seen).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(error.status).toBe(502);
    expect(error.method).toBe("POST");
    expect(isAmbiguous(error)).toBe(true);
  });

  it("retries a PATCH only with idempotent: true", async () => {
    handler = sequence(status(502), ok());
    const plain = makeClient();
    const error = await failure(plain.client.patch(at("PATCH", "/orgs/acme"), {}, { a: 1 }));
    expect(error.status).toBe(502);
    expect(seen).toHaveLength(1);

    seen = [];
    const optedIn = makeClient();
    const response = await optedIn.client.patch(
      at("PATCH", "/orgs/acme"),
      {},
      { a: 1 },
      { idempotent: true },
    );
    expect(response.status).toBe(200);
    expect(seen.map((s) => s.method)).toEqual(["PATCH", "PATCH"]);
    expect(optedIn.delays).toHaveLength(1);
  });

  it("does not retry a GET marked idempotent: false", async () => {
    handler = sequence(status(502), ok());
    const { client } = makeClient();
    await failure(client.get(at("GET", "/x"), {}, { idempotent: false }));
    expect(seen).toHaveLength(1);
  });

  it("retries a GET after the server resets the connection", async () => {
    handler = sequence(reset(), ok({ again: true }));
    const { client, delays, logs } = makeClient();
    const response = await client.get(at("GET", "/orgs/acme"), {});
    expect(response.data).toEqual({ again: true });
    expect(seen).toHaveLength(2);
    expect(delays).toHaveLength(1);
    expect(logs[0]).toMatch(/^hosting: GET \/orgs\/acme -> network_error \(.+\) attempt 1$/);
    expect(logs[1]).toBe("hosting: GET /orgs/acme -> 200 in 0ms attempt 2");
  });

  it("does not retry a POST whose connection was reset, and calls it a network error", async () => {
    handler = sequence(reset(), ok());
    const { client, delays, logs } = makeClient();
    const error = await failure(client.post(at("POST", "/orgs/acme/hooks"), {}, { name: "web" }));
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe("POST");
    expect(delays).toEqual([]);
    expect(error.code).toBe("network_error");
    expect(error.status).toBeUndefined();
    expect(error.method).toBe("POST");
    expect(error.path).toBe("/orgs/acme/hooks");
    expect(error.message).toContain(`POST /orgs/acme/hooks: network failure talking to ${origin}`);
    expect(isAmbiguous(error)).toBe(true);
    expect(logs).toHaveLength(1);
    expectNoToken(error, logs);
  });

  it("gives up on repeated resets after maxAttempts", async () => {
    handler = sequence(reset());
    const { client, delays } = makeClient({}, { maxAttempts: 3 });
    const error = await failure(client.get(at("GET", "/x"), {}));
    expect(seen).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(error.code).toBe("network_error");
  });

  it("retries even a POST when the connection was refused, and hints at the base URL", async () => {
    const closed = await startServer(() => {});
    const port = portOf(closed);
    await stopServer(closed);
    const { client, delays, logs } = makeClient(
      { apiRoot: `http://127.0.0.1:${port}/api/v3` },
      { maxAttempts: 3 },
    );
    const error = await failure(client.post(at("POST", "/orgs/acme/hooks"), {}, { name: "web" }));
    expect(error.code).toBe("network_error");
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.message).toContain(
      "Check hosting:baseUrl (or HOSTING_BASE_URL) and that the server is running",
    );
    expect(delays).toHaveLength(2);
    expect(logs).toHaveLength(3);
    expect(logs.every((l) => l.includes("network_error (ECONNREFUSED)"))).toBe(true);
    expectNoToken(error, logs);
  });

  it("says to write http:// when https reaches a plain http server, without OpenSSL's dump", async () => {
    handler = sequence(status(200, {}));
    const { client } = makeClient(
      { apiRoot: `${origin.replace(/^http:/, "https:")}/api/v3` },
      { maxAttempts: 1 },
    );
    const error = await failure(client.get(at("GET", "/user"), {}));
    expect(error.code).toBe("network_error");
    expect(error.message).toContain(`no TLS answer talking to ${origin.replace(/^http:/, "https:")}`);
    expect(error.message).toContain(`if it serves plain http, write ${origin} in hosting:baseUrl`);
    expect(error.message).not.toMatch(/ssl3_get_record|openssl|deps\//i);
    expect(error.message.split("\n")).toHaveLength(1);
  });

  it("reports a timeout with code timeout, and retries a GET after one", async () => {
    // undici's own timers are too coarse for a fast test: the mock dispatcher raises the timeout.
    const mock = new MockAgent();
    mock.disableNetConnect();
    const pool = mock.get(origin);
    const intercept = () => pool.intercept({ path: "/api/v3/slow", method: "GET" });
    intercept().replyWithError(new errors.HeadersTimeoutError());
    intercept().replyWithError(new errors.BodyTimeoutError());
    intercept().reply(200, { late: true }, { headers: { "content-type": "application/json" } });
    try {
      const retried = makeClient({}, { dispatcher: mock });
      expect((await retried.client.get(at("GET", "/slow"), {})).data).toEqual({ late: true });
      expect(retried.delays).toHaveLength(2);
      expect(retried.logs[0]).toBe("hosting: GET /slow -> timeout (UND_ERR_HEADERS_TIMEOUT) attempt 1");
      expect(retried.logs[1]).toBe("hosting: GET /slow -> timeout (UND_ERR_BODY_TIMEOUT) attempt 2");

      pool
        .intercept({ path: "/api/v3/hooks", method: "POST" })
        .replyWithError(new errors.HeadersTimeoutError());
      const { client, delays, logs } = makeClient({}, { dispatcher: mock });
      const error = await failure(client.post(at("POST", "/hooks"), {}, { a: 1 }));
      expect(error.code).toBe("timeout");
      expect(error.status).toBeUndefined();
      expect(error.message).toMatch(
        new RegExp(`^POST /hooks: timed out talking to ${origin}: .+ \\(UND_ERR_HEADERS_TIMEOUT\\)$`),
      );
      expect(isAmbiguous(error)).toBe(true);
      expect(delays).toEqual([]);
      expectNoToken(error, logs);
      mock.assertNoPendingInterceptors();
    } finally {
      await mock.close();
    }
    expect(seen).toHaveLength(0);
  });
});

describe("rate limits", () => {
  it.each(["GET", "POST"] as const)("waits retry-after on a 429, then retries a %s", async (method) => {
    handler = sequence(
      status(429, { message: "Too Many Requests" }, { "retry-after": "2" }),
      ok({ made: 1 }),
    );
    const { client, delays, logs } = makeClient();
    const response = await send(client, method, "/orgs/acme/hooks", method === "POST" ? { n: 1 } : undefined);
    expect(response.data).toEqual({ made: 1 });
    expect(seen.map((s) => s.method)).toEqual([method, method]);
    expect(delays).toEqual([2000]);
    expect(logs).toContain(`hosting: ${method} /orgs/acme/hooks rate limited (secondary); waiting 2000ms`);
  });

  it.each(["GET", "POST", "PATCH"] as const)(
    "waits retry-after on a 403 secondary rate limit, then retries a %s",
    async (method) => {
      handler = sequence(
        status(
          403,
          {
            message:
              "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
          },
          { "retry-after": "2" },
        ),
        ok(),
      );
      const { client, delays } = makeClient();
      const response = await send(
        client,
        method,
        "/orgs/acme/hooks",
        method === "GET" ? undefined : { n: 1 },
      );
      expect(response.status).toBe(200);
      expect(seen).toHaveLength(2);
      expect(delays).toEqual([2000]);
    },
  );

  it("backs off from secondaryFallbackMs on a secondary limit without retry-after", async () => {
    const limited = status(403, { message: "secondary rate limit" });
    handler = sequence(limited, limited, limited, ok());
    const { client, delays } = makeClient({}, { secondaryFallbackMs: 100 });
    await client.post(at("POST", "/x"), {}, {});
    expect(seen).toHaveLength(4);
    expect(delays).toEqual([100, 200, 400]);
  });

  it("waits until x-ratelimit-reset plus the margin when the primary quota is spent", async () => {
    const resetAt = T0 / 1000 + 30;
    handler = sequence(
      status(
        403,
        { message: "API rate limit exceeded for user ID 1." },
        { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(resetAt), "x-ratelimit-limit": "5000" },
      ),
      ok(),
    );
    const { client, delays, logs } = makeClient();
    await client.put(at("PUT", "/orgs/acme/x"), {}, {});
    expect(delays).toEqual([30_000 + 1_000]);
    expect(RESET_MARGIN_MS).toBe(1_000);
    expect(seen).toHaveLength(2);
    expect(logs).toContain("hosting: PUT /orgs/acme/x rate limited (primary); waiting 31000ms");
  });

  it("fails with rate_limited instead of waiting beyond maxRateLimitWaitMs", async () => {
    const resetAt = T0 / 1000 + 3600;
    handler = sequence(
      status(
        403,
        { message: "API rate limit exceeded" },
        { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(resetAt) },
      ),
    );
    const { client, delays } = makeClient({}, { maxRateLimitWaitMs: 60_000 });
    const error = await failure(client.get(at("GET", "/orgs/acme"), {}));
    expect(error.code).toBe("rate_limited");
    expect(error.status).toBe(403);
    expect(isRateLimited(error)).toBe(true);
    expect(error.message).toBe(
      "GET /orgs/acme returned 403: API rate limit exceeded. " +
        "The server's primary rate limit is exhausted; try again in 3601s",
    );
    expect(seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("fails with rate_limited on a 429 whose retry-after is too long", async () => {
    handler = sequence(status(429, { message: "slow down" }, { "retry-after": "120" }));
    const { client, delays } = makeClient({}, { maxRateLimitWaitMs: 60_000 });
    const error = await failure(client.post(at("POST", "/x"), {}, {}));
    expect(error.code).toBe("rate_limited");
    expect(error.status).toBe(429);
    expect(error.message).toContain("The server's secondary rate limit is exhausted; try again in 120s");
    expect(seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("stops after maxRateLimitRetries", async () => {
    handler = sequence(status(429, { message: "slow down" }, { "retry-after": "1" }));
    const { client, delays } = makeClient({}, { maxRateLimitRetries: 2 });
    const error = await failure(client.get(at("GET", "/x"), {}));
    expect(seen).toHaveLength(3);
    expect(delays).toEqual([1000, 1000]);
    expect(error.code).toBe("rate_limited");
  });

  it("does not count rate-limit retries against maxAttempts", async () => {
    const limited = status(429, { message: "slow down" }, { "retry-after": "1" });
    handler = sequence(limited, status(502), limited, ok({ finally: true }));
    const { client, delays } = makeClient({}, { maxAttempts: 2 });
    const response = await client.get(at("GET", "/x"), {});
    expect(response.data).toEqual({ finally: true });
    expect(seen).toHaveLength(4);
    expect(delays).toHaveLength(3);
    expect(delays[0]).toBe(1000);
    expect(delays[2]).toBe(1000);
  });

  it("does not retry a plain 403", async () => {
    handler = sequence(status(403, { message: "Must have admin rights to Repository." }), ok());
    const { client, delays } = makeClient();
    const error = await failure(client.get(at("GET", "/repos/acme/x/hooks"), {}));
    expect(error.code).toBe("forbidden");
    expect(isRateLimited(error)).toBe(false);
    expect(seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("does not retry a 403 whose quota is not spent", async () => {
    handler = sequence(
      status(403, { message: "Forbidden" }, { "x-ratelimit-remaining": "4999", "x-ratelimit-reset": "1" }),
      ok(),
    );
    const { client, delays } = makeClient();
    expect((await failure(client.get(at("GET", "/x"), {}))).code).toBe("forbidden");
    expect(seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  // A wait refused for exceeding the cap must not pause the next request on the same client.
  it("does not make the next request wait beyond maxRateLimitWaitMs either", async () => {
    const resetAt = T0 / 1000 + 3600;
    handler = sequence(
      status(
        403,
        { message: "API rate limit exceeded" },
        { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(resetAt) },
      ),
      ok(),
    );
    const { client, delays } = makeClient({}, { maxRateLimitWaitMs: 60_000 });
    expect((await failure(client.get(at("GET", "/a"), {}))).code).toBe("rate_limited");
    await client.get(at("GET", "/b"), {}).catch(() => undefined);
    expect(delays.filter((d) => d > 60_000)).toEqual([]);
  });
});

describe("the token", () => {
  it("is redacted when the server echoes it in the message", async () => {
    handler = (req, res) =>
      json(res, 401, {
        message: `Bad credentials: ${req.headers.authorization} (${TOKEN})`,
        documentation_url: "https://docs.example.com/rest",
      });
    const { client, logs } = makeClient();
    const error = await failure(client.get(at("GET", "/user"), {}));
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(error.apiMessage).toBe("Bad credentials: Bearer [REDACTED] ([REDACTED])");
    expect(error.message).toContain("[REDACTED]");
    expect(JSON.stringify(error)).toContain('"code":"unauthorized"');
    expect(logs.length).toBeGreaterThan(0);
    expectNoToken(error, logs);
  });

  it("is redacted when the server echoes it in a text body", async () => {
    handler = (req, res) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(`upstream rejected authorization=${req.headers.authorization}`);
    };
    const { client, logs } = makeClient({}, { maxAttempts: 2 });
    const error = await failure(client.get(at("GET", "/user"), {}));
    expect(error.apiMessage).toBe("upstream rejected authorization=Bearer [REDACTED]");
    expect(logs).toHaveLength(2);
    expectNoToken(error, logs);
  });

  it("never appears in logs of retries and rate-limit waits", async () => {
    handler = sequence(status(502), status(429, { message: TOKEN }, { "retry-after": "1" }), reset(), ok());
    const { client, logs } = makeClient();
    await client.get(at("GET", `/orgs/acme`), {}, { query: { note: "x" } });
    expect(logs).toHaveLength(5);
    for (const line of logs) expect(line).not.toContain(TOKEN);
  });

  it("is redacted from the rate-limited error", async () => {
    handler = sequence(status(429, { message: `quota for ${TOKEN} spent` }, { "retry-after": "9999" }));
    const { client, logs } = makeClient({}, { maxRateLimitWaitMs: 1_000 });
    const error = await failure(client.get(at("GET", "/x"), {}));
    expect(error.code).toBe("rate_limited");
    expect(error.apiMessage).toBe("quota for [REDACTED] spent");
    expectNoToken(error, logs);
  });

  // Not only `message`: the items of `errors[]` reach the error's message and its `errors`
  // property (so JSON.stringify).
  it("is redacted when the server echoes it in errors[]", async () => {
    handler = (req, res) =>
      json(res, 422, {
        message: "Validation Failed",
        errors: [
          `token ${TOKEN} is not allowed here`,
          { field: "auth", message: `${req.headers.authorization}` },
        ],
      });
    const { client, logs } = makeClient();
    const error = await failure(client.post(at("POST", "/orgs/acme/hooks"), {}, {}));
    expect(error.code).toBe("validation_failed");
    expectNoToken(error, logs);
  });
});

describe("a refused token (401)", () => {
  const badCredentials = (res: ServerResponse) => json(res, 401, { message: "Bad credentials" });

  it("is asked once: a later request of the client fails at once, not sent, in one line", async () => {
    handler = sequence(badCredentials, ok());
    const { client, logs } = makeClient({ tokenOrigin: { source: "hosting:token" } });
    const first = await failure(client.get(at("GET", "/repos/acme/api/hooks/1"), {}));
    expect(first.code).toBe("unauthorized");
    expect(first.status).toBe(401);
    expect(first.message).toContain("The token from hosting:token is unknown, expired or revoked");

    const later = await failure(client.patch(at("PATCH", "/repos/acme/api/hooks/2"), {}, { active: true }));
    expect(seen.map((r) => r.url)).toEqual(["/api/v3/repos/acme/api/hooks/1"]);
    expect(later).toBeInstanceOf(HostingApiError);
    expect(later.code).toBe("unauthorized");
    expect(later.status).toBeUndefined();
    expect(later.cause).toBe(first);
    expect(later.message).toBe(
      "PATCH /repos/acme/api/hooks/2: hosting:token was refused (401) earlier in this run, so this request " +
        "was not sent; see the first error (GET /repos/acme/api/hooks/1)",
    );
    // Every kind of call stops, pagination included.
    expect((await failure(client.paginate(ROUTES.repoHooks.list, { owner: "acme", repo: "api" }))).code).toBe(
      "unauthorized",
    );
    expect(seen).toHaveLength(1);
    expectNoToken(later, logs);
  });

  it("stops the requests waiting for their turn, and shortens the refusals already in flight", async () => {
    // Two in flight (both answered 401 once both arrived), two more waiting for the window.
    const held: ServerResponse[] = [];
    handler = (_req, res) => {
      held.push(res);
      if (held.length === 2) for (const r of held) badCredentials(r);
    };
    const { client } = makeClient({}, { concurrency: 2 });
    const errors = await Promise.all(
      [1, 2, 3, 4].map((i) => failure(client.get(at("GET", `/repos/acme/api/hooks/${i}`), {}))),
    );
    expect(seen).toHaveLength(2);
    const long = errors.filter((e) => e.message.includes("unknown, expired or revoked"));
    expect(long).toHaveLength(1);
    const answered = errors.filter((e) => e.status === 401 && e !== long[0]);
    expect(answered).toHaveLength(1);
    expect(answered[0]?.message).toMatch(
      /returned 401: the token was refused earlier in this run; see the first error/,
    );
    expect(errors.filter((e) => e.message.includes("was not sent"))).toHaveLength(2);
    expect(errors.every((e) => e.code === "unauthorized")).toBe(true);
  });

  it("is remembered per client: a client with another token asks", async () => {
    handler = (req, res) =>
      req.headers.authorization === `Bearer ${TOKEN}` ? badCredentials(res) : ok()(res);
    const refused = makeClient().client;
    await failure(refused.get(at("GET", "/user"), {}));
    const rotated = makeClient({ token: "hst_TheNewT0ken_1a2b3c" }).client;
    expect((await rotated.get(at("GET", "/user"), {})).status).toBe(200);
    expect(seen).toHaveLength(2);
    expect((await failure(refused.get(at("GET", "/user"), {}))).message).toContain("was not sent");
    expect(seen).toHaveLength(2);
  });

  it("is forgotten after REFUSED_TOKEN_MEMORY_MS, for processes that outlive a run", async () => {
    handler = sequence(badCredentials, ok());
    const { client, clock } = makeClient();
    await failure(client.get(at("GET", "/user"), {}));
    clock.t += REFUSED_TOKEN_MEMORY_MS;
    expect((await failure(client.get(at("GET", "/user"), {}))).message).toContain("was not sent");
    clock.t += 1;
    expect((await client.get(at("GET", "/user"), {})).status).toBe(200);
    expect(seen).toHaveLength(2);
  });

  it("says how to use the current token in the provider process, whose settings refresh takes from the state", async () => {
    handler = sequence(badCredentials);
    const { client } = makeClient({ tokenOrigin: { source: "hosting:token", recorded: true } });
    const error = await failure(client.get(at("GET", "/user"), {}));
    expect(error.message).toBe(
      "GET /user returned 401: Bad credentials. The token from hosting:token is unknown, expired or revoked: " +
        "set hosting:token (or HOSTING_TOKEN) to a valid token. If hosting:token was changed since the last " +
        "`pulumi up`: `pulumi refresh`, `pulumi preview --refresh` and `pulumi destroy` use the provider " +
        "configuration recorded in the state at that update; add --run-program (Pulumi CLI 3.169 or later) " +
        "to use the current one",
    );
  });
});

describe("concurrency", () => {
  function countingHandler(delayMs: number): { max: () => number } {
    let inFlight = 0;
    let max = 0;
    handler = (_req, res) => {
      inFlight++;
      max = Math.max(max, inFlight);
      setTimeout(() => {
        inFlight--;
        json(res, 200, { ok: true });
      }, delayMs);
    };
    return { max: () => max };
  }

  it("never has more than `concurrency` requests in flight", async () => {
    const counter = countingHandler(20);
    const { client } = makeClient({}, { concurrency: 2 });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => client.get(at("GET", `/item/${i}`), {})),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(seen).toHaveLength(6);
    expect(counter.max()).toBe(2);
  });

  it("runs requests in parallel up to the limit", async () => {
    const counter = countingHandler(20);
    const { client } = makeClient({}, { concurrency: 4 });
    await Promise.all(Array.from({ length: 8 }, (_, i) => client.get(at("GET", `/item/${i}`), {})));
    expect(counter.max()).toBe(4);
  });

  it("halves the window after a rate limit", async () => {
    // No retry, so no success is counted: the window stays at 2 until two requests succeed.
    handler = sequence(status(429, { message: "slow" }, { "retry-after": "1" }));
    const { client, delays } = makeClient({}, { concurrency: 4, maxRateLimitRetries: 0 });
    expect((await failure(client.get(at("GET", "/first"), {}))).code).toBe("rate_limited");
    seen = [];
    const counter = countingHandler(20);
    await Promise.all(Array.from({ length: 4 }, (_, i) => client.get(at("GET", `/item/${i}`), {})));
    expect(seen).toHaveLength(4);
    expect(counter.max()).toBe(2);
    // the first request after the limit waited out the server's retry-after, once
    expect(delays).toEqual([1000]);
  });
});

describe("AdaptiveLimiter", () => {
  const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

  it("halves on each rate limit down to the minimum", () => {
    const limiter = new AdaptiveLimiter(8);
    expect(limiter.currentLimit).toBe(8);
    const seenLimits: number[] = [];
    for (let i = 0; i < 5; i++) {
      limiter.onRateLimited(0);
      seenLimits.push(limiter.currentLimit);
    }
    expect(seenLimits).toEqual([4, 2, 1, 1, 1]);
    const withMin = new AdaptiveLimiter(8, 3);
    withMin.onRateLimited(0);
    withMin.onRateLimited(0);
    expect(withMin.currentLimit).toBe(3);
  });

  it("grows back by one after as many successes as the current limit, never above max", () => {
    const limiter = new AdaptiveLimiter(6);
    limiter.onRateLimited(0);
    expect(limiter.currentLimit).toBe(3);
    limiter.onSuccess();
    limiter.onSuccess();
    expect(limiter.currentLimit).toBe(3);
    limiter.onSuccess();
    expect(limiter.currentLimit).toBe(4);
    for (let i = 0; i < 3; i++) limiter.onSuccess();
    expect(limiter.currentLimit).toBe(4);
    limiter.onSuccess();
    expect(limiter.currentLimit).toBe(5);
    for (let i = 0; i < 100; i++) limiter.onSuccess();
    expect(limiter.currentLimit).toBe(6);
  });

  it("resets the success count on a rate limit", () => {
    const limiter = new AdaptiveLimiter(8);
    limiter.onRateLimited(0); // 4
    for (let i = 0; i < 3; i++) limiter.onSuccess();
    limiter.onRateLimited(0); // 2
    limiter.onSuccess();
    expect(limiter.currentLimit).toBe(2);
    limiter.onSuccess();
    expect(limiter.currentLimit).toBe(3);
  });

  it("blocks acquire at the limit until a slot is released", async () => {
    const limiter = new AdaptiveLimiter(2);
    const a = await limiter.acquire();
    const b = await limiter.acquire();
    let third = false;
    const pending = limiter.acquire().then((release) => {
      third = true;
      return release;
    });
    await flush();
    expect(third).toBe(false);
    a();
    a(); // releasing twice frees one slot only
    await flush();
    expect(third).toBe(true);
    let fourth = false;
    void limiter.acquire().then(() => {
      fourth = true;
    });
    await flush();
    expect(fourth).toBe(false);
    b();
    await flush();
    expect(fourth).toBe(true);
    (await pending)();
  });

  it("never exceeds the limit while it shrinks and grows", async () => {
    const limiter = new AdaptiveLimiter(4);
    let active = 0;
    let max = 0;
    const violations: string[] = [];
    const releases: Array<() => void> = [];
    const workers = Array.from({ length: 10 }, () =>
      limiter.acquire().then((release) => {
        active++;
        max = Math.max(max, active);
        if (active > limiter.currentLimit) violations.push(`${active} > ${limiter.currentLimit}`);
        releases.push(() => {
          active--;
          release();
        });
      }),
    );
    await flush();
    expect(active).toBe(4);
    limiter.onRateLimited(0); // limit 2 while 4 are active
    releases.shift()?.();
    releases.shift()?.();
    await flush();
    expect(active).toBe(2); // nobody admitted: 2 are still active
    releases.shift()?.();
    await flush();
    expect(active).toBe(2); // one left, one admitted
    limiter.onSuccess();
    limiter.onSuccess(); // limit back to 3, a waiter is woken
    await flush();
    expect(limiter.currentLimit).toBe(3);
    expect(active).toBe(3);
    while (releases.length > 0) {
      releases.shift()?.();
      await flush();
    }
    await Promise.all(workers);
    expect(violations).toEqual([]);
    expect(max).toBe(4);
  });

  it("makes the next acquire wait out the rate-limit pause", async () => {
    let t = 1_000;
    const sleeps: number[] = [];
    const limiter = new AdaptiveLimiter(
      4,
      1,
      () => t,
      (ms) => {
        sleeps.push(ms);
        t += ms;
        return Promise.resolve();
      },
    );
    (await limiter.acquire())();
    expect(sleeps).toEqual([]);
    limiter.onRateLimited(1_500);
    t += 500;
    (await limiter.acquire())();
    expect(sleeps).toEqual([1_000]);
    (await limiter.acquire())();
    expect(sleeps).toEqual([1_000]);
  });
});

describe("detectRateLimit", () => {
  const bag = (headers: Record<string, string>): HeaderBag => ({
    get: (name) => headers[name.toLowerCase()],
  });

  it("ignores other statuses", () => {
    expect(detectRateLimit(500, bag({ "retry-after": "1" }), undefined, T0, 1)).toBeUndefined();
    expect(detectRateLimit(200, bag({ "x-ratelimit-remaining": "0" }), undefined, T0, 1)).toBeUndefined();
  });

  it("treats a 429 without headers as secondary, with exponential fallback", () => {
    expect(detectRateLimit(429, bag({}), undefined, T0, 1)).toEqual({ waitMs: 60_000, kind: "secondary" });
    expect(detectRateLimit(429, bag({}), undefined, T0, 3)).toEqual({ waitMs: 240_000, kind: "secondary" });
  });

  it("prefers retry-after over x-ratelimit-reset", () => {
    const headers = bag({
      "retry-after": "5",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(T0 / 1000 + 60),
    });
    expect(detectRateLimit(403, headers, "API rate limit exceeded", T0, 1)).toEqual({
      waitMs: 5_000,
      kind: "primary",
    });
  });

  it("waits at least the margin when the reset is already past", () => {
    const headers = bag({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(T0 / 1000 - 10) });
    expect(detectRateLimit(403, headers, "", T0, 1)).toEqual({ waitMs: 1_000, kind: "primary" });
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds", () => {
    expect(parseRetryAfter("2", T0)).toBe(2_000);
    expect(parseRetryAfter("0", T0)).toBe(0);
    expect(parseRetryAfter(" 30 ", T0)).toBe(30_000);
    expect(parseRetryAfter("1.5", T0)).toBe(1_500);
    expect(parseRetryAfter("-5", T0)).toBe(0);
  });

  it("reads an HTTP date relative to now", () => {
    expect(parseRetryAfter(new Date(T0 + 90_000).toUTCString(), T0)).toBe(90_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:05 GMT", Date.UTC(2026, 0, 1))).toBe(5_000);
    expect(parseRetryAfter(new Date(T0 - 90_000).toUTCString(), T0)).toBe(0);
  });

  it("returns undefined for nothing or nonsense", () => {
    expect(parseRetryAfter(undefined, T0)).toBeUndefined();
    expect(parseRetryAfter("", T0)).toBeUndefined();
    expect(parseRetryAfter("   ", T0)).toBeUndefined();
    expect(parseRetryAfter("soon", T0)).toBeUndefined();
  });
});

describe("parseLinkHeader", () => {
  it("reads every relation", () => {
    const header =
      '<https://h.example/api/v3/orgs/acme/repos?per_page=100&page=3>; rel="next", ' +
      '<https://h.example/api/v3/orgs/acme/repos?per_page=100&page=9>; rel="last", ' +
      '<https://h.example/api/v3/orgs/acme/repos?per_page=100&page=1>; rel="first", ' +
      '<https://h.example/api/v3/orgs/acme/repos?per_page=100&page=1>; rel="prev"';
    expect(parseLinkHeader(header)).toEqual({
      next: "https://h.example/api/v3/orgs/acme/repos?per_page=100&page=3",
      last: "https://h.example/api/v3/orgs/acme/repos?per_page=100&page=9",
      first: "https://h.example/api/v3/orgs/acme/repos?per_page=100&page=1",
      prev: "https://h.example/api/v3/orgs/acme/repos?per_page=100&page=1",
    });
  });

  it("returns nothing for an absent or empty header", () => {
    expect(parseLinkHeader(undefined)).toEqual({});
    expect(parseLinkHeader(null)).toEqual({});
    expect(parseLinkHeader("")).toEqual({});
  });

  it("accepts unquoted relations and loose spacing, and skips unknown or malformed parts", () => {
    expect(
      parseLinkHeader(
        '<https://h/a?page=2>;rel=next ,  <https://h/a?page=5> ; rel="last", <https://h/x>; rel="alternate", garbage',
      ),
    ).toEqual({ next: "https://h/a?page=2", last: "https://h/a?page=5" });
  });
});
