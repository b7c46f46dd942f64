/**
 * Notification threads (spec, concepts, Notification thread; endpoints, Notifications): what a
 * user's threads are, how they render, how marking them read works (at once, or as a background
 * job when there are many), and how a new notification lands on a thread (a control: the platform
 * does it by itself when something happens on a repository).
 *
 * Times: `updated_at` is when the notification arrived. Every change of a user's threads is also
 * stamped (`changedAt`, what `Last-Modified` shows) one second past the user's previous change at
 * least, so `Last-Modified` (an HTTP date: seconds) moves on with every change and a poll with the
 * previous `If-Modified-Since` never misses a change made in the same second; in a burst of changes
 * it runs ahead of the clock by a second a change.
 */
import type { Context } from "hono";
import { ROUTES } from "../../../api";
import type { ServerEnv } from "../../core/context";
import { invalidField, urlOf } from "../../core/http";
import { pendingJobs, registerJob } from "../../core/jobs";
import { findOrg } from "../../core/lookup";
import { type EmulatorState, type Store, timestamp } from "../../core/store";
import { simpleRepository } from "../git/repository";
import type { StoredThread } from "./state";

/** The reasons the spec lists (the two whose names it cuts off are left out). */
export const NOTIFICATION_REASONS = [
  "approval_requested",
  "assign",
  "author",
  "ci_activity",
  "comment",
  "invitation",
  "manual",
  "mention",
  "review_requested",
  "security_alert",
  "state_change",
  "subscribed",
  "team_mention",
] as const;

/** Reasons that make the user a direct participant (the list's `participating` filter). */
const PARTICIPATING_REASONS = new Set([
  "approval_requested",
  "assign",
  "author",
  "comment",
  "manual",
  "mention",
  "review_requested",
  "state_change",
  "team_mention",
]);

/**
 * How many threads one PUT /notifications marks itself; with more, it answers 202 and a background
 * job marks them (spec, Other stated behaviours). The platform states no number.
 */
export const MARK_READ_INLINE_LIMIT = 25;

/** The list's `per_page` maximum (spec, Limits). */
export const NOTIFICATIONS_PER_PAGE_MAX = 50;

/** Seconds between polls the list asks for (`X-Poll-Interval`; spec, Limits). */
export const POLL_INTERVAL_SECONDS = 60;

/** `Last-Modified` of a user who never had a notification: the fixture's epoch. */
const NEVER_CHANGED = "2026-01-01T00:00:00Z";

export const MARK_READ_JOB = "notifications.markRead";

export const MARK_READ_MESSAGE =
  "Unread notifications couldn't be marked in a single request. Notifications are being marked as read in the background.";

export function threadsOf(store: Store, login: string): readonly Readonly<StoredThread>[] {
  return store.raw.notificationThreads.filter((t) => t.user === login);
}

/** The last change of the user's threads: ISO 8601, seconds. */
export function lastModifiedOf(store: Store, login: string): string {
  let last = NEVER_CHANGED;
  for (const t of threadsOf(store, login)) if (t.changedAt > last) last = t.changedAt;
  return last;
}

/** The stamp of a change now: one second past the user's last change at least (see above). */
function nextChange(store: Store, login: string): string {
  return timestamp(new Date(Math.max(Date.now(), Date.parse(lastModifiedOf(store, login)) + 1000)));
}

/**
 * Whether `If-Modified-Since` names the last change or a later time: the answer is then a 304.
 * An unparsable header is ignored, as HTTP says.
 */
export function notModifiedSince(c: Context<ServerEnv>, lastModified: string): boolean {
  const header = c.req.header("if-modified-since");
  if (header === undefined) return false;
  const since = Date.parse(header);
  return Number.isFinite(since) && since >= Date.parse(lastModified);
}

