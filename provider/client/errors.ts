/**
 * The one error type of the client, and every way one is built: from an HTTP answer, from a network
 * failure, from a response body of the wrong shape, and the provider's own not-found errors. It
 * carries what the server said (status, message, `errors[]`, `documentation_url`), what was asked
 * (method and path, never headers), and a hint that tells the user what to do next. It never
 * carries the token: requests are described by method and path only, and everything the server
 * sent back passes through `redact` before it is stored.
 *
 * It is a `RunError` of the Pulumi SDK: a program that fails on one (a function's read, awaited or
 * in an Output) prints its message, which says everything, without a stack trace or a dump of its
 * fields (docs/DECISIONS.md, "A refused token is asked once, and says how to recover").
 */
import { RunError } from "@pulumi/pulumi/errors";
import {
  likelyCauses,
  NOT_FOUND,
  permissionHint,
  TOKEN_OPTION,
  type TokenOrigin,
  unauthorizedHint,
} from "./hints";
import type { HeaderBag } from "./rate-limit";

export { permissionHint, TOKEN_OPTION, type TokenOrigin, unauthorizedHint };

/** Stable, machine-readable classification of a failure (lower_snake, like undici's `code`). */
export type HostingErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "validation_failed"
  | "rate_limited"
  | "server_error"
  | "network_error"
  | "timeout"
  | "unexpected_response"
  | "configuration";

/** One item of a 422 body's `errors[]`; the platform sometimes sends bare strings instead. */
export interface ApiErrorDetail {
  resource?: string;
  field?: string;
  code?: string;
  message?: string;
}

export interface HostingErrorInit {
  code: HostingErrorCode;
  status?: number;
  method?: string;
  path?: string;
  apiMessage?: string;
  errors?: ApiErrorDetail[];
  documentationUrl?: string;
  acceptedPermissions?: string;
  acceptedScopes?: string;
  hint?: string;
  cause?: unknown;
}

export class HostingApiError extends RunError {
  override readonly name = "HostingApiError";
  readonly code: HostingErrorCode;
  readonly status: number | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly apiMessage: string | undefined;
  readonly errors: ApiErrorDetail[];
  readonly documentationUrl: string | undefined;
  readonly acceptedPermissions: string | undefined;
  readonly acceptedScopes: string | undefined;

  constructor(init: HostingErrorInit) {
    super(formatMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.apiMessage = init.apiMessage;
    this.errors = init.errors ?? [];
    this.documentationUrl = init.documentationUrl;
    this.acceptedPermissions = init.acceptedPermissions;
    this.acceptedScopes = init.acceptedScopes;
  }
}

function formatMessage(init: HostingErrorInit): string {
  const what = init.apiMessage ?? init.code.replaceAll("_", " ");
  const status = init.status === undefined ? "" : ` returned ${init.status}`;
  const parts = [init.method && init.path ? `${init.method} ${init.path}${status}: ${what}` : what];
  const details = init.errors?.map(formatDetail).filter((d) => d.length > 0) ?? [];
  if (details.length > 0) parts.push(`(${details.join("; ")})`);
  let text = parts.join(" ");
  // The server's message often ends a sentence already ("... the last owner of acme-eng.").
  if (init.hint) text += /[.!?]$/.test(text) ? ` ${init.hint}` : `. ${init.hint}`;
  if (init.documentationUrl) text += ` [${init.documentationUrl}]`;
  return text;
}

function formatDetail(d: ApiErrorDetail): string {
  if (d.message) return d.field ? `${d.field}: ${d.message}` : d.message;
  const subject = [d.resource, d.field].filter(Boolean).join(".");
  return [subject, d.code].filter(Boolean).join(" ");
}

/** Replaces every occurrence of the secret in a text; used on anything that may reach a log or error. */
export function redact(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join("[REDACTED]");
}

export function isHostingApiError(e: unknown): e is HostingApiError {
  return e instanceof HostingApiError;
}

/** A 404 of the API. A 404 from something that is not the API (a wrong base URL) is never "gone". */
export function isNotFound(e: unknown): boolean {
  return isHostingApiError(e) && e.status === 404 && e.code === "not_found";
}

export function isRateLimited(e: unknown): boolean {
  return isHostingApiError(e) && e.code === "rate_limited";
}

/** A failure after which the server may or may not have applied the request. */
export function isAmbiguous(e: unknown): boolean {
  return (
    isHostingApiError(e) &&
    (e.code === "network_error" || e.code === "timeout" || (e.status !== undefined && e.status >= 500))
  );
}

export function codeForStatus(status: number): HostingErrorCode {
  if (status === 400) return "bad_request";
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 409) return "conflict";
  if (status === 422) return "validation_failed";
  if (status === 429) return "rate_limited";
  if (status >= 500) return "server_error";
  return "unexpected_response";
}

/** Network failures that mean the request (or its answer) ran out of time. */
const TIMEOUT_ERRORS: ReadonlySet<string> = new Set([
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ETIMEDOUT",
]);

