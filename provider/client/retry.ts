/**
 * Retry policy for failures that are not rate limits (those are `rate-limit.ts`), kept apart from the
 * transport. Which requests may be sent again, and after how long:
 * - idempotent requests (GET, HEAD, PUT, DELETE, or any request that opts in) after a 5xx or a
 *   network failure, honouring a `retry-after` the server sends with its 5xx;
 * - any request after a connection failure, because nothing reached the server;
 * - never a POST after an ambiguous failure: the provider looks for what it may have made instead.
 */

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Attempts for an idempotent request that meets a 5xx or a network failure. */
export const DEFAULT_MAX_ATTEMPTS = 4;
export const DEFAULT_BASE_DELAY_MS = 250;
export const DEFAULT_MAX_DELAY_MS = 8_000;

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(["GET", "HEAD", "PUT", "DELETE"]);

/** Failures that happen before the request reaches the server: safe to retry for any method. */
const CONNECT_ERRORS: ReadonlySet<string> = new Set(["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "EAI_AGAIN"]);

export interface RetryOptions {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

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

  /** The wait before attempt `attempt + 1` after an answer of `status`, or undefined: do not retry. */
  afterStatus(
    attempt: number,
    idempotent: boolean,
    status: number,
    retryAfter: string | undefined,
  ): number | undefined {
    if (status < 500 || !idempotent || attempt >= this.opts.maxAttempts) return undefined;
    const seconds = Number(retryAfter);
    return Number.isFinite(seconds) && seconds > 0
      ? Math.min(seconds * 1000, this.opts.maxDelayMs)
      : this.backoff(attempt);
  }

  /** Full-jitter exponential backoff (AWS architecture blog), capped. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }
}