export function httpDate(iso: string): string {
  return new Date(iso).toUTCString();
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An ISO 8601 date-time (`YYYY-MM-DDTHH:MM:SSZ`, fractions and offsets allowed) as the state keeps
 * times (UTC, seconds); anything else, an impossible date included, is a 422 naming `field`.
 */
export function parseDateTime(raw: unknown, resource: string, field: string): string {
  const match = typeof raw === "string" ? DATE_TIME.exec(raw) : null;
  const ms = match ? Date.parse(raw as string) : Number.NaN;
  // Date.parse rolls 2026-02-30 over into March: the day must survive the round trip.
  const day = match && new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  const real = day && day.getUTCMonth() === Number(match?.[2]) - 1 && day.getUTCDate() === Number(match?.[3]);
  if (!Number.isFinite(ms) || !real) {
    throw invalidField(
      resource,
      field,
      `${field} must be an ISO 8601 timestamp (YYYY-MM-DDTHH:MM:SSZ); got ${JSON.stringify(raw)}`,
    );
  }
  return timestamp(new Date(ms));
}

/** The threads `markRead` changes: those updated at or before `lastReadAt` not yet in that state. */
function toMark(store: Store, login: string, lastReadAt: string, read: boolean) {
  return threadsOf(store, login).filter((t) => t.updatedAt <= lastReadAt && t.unread === read);
}

export function countToMark(store: Store, login: string, lastReadAt: string, read: boolean): number {
  return toMark(store, login, lastReadAt, read).length;
}

/**
 * Marks the user's threads updated at or before `lastReadAt` read (`read` true: `last_read_at`
 * becomes that time) or unread again (`read` false); threads updated later keep their state.
 */
export function markRead(store: Store, login: string, lastReadAt: string, read: boolean): number {
  const threads = toMark(store, login, lastReadAt, read);
  if (threads.length === 0) return 0;
  const changedAt = nextChange(store, login);
  for (const raw of threads) {
    const thread = store.tracked("notificationThreads", raw);
    thread.unread = !read;
    if (read) thread.lastReadAt = lastReadAt;
    thread.changedAt = changedAt;
  }
  return threads.length;
}

registerJob(MARK_READ_JOB, (store, data) => {
  markRead(store, String(data.user), String(data.lastReadAt), data.read !== false);
});

export interface Delivery {
  user: string;
  /** An existing thread of the user, or undefined for a new one. */
  thread?: Readonly<StoredThread>;
  repoId: number;
  subject: StoredThread["subject"];
  /** The notification's reason; undefined keeps the thread's. */
  reason?: string;
}

/**
 * A notification arrives for the user: on its thread (new or existing), which becomes unread and
 * updated now. The thread's reason is replaced only by a notification carrying a different one
 * (spec, Notification thread); one carrying none leaves it.
 */
export function deliver(store: Store, delivery: Delivery): StoredThread {
  // A pending mark-as-read must not catch a notification that arrives after it was asked for.
  const pending = pendingJobs(store, MARK_READ_JOB, { user: delivery.user }).map((j) =>
    Date.parse(String(j.data.lastReadAt)),
  );
  const now = timestamp(new Date(Math.max(Date.now(), ...pending.map((t) => t + 1000))));
  const changedAt = nextChange(store, delivery.user);
  if (delivery.thread) {
    const thread = store.tracked("notificationThreads", delivery.thread);
    if (delivery.reason !== undefined && delivery.reason !== thread.reason) thread.reason = delivery.reason;
    thread.participating ||= PARTICIPATING_REASONS.has(thread.reason);
    thread.unread = true;
    thread.updatedAt = now;
    thread.changedAt = changedAt;
    return thread;
  }
  const reason = delivery.reason ?? "subscribed";
  const highest = store.raw.notificationThreads.reduce((max, t) => Math.max(max, Number(t.id)), 0);
  const thread: StoredThread = {
    id: String(highest + 1),
    user: delivery.user,
    repoId: delivery.repoId,
    subject: delivery.subject,
    reason,
    unread: true,
    updatedAt: now,
    lastReadAt: null,
    participating: PARTICIPATING_REASONS.has(reason),
    changedAt,
  };
  store.state.notificationThreads.push(thread);
  return thread;
}

/** The thread as the API shows it; undefined when its repository is gone. */
export function renderThread(
  c: Context<ServerEnv>,
  state: EmulatorState,
  thread: Readonly<StoredThread>,
): Record<string, unknown> | undefined {
  const repo = state.fixture.repos.find((r) => r.id === thread.repoId);
  const org = repo && findOrg(state, repo.owner);
  if (!repo || !org) return undefined;
  const repository = simpleRepository(c, repo, org);
  const subjectUrl = `${repository.url}/${thread.subject.path}`;
  const url = urlOf(c, ROUTES.notifications.thread, { thread_id: thread.id });
  return {
    id: thread.id,
    repository,
    subject: {
      title: thread.subject.title,
      url: subjectUrl,
      latest_comment_url: subjectUrl,
      type: thread.subject.type,
    },
    reason: thread.reason,
    unread: thread.unread,
    updated_at: thread.updatedAt,
    last_read_at: thread.lastReadAt,
    url,
    subscription_url: `${url}/subscription`,
  };
}