/** What the client knows of a failed HTTP answer. */
export interface FailedResponse {
  method: string;
  path: string;
  status: number;
  headers: HeaderBag;
  /** The parsed body (JSON when it was), or the text. */
  data: unknown;
  /** The body's `message`, or a short text, or `HTTP <status>`. */
  apiMessage: string;
}

/**
 * The error for an HTTP answer outside 2xx. Everything the server sent back may echo the token, so
 * all of it is redacted before it is kept. `origin` says where the token came from, for a 401.
 */
export function errorFromResponse(
  response: FailedResponse,
  token: string,
  override: { code?: "rate_limited"; hint?: string; origin?: TokenOrigin | undefined } = {},
): HostingApiError {
  const clean = (text: string) => redact(text, token);
  const acceptedPermissions = response.headers.get("x-accepted-service-permissions");
  const acceptedScopes = response.headers.get("x-accepted-oauth-scopes");
  const body = isRecord(response.data) ? response.data : {};
  if (response.status === 404 && !isApiErrorBody(response)) {
    // Every answer of the API is JSON; a 404 page of something else means the address is wrong,
    // and must never read as "the object is gone" (refresh would drop it from state).
    return new HostingApiError({
      code: "configuration",
      status: 404,
      method: response.method,
      path: response.path,
      apiMessage: clean(response.apiMessage),
      hint: "The server answered without the API's error body, so this address is not the API root. Check hosting:baseUrl (or HOSTING_BASE_URL): https://host, or the full API root such as https://host/api/v3",
    });
  }
  return new HostingApiError({
    code: override.code ?? codeForStatus(response.status),
    status: response.status,
    method: response.method,
    path: response.path,
    apiMessage: clean(response.apiMessage),
    errors: normaliseDetails(body.errors).map((d) =>
      Object.fromEntries(Object.entries(d).map(([k, v]) => [k, clean(v)])),
    ),
    ...(typeof body.documentation_url === "string"
      ? { documentationUrl: clean(body.documentation_url) }
      : {}),
    ...(acceptedPermissions ? { acceptedPermissions: clean(acceptedPermissions) } : {}),
    ...(acceptedScopes ? { acceptedScopes: clean(acceptedScopes) } : {}),
    ...optionalHint(
      override.hint ??
        (response.status === 401
          ? unauthorizedHint(override.origin)
          : permissionHint(response.status, acceptedPermissions, acceptedScopes, response.apiMessage)),
    ),
  });
}

/**
 * A request of a client whose token the server refused (401) earlier in the same run: one short
 * line that points to the first refusal, which says what to do, so a run prints that once. Not
 * sent (no status), or sent before the first refusal came back and refused too (status 401). Its
 * code is `unauthorized`, as the first's, and its cause is the first refusal.
 */
export function refusedEarlierError(
  where: { method: string; path: string },
  first: HostingApiError,
  source: string | undefined,
  answered: boolean,
): HostingApiError {
  const token = source ?? "the token";
  const firstAt = first.method && first.path ? ` (${first.method} ${first.path})` : "";
  return new HostingApiError({
    code: "unauthorized",
    ...(answered ? { status: 401 } : {}),
    method: where.method,
    path: where.path,
    apiMessage: answered
      ? `${token} was refused earlier in this run; see the first error${firstAt}`
      : `${token} was refused (401) earlier in this run, so this request was not sent; see the first error${firstAt}`,
    cause: first,
  });
}

/** Whether an error answer is the API's own: a JSON body with a message. */
function isApiErrorBody(response: FailedResponse): boolean {
  const type = response.headers.get("content-type") ?? "";
  return /json/i.test(type) && isRecord(response.data) && typeof response.data.message === "string";
}

/** The error for a request that got no answer: refused, reset, timed out. */
export function networkError(
  method: string,
  path: string,
  origin: string,
  cause: unknown,
  token: string,
): HostingApiError {
  const code = errorCode(cause);
  const timeout = TIMEOUT_ERRORS.has(code);
  const tls = isTlsFailure(code, cause);
  // OpenSSL's reasons run over several lines of library internals: the first line says it.
  const full = redact(cause instanceof Error ? cause.message : String(cause), token);
  const reason = tls ? (full.split("\n")[0] ?? full).replace(/:error:[0-9A-F]+:.*$/, "") : full;
  return new HostingApiError({
    code: timeout ? "timeout" : "network_error",
    method,
    path,
    apiMessage: `${timeout ? "timed out" : tls ? "no TLS answer" : "network failure"} talking to ${origin}: ${reason}${code ? ` (${code})` : ""}`,
    ...optionalHint(
      tls && origin.startsWith("https:")
        ? `The server did not answer TLS: if it serves plain http, write ${origin.replace(/^https:/, "http:")} in hosting:baseUrl (or HOSTING_BASE_URL); else check its certificate`
        : code === "ECONNREFUSED" || code === "ENOTFOUND"
          ? "Check hosting:baseUrl (or HOSTING_BASE_URL) and that the server is running"
          : undefined,
    ),
  });
}

