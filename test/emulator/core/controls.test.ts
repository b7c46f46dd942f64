/**
 * Control routes under /_emulator/ (DESIGN.md, The sandbox server): reset, state, the request log
 * with counts, fault injection and the secondary-rate-limit mode.
 */
import { describe, expect, it, vi } from "vitest";
import { Controls, matchPath } from "../../../emulator/core/controls";
import { defaultFixture, freshState } from "../../../emulator/families";
import { startEmulator } from "../../../emulator/index";
import {
  call,
  control,
  createGlobalHook,
  createRepoHook,
  expectErrorBody,
  TOKENS,
  useSandbox,
} from "../helpers";

const sandbox = useSandbox();
const HOOKS = "/repos/acme-eng/api/hooks";

async function hookCount(): Promise<number> {
  return (await call(sandbox.emulator, "GET", `${HOOKS}?per_page=100`)).body.length;
}

describe("health, state and reset", () => {
  it("GET /_emulator/health answers ok", async () => {
    const response = await control(sandbox.emulator, "GET", "/health");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true });
  });

  it("GET /_emulator/state shows the default fixture and an empty world", async () => {
    const response = await control(sandbox.emulator, "GET", "/state");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      schema: 3,
      nextId: 1,
      repoHooks: [],
      globalHooks: [],
      deliveries: [],
    });
    expect(response.body.fixture).toEqual(defaultFixture());
  });

  it("reset drops everything created and restores the fixture", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    await createGlobalHook(sandbox.emulator);
    await call(sandbox.emulator, "POST", `${HOOKS}/${hook.id}/pings`);
    // Change the fixture behind the API's back: the owner's token disappears.
    delete sandbox.emulator.store.state.fixture.tokens.svcp_owner;
    expect((await call(sandbox.emulator, "GET", HOOKS, { token: TOKENS.owner })).status).toBe(401);

    // The seeded commits' dates are ages made absolute when a state is made: the clock stands still
    // while the reset and the expected state are made (they once fell either side of a second).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    let state: unknown;
    let expected: unknown;
    try {
      const reset = await control(sandbox.emulator, "POST", "/reset");
      expect(reset.status).toBe(204);
      state = (await control(sandbox.emulator, "GET", "/state")).body;
      expected = freshState(defaultFixture());
    } finally {
      vi.useRealTimers();
    }
    expect(state).toEqual(expected);
    expect(state).toMatchObject({
      nextId: 1,
      repoHooks: [],
      globalHooks: [],
      deliveries: [],
      invitations: [],
    });
    expect((await call(sandbox.emulator, "GET", HOOKS, { token: TOKENS.owner })).status).toBe(200);
    const again = await createRepoHook(sandbox.emulator);
    expect(again.id).toBe(1);
  });

  it("reset clears the request log, faults and rate-limit mode", async () => {
    await call(sandbox.emulator, "GET", HOOKS);
    await control(sandbox.emulator, "POST", "/faults", { path: "/user", status: 500, count: 5 });
    await control(sandbox.emulator, "PUT", "/rate-limit", { path: "/admin/*" });
    await control(sandbox.emulator, "POST", "/reset");
    expect((await control(sandbox.emulator, "GET", "/requests")).body.requests).toEqual([]);
    expect((await control(sandbox.emulator, "GET", "/faults")).body).toEqual([]);
    expect((await call(sandbox.emulator, "GET", "/user")).status).toBe(200);
    expect((await call(sandbox.emulator, "GET", "/admin/hooks")).status).toBe(200);
  });
});

