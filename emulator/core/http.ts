/**
 * Request and response helpers of the sandbox server: one factory per error the platform returns
 * (body `{message, documentation_url, errors?}`), pagination with `per_page` limits and `Link`
 * headers, the API prefix, path ids, and the request-body reader with its size limit.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { integerParam } from "../../api";
import type { ServerEnv } from "./context";

export const DOCS_URL = "https://docs.hosting.invalid/rest";

/** The self-managed edition serves its API below this prefix. */
export const API_PREFIX = "/api/v3";

/**
 * Request bodies larger than this are refused with 413 before they are parsed. The spec states no
 * limit ("Request body size limits: not shown"); 1 MiB is far above any body of the routes served
 * here (docs/DECISIONS.md).
 */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/** How deep a request body may nest objects and arrays (the deepest body served needs 4). */
export const MAX_BODY_DEPTH = 32;

/** How many items one array of a request body may hold. */
export const MAX_ARRAY_ITEMS = 10_000;

/** How many items an error list shows; one more item says how many were left out. */
export const MAX_ERRORS = 100;

export interface ErrorItem {
  resource?: string;
  field?: string;
  code: "missing" | "missing_field" | "invalid" | "already_exists" | "unprocessable" | "custom";
  message?: string;
}

/** Thrown by handlers; the app turns it into the platform's error body. */
export class ApiFailure extends Error {
  readonly errors?: ErrorItem[];

  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    errors?: ErrorItem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    if (errors) this.errors = capped(errors);
  }

  body(): Record<string, unknown> {
    return {
      message: this.message,
      documentation_url: DOCS_URL,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

/** The first `MAX_ERRORS` items, and one that counts the rest. */
function capped(errors: ErrorItem[]): ErrorItem[] {
  if (errors.length <= MAX_ERRORS) return errors;
  const left = errors.length - MAX_ERRORS;
  return [
    ...errors.slice(0, MAX_ERRORS),
    { code: "custom", message: `${left} more error${left === 1 ? "" : "s"} not shown` },
  ];
}

export const badRequest = (message: string) => new ApiFailure(400, message);
export const unauthorized = (message = "Requires authentication") => new ApiFailure(401, message);
export const forbidden = (message: string) => new ApiFailure(403, message);
export const notFound = () => new ApiFailure(404, "Not Found");
/** `headers`: `connection: close` when the rest of the body is left unread on the connection. */
export const payloadTooLarge = (headers: Record<string, string> = {}) =>
  new ApiFailure(
    413,
    `Request body is larger than the limit of ${MAX_REQUEST_BODY_BYTES} bytes`,
    undefined,
    headers,
  );
export const validationFailed = (...errors: ErrorItem[]) => new ApiFailure(422, "Validation Failed", errors);
/** 422 for a required field the body lacks. */
export const missingField = (resource: string, field: string) =>
  validationFailed({ resource, field, code: "missing_field", message: `${field} is missing` });
/** 422 for a field (or query parameter) whose value is not accepted. */
export const invalidField = (resource: string, field: string, message: string) =>
  validationFailed({ resource, field, code: "invalid", message });

export const PER_PAGE_DEFAULT = 30;
export const PER_PAGE_MAX = 100;

/** Reads `page` and `per_page` as the platform does: defaults 1 and 30, at most 100 a page. */
export function pageParams(c: Context<ServerEnv>, max = PER_PAGE_MAX): { page: number; perPage: number } {
  const perPageRaw = Number.parseInt(c.req.query("per_page") ?? "", 10);
  const pageRaw = Number.parseInt(c.req.query("page") ?? "", 10);
  const perPage =
    Number.isFinite(perPageRaw) && perPageRaw > 0 ? Math.min(perPageRaw, max) : PER_PAGE_DEFAULT;
  const page = Number.isFinite(pageRaw) && pageRaw > 0 ? pageRaw : 1;
  return { page, perPage };
}

/** Slices one page and sets `Link` (first, prev, next, last) when there is more than one page. */
export function paginate<T>(c: Context<ServerEnv>, items: readonly T[], max = PER_PAGE_MAX): T[] {
  const { page, perPage } = pageParams(c, max);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  if (last > 1) {
    const link = (p: number, rel: string) => {
      const url = new URL(c.req.url);
      url.searchParams.set("page", String(p));
      url.searchParams.set("per_page", String(perPage));
      return `<${url.toString()}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (page > 1) links.push(link(page - 1, "prev"));
    if (page < last) links.push(link(page + 1, "next"));
    links.push(link(last, "last"));
    if (page > 1) links.push(link(1, "first"));
    c.header("Link", links.join(", "));
  }
  return items.slice((page - 1) * perPage, page * perPage);
}

/**
 * A path id (`hook_id`, `runner_group_id`, `runner_id`, `org_id`, ...): a plain decimal integer, digits
 * only, without sign, spaces, exponent, hex prefix or leading zero, within the safe integer range.
 * Anything else names no object: 404, as on the platform (docs/DECISIONS.md).
 */
export function pathId(c: Context<ServerEnv>, name: string): number {
  const id = integerParam(c.req.param(name) ?? "");
  if (id === undefined) throw notFound();
  return id;
}

/**
 * Reads the whole body of a request that has one, before its transaction starts: a body that
 * arrives slowly must not act on what the store held when its request began.
 */
export async function bufferBody(c: Context<ServerEnv>): Promise<void> {
  if (c.req.method === "GET" || c.req.method === "HEAD") return;
  c.set("bodyText", await readText(c));
}

/** Parses a JSON object body; an unparsable body is a 400, as on the platform; a large one a 413. */
export async function readBody(c: Context<ServerEnv>): Promise<Record<string, unknown>> {
  const text = c.get("bodyText") ?? (await readText(c));
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest("Problems parsing JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw badRequest("Body should be a JSON object");
  }
  checkBounds(parsed);
  return parsed as Record<string, unknown>;
}

/**
 * Refuses (422, naming the field and the limit) a body nested deeper than `MAX_BODY_DEPTH` or with
 * an array longer than `MAX_ARRAY_ITEMS`, before any handler walks it: nothing past the limits can
 * reach a recursive or spreading code path. The walk keeps its own stack, so any depth is safe.
 */
function checkBounds(body: object): void {
  const stack: Array<{ value: unknown; field: string; depth: number }> = [
    { value: body, field: "", depth: 1 },
  ];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, field, depth } = item;
    if (typeof value !== "object" || value === null) continue;
    const name = field || "body";
    if (depth > MAX_BODY_DEPTH) {
      throw invalidField(
        "Body",
        name,
        `${name} nests deeper than ${MAX_BODY_DEPTH} levels, the most allowed`,
      );
    }
    if (Array.isArray(value)) {
      if (value.length > MAX_ARRAY_ITEMS) {
        throw invalidField(
          "Body",
          name,
          `${name} has ${value.length} items; at most ${MAX_ARRAY_ITEMS} are allowed`,
        );
      }
      value.forEach((inner, i) => {
        stack.push({ value: inner, field: `${name}[${i}]`, depth: depth + 1 });
      });
    } else {
      for (const [key, inner] of Object.entries(value)) {
        stack.push({ value: inner, field: field ? `${field}.${key}` : key, depth: depth + 1 });
      }
    }
  }
}

/** Reads the body as text, refusing it (413) as soon as it passes `MAX_REQUEST_BODY_BYTES`. */
async function readText(c: Context<ServerEnv>): Promise<string> {
  if (Number(c.req.header("content-length")) > MAX_REQUEST_BODY_BYTES) throw payloadTooLarge();
  const body = c.req.raw.body;
  if (!body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    // Stopping half-way leaves the connection unusable for another request: close it.
    if (size > MAX_REQUEST_BODY_BYTES) throw payloadTooLarge({ connection: "close" });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The URL of `route` for `params` under the API root the request came to: the route table's
 * `path()`, the one the client builds its requests with, so an answer's links and the client's
 * paths cannot disagree (each parameter checked and percent-encoded the same way).
 */
export function urlOf<P>(c: Context<ServerEnv>, route: { path(params: P): string }, params: P): string {
  return `${apiRoot(c)}${route.path(params)}`;
}

/** The API root of this server as the client reached it (`http://127.0.0.1:PORT/api/v3`). */
export function apiRoot(c: Context<ServerEnv>): string {
  return `${new URL(c.req.url).origin}${API_PREFIX}`;
}

/** The path below the API root, as logged and matched by faults and the rate-limit mode. */
export function apiPath(url: string): string {
  const { pathname } = new URL(url);
  return pathname.startsWith(API_PREFIX) ? pathname.slice(API_PREFIX.length) || "/" : pathname;
}
