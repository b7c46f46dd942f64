/**
 * Retry policy for failures that are not rate limits (those are `rate-limit.ts`), kept apart from the
 * transport. Which requests may be sent again, and after how long:
 * - idempotent requests (GET, HEAD, PUT, DELETE, or any request that opts in) after a 5xx or a
 *   network failure, honouring a `retry-after` the server sends with its 5xx in full, up to
 *   `maxRetryAfterMs`; past it the request fails, saying when to try again (never sooner than
 *   the server asked);
 * - any request after a connection failure, because nothing reached the server;
 * - never a POST after an ambiguous failure: the provider looks for what it may have made instead.
 */

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Attempts for an idempotent request that meets a 5xx or a network failure. */
export const DEFAULT_MAX_ATTEMPTS = 4;
export const DEFAULT_BASE_DELAY_MS = 250;
export const DEFAULT_MAX_DELAY_MS = 8_000;
/** The longest `retry-after` of a 5xx this client waits out; a longer one fails saying when to retry. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(["GET", "HEAD", "PUT", "DELETE"]);

/** Failures that happen before the request reaches the server: safe to retry for any method. */
const CONNECT_ERRORS: ReadonlySet<string> = new Set(["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "EAI_AGAIN"]);

export interface RetryOptions {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
}

/** After an answer: wait and send again, or stop (with the server's wait when it was too long). */
export type RetryDecision = { retry: true; waitMs: number } | { retry: false; askedMs?: number };

/** Whether a request may be repeated after an ambiguous failure; `override` is the caller's say. */
export function isIdempotent(method: HttpMethod, override: boolean | undefined): boolean {
  return override ?? IDEMPOTENT.has(method);
}

export class RetryPolicy {
  constructor(private readonly opts: RetryOptions) {}

  /**
   * The wait before attempt `attempt + 1` after a network failure with the given error code, or
   * undefined when the request must not be sent again.
   */
  afterNetworkFailure(attempt: number, idempotent: boolean, code: string): number | undefined {
    const safe = idempotent || CONNECT_ERRORS.has(code);
    return safe && attempt < this.opts.maxAttempts ? this.backoff(attempt) : undefined;
  }

  /**
   * Whether to send attempt `attempt + 1` after an answer of `status`, and after how long. A 5xx's
   * `retry-after` (seconds or an HTTP date, `retryAfterMs`) is waited in full, never shortened.
   */
  afterStatus(
    attempt: number,
    idempotent: boolean,
    status: number,
    retryAfterMs: number | undefined,
  ): RetryDecision {
    if (status < 500 || !idempotent || attempt >= this.opts.maxAttempts) return { retry: false };
    if (retryAfterMs === undefined || retryAfterMs <= 0)
      return { retry: true, waitMs: this.backoff(attempt) };
    if (retryAfterMs > this.opts.maxRetryAfterMs) return { retry: false, askedMs: retryAfterMs };
    return { retry: true, waitMs: retryAfterMs };
  }

  /** Full-jitter exponential backoff (AWS architecture blog), capped. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }
}