describe("request log", () => {
  it("records method, path below /api/v3, route template and status, and counts them", async () => {
    const hook = await createRepoHook(sandbox.emulator);
    await call(sandbox.emulator, "GET", `${HOOKS}?per_page=5`);
    await call(sandbox.emulator, "GET", HOOKS);
    await call(sandbox.emulator, "GET", `${HOOKS}/${hook.id}`);
    await call(sandbox.emulator, "GET", `${HOOKS}/999`);
    await call(sandbox.emulator, "PATCH", `${HOOKS}/${hook.id}/config`, { body: { content_type: "json" } });
    await call(sandbox.emulator, "GET", HOOKS, { token: null });

    const response = await control(sandbox.emulator, "GET", "/requests");
    expect(response.status).toBe(200);
    const { requests, counts } = response.body;
    expect(
      requests.map((r: { method: string; path: string; route: string; status: number }) => ({
        method: r.method,
        path: r.path,
        route: r.route,
        status: r.status,
      })),
    ).toEqual([
      { method: "POST", path: HOOKS, route: "/repos/{owner}/{repo}/hooks", status: 201 },
      { method: "GET", path: HOOKS, route: "/repos/{owner}/{repo}/hooks", status: 200 },
      { method: "GET", path: HOOKS, route: "/repos/{owner}/{repo}/hooks", status: 200 },
      {
        method: "GET",
        path: `${HOOKS}/${hook.id}`,
        route: "/repos/{owner}/{repo}/hooks/{hook_id}",
        status: 200,
      },
      { method: "GET", path: `${HOOKS}/999`, route: "/repos/{owner}/{repo}/hooks/{hook_id}", status: 404 },
      {
        method: "PATCH",
        path: `${HOOKS}/${hook.id}/config`,
        route: "/repos/{owner}/{repo}/hooks/{hook_id}/config",
        status: 200,
      },
      { method: "GET", path: HOOKS, route: "/repos/{owner}/{repo}/hooks", status: 401 },
    ]);
    const seqs = requests.map((r: { seq: number }) => r.seq);
    expect([...seqs].sort((a: number, b: number) => a - b)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(seqs.length);
    for (const r of requests) expect(Number.isNaN(Date.parse(r.at))).toBe(false);

    expect(counts.total).toBe(7);
    expect(counts.byMethod).toEqual({ POST: 1, GET: 5, PATCH: 1 });
    expect(counts.byRoute).toEqual({
      "POST /repos/{owner}/{repo}/hooks": 1,
      "GET /repos/{owner}/{repo}/hooks": 3,
      "GET /repos/{owner}/{repo}/hooks/{hook_id}": 2,
      "PATCH /repos/{owner}/{repo}/hooks/{hook_id}/config": 1,
    });
  });

  it("does not log control routes", async () => {
    await control(sandbox.emulator, "GET", "/state");
    await control(sandbox.emulator, "GET", "/requests");
    const response = await control(sandbox.emulator, "GET", "/requests");
    expect(response.body.requests).toEqual([]);
    expect(response.body.counts).toEqual({ total: 0, byMethod: {}, byRoute: {} });
  });

  it("logs global hook routes with their templates", async () => {
    const hook = await createGlobalHook(sandbox.emulator);
    await call(sandbox.emulator, "POST", `/admin/hooks/${hook.id}/pings`);
    const { counts } = (await control(sandbox.emulator, "GET", "/requests")).body;
    expect(counts.byRoute).toEqual({ "POST /admin/hooks": 1, "POST /admin/hooks/{hook_id}/pings": 1 });
  });

  it("DELETE /_emulator/requests clears the log", async () => {
    await call(sandbox.emulator, "GET", HOOKS);
    await call(sandbox.emulator, "GET", "/user");
    expect((await control(sandbox.emulator, "GET", "/requests")).body.counts.total).toBe(2);
    const del = await control(sandbox.emulator, "DELETE", "/requests");
    expect(del.status).toBe(204);
    const after = (await control(sandbox.emulator, "GET", "/requests")).body;
    expect(after.requests).toEqual([]);
    expect(after.counts).toEqual({ total: 0, byMethod: {}, byRoute: {} });
    await call(sandbox.emulator, "GET", "/user");
    expect((await control(sandbox.emulator, "GET", "/requests")).body.counts.byRoute).toEqual({
      "GET /user": 1,
    });
  });
});

describe("faults", () => {
  it("answers the status for the next N matching requests, then serves normally", async () => {
    const created = await control(sandbox.emulator, "POST", "/faults", {
      method: "POST",
      path: HOOKS,
      status: 503,
      count: 2,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      method: "POST",
      path: HOOKS,
      status: 503,
      remaining: 2,
      when: "before",
    });
    expect((await control(sandbox.emulator, "GET", "/faults")).body).toHaveLength(1);

    const body = { config: { url: "https://example.com/f" } };
    // Another method on the same path is not affected.
    expect((await call(sandbox.emulator, "GET", HOOKS)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const failed = await call(sandbox.emulator, "POST", HOOKS, { body });
      expect(failed.status).toBe(503);
      expectErrorBody(failed.body, "Injected fault (status 503)");
    }
    expect(await hookCount()).toBe(0);
    const ok = await call(sandbox.emulator, "POST", HOOKS, { body });
    expect(ok.status).toBe(201);
    expect(await hookCount()).toBe(1);
    expect((await control(sandbox.emulator, "GET", "/faults")).body).toEqual([]);

    const log = (await control(sandbox.emulator, "GET", "/requests")).body.requests;
    expect(log.map((r: { method: string; status: number }) => `${r.method} ${r.status}`)).toEqual([
      "GET 200",
      "POST 503",
      "POST 503",
      "GET 200",
      "POST 201",
      "GET 200",
    ]);
  });

  it("defaults to one request and matches any method when none is given", async () => {
    await control(sandbox.emulator, "POST", "/faults", { path: "/user", status: 500 });
    const failed = await call(sandbox.emulator, "GET", "/user");
    expect(failed.status).toBe(500);
    expect((await call(sandbox.emulator, "GET", "/user")).status).toBe(200);
  });

  it("matches paths with * globs and ignores query strings", async () => {
    await control(sandbox.emulator, "POST", "/faults", { path: "/repos/*/hooks", status: 502, count: 3 });
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/api/hooks?per_page=1")).status).toBe(502);
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/web/hooks")).status).toBe(502);
    expect((await call(sandbox.emulator, "GET", "/user")).status).toBe(200);
    const post = await call(sandbox.emulator, "POST", "/repos/acme-ops/infra/hooks", {
      body: { config: { url: "https://example.com/glob" } },
    });
    expect(post.status).toBe(502);
    // Paths that do not end in /hooks never matched; the three uses are spent now.
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/api/hooks/1")).status).toBe(404);
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/api/hooks")).status).toBe(200);
    expect((await control(sandbox.emulator, "GET", "/state")).body.repoHooks).toEqual([]);
  });

  it("matches the method case-insensitively", async () => {
    await control(sandbox.emulator, "POST", "/faults", { method: "get", path: HOOKS, status: 500 });
    expect((await call(sandbox.emulator, "GET", HOOKS)).status).toBe(500);
  });

  it("sends extra headers given with the fault", async () => {
    await control(sandbox.emulator, "POST", "/faults", {
      path: HOOKS,
      status: 429,
      headers: { "retry-after": "7", "x-ratelimit-remaining": "0", "x-note": "caf\u00e9 \t ok" },
    });
    const response = await call(sandbox.emulator, "GET", HOOKS);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("0");
    // Any visible Latin-1 value with inner spaces or tabs is accepted (the server sends it as UTF-8).
    expect(response.headers.get("x-note")).toMatch(/^caf.+ \t ok$/);
  });

  it("delays by latencyMs and then serves normally", async () => {
    await control(sandbox.emulator, "POST", "/faults", { path: HOOKS, latencyMs: 300 });
    const started = performance.now();
    const slow = await call(sandbox.emulator, "POST", HOOKS, {
      body: { config: { url: "https://example.com/l" } },
    });
    const elapsed = performance.now() - started;
    expect(slow.status).toBe(201);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    const fastStart = performance.now();
    await call(sandbox.emulator, "GET", HOOKS);
    expect(performance.now() - fastStart).toBeLessThan(250);
    expect(await hookCount()).toBe(1);
  });

  it("drop destroys the connection without processing the request", async () => {
    await control(sandbox.emulator, "POST", "/faults", { method: "POST", path: HOOKS, drop: true });
    await expect(
      call(sandbox.emulator, "POST", HOOKS, { body: { config: { url: "https://example.com/d" } } }),
    ).rejects.toThrow();
    expect(await hookCount()).toBe(0);
    expect((await control(sandbox.emulator, "GET", "/faults")).body).toEqual([]);
    expect((await call(sandbox.emulator, "GET", HOOKS)).status).toBe(200);
  });

  // A dropped request got no answer, yet the log records the default status 200 of an unfinished
  // context (emulator/core/app.ts, faults middleware returns without a response; hono then also logs
  // "Context is not finalized" to stderr).
  it("does not log a dropped request as answered with 200", async () => {
    await control(sandbox.emulator, "POST", "/faults", { method: "GET", path: "/user", drop: true });
    await expect(call(sandbox.emulator, "GET", "/user")).rejects.toThrow();
    const { requests } = (await control(sandbox.emulator, "GET", "/requests")).body;
    const entry = requests.find((r: { path: string }) => r.path === "/user");
    expect(entry?.status).not.toBe(200);
  });

  it('when "after" processes the request but answers the fault status', async () => {
    await control(sandbox.emulator, "POST", "/faults", {
      method: "POST",
      path: HOOKS,
      status: 503,
      when: "after",
    });
    const response = await call(sandbox.emulator, "POST", HOOKS, {
      body: { config: { url: "https://example.com/after" } },
    });
    expect(response.status).toBe(503);
    expectErrorBody(response.body, "Injected fault (status 503)");
    const list = await call(sandbox.emulator, "GET", HOOKS);
    expect(list.body).toHaveLength(1);
    expect(list.body[0].config.url).toBe("https://example.com/after");
  });

  it('drop with when "after" processes the request, then drops the connection', async () => {
    await control(sandbox.emulator, "POST", "/faults", {
      method: "POST",
      path: HOOKS,
      drop: true,
      when: "after",
    });
    await expect(
      call(sandbox.emulator, "POST", HOOKS, { body: { config: { url: "https://example.com/da" } } }),
    ).rejects.toThrow();
    expect(await hookCount()).toBe(1);
  });

  it("DELETE /_emulator/faults removes all faults", async () => {
    await control(sandbox.emulator, "POST", "/faults", { path: HOOKS, status: 500, count: 10 });
    await control(sandbox.emulator, "POST", "/faults", { path: "/user", status: 500 });
    expect((await control(sandbox.emulator, "GET", "/faults")).body).toHaveLength(2);
    expect((await control(sandbox.emulator, "DELETE", "/faults")).status).toBe(204);
    expect((await control(sandbox.emulator, "GET", "/faults")).body).toEqual([]);
    expect((await call(sandbox.emulator, "GET", HOOKS)).status).toBe(200);
  });

  it.each([
    ["no path", { status: 500 }, "path", /path is required/],
    ["a path without a leading slash", { path: "user", status: 500 }, "path", /path is required/],
    ["a path that is not a string", { path: 5, status: 500 }, "path", /path is required/],
    ["no effect", { path: "/user" }, "status", /status, latencyMs or drop/],
    ["drop other than true", { path: "/user", drop: "yes" }, "status", /status, latencyMs or drop/],
    ["a bad when", { path: "/user", status: 500, when: "during" }, "when", /when must be/],
    ["status 99", { path: "/user", status: 99 }, "status", /from 100 to 599/],
    ["status 600", { path: "/user", status: 600 }, "status", /from 100 to 599/],
    ["a status that is not an integer", { path: "/user", status: 500.5 }, "status", /integer/],
    ["a negative latency", { path: "/user", latencyMs: -1 }, "latencyMs", /from 0 to 600000/],
    ["a count of 0", { path: "/user", status: 500, count: 0 }, "count", /from 1/],
    [
      "a header name with a space",
      { path: "/user", status: 500, headers: { "retry after": "1" } },
      "headers.retry after",
      /header name/,
    ],
    [
      "a header value outside Latin-1",
      { path: "/user", status: 500, headers: { "x-a": "ā" } },
      "headers.x-a",
      /Latin-1/,
    ],
    [
      "a header value with a line break",
      { path: "/user", status: 500, headers: { "x-a": "1\r\nx-b: 2" } },
      "headers.x-a",
      /Latin-1/,
    ],
    [
      "a header value that is not a string",
      { path: "/user", status: 500, headers: { "x-a": 1 } },
      "headers.x-a",
      /string/,
    ],
    ["a method that is not a token", { path: "/user", status: 500, method: "GE T" }, "method", /HTTP method/],
  ])("refuses a fault with %s with 422 naming the field", async (_label, body, field, message) => {
    const response = await control(sandbox.emulator, "POST", "/faults", body);
    expect(response.status).toBe(422);
    expectErrorBody(response.body, "Validation Failed");
    expect(response.body.errors[0]).toMatchObject({ resource: "Fault", field });
    expect(response.body.errors[0].message).toMatch(message);
    expect((await control(sandbox.emulator, "GET", "/faults")).body).toEqual([]);
  });

  it("matches a path pattern of many stars without backtracking", async () => {
    const pattern = `/${"*a".repeat(40)}*b`;
    await control(sandbox.emulator, "POST", "/faults", { path: pattern, status: 500 });
    const path = `/repos/${"a".repeat(60)}/x`;
    // Before, a regular expression took seconds per request on such a pattern (exponential).
    const response = await call(sandbox.emulator, "GET", path);
    expect(response.status).toBe(404);
    expect((await control(sandbox.emulator, "GET", "/faults")).body).toHaveLength(1);
  });

  it("refuses a fault body that is not JSON with 400", async () => {
    const response = await control(sandbox.emulator, "POST", "/faults", "{oops");
    expect(response.status).toBe(400);
    expectErrorBody(response.body, "Problems parsing JSON");
  });
});

describe("secondary rate limit", () => {
  it("answers 403 with retry-after and a secondary-rate-limit message until switched off", async () => {
    const put = await control(sandbox.emulator, "PUT", "/rate-limit", { retryAfter: 4 });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ retryAfter: 4 });
    for (let i = 0; i < 3; i++) {
      const response = await call(sandbox.emulator, "POST", HOOKS, {
        body: { config: { url: "https://example.com/r" } },
      });
      expect(response.status).toBe(403);
      expect(response.headers.get("retry-after")).toBe("4");
      expectErrorBody(response.body, /secondary rate limit/);
    }
    expect((await control(sandbox.emulator, "DELETE", "/rate-limit")).status).toBe(204);
    expect(await hookCount()).toBe(0);
    const ok = await call(sandbox.emulator, "POST", HOOKS, {
      body: { config: { url: "https://example.com/r" } },
    });
    expect(ok.status).toBe(201);
  });

  it("applies to the next count matching requests only", async () => {
    await control(sandbox.emulator, "PUT", "/rate-limit", { method: "POST", path: "/repos/*", count: 2 });
    expect((await call(sandbox.emulator, "GET", HOOKS)).status).toBe(200);
    expect(
      (
        await call(sandbox.emulator, "POST", "/admin/hooks", {
          body: { name: "web", config: { url: "https://e.com" } },
        })
      ).status,
    ).toBe(201);
    const body = { config: { url: "https://example.com/c" } };
    expect((await call(sandbox.emulator, "POST", HOOKS, { body })).status).toBe(403);
    const second = await call(sandbox.emulator, "POST", HOOKS, { body });
    expect(second.status).toBe(403);
    expect(second.headers.get("retry-after")).toBe("1");
    expect((await call(sandbox.emulator, "POST", HOOKS, { body })).status).toBe(201);
  });
});

