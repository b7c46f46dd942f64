/**
 * Notifications (spec, endpoints, Notifications; concepts, Notification thread, Errors, Limits):
 * the fixture's threads of admin, filters and pagination, polling with Last-Modified and a 304 that
 * costs no rate limit, marking read (205, or 202 and a job), one thread, and the reason rule.
 */
import { readFileSync } from "node:fs";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { API_VERSION_2026 } from "../../../../api";
import { DEFAULT_RATE_LIMIT } from "../../../../emulator/core/controls";
import { descriptionFile } from "../../../conformance/description";
import {
  APP_USER_TOKEN,
  type ApiResponse,
  type CallOptions,
  call,
  control,
  expectErrorBody,
  expectValidationFailed,
  type Json,
  parseLink,
  runJobs,
  stateOf,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();
const VERSION = { "x-service-api-version": API_VERSION_2026 };

function api(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  return call(sandbox.emulator, method, path, { ...options, headers: { ...VERSION, ...options.headers } });
}

const ids = (body: Json): string[] => (body as Array<{ id: string }>).map((t) => t.id);

/** A notification arriving (the control): on `thread_id`, or a new thread. */
async function notify(body: Record<string, unknown>, status = body.thread_id === undefined ? 201 : 200) {
  const response = await control(sandbox.emulator, "POST", "/notifications", body);
  expect(response.status, response.text).toBe(status);
  return response.body;
}

async function newThreads(count: number, user = "admin"): Promise<void> {
  for (let i = 0; i < count; i++) {
    await notify({
      user,
      repository: "acme-eng/web",
      subject: { title: `Thread ${i}` },
      reason: "subscribed",
    });
  }
}

/** The platform's published description: bodies must satisfy its schemas (its `$ref`s resolved by ajv). */
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
ajv.addSchema(JSON.parse(readFileSync(descriptionFile("ghes-3.19"), "utf8")), "openapi");
const validThread = ajv.compile({ $ref: "openapi#/components/schemas/thread" });

/** Validates against the description's `thread`, with the spec's neutral field name mapped back. */
function expectThreadSchema(thread: Json): void {
  const described = JSON.parse(JSON.stringify(thread).replaceAll('"avatar_provider_id"', '"gravatar_id"'));
  expect(validThread(described), JSON.stringify(validThread.errors)).toBe(true);
}

describe("GET /notifications", () => {
  it("lists the caller's unread threads, most recently updated first, with polling headers", async () => {
    const response = await api("GET", "/notifications");
    expect(response.status, response.text).toBe(200);
    expect(ids(response.body)).toEqual(["2", "1"]);
    expect(response.headers.get("x-poll-interval")).toBe("60");
    expect(response.headers.get("last-modified")).toBe(new Date("2026-01-14T15:30:00Z").toUTCString());
    const [pull] = response.body;
    const root = sandbox.emulator.url;
    expect(pull).toMatchObject({
      id: "2",
      subject: {
        title: "Add request tracing",
        url: `${root}/repos/acme-eng/api/pulls/7`,
        latest_comment_url: `${root}/repos/acme-eng/api/pulls/7`,
        type: "PullRequest",
      },
      reason: "review_requested",
      unread: true,
      updated_at: "2026-01-14T15:30:00Z",
      last_read_at: null,
      url: `${root}/notifications/threads/2`,
      subscription_url: `${root}/notifications/threads/2/subscription`,
    });
    expect(pull.repository).toMatchObject({
      id: 1000,
      name: "api",
      full_name: "acme-eng/api",
      private: true,
      owner: { login: "acme-eng", id: 100, type: "Organization" },
    });
    for (const thread of response.body) expectThreadSchema(thread);
  });

  it("shows read threads too with all=true", async () => {
    const response = await api("GET", "/notifications?all=true");
    expect(ids(response.body)).toEqual(["2", "1", "3"]);
    expect(response.body[2]).toMatchObject({
      unread: false,
      reason: "subscribed",
      last_read_at: "2026-01-06T10:00:00Z",
      repository: { full_name: "acme-ops/infra" },
    });
  });

  it("lists nothing for a user without notifications", async () => {
    const response = await api("GET", "/notifications?all=true", { token: TOKENS.member });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
    expect(response.headers.get("last-modified")).toBe(new Date("2026-01-01T00:00:00Z").toUTCString());
  });

  it("filters participating threads", async () => {
    expect(ids((await api("GET", "/notifications?all=true&participating=true")).body)).toEqual(["2", "1"]);
    expect(ids((await api("GET", "/notifications?all=true&participating=false")).body)).toEqual([
      "2",
      "1",
      "3",
    ]);
  });

  it("filters by since (updated at or after) and before (updated before)", async () => {
    const list = async (query: string) => ids((await api("GET", `/notifications?all=true&${query}`)).body);
    expect(await list("since=2026-01-13T00:00:00Z")).toEqual(["2"]);
    expect(await list("since=2026-01-14T15:30:00Z")).toEqual(["2"]);
    expect(await list("before=2026-01-13T00:00:00Z")).toEqual(["1", "3"]);
    expect(await list("before=2026-01-14T15:30:00Z")).toEqual(["1", "3"]);
    expect(await list("since=2026-01-06T00:00:00Z&before=2026-01-13T00:00:00Z")).toEqual(["1"]);
    expect(await list("since=2026-01-12T10:00:00%2B01:00")).toEqual(["2", "1"]);
    expect(await list("since=2027-01-01T00:00:00Z")).toEqual([]);
  });

  it.each([
    ["since", "since=yesterday"],
    ["since", "since=2026-01-13"],
    ["before", "before=2026-02-30T00:00:00Z"],
    ["before", "before=2026-13-01T00:00:00Z"],
    ["all", "all=yes"],
    ["participating", "participating=1"],
  ])("answers 422 naming %s for %s", async (field, query) => {
    const response = await api("GET", `/notifications?${query}`);
    expectValidationFailed(response, field, "invalid", "Notification");
    expect(response.body.errors[0].message).toMatch(field);
  });

  it("pages with Link, 30 a page by default and at most 50", async () => {
    const first = await api("GET", "/notifications?all=true&per_page=1");
    expect(ids(first.body)).toEqual(["2"]);
    const links = parseLink(first.headers.get("link"));
    expect(Object.keys(links).sort()).toEqual(["last", "next"]);
    expect(new URL(links.next ?? "").searchParams.get("page")).toBe("2");
    expect(new URL(links.last ?? "").searchParams.get("page")).toBe("3");
    const last = await api("GET", links.last ?? "");
    expect(ids(last.body)).toEqual(["3"]);
    expect(Object.keys(parseLink(last.headers.get("link"))).sort()).toEqual(["first", "last", "prev"]);

    await newThreads(52); // 55 threads, 54 unread
    const byDefault = await api("GET", "/notifications");
    expect(byDefault.body).toHaveLength(30);
    const clamped = await api("GET", "/notifications?per_page=100");
    expect(clamped.body).toHaveLength(50);
    const next = parseLink(clamped.headers.get("link")).next ?? "";
    expect(new URL(next).searchParams.get("per_page")).toBe("50");
    expect((await api("GET", next)).body).toHaveLength(4);
  });
});

describe("polling and the rate limit", () => {
  const remaining = (r: ApiResponse) => Number(r.headers.get("x-ratelimit-remaining"));

  it("answers 304 without a body and without using the rate limit when nothing changed", async () => {
    const first = await api("GET", "/notifications");
    expect(first.status).toBe(200);
    const lastModified = first.headers.get("last-modified") ?? "";
    expect(first.headers.get("x-ratelimit-limit")).toBe(String(DEFAULT_RATE_LIMIT));
    const before = remaining(first);
    expect(Number(first.headers.get("x-ratelimit-used"))).toBe(DEFAULT_RATE_LIMIT - before);
    expect(Number(first.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);

    for (const since of [lastModified, new Date(Date.parse(lastModified) + 60_000).toUTCString()]) {
      const polled = await api("GET", "/notifications", { headers: { "if-modified-since": since } });
      expect(polled.status).toBe(304);
      expect(polled.text).toBe("");
      expect(polled.headers.get("last-modified")).toBe(lastModified);
      expect(polled.headers.get("x-poll-interval")).toBe("60");
      expect(remaining(polled)).toBe(before);
    }

    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    const changed = await api("GET", "/notifications", { headers: { "if-modified-since": earlier } });
    expect(changed.status).toBe(200);
    expect(remaining(changed)).toBe(before - 1);
    const again = await api("GET", "/notifications");
    expect(remaining(again)).toBe(before - 2);
  });

  it("answers 200 to the old If-Modified-Since once a notification arrives", async () => {
    const first = await api("GET", "/notifications");
    const lastModified = first.headers.get("last-modified") ?? "";
    await notify({ user: "admin", thread_id: "3", reason: "mention" });
    const polled = await api("GET", "/notifications", { headers: { "if-modified-since": lastModified } });
    expect(polled.status).toBe(200);
    expect(ids(polled.body)).toEqual(["3", "2", "1"]);
    expect(Date.parse(polled.headers.get("last-modified") ?? "")).toBeGreaterThan(Date.parse(lastModified));
  });

  it("counts per token, and refuses a token that used up its limit (a 304 still answers)", async () => {
    expect((await control(sandbox.emulator, "PUT", "/rate-limits", { limit: 2 })).status).toBe(200);
    try {
      const one = await api("GET", "/notifications");
      const two = await api("GET", "/notifications");
      expect([remaining(one), remaining(two)]).toEqual([1, 0]);
      const three = await api("GET", "/notifications");
      expect(three.status).toBe(403);
      expectErrorBody(three.body, "API rate limit exceeded for user ID 1.");
      expect(three.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(three.headers.get("x-ratelimit-used")).toBe("2");
      const polled = await api("GET", "/notifications", {
        headers: { "if-modified-since": two.headers.get("last-modified") ?? "" },
      });
      expect(polled.status).toBe(304);
      const other = await api("GET", "/notifications", { token: TOKENS.member });
      expect(other.status).toBe(200);
      expect(remaining(other)).toBe(1);
    } finally {
      await control(sandbox.emulator, "PUT", "/rate-limits", { limit: DEFAULT_RATE_LIMIT });
    }
  });

  it("refuses a rate-limit control body it cannot use", async () => {
    const response = await control(sandbox.emulator, "PUT", "/rate-limits", { limit: 0 });
    expectValidationFailed(response, "limit", "invalid", "RateLimit");
  });
});

describe("PUT /notifications", () => {
  it("marks every thread read with 205 and no body, and moves Last-Modified", async () => {
    const before = await api("GET", "/notifications");
    const response = await api("PUT", "/notifications", { body: { last_read_at: "2026-02-01T00:00:00Z" } });
    expect(response.status, response.text).toBe(205);
    expect(response.text).toBe("");
    expect((await api("GET", "/notifications")).body).toEqual([]);
    const all = await api("GET", "/notifications?all=true");
    expect(all.body.map((t: Json) => [t.id, t.unread, t.last_read_at])).toEqual([
      ["2", false, "2026-02-01T00:00:00Z"],
      ["1", false, "2026-02-01T00:00:00Z"],
      ["3", false, "2026-01-06T10:00:00Z"],
    ]);
    const lastModified = before.headers.get("last-modified") ?? "";
    const polled = await api("GET", "/notifications", { headers: { "if-modified-since": lastModified } });
    expect(polled.status).toBe(200);
    expect(Date.parse(polled.headers.get("last-modified") ?? "")).toBeGreaterThan(Date.parse(lastModified));
  });

  it("leaves threads updated after last_read_at unread", async () => {
    const response = await api("PUT", "/notifications", {
      body: { last_read_at: "2026-01-13T00:00:00Z", read: true },
    });
    expect(response.status).toBe(205);
    const unread = await api("GET", "/notifications");
    expect(ids(unread.body)).toEqual(["2"]);
    const thread = await api("GET", "/notifications/threads/1");
    expect(thread.body).toMatchObject({ unread: false, last_read_at: "2026-01-13T00:00:00Z" });
  });

  it("marks everything up to now without a body", async () => {
    expect((await api("PUT", "/notifications")).status).toBe(205);
    const thread = (await api("GET", "/notifications/threads/2")).body;
    expect(thread.unread).toBe(false);
    expect(Math.abs(Date.parse(thread.last_read_at) - Date.now())).toBeLessThan(5_000);
  });

  it("marks threads unread again with read: false", async () => {
    const response = await api("PUT", "/notifications", {
      body: { last_read_at: "2026-01-10T00:00:00Z", read: false },
    });
    expect(response.status).toBe(205);
    expect(ids((await api("GET", "/notifications")).body)).toEqual(["2", "1", "3"]);
  });

  it.each([
    ["last_read_at", { last_read_at: "soon" }],
    ["last_read_at", { last_read_at: 1700000000 }],
    ["read", { read: "yes" }],
  ])("answers 422 naming %s and changes nothing", async (field, body) => {
    const before = await stateOf(sandbox.emulator);
    expectValidationFailed(await api("PUT", "/notifications", { body }), field, "invalid", "Notification");
    expect(await stateOf(sandbox.emulator)).toEqual(before);
  });

  it("answers 202 when more than 25 threads are unread, and a job marks them", async () => {
    await newThreads(24); // 26 unread
    expect((await control(sandbox.emulator, "PUT", "/jobs", { delayMs: 60_000 })).status).toBe(200);
    const queued = await api("PUT", "/notifications");
    expect(queued.status).toBe(202);
    expect(queued.body).toEqual({
      message:
        "Unread notifications couldn't be marked in a single request. Notifications are being marked as read in the background.",
    });
    expect((await api("GET", "/notifications?per_page=50")).body).toHaveLength(26);
    const jobs = await control(sandbox.emulator, "GET", "/jobs");
    expect(jobs.body.pending.map((j: Json) => [j.kind, j.data.user, j.data.read])).toEqual([
      ["notifications.markRead", "admin", true],
    ]);

    await control(sandbox.emulator, "POST", "/reset");
    await newThreads(24);
    await control(sandbox.emulator, "PUT", "/jobs", { delayMs: 0 });
    expect((await api("PUT", "/notifications")).status).toBe(202);
    expect((await api("GET", "/notifications")).body).toEqual([]);
    expect((await api("GET", "/notifications?all=true&per_page=50")).body).toHaveLength(27);
  });

  it("leaves unread a notification that arrives while the background marking is pending", async () => {
    await newThreads(24);
    await control(sandbox.emulator, "PUT", "/jobs", { delayMs: 60_000 });
    expect((await api("PUT", "/notifications")).status).toBe(202);
    await notify({ user: "admin", thread_id: "3", reason: "comment" });
    await runJobs(sandbox.emulator);
    expect(ids((await api("GET", "/notifications")).body)).toEqual(["3"]);
  });

  it("answers 205 with nothing to mark, leaving Last-Modified", async () => {
    const before = await api("GET", "/notifications", { token: TOKENS.owner });
    expect((await api("PUT", "/notifications", { token: TOKENS.owner })).status).toBe(205);
    const after = await api("GET", "/notifications", { token: TOKENS.owner });
    expect(after.headers.get("last-modified")).toBe(before.headers.get("last-modified"));
  });
});

describe("GET /notifications/threads/{thread_id}", () => {
  it("returns the thread as the list shows it", async () => {
    const list = await api("GET", "/notifications?all=true");
    const response = await api("GET", "/notifications/threads/3");
    expect(response.status).toBe(200);
    expect(response.body).toEqual(list.body[2]);
    expect(response.headers.get("last-modified")).toBe(new Date("2026-01-06T10:00:00Z").toUTCString());
    expectThreadSchema(response.body);
  });

  it("answers 404 for another user's thread, an unknown one and a malformed id", async () => {
    for (const [path, token] of [
      ["/notifications/threads/1", TOKENS.member],
      ["/notifications/threads/999", TOKENS.siteAdmin],
      ["/notifications/threads/abc", TOKENS.siteAdmin],
      ["/notifications/threads/01", TOKENS.siteAdmin],
    ] as const) {
      const response = await api("GET", path, { token });
      expect(response.status, path).toBe(404);
      expectErrorBody(response.body, "Not Found");
    }
  });

  it("answers 304 at no rate-limit cost when the thread is unchanged", async () => {
    const first = await api("GET", "/notifications/threads/1");
    const lastModified = first.headers.get("last-modified") ?? "";
    const polled = await api("GET", "/notifications/threads/1", {
      headers: { "if-modified-since": lastModified },
    });
    expect(polled.status).toBe(304);
    expect(polled.text).toBe("");
    expect(polled.headers.get("x-ratelimit-remaining")).toBe(first.headers.get("x-ratelimit-remaining"));
    await notify({ user: "admin", thread_id: "1" });
    const changed = await api("GET", "/notifications/threads/1", {
      headers: { "if-modified-since": lastModified },
    });
    expect(changed.status).toBe(200);
    expect(Number(changed.headers.get("x-ratelimit-remaining"))).toBe(
      Number(first.headers.get("x-ratelimit-remaining")) - 1,
    );
  });
});

describe("notifications arriving (control)", () => {
  it("keeps a thread's reason until a notification carries a different one", async () => {
    const reasons: string[] = [];
    const thread = async () => (await api("GET", "/notifications/threads/1")).body;
    const before = await thread();
    for (const reason of ["mention", undefined, "mention", "comment", undefined]) {
      const delivered = await notify({ user: "admin", thread_id: "1", ...(reason ? { reason } : {}) });
      reasons.push(delivered.reason);
    }
    expect(reasons).toEqual(["mention", "mention", "mention", "comment", "comment"]);
    const after = await thread();
    expect(after.reason).toBe("comment");
    expect(after.unread).toBe(true);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
  });

  it("makes a read thread unread and first in the list", async () => {
    const delivered = await notify({ user: "admin", thread_id: "3" });
    expect(delivered).toMatchObject({
      id: "3",
      unread: true,
      reason: "subscribed",
      last_read_at: "2026-01-06T10:00:00Z",
    });
    expect(ids((await api("GET", "/notifications")).body)).toEqual(["3", "2", "1"]);
  });

  it("starts a new thread for another user, seen by that user only", async () => {
    const created = await notify({
      user: "octocat",
      repository: "acme-eng/web",
      subject: { title: "Docs typo", type: "PullRequest", path: "pulls/9" },
      reason: "author",
    });
    expect(created).toMatchObject({ id: "4", reason: "author", unread: true, last_read_at: null });
    expect(created.subject.url).toBe(`${sandbox.emulator.url}/repos/acme-eng/web/pulls/9`);
    expect(
      ids((await api("GET", "/notifications?participating=true", { token: TOKENS.member })).body),
    ).toEqual(["4"]);
    expect((await api("GET", "/notifications/threads/4")).status).toBe(404);
    expect(ids((await api("GET", "/notifications")).body)).toEqual(["2", "1"]);
  });

  it.each([
    ["user", { repository: "acme-eng/web", subject: { title: "x" }, reason: "mention" }, "missing_field"],
    [
      "user",
      { user: "nobody", repository: "acme-eng/web", subject: { title: "x" }, reason: "mention" },
      "invalid",
    ],
    ["reason", { user: "admin", thread_id: "1", reason: "bored" }, "invalid"],
    ["reason", { user: "admin", repository: "acme-eng/web", subject: { title: "x" } }, "missing_field"],
    [
      "repository",
      { user: "admin", repository: "acme-eng/nope", subject: { title: "x" }, reason: "mention" },
      "invalid",
    ],
    ["subject", { user: "admin", repository: "acme-eng/web", reason: "mention" }, "missing_field"],
    [
      "subject.path",
      { user: "admin", repository: "acme-eng/web", subject: { title: "x", path: "../x" }, reason: "mention" },
      "invalid",
    ],
  ])("refuses a body without a valid %s", async (field, body, code) => {
    expectValidationFailed(
      await control(sandbox.emulator, "POST", "/notifications", body),
      field,
      code,
      "Notification",
    );
  });

  it("answers 404 for a thread of another user", async () => {
    expect(
      (await control(sandbox.emulator, "POST", "/notifications", { user: "octocat", thread_id: "1" })).status,
    ).toBe(404);
  });
});

describe("access", () => {
  it("needs API version 2026-03-10", async () => {
    const response = await call(sandbox.emulator, "GET", "/notifications");
    expect(response.status).toBe(400);
    expectErrorBody(response.body, /X-Service-Api-Version: 2026-03-10/);
  });

  it("refuses fine-grained and app tokens, and classic tokens without notifications or repo", async () => {
    for (const token of [TOKENS.fineGrained, TOKENS.install, APP_USER_TOKEN, TOKENS.noScopes]) {
      const response = await api("GET", "/notifications", { token });
      expect(response.status, token).toBe(403);
      expect(response.headers.get("x-accepted-oauth-scopes")).toBe("notifications, repo");
      expect(response.headers.get("x-ratelimit-remaining")).toBeNull();
    }
  });
});
