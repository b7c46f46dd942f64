/**
 * Rate-limit policy, kept apart from the transport. Each branch follows the platform's documented
 * behaviour for primary and secondary limits:
 * - 429, or 403 with `x-ratelimit-remaining: 0` (primary) or a message naming a secondary rate limit;
 * - wait for `retry-after` seconds when present;
 * - else, when the primary quota is spent, until `x-ratelimit-reset` (epoch seconds);
 * - else back off exponentially, starting at a minute for secondary limits as the docs advise.
 */

export interface RateLimitSignal {
  /** How long to wait before trying again, in milliseconds. */
  waitMs: number;
  kind: "primary" | "secondary";
}

/** A minute is the documented minimum wait after a secondary limit without `retry-after`. */
export const SECONDARY_LIMIT_FALLBACK_MS = 60_000;
/** Added to `x-ratelimit-reset` so a retry does not land just before the window opens. */
export const RESET_MARGIN_MS = 1_000;

export interface HeaderBag {
  get(name: string): string | undefined;
}

export function detectRateLimit(
  status: number,
  headers: HeaderBag,
  message: string | undefined,
  now: number,
  attempt: number,
  secondaryFallbackMs = SECONDARY_LIMIT_FALLBACK_MS,
): RateLimitSignal | undefined {
  if (status !== 403 && status !== 429) return undefined;
  const remaining = headers.get("x-ratelimit-remaining");
  const retryAfter = headers.get("retry-after");
  const secondary = /secondary rate limit/i.test(message ?? "");
  const primary = remaining === "0";
  if (status === 403 && !primary && !secondary && retryAfter === undefined) return undefined;
  const kind = primary && !secondary ? "primary" : "secondary";

  const retryAfterMs = parseRetryAfter(retryAfter, now);
  if (retryAfterMs !== undefined) return { waitMs: retryAfterMs, kind };

  const reset = Number(headers.get("x-ratelimit-reset"));
  if (primary && Number.isFinite(reset) && reset > 0) {
    return { waitMs: Math.max(0, reset * 1000 - now) + RESET_MARGIN_MS, kind };
  }
  return { waitMs: secondaryFallbackMs * 2 ** Math.max(0, attempt - 1), kind };
}

/** `retry-after` is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Bounded, adaptive concurrency (additive increase, multiplicative decrease). The self-managed
 * edition has rate limits off by default, so requests run in parallel up to `max`; a rate-limit
 * answer halves the window and pauses everyone until the server's wait is over.
 */
export class AdaptiveLimiter {
  private limit: number;
  private active = 0;
  private successes = 0;
  private readonly waiting: Array<() => void> = [];
  private pausedUntil = 0;

  constructor(
    private readonly max: number,
    private readonly min = 1,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = defaultSleep,
  ) {
    this.limit = max;
  }

  get currentLimit(): number {
    return this.limit;
  }

  async acquire(): Promise<() => void> {
    while (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.active++;
    const pause = this.pausedUntil - this.now();
    if (pause > 0) await this.sleep(pause);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.();
    };
  }

  onSuccess(): void {
    if (this.limit >= this.max) return;
    this.successes++;
    if (this.successes >= this.limit) {
      this.successes = 0;
      this.limit++;
      this.waiting.shift()?.();
    }
  }

  onRateLimited(waitMs: number): void {
    this.limit = Math.max(this.min, Math.floor(this.limit / 2));
    this.successes = 0;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + waitMs);
  }
}

export function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
