/**
 * The one error type of the client. It carries what the server said (status, message, `errors[]`,
 * `documentation_url`), what was asked (method and path, never headers), and a hint that tells the
 * user what to do next. It never carries the token: requests are described by method and path only,
 * and every message passes through `redact` before it is stored.
 */

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

export class HostingApiError extends Error {
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
  if (init.hint) text += `. ${init.hint}`;
  if (init.documentationUrl) text += ` [${init.documentationUrl}]`;
  return text;
}

function formatDetail(d: ApiErrorDetail): string {
  if (d.message) return d.field ? `${d.field}: ${d.message}` : d.message;
  const subject = [d.resource, d.field].filter(Boolean).join(".");
  return [subject, d.code].filter(Boolean).join(" ");
}

/** Builds the sentence that tells the user what the endpoint needs, from the response headers. */
export function permissionHint(
  status: number,
  acceptedPermissions: string | undefined,
  acceptedScopes: string | undefined,
): string | undefined {
  if (status === 401) {
    return "The token is missing, unknown or expired: set hosting:token (or HOSTING_TOKEN) to a valid token";
  }
  if (status !== 403 && status !== 404) return undefined;
  const needs: string[] = [];
  if (acceptedScopes) needs.push(`a classic token with one of the scopes ${acceptedScopes}`);
  if (acceptedPermissions)
    needs.push(`a fine-grained or app token with the permission ${acceptedPermissions}`);
  if (needs.length === 0) return undefined;
  return `This endpoint needs ${needs.join(", or ")}`;
}

/** Replaces every occurrence of the secret in a text; used on anything that may reach a log or error. */
export function redact(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join("[REDACTED]");
}

export function isHostingApiError(e: unknown): e is HostingApiError {
  return e instanceof HostingApiError;
}

export function isNotFound(e: unknown): boolean {
  return isHostingApiError(e) && e.status === 404;
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