describe("path patterns", () => {
  it.each([
    ["/user", "/user", true],
    ["/user", "/users", false],
    ["/repos/*/hooks", "/repos/acme-eng/api/hooks", true],
    ["/repos/*/hooks", "/repos/acme-eng/api/hooks/1", false],
    ["/repos/*", "/repos/", true],
    ["*", "/anything", true],
    ["/a*b*c", "/abc", true],
    ["/a*b*c", "/acb", false],
    ["/a*a", "/a", false],
    ["/*/hooks/*", "/repos/x/hooks/12", true],
    ["/x*y*y", "/xyy", true],
    ["/x*yy*y", "/xyyy", true],
    ["/x*yy*y", "/xyy", false],
  ])("%s matches %s: %s", (pattern, path, expected) => {
    expect(matchPath(pattern, path)).toBe(expected);
  });
});

describe("the request log", () => {
  it("keeps the newest requests up to its size, counting on", () => {
    const controls = new Controls(3);
    for (let i = 0; i < 10; i++) {
      controls.record({ method: "GET", path: `/${i}`, route: "/x", status: 200, at: "" });
    }
    expect(controls.log.map((r) => [r.seq, r.path])).toEqual([
      [8, "/7"],
      [9, "/8"],
      [10, "/9"],
    ]);
    expect(controls.counts().total).toBe(3);
  });

  it("refuses a size that is not a positive integer", () => {
    expect(() => new Controls(0)).toThrow(/positive integer/);
  });
});

describe("the control token", () => {
  it("is required to listen beyond loopback", async () => {
    await expect(startEmulator({ port: 0, host: "0.0.0.0" })).rejects.toThrow(/--control-token/);
  });

  it("when given, guards every control route and leaves the API alone", async () => {
    const emulator = await startEmulator({ port: 0, controlToken: "ctl-secret" });
    try {
      const without = await fetch(`${emulator.origin}/_emulator/state`);
      expect(without.status).toBe(401);
      const wrong = await fetch(`${emulator.origin}/_emulator/state`, {
        headers: { authorization: "Bearer nope" },
      });
      expect(wrong.status).toBe(401);
      const right = await fetch(`${emulator.origin}/_emulator/requests`, {
        headers: { authorization: "Bearer ctl-secret" },
      });
      expect(right.status).toBe(200);
      expect((await call(emulator, "GET", HOOKS)).status).toBe(200);
    } finally {
      await emulator.close();
    }
  });
});
