/**
 * Notifications (spec, endpoints, Notifications): the caller's threads, listed with filters and
 * polled with `Last-Modified` / `If-Modified-Since` (a 304 costs no rate limit), marked read at once
 * (205) or in the background (202), and read one at a time. Classic tokens only, with scope
 * `notifications` or `repo` (Authentication 5-6), API version 2026-03-10 (Versioning).
 *
 * Controls: a notification arriving on a user's thread, and the rate limit these routes count.
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, APP_TOKENS, callerOf } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import { guard } from "../../core/guard";
import { invalidField, missingField, notFound, paginate, pathId, readBody } from "../../core/http";
import { scheduleJob } from "../../core/jobs";
import { findRepo, findUser } from "../../core/lookup";
import { chargeRateLimit, setRateLimit } from "../../core/rate-limits";
import { timestamp } from "../../core/store";
import type { StoredThread } from "./state";
import {
  countToMark,
  deliver,
  httpDate,
  lastModifiedOf,
  MARK_READ_INLINE_LIMIT,
  MARK_READ_JOB,
  MARK_READ_MESSAGE,
  markRead,
  NOTIFICATION_REASONS,
  NOTIFICATIONS_PER_PAGE_MAX,
  notModifiedSince,
  POLL_INTERVAL_SECONDS,
  parseDateTime,
  renderThread,
  threadsOf,
} from "./threads";

/** Classic tokens only; version 2026-03-10 only (the route table declares it). */
const NOTIFICATIONS: AccessRule = {
  scopes: ["notifications", "repo"],
  refuse: ["fine_grained", ...APP_TOKENS],
};

const RESOURCE = "Notification";
const N = ROUTES.notifications;

export function notificationRoutes(app: Hono<ServerEnv>): void {
  app.get(N.list.pattern, guard(NOTIFICATIONS), (c) => {
    const login = callerLogin(c);
    const store = c.get("store");
    let filters: Filters;
    try {
      filters = listFilters(c);
    } catch (e) {
      chargeRateLimit(c, true);
      throw e;
    }
    const lastModified = lastModifiedOf(store, login);
    c.header("Last-Modified", httpDate(lastModified));
    c.header("X-Poll-Interval", String(POLL_INTERVAL_SECONDS));
    if (notModifiedSince(c, lastModified)) {
      chargeRateLimit(c, false);
      return c.body(null, 304);
    }
    chargeRateLimit(c, true);
    const threads = threadsOf(store, login)
      .filter((t) => (filters.all || t.unread) && (!filters.participating || t.participating))
      .filter(
        (t) =>
          (!filters.since || t.updatedAt >= filters.since) &&
          (!filters.before || t.updatedAt < filters.before),
      )
      // Most recently updated first (the platform's description), then the newer thread.
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || Number(b.id) - Number(a.id));
    const page = paginate(c, threads, NOTIFICATIONS_PER_PAGE_MAX);
    return c.json(page.flatMap((t) => renderThread(c, store.state, t) ?? []));
  });

  app.put(N.markRead.pattern, guard(NOTIFICATIONS), async (c) => {
    const login = callerLogin(c);
    const store = c.get("store");
    chargeRateLimit(c, true);
    const body = await readBody(c);
    const lastReadAt =
      body.last_read_at === undefined
        ? timestamp()
        : parseDateTime(body.last_read_at, RESOURCE, "last_read_at");
    if (body.read !== undefined && typeof body.read !== "boolean") {
      throw invalidField(RESOURCE, "read", "read must be a boolean");
    }
    const read = body.read !== false;
    if (countToMark(store, login, lastReadAt, read) > MARK_READ_INLINE_LIMIT) {
      scheduleJob(store, c.get("controls"), MARK_READ_JOB, { user: login, lastReadAt, read });
      return c.json({ message: MARK_READ_MESSAGE }, 202);
    }
    markRead(store, login, lastReadAt, read);
    return c.body(null, 205);
  });

  app.get(N.thread.pattern, guard(NOTIFICATIONS), (c) => {
    const login = callerLogin(c);
    const store = c.get("store");
    const id = String(pathId(c, "thread_id"));
    const thread = threadsOf(store, login).find((t) => t.id === id);
    const rendered = thread && renderThread(c, store.state, thread);
    if (!thread || !rendered) {
      chargeRateLimit(c, true);
      throw notFound();
    }
    c.header("Last-Modified", httpDate(thread.changedAt));
    if (notModifiedSince(c, thread.changedAt)) {
      chargeRateLimit(c, false);
      return c.body(null, 304);
    }
    chargeRateLimit(c, true);
    return c.json(rendered);
  });
}

