/**
 * What a client and a request may be given, and the defaults: timeouts, concurrency, how long a
 * rate limit is waited for, and what an answer carries back.
 */
import type { Dispatcher } from "undici";
import type { AnswerData, BodyAnswer, ClientRoute, RouteMethod } from "../../api/route";
import type { HeaderBag } from "./rate-limit";

export const MEDIA_TYPE = "application/vnd.service+json";
export const USER_AGENT = "pulumi-hosting";

/** Rate-limit waits longer than this fail instead, telling the user when to try again. */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 15 * 60_000;
export const DEFAULT_MAX_RATE_LIMIT_RETRIES = 5;
/** Requests in flight at once per client; the server's rate-limit answers shrink it. */
export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_TIMEOUT_MS = 60_000;
/**
 * How long a client remembers that the server refused its token (401): for that long its requests
 * fail at once, without asking. A run is over long before; a process that lives longer (an
 * Automation API program) asks again after it.
 */
export const REFUSED_TOKEN_MEMORY_MS = 10 * 60_000;

export type QueryValue = string | number | boolean | undefined;

/** What a call may add to its route: the API version and the response schema come from the route. */
export interface RequestOptions {
  query?: Record<string, QueryValue>;
  /**
   * Whether the request may be repeated after an ambiguous failure. Defaults by method (GET, HEAD,
   * PUT and DELETE are). A PATCH that sends the whole desired state may opt in.
   */
  idempotent?: boolean;
  /**
   * How many redirects (301, 302, 307, 308 with a `Location`) a GET follows, within the API root
   * (a renamed branch answers 301 with where it is now). None by default: elsewhere a redirect is
   * a surprise to report, not to follow.
   */
  followRedirects?: number;
}

/** `post`, `patch` and `put`: a route of that method, its parameters and the body to send. */
export type WriteMethod<M extends RouteMethod> = <P, A extends BodyAnswer>(
  route: ClientRoute<M, P, A>,
  params: NoInfer<P>,
  body?: unknown,
  options?: RequestOptions,
) => Promise<ApiResponse<AnswerData<A>>>;

/** What one exchange sends beyond its method and path. */
export interface Exchange extends RequestOptions {
  body?: unknown;
  apiVersion: string;
}

export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: HeaderBag;
  /** The paths followed redirects led to, in order (below the API root); absent when none. */
  redirectedTo?: string[];
}

export interface ClientOptions {
  dispatcher?: Dispatcher;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** The longest `retry-after` of a 5xx waited out; past it the request fails saying when to retry. */
  maxRetryAfterMs?: number;
  maxRateLimitWaitMs?: number;
  maxRateLimitRetries?: number;
  secondaryFallbackMs?: number;
  concurrency?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Receives one line per request; the token never appears in it. */
  log?: (line: string) => void;
}
