/**
 * The HTTP client: one visible chain of auth headers, logging, retry, bounded concurrency and
 * rate-limit handling over a keep-alive undici pool shared by the whole process.
 */
import { Agent, type Dispatcher, request as undiciRequest } from "undici";
import { API_VERSION_DEFAULT, type ClientSettings } from "./config";
import { type ApiErrorDetail, codeForStatus, HostingApiError, permissionHint, redact } from "./errors";
import { MAX_PER_PAGE, parseLinkHeader } from "./pagination";
import {
  AdaptiveLimiter,
  defaultSleep,
  detectRateLimit,
  type HeaderBag,
  SECONDARY_LIMIT_FALLBACK_MS,
} from "./rate-limit";

export const MEDIA_TYPE = "application/vnd.service+json";
export const USER_AGENT = "pulumi-hosting";

/** Attempts for an idempotent request that meets a 5xx or a network failure. */
export const DEFAULT_MAX_ATTEMPTS = 4;
export const DEFAULT_BASE_DELAY_MS = 250;
export const DEFAULT_MAX_DELAY_MS = 8_000;
/** Rate-limit waits longer than this fail instead, telling the user when to try again. */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 15 * 60_000;
export const DEFAULT_MAX_RATE_LIMIT_RETRIES = 5;
/** Requests in flight at once per client; the server's rate-limit answers shrink it. */
export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_TIMEOUT_MS = 60_000;

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(["GET", "HEAD", "PUT", "DELETE"]);

/** Failures that happen before the request reaches the server: safe to retry for any method. */
const CONNECT_ERRORS = new Set(["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "EAI_AGAIN"]);
const TIMEOUT_ERRORS = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);

export type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** The `X-Service-Api-Version` the endpoint is documented with; `hosting:apiVersion` overrides it. */
  apiVersion?: string;
  /**
   * Whether the request may be repeated after an ambiguous failure. Defaults by method (GET, HEAD,
   * PUT and DELETE are). A PATCH that sends the whole desired state may opt in.
   */
  idempotent?: boolean;
}

export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: HeaderBag;
}