/** Control routes (`/_emulator/`): notifications arriving, and the limit the routes above count. */
export function notificationControls(app: Hono<ServerEnv>): void {
  // A notification for `user`: on `thread_id` (one of the user's threads), or on a new thread of
  // `repository` (`owner/name`) about `subject`. `reason` replaces the thread's when it differs;
  // omitted, the thread keeps its own (a new thread needs one).
  app.post("/notifications", async (c) => {
    const store = c.get("store");
    const state = store.state;
    const body = await readBody(c);
    if (typeof body.user !== "string") throw missingField(RESOURCE, "user");
    const user = findUser(state, body.user);
    if (!user) throw invalidField(RESOURCE, "user", `user ${body.user} does not exist`);
    if (body.reason !== undefined && !(NOTIFICATION_REASONS as readonly unknown[]).includes(body.reason)) {
      throw invalidField(RESOURCE, "reason", `reason must be one of ${NOTIFICATION_REASONS.join(", ")}`);
    }
    const reason = body.reason as string | undefined;
    let thread: StoredThread;
    if (body.thread_id !== undefined) {
      const existing = threadsOf(store, user.login).find((t) => t.id === String(body.thread_id));
      if (!existing) throw notFound();
      thread = deliver(store, {
        user: user.login,
        thread: existing,
        repoId: existing.repoId,
        subject: existing.subject,
        ...(reason ? { reason } : {}),
      });
    } else {
      if (reason === undefined) throw missingField(RESOURCE, "reason");
      const [owner = "", name = "", ...rest] =
        typeof body.repository === "string" ? body.repository.split("/") : [];
      const repo = rest.length === 0 ? findRepo(state, owner, name) : undefined;
      if (!repo)
        throw invalidField(RESOURCE, "repository", "repository must name a repository as owner/name");
      thread = deliver(store, {
        user: user.login,
        repoId: repo.id,
        subject: parseSubject(body.subject),
        reason,
      });
    }
    return c.json(renderThread(c, state, thread), body.thread_id === undefined ? 201 : 200);
  });

  // The primary rate limit of the counting routes: `{limit}` a token may use an hour; every
  // token's count starts again.
  app.put("/rate-limits", async (c) => {
    const limit = (await readBody(c)).limit;
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 1_000_000) {
      throw invalidField("RateLimit", "limit", "limit must be an integer from 1 to 1000000");
    }
    setRateLimit(c.get("controls"), limit);
    return c.json({ limit });
  });
}

interface Filters {
  all: boolean;
  participating: boolean;
  since?: string;
  before?: string;
}

function listFilters(c: Context<ServerEnv>): Filters {
  const since = c.req.query("since");
  const before = c.req.query("before");
  return {
    all: booleanQuery(c, "all"),
    participating: booleanQuery(c, "participating"),
    ...(since === undefined ? {} : { since: parseDateTime(since, RESOURCE, "since") }),
    ...(before === undefined ? {} : { before: parseDateTime(before, RESOURCE, "before") }),
  };
}

function booleanQuery(c: Context<ServerEnv>, name: string): boolean {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") return true;
  throw invalidField(RESOURCE, name, `${name} must be true or false`);
}

/** Classic tokens act as a user (installation tokens, which are not, are refused by the rule). */
function callerLogin(c: Context<ServerEnv>): string {
  const user = callerOf(c).user;
  if (!user) throw notFound();
  return user.login;
}

function parseSubject(raw: unknown): StoredThread["subject"] {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw missingField(RESOURCE, "subject");
  const subject = raw as Record<string, unknown>;
  if (typeof subject.title !== "string" || subject.title === "")
    throw missingField(RESOURCE, "subject.title");
  const type = subject.type ?? "Issue";
  const path = subject.path ?? "issues/1";
  if (typeof type !== "string" || !/^[A-Za-z]+$/.test(type)) {
    throw invalidField(RESOURCE, "subject.type", "subject.type must be a word such as Issue or PullRequest");
  }
  if (typeof path !== "string" || !/^[a-z_]+\/[0-9]+$/.test(path)) {
    throw invalidField(RESOURCE, "subject.path", "subject.path must be like issues/1 or pulls/7");
  }
  return { title: subject.title, type, path };
}
