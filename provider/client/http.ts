/**
 * The HTTP client: one visible chain of auth headers, logging, bounded concurrency, rate limits
 * (`rate-limit.ts`) and retries (`retry.ts`) over a keep-alive undici pool shared by the whole
 * process. It sends nothing but routes of the table (`routes.ts`): each route gives the path from
 * its parameters, the `X-Service-Api-Version` to send and the zod schema its answer is validated
 * with, so a surprise from the server fails clearly instead of corrupting state. Errors are built
 * in `errors.ts`.
 */
import type { Agent, Dispatcher } from "undici";
import type { Answer, AnswerData, BodyAnswer, ClientRoute, ItemOf, ListAnswer, RouteMethod } from "../../api";
import { MAX_PER_PAGE, parseLinkHeader } from "../../api/pagination";
import { headerBag, parseBody, validate } from "./bodies";
import {
  type ApiResponse,
  type ClientOptions,
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_RATE_LIMIT_RETRIES,
  DEFAULT_MAX_RATE_LIMIT_WAIT_MS,
  DEFAULT_TIMEOUT_MS,
  type Exchange,
  MEDIA_TYPE,
  type QueryValue,
  REFUSED_TOKEN_MEMORY_MS,
  type RequestOptions,
  USER_AGENT,
  type WriteMethod,
} from "./options";

export * from "./options";

import type { ClientSettings } from "./config";
import {
  errorCode,
  errorFromResponse,
  type FailedResponse,
  type HostingApiError,
  isHostingApiError,
  messageOf,
  networkError,
  redact,
  refusedEarlierError,
  unexpectedResponse,
} from "./errors";
import {
  AdaptiveLimiter,
  defaultSleep,
  detectRateLimit,
  type HeaderBag,
  parseRetryAfter,
  SECONDARY_LIMIT_FALLBACK_MS,
} from "./rate-limit";
import {
  DEFAULT_BASE_DELAY_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_MAX_RETRY_AFTER_MS,
  type HttpMethod,
  isIdempotent,
  RetryPolicy,
} from "./retry";

export {
  DEFAULT_BASE_DELAY_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_MAX_RETRY_AFTER_MS,
  type HttpMethod,
  validate,
};

/** Statuses whose `Location` a GET may follow when the caller asks (`followRedirects`). */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 307, 308]);

let sharedAgent: Agent | undefined;

let undici: typeof import("undici") | undefined;

/**
 * undici, loaded on first use rather than with this module: a program and a plain preview send no
 * request, and loading it costs about 40 ms in each process that would (docs/DECISIONS.md).
 */
function loadUndici(): typeof import("undici") {
  undici ??= require("undici") as typeof import("undici");
  return undici;
}

/** One keep-alive pool per process, shared by every client. */
export function sharedDispatcher(): Agent {
  sharedAgent ??= new (loadUndici().Agent)({
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    connections: 32,
  });
  return sharedAgent;
}

export class HostingClient {
  readonly apiRoot: string;
  private readonly origin: string;
  private readonly rootPath: string;
  private readonly limiter: AdaptiveLimiter;
  private readonly opts: Required<Omit<ClientOptions, "dispatcher" | "log">> & {
    log: ((line: string) => void) | undefined;
  };
  private readonly dispatcher: Dispatcher;
  private readonly retry: RetryPolicy;
  /** The server's first refusal of the token (401), and when: later requests fail at once. */
  private refusal: { error: HostingApiError; at: number } | undefined;

  constructor(
    private readonly settings: ClientSettings,
    options: ClientOptions = {},
  ) {
    this.apiRoot = settings.apiRoot;
    this.origin = new URL(settings.apiRoot).origin;
    this.rootPath = new URL(settings.apiRoot).pathname.replace(/\/$/, "");
    this.dispatcher = options.dispatcher ?? sharedDispatcher();
    this.opts = {
      maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      baseDelayMs: options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS,
      maxDelayMs: options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
      maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
      maxRateLimitWaitMs: options.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS,
      maxRateLimitRetries: options.maxRateLimitRetries ?? DEFAULT_MAX_RATE_LIMIT_RETRIES,
      secondaryFallbackMs: options.secondaryFallbackMs ?? SECONDARY_LIMIT_FALLBACK_MS,
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      sleep: options.sleep ?? defaultSleep,
      now: options.now ?? Date.now,
      log: options.log,
    };
    this.limiter = new AdaptiveLimiter(this.opts.concurrency, 1, this.opts.now, this.opts.sleep);
    this.retry = new RetryPolicy(this.opts);
  }