export interface ClientOptions {
  dispatcher?: Dispatcher;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
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

let sharedAgent: Agent | undefined;

/** One keep-alive pool per process, shared by every client. */
export function sharedDispatcher(): Agent {
  sharedAgent ??= new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 32 });
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
  }

  get<T>(path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>("GET", path, options);
  }
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>("POST", path, { ...options, body });
  }
  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>("PATCH", path, { ...options, body });
  }
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>("PUT", path, { ...options, body });
  }
  delete<T = undefined>(path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>("DELETE", path, options);
  }

  /**
   * Follows `Link: rel="next"` until the last page, asking for the largest page size. `select`
   * picks the items out of an envelope (`{total_count, hooks: [...]}`); arrays are taken as they are.
   */
  async paginate<T>(
    path: string,
    options: RequestOptions & { select?: (body: unknown) => T[] } = {},
  ): Promise<T[]> {
    const { select, ...rest } = options;
    const items: T[] = [];
    let next: string | undefined = path;
    let query: Record<string, QueryValue> = { per_page: MAX_PER_PAGE, ...rest.query };
    while (next) {
      const page: ApiResponse<unknown> = await this.request<unknown>("GET", next, { ...rest, query });
      const pageItems = select ? select(page.data) : (page.data as T[]);
      if (!Array.isArray(pageItems)) {
        const url = new URL(/^https?:\/\//.test(next) ? next : this.apiRoot + next);
        throw this.unexpected("GET", url.pathname, "expected a list in the response body");
      }
      items.push(...pageItems);
      next = parseLinkHeader(page.headers.get("link")).next;
      query = {}; // the next link carries the query
    }
    return items;
  }

  async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = this.resolve(path, options.query);
    const display = url.pathname + url.search;
    const idempotent = options.idempotent ?? IDEMPOTENT.has(method);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.settings.token}`,
      accept: MEDIA_TYPE,
      "x-service-api-version": this.settings.apiVersion ?? options.apiVersion ?? API_VERSION_DEFAULT,
      "user-agent": USER_AGENT,
    };
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (body !== undefined) headers["content-type"] = "application/json";

    let attempt = 0;
    let rateLimitRetries = 0;
    for (;;) {
      attempt++;
      const release = await this.limiter.acquire();
      const started = this.opts.now();
      let response: Dispatcher.ResponseData;
      let text: string;
      try {
        response = await undiciRequest(url, {
          method,
          headers,
          body: body ?? null,
          dispatcher: this.dispatcher,
          headersTimeout: this.opts.timeoutMs,
          bodyTimeout: this.opts.timeoutMs,
        });
        text = await response.body.text();
      } catch (cause) {
        release();
        const failure = this.networkError(method, display, cause);
        const safe = idempotent || CONNECT_ERRORS.has(errorCode(cause));
        this.logLine(
          `${method} ${display} -> ${failure.code} (${errorCode(cause) || "error"}) attempt ${attempt}`,
        );
        if (safe && attempt < this.opts.maxAttempts) {
          await this.opts.sleep(this.backoff(attempt));
          continue;
        }
        throw failure;
      }
      release();
      const status = response.statusCode;
      const bag = headerBag(response.headers);
      this.logLine(`${method} ${display} -> ${status} in ${this.opts.now() - started}ms attempt ${attempt}`);
      const data = parseBody(text, bag.get("content-type"));

      if (status >= 200 && status < 300) {
        this.limiter.onSuccess();
        return { status, data: data as T, headers: bag };
      }

      const apiMessage = messageOf(data, text, status);
      const limit = detectRateLimit(
        status,
        bag,
        apiMessage,
        this.opts.now(),
        rateLimitRetries + 1,
        this.opts.secondaryFallbackMs,
      );
      if (limit) {
        // A rate-limited request was refused before it ran, so any method may be sent again.
        const retry =
          rateLimitRetries < this.opts.maxRateLimitRetries && limit.waitMs <= this.opts.maxRateLimitWaitMs;
        // Shrink the window either way, but only pause other requests for a wait within the cap.
        this.limiter.onRateLimited(limit.waitMs <= this.opts.maxRateLimitWaitMs ? limit.waitMs : 0);
        if (retry) {
          rateLimitRetries++;
          attempt--;
          this.logLine(`${method} ${display} rate limited (${limit.kind}); waiting ${limit.waitMs}ms`);
          await this.opts.sleep(limit.waitMs);
          continue;
        }
        throw this.httpError(method, display, status, bag, data, apiMessage, {
          code: "rate_limited",
          hint: `The server's ${limit.kind} rate limit is exhausted; try again in ${Math.ceil(limit.waitMs / 1000)}s`,
        });
      }

      if (status >= 500 && idempotent && attempt < this.opts.maxAttempts) {
        const retryAfter = Number(bag.get("retry-after"));
        await this.opts.sleep(
          Number.isFinite(retryAfter) && retryAfter > 0
            ? Math.min(retryAfter * 1000, this.opts.maxDelayMs)
            : this.backoff(attempt),
        );
        continue;
      }
      throw this.httpError(method, display, status, bag, data, apiMessage);
    }
  }

  private resolve(path: string, query: Record<string, QueryValue> | undefined): URL {
    let url: URL;
    if (/^https?:\/\//.test(path)) {
      url = new URL(path);
      // Links come from the server; never send the token to another host or outside the API root.
      if (url.origin !== this.origin) {
        throw this.unexpected(
          "GET",
          url.pathname,
          `refusing to follow a link to another host (${url.origin})`,
        );
      }
      if (!`${url.pathname}/`.startsWith(`${this.rootPath}/`)) {
        throw this.unexpected("GET", url.pathname, `refusing to follow a link outside ${this.apiRoot}`);
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

  /** Full-jitter exponential backoff (AWS architecture blog), capped. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }

  private httpError(
    method: string,
    path: string,
    status: number,
    headers: HeaderBag,
    data: unknown,
    apiMessage: string,
    override: { code?: "rate_limited"; hint?: string } = {},
  ): HostingApiError {
    // Everything the server sent back may echo the token; none of it is kept unredacted.
    const clean = (text: string) => redact(text, this.settings.token);
    const acceptedPermissions = headers.get("x-accepted-service-permissions");
    const acceptedScopes = headers.get("x-accepted-oauth-scopes");
    const body = isRecord(data) ? data : {};
    return new HostingApiError({
      code: override.code ?? codeForStatus(status),
      status,
      method,
      path,
      apiMessage: clean(apiMessage),
      errors: normaliseDetails(body.errors).map((d) =>
        Object.fromEntries(Object.entries(d).map(([k, v]) => [k, clean(v)])),
      ),
      ...(typeof body.documentation_url === "string"
        ? { documentationUrl: clean(body.documentation_url) }
        : {}),
      ...(acceptedPermissions ? { acceptedPermissions: clean(acceptedPermissions) } : {}),
      ...(acceptedScopes ? { acceptedScopes: clean(acceptedScopes) } : {}),
      ...optionalHint(override.hint ?? permissionHint(status, acceptedPermissions, acceptedScopes)),
    });
  }

  private networkError(method: string, path: string, cause: unknown): HostingApiError {
    const code = errorCode(cause);
    const timeout = TIMEOUT_ERRORS.has(code);
    const reason = redact(cause instanceof Error ? cause.message : String(cause), this.settings.token);
    return new HostingApiError({
      code: timeout ? "timeout" : "network_error",
      method,
      path,
      apiMessage: `${timeout ? "timed out" : "network failure"} talking to ${this.origin}: ${reason}${code ? ` (${code})` : ""}`,
      ...optionalHint(
        code === "ECONNREFUSED" || code === "ENOTFOUND"
          ? "Check hosting:baseUrl (or HOSTING_BASE_URL) and that the server is running"
          : undefined,
      ),
    });
  }

  private unexpected(method: string, path: string, message: string): HostingApiError {
    return new HostingApiError({ code: "unexpected_response", method, path, apiMessage: message });
  }

  private logLine(line: string): void {
    this.opts.log?.(redact(`hosting: ${line}`, this.settings.token));
  }
}

function optionalHint(hint: string | undefined): { hint?: string } {
  return hint ? { hint } : {};
}

function headerBag(raw: Record<string, string | string[] | undefined>): HeaderBag {
  return {
    get(name: string) {
      const value = raw[name.toLowerCase()];
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === "") return undefined;
  if (contentType && !/json/i.test(contentType)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function messageOf(data: unknown, text: string, status: number): string {
  if (isRecord(data) && typeof data.message === "string") return data.message;
  if (text.trim() !== "" && text.length < 300) return text.trim();
  return `HTTP ${status}`;
}

function normaliseDetails(raw: unknown): ApiErrorDetail[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((item): ApiErrorDetail => {
    if (typeof item === "string") return { message: item };
    if (!isRecord(item)) return { message: String(item) };
    const detail: ApiErrorDetail = {};
    for (const key of ["resource", "field", "code", "message"] as const) {
      if (typeof item[key] === "string") detail[key] = item[key];
    }
    return detail;
  });
}

function errorCode(e: unknown): string {
  if (!isRecord(e)) return "";
  if (typeof e.code === "string") return e.code;
  return isRecord(e.cause) && typeof e.cause.code === "string" ? e.cause.code : "";
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}
