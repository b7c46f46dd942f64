/**
 * Conditional requests (spec, Errors: 304 "Not modified (conditional requests ... user key
 * endpoints)"): a GET answers with an `ETag` (and `Last-Modified` where the object has one date that
 * every change moves); a request whose `If-None-Match` names that tag, or, without one, whose
 * `If-Modified-Since` is not before that date, gets a 304 without a body.
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";
import type { ServerEnv } from "./context";

/** What the platform says about caching answers that depend on who asks. */
const CACHE_CONTROL = "private, max-age=60, s-maxage=60";
const VARY = "Accept, Authorization, Cookie";

/**
 * Answers `body` as JSON with 200, or a 304 when the request's validators match. The tag is a hash
 * of the body and of the request's path and query (a page and its `Link` belong to the URL).
 * `lastModified` is an ISO timestamp.
 */
export function conditionalJson(c: Context<ServerEnv>, body: unknown, lastModified?: string): Response {
  const text = JSON.stringify(body);
  const url = new URL(c.req.url);
  const digest = createHash("sha256").update(`${url.pathname}${url.search}\n${text}`).digest("hex");
  const etag = `W/"${digest.slice(0, 40)}"`;
  c.header("ETag", etag);
  c.header("Cache-Control", CACHE_CONTROL);
  c.header("Vary", VARY);
  if (lastModified !== undefined) c.header("Last-Modified", new Date(lastModified).toUTCString());
  if (notModified(c.req.header("if-none-match"), c.req.header("if-modified-since"), etag, lastModified)) {
    return c.body(null, 304);
  }
  return c.json(body);
}

/**
 * RFC 9110 13.1: `If-None-Match` (weak comparison, `*` matches any) decides when present;
 * `If-Modified-Since` counts only without it, and only where the answer has a date.
 */
export function notModified(
  ifNoneMatch: string | undefined,
  ifModifiedSince: string | undefined,
  etag: string,
  lastModified: string | undefined,
): boolean {
  if (ifNoneMatch !== undefined) {
    const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
    return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
  }
  if (ifModifiedSince === undefined || lastModified === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  // HTTP dates have whole seconds: compare at that precision.
  return Number.isFinite(since) && Math.floor(Date.parse(lastModified) / 1000) * 1000 <= since;
}