  /** GET a route: its answer validated and typed by the route (one page, for a list). */
  get<P, A extends Answer>(
    route: ClientRoute<"GET", P, A>,
    params: NoInfer<P>,
    options?: RequestOptions,
  ): Promise<ApiResponse<AnswerData<A>>> {
    return this.call(route, params, undefined, options);
  }
  /** POST a body to a route; the answer is validated and typed by the route. */
  readonly post: WriteMethod<"POST"> = this.writer();
  /** PATCH a body to a route; the answer is validated and typed by the route. */
  readonly patch: WriteMethod<"PATCH"> = this.writer();
  /** PUT a body to a route; the answer is validated and typed by the route. */
  readonly put: WriteMethod<"PUT"> = this.writer();
  /** DELETE a route; the answer is validated and typed by the route. */
  delete<P, A extends BodyAnswer>(
    route: ClientRoute<"DELETE", P, A>,
    params: NoInfer<P>,
    options?: RequestOptions,
  ): Promise<ApiResponse<AnswerData<A>>> {
    return this.call(route, params, undefined, options);
  }

  /**
   * Every item of a list route: follows `Link: rel="next"` until the last page, asking for the
   * largest page size. The route says where the items are in a page (an envelope such as
   * `{total_count, hooks: [...]}`, or the page itself) and validates every item.
   */
  async paginate<P, A extends ListAnswer>(
    route: ClientRoute<"GET", P, A>,
    params: NoInfer<P>,
    options: RequestOptions = {},
  ): Promise<Array<ItemOf<A>>> {
    const path = route.path(params);
    const exchange: Exchange = { ...options, apiVersion: route.apiVersion };
    const items: unknown[] = [];
    let next: string | undefined = path;
    let query: Record<string, QueryValue> = { per_page: MAX_PER_PAGE, ...options.query };
    while (next) {
      const page: ApiResponse<unknown> = await this.request<unknown>("GET", next, { ...exchange, query });
      const url = new URL(/^https?:\/\//.test(next) ? next : this.apiRoot + next);
      items.push(...this.pageItems(route.answer, page.data, url));
      next = parseLinkHeader(page.headers.get("link")).next;
      query = {}; // the next link carries the query
    }
    return items.map((item) => validate(route.answer.item, item, "GET", path)) as Array<ItemOf<A>>;
  }

  private writer<M extends RouteMethod>(): WriteMethod<M> {
    return (route, params, body, options) => this.call(route, params, body, options);
  }

  /** One request of a route: the path built from its parameters, its version sent, its answer read. */
  private async call<P, A extends Answer>(
    route: ClientRoute<RouteMethod, P, A>,
    params: P,
    body: unknown,
    options: RequestOptions = {},
  ): Promise<ApiResponse<AnswerData<A>>> {
    const path = route.path(params);
    const response = await this.request<unknown>(route.method, path, {
      ...options,
      ...(body === undefined ? {} : { body }),
      apiVersion: route.apiVersion,
    });
    const answer: Answer = route.answer;
    let data: unknown;
    if (answer.kind === "list") {
      const items = this.pageItems(answer, response.data, this.resolve(path, options.query));
      data = items.map((item) => validate(answer.item, item, route.method, path));
    } else if (!answer.bodyless.includes(response.status)) {
      data = validate(answer.schema, response.data, route.method, path);
    }
    return { ...response, data: data as AnswerData<A> };
  }

  /** The items of one page of a list route; anything but a list there is an unexpected answer. */
  private pageItems(answer: ListAnswer, body: unknown, url: URL): unknown[] {
    const items = answer.select ? answer.select(body) : body;
    if (!Array.isArray(items)) {
      throw unexpectedResponse("GET", this.shown(url), "expected a list in the response body");
    }
    return items;
  }

  /**
   * A URL as errors and logs show it: below the API root, as programs and the API's docs write
   * paths, whatever prefix the base URL carries (`/api/v3`, a proxy's).
   */
  private shown(url: URL): string {
    const below = `${url.pathname}/`.startsWith(`${this.rootPath}/`);
    return (below ? url.pathname.slice(this.rootPath.length) || "/" : url.pathname) + url.search;
  }

  /** One exchange with retries, rate limits and redirects; `path` is a route's path or a server's link. */
  private async request<T>(method: HttpMethod, path: string, options: Exchange): Promise<ApiResponse<T>> {
    let url = this.resolve(path, options.query);
    let display = this.shown(url);
    const redirectedTo: string[] = [];
    const idempotent = isIdempotent(method, options.idempotent);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.settings.token}`,
      accept: MEDIA_TYPE,
      "x-service-api-version": this.settings.apiVersion ?? options.apiVersion,
      "user-agent": USER_AGENT,
    };
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (body !== undefined) headers["content-type"] = "application/json";

    let attempt = 0;
    let rateLimitRetries = 0;
    for (;;) {
      attempt++;
      const sent = await this.send(url, method, headers, body);
      if ("cause" in sent) {
        const failure = networkError(method, display, this.origin, sent.cause, this.settings.token);
        const code = errorCode(sent.cause);
        this.logLine(`${method} ${display} -> ${failure.code} (${code || "error"}) attempt ${attempt}`);
        const wait = this.retry.afterNetworkFailure(attempt, idempotent, code);
        if (wait === undefined) throw failure;
        await this.opts.sleep(wait);
        continue;
      }
      const { status, headers: bag, text, ms } = sent;
      this.logLine(`${method} ${display} -> ${status} in ${ms}ms attempt ${attempt}`);
      const data = parseBody(text, bag.get("content-type"));
      if (status >= 200 && status < 300) {
        this.limiter.onSuccess();
        return {
          status,
          data: data as T,
          headers: bag,
          ...(redirectedTo.length > 0 ? { redirectedTo } : {}),
        };
      }
      const location = bag.get("location");
      if (
        REDIRECTS.has(status) &&
        location &&
        method === "GET" &&
        redirectedTo.length < (options.followRedirects ?? 0)
      ) {
        // `resolve` keeps the token on this host and below the API root, wherever the server points.
        url = this.resolve(new URL(location, url).toString(), undefined);
        display = this.shown(url);
        redirectedTo.push(display);
        attempt = 0;
        continue;
      }

      const failed: FailedResponse = {
        method,
        path: display,
        status,
        headers: bag,
        data,
        apiMessage: messageOf(data, text, status),
      };
      const limit = detectRateLimit(
        status,
        bag,
        failed.apiMessage,
        this.opts.now(),
        rateLimitRetries + 1,
        this.opts.secondaryFallbackMs,
      );
      if (limit) {
        // A rate-limited request was refused before it ran, so any method may be sent again.
        const withinCap = limit.waitMs <= this.opts.maxRateLimitWaitMs;
        // Shrink the window either way, but only pause other requests for a wait within the cap.
        this.limiter.onRateLimited(withinCap ? limit.waitMs : 0);
        if (rateLimitRetries < this.opts.maxRateLimitRetries && withinCap) {
          rateLimitRetries++;
          attempt--;
          this.logLine(`${method} ${display} rate limited (${limit.kind}); waiting ${limit.waitMs}ms`);
          await this.opts.sleep(limit.waitMs);
          continue;
        }
        throw errorFromResponse(failed, this.settings.token, {
          code: "rate_limited",
          hint: `The server's ${limit.kind} rate limit is exhausted; try again in ${Math.ceil(limit.waitMs / 1000)}s`,
        });
      }

      if (status === 401) throw this.refused(failed);

      const asked = parseRetryAfter(bag.get("retry-after"), this.opts.now());
      const decision = this.retry.afterStatus(attempt, idempotent, status, asked);
      if (!decision.retry) {
        const later =
          decision.askedMs === undefined
            ? {}
            : {
                hint: `The server asked to retry after ${Math.ceil(decision.askedMs / 1000)}s, longer than this client waits (${Math.round(this.opts.maxRetryAfterMs / 1000)}s); try again after ${new Date(this.opts.now() + decision.askedMs).toISOString()}`,
              };
        throw errorFromResponse(failed, this.settings.token, later);
      }
      await this.opts.sleep(decision.waitMs);
    }
  }

  /**
   * The error for a 401: the first of this client says what to do and is remembered; one that
   * comes back after it (a request sent before it arrived) is the short line pointing to it.
   */
  private refused(failed: FailedResponse): HostingApiError {
    const earlier = this.refusedEarlier(failed.method, failed.path, true);
    if (earlier) return earlier;
    const error = errorFromResponse(failed, this.settings.token, { origin: this.settings.tokenOrigin });
    this.refusal = { error, at: this.opts.now() };
    return error;
  }

  /**
   * What a caller that joined another's request reports when it failed (reads shared within a
   * run): the token's refusal is said in full once, by the request that got it; every caller that
   * shared it gets the short line pointing to it. Any other failure is the same error.
   */
  sharedFailure(e: unknown): unknown {
    if (!isHostingApiError(e) || this.refusal?.error !== e) return e;
    return this.refusedEarlier(e.method ?? "GET", e.path ?? "", true) ?? e;
  }

  /** The short error of a request made after the token was refused, while that is remembered. */
  private refusedEarlier(method: string, path: string, answered: boolean): HostingApiError | undefined {
    if (this.refusal === undefined) return undefined;
    if (this.opts.now() - this.refusal.at > REFUSED_TOKEN_MEMORY_MS) {
      this.refusal = undefined;
      return undefined;
    }
    return refusedEarlierError(
      { method, path },
      this.refusal.error,
      this.settings.tokenOrigin?.source,
      answered,
    );
  }

  /**
   * One exchange under the concurrency limit: the answer, or the network failure. Throws without
   * sending when the token was refused while the request waited for its turn.
   */
  private async send(
    url: URL,
    method: HttpMethod,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<{ status: number; headers: HeaderBag; text: string; ms: number } | { cause: unknown }> {
    const release = await this.limiter.acquire();
    const refused = this.refusedEarlier(method, this.shown(url), false);
    if (refused) {
      release();
      this.logLine(`${refused.method} ${refused.path} not sent: the token was refused earlier`);
      throw refused;
    }
    const started = this.opts.now();
    try {
      const response = await loadUndici().request(url, {
        method,
        headers,
        body: body ?? null,
        dispatcher: this.dispatcher,
        headersTimeout: this.opts.timeoutMs,
        bodyTimeout: this.opts.timeoutMs,
      });
      const text = await response.body.text();
      return {
        status: response.statusCode,
        headers: headerBag(response.headers),
        text,
        ms: this.opts.now() - started,
      };
    } catch (cause) {
      return { cause };
    } finally {
      release();
    }
  }

  private resolve(path: string, query: Record<string, QueryValue> | undefined): URL {
    let url: URL;
    if (/^https?:\/\//.test(path)) {
      url = new URL(path);
      // Links come from the server; never send the token to another host or outside the API root.
      if (url.origin !== this.origin) {
        throw unexpectedResponse(
          "GET",
          url.pathname,
          `refusing to follow a link to another host (${url.origin})`,
        );
      }
      if (!`${url.pathname}/`.startsWith(`${this.rootPath}/`)) {
        throw unexpectedResponse("GET", url.pathname, `refusing to follow a link outside ${this.apiRoot}`);
      }
    } else {
      if (!path.startsWith("/")) throw new Error(`API paths start with "/": ${path}`);
      url = new URL(this.apiRoot + path);
    }
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }

  private logLine(line: string): void {
    this.opts.log?.(redact(`hosting: ${line}`, this.settings.token));
  }
}