/** A TLS handshake that failed: OpenSSL's codes (`ERR_SSL_*`) or an EPROTO naming SSL. */
function isTlsFailure(code: string, cause: unknown): boolean {
  if (code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_")) return true;
  const text =
    cause instanceof Error ? `${cause.message} ${String((cause as { cause?: unknown }).cause ?? "")}` : "";
  return code === "EPROTO" && /ssl|tls/i.test(text);
}

/** The error for an answer the client cannot use (a body of the wrong shape, a link elsewhere). */
export function unexpectedResponse(method: string, path: string, message: string): HostingApiError {
  return new HostingApiError({ code: "unexpected_response", method, path, apiMessage: message });
}

/**
 * A provider's own not-found error, in the words of every 404: what the program named (an
 * `importId`, a group, an organisation) was not found or not allowed, and the likely causes in the
 * order they are met, in the program's terms.
 */
export function notFoundError(init: {
  method: string;
  path: string;
  /** What was not found, as the program names it, e.g. `OrgMembership acme-eng/mona`. */
  what: string;
  causes: readonly string[];
}): HostingApiError {
  return new HostingApiError({
    code: "not_found",
    status: 404,
    method: init.method,
    path: init.path,
    apiMessage: `${init.what}: ${NOT_FOUND.charAt(0).toLowerCase()}${NOT_FOUND.slice(1)}`,
    hint: likelyCauses(init.causes),
  });
}

/** The body's message, or a short text body, or the status. */
export function messageOf(data: unknown, text: string, status: number): string {
  if (isRecord(data) && typeof data.message === "string") return data.message;
  if (text.trim() !== "" && text.length < 300) return text.trim();
  return `HTTP ${status}`;
}

/** The stable `code` of a Node or undici error (or of its cause). */
export function errorCode(e: unknown): string {
  if (!isRecord(e)) return "";
  if (typeof e.code === "string") return e.code;
  return isRecord(e.cause) && typeof e.cause.code === "string" ? e.cause.code : "";
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

function optionalHint(hint: string | undefined): { hint?: string } {
  return hint ? { hint } : {};
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

/** Where a provider's own error happened: the request it is about, when there is one. */
export interface RequestAt {
  method?: string | undefined;
  path?: string | undefined;
}

function at(where: RequestAt | undefined): { method?: string; path?: string } {
  return {
    ...(where?.method ? { method: where.method } : {}),
    ...(where?.path ? { path: where.path } : {}),
  };
}

/** Something the program or the settings ask for that cannot be done; no request was sent. */
export function configurationError(message: string, hint?: string): HostingApiError {
  return new HostingApiError({ code: "configuration", apiMessage: message, ...optionalHint(hint) });
}

/** A change the provider refuses to make because it would break something (the last admin). */
export function refusedError(message: string, hint: string): HostingApiError {
  return new HostingApiError({ code: "conflict", apiMessage: message, hint });
}

/**
 * The API's 422, restated in the program's terms: a name already taken and the object to adopt
 * instead, or a value the request cannot use (an app not available to an environment) and those
 * that are. Keeps the failed request's method and path.
 */
export function validationError(where: RequestAt, message: string, hint: string): HostingApiError {
  return new HostingApiError({
    code: "validation_failed",
    status: 422,
    ...at(where),
    apiMessage: message,
    hint,
  });
}

/**
 * A 404 that means "not allowed to this token" rather than "gone" (site-administration routes).
 * It keeps status 404 but is not a not-found: nothing downstream takes it for a deleted object.
 */
export function notAllowedError(where: RequestAt, message: string, hint: string): HostingApiError {
  return new HostingApiError({ code: "forbidden", status: 404, ...at(where), apiMessage: message, hint });
}

/**
 * A 404 that means a feature is turned off. It has no status, so nothing downstream takes it for a
 * deleted object.
 */
export function featureOffError(where: RequestAt, message: string, hint: string): HostingApiError {
  return new HostingApiError({ code: "not_found", ...at(where), apiMessage: message, hint });
}

/** An answer the provider cannot use, where no single request is to blame (a malformed public key). */
export function unusableAnswerError(message: string): HostingApiError {
  return new HostingApiError({ code: "unexpected_response", apiMessage: message });
}

/** An enumeration value in an answer that this version does not know, so the object cannot be managed. */
export function unknownValueError(what: string, field: string, value: unknown): HostingApiError {
  return new HostingApiError({
    code: "unexpected_response",
    apiMessage: `${what} has ${field} ${JSON.stringify(value)}, which this version does not know`,
  });
}

/** The value if the API's enumeration has it; else the object cannot be managed (`unknownValueError`). */
export function knownValue<T extends string>(
  values: readonly T[],
  raw: string,
  what: string,
  field: string,
): T {
  const match = values.find((v) => v === raw);
  if (match === undefined) throw unknownValueError(what, field, raw);
  return match;
}

/**
 * Work the server accepted (a 202) and had not finished when the provider stopped waiting. It has
 * no status, so nothing downstream takes it for a deleted object; the hint says what to do.
 */
export function stillPendingError(where: RequestAt, message: string, hint: string): HostingApiError {
  return new HostingApiError({ code: "timeout", ...at(where), apiMessage: message, hint });
}
