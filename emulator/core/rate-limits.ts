/**
 * The primary rate limit of the routes that count requests (the notification routes): a count per
 * token in a window of one hour from the token's first counted request, shown in the
 * `X-RateLimit-*` headers. The spec states no numbers ("Numeric rate limit values: not shown") and
 * only one rule, that a 304 of notification polling consumes none (Errors); the limit is the
 * platform's usual 5,000 an hour, a control setting so tests can run out of it
 * (docs/DECISIONS.md, "Notifications").
 *
 * The counts are the server's metering of requests, kept in memory with the other controls
 * (`Controls.primaryRateLimit`), never in the store: a request that fails, and is undone, still
 * counted, as on the platform, and the state tests compare stays the same.
 */
import type { Context } from "hono";
import type { ServerEnv } from "./context";
import { type Controls, RATE_LIMIT_WINDOW_MS } from "./controls";
import { ApiFailure } from "./http";

/** Sets the limit (a control) and starts every token's window afresh. */
export function setRateLimit(controls: Controls, limit: number): void {
  controls.primaryRateLimit = { limit, windows: new Map() };
}

/**
 * Counts the request against its token when `charge` (a 304 of polling passes false) and sets the
 * `X-RateLimit-*` headers; a token with nothing left gets the platform's 403, without the request
 * being done.
 */
export function chargeRateLimit(c: Context<ServerEnv>, charge: boolean, now = Date.now()): void {
  const limits = c.get("controls").primaryRateLimit;
  const token = /\S+$/.exec(c.req.header("authorization") ?? "")?.[0] ?? "";
  let window = limits.windows.get(token);
  if (!window || window.resetAt <= now) {
    window = { used: 0, resetAt: now + RATE_LIMIT_WINDOW_MS };
    limits.windows.set(token, window);
  }
  const headers = (used: number): Record<string, string> => ({
    "X-RateLimit-Limit": String(limits.limit),
    "X-RateLimit-Remaining": String(Math.max(0, limits.limit - used)),
    "X-RateLimit-Used": String(used),
    "X-RateLimit-Reset": String(Math.ceil(window.resetAt / 1000)),
    "X-RateLimit-Resource": "core",
  });
  if (charge && window.used >= limits.limit) {
    const user = c.get("caller")?.user;
    throw new ApiFailure(
      403,
      `API rate limit exceeded${user ? ` for user ID ${user.id}` : ""}.`,
      undefined,
      headers(window.used),
    );
  }
  if (charge) window.used++;
  for (const [name, value] of Object.entries(headers(window.used))) c.header(name, value);
}
