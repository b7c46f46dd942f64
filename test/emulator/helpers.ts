/**
 * Shared set-up of the sandbox server suites: one server per file on port 0, reset before every
 * test, and thin helpers that drive it over real HTTP with `fetch`.
 */
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../emulator/index";

export const DOCS_URL = "https://docs.hosting.invalid/rest";
export const MASK = "********";

/** The fixture tokens (DESIGN.md, default fixture). */
export const TOKENS = {
  siteAdmin: "svcp_siteadmin",
  owner: "svcp_owner",
  member: "svcp_member",
  noScopes: "svcp_noscopes",
  fineGrained: "svc_pat_admin",
  install: "svcs_install",
} as const;

export interface Sandbox {
  readonly emulator: RunningEmulator;
}

/**
 * Starts one server for the calling file (beforeAll), resets it before every test (beforeEach) and
 * closes it afterwards (afterAll).
 */
export function useSandbox(options: EmulatorOptions = {}): Sandbox {
  let running: RunningEmulator | undefined;
  beforeAll(async () => {
    running = await startEmulator({ port: 0, ...options });
  });
  afterAll(async () => {
    await running?.close();
  });
  beforeEach(async () => {
    const response = await fetch(`${sandbox.emulator.origin}/_emulator/reset`, { method: "POST" });
    expect(response.status).toBe(204);
  });
  const sandbox = {
    get emulator(): RunningEmulator {
      if (!running) throw new Error("the sandbox server is not running");
      return running;
    },
  };
  return sandbox;
}

/**
 * A JSON body as the tests read it: assertions check its fields one by one, so it is left untyped
 * rather than cast at every use.
 */
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions themselves
export type Json = any;

export interface ApiResponse<T = Json> {
  status: number;
  headers: Headers;
  /** Parsed JSON body; undefined when the body is empty. */
  body: T;
  text: string;
}

export interface CallOptions {
  /** Bearer token; `null` sends no Authorization header. Default: the site administrator's. */
  token?: string | null;
  body?: unknown;
  /** Raw request body, sent as is (for malformed JSON). */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Calls the API (`path` below the API root, or an absolute URL). */
export async function call<T = Json>(
  emulator: RunningEmulator,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const token = options.token === undefined ? TOKENS.siteAdmin : options.token;
  const headers: Record<string, string> = {
    accept: "application/vnd.service+json",
    ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    ...(options.body !== undefined || options.rawBody !== undefined
      ? { "content-type": "application/json" }
      : {}),
    ...options.headers,
  };
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const url = /^https?:\/\//.test(path) ? path : `${emulator.url}${path}`;
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  return readResponse<T>(response);
}

/** Calls a control route (`/_emulator${path}`). */
export async function control<T = Json>(
  emulator: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiResponse<T>> {
  const response = await fetch(`${emulator.origin}/_emulator${path}`, {
    method,
    ...(body === undefined
      ? {}
      : {
          body: typeof body === "string" ? body : JSON.stringify(body),
          headers: { "content-type": "application/json" },
        }),
  });
  return readResponse<T>(response);
}

/** Creates a repository webhook as the site administrator and returns its JSON (asserting 201). */
export async function createRepoHook(
  emulator: RunningEmulator,
  body: Record<string, unknown> = { config: { url: "https://example.com/hook" } },
  repo = "acme-eng/api",
  token: string = TOKENS.siteAdmin,
): Promise<Json> {
  const response = await call(emulator, "POST", `/repos/${repo}/hooks`, { body, token });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** Creates a global webhook as the site administrator and returns its JSON (asserting 201). */
export async function createGlobalHook(
  emulator: RunningEmulator,
  body: Record<string, unknown> = { name: "web", config: { url: "https://example.com/global" } },
): Promise<Json> {
  const response = await call(emulator, "POST", "/admin/hooks", { body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** Parses a `Link` header into rel -> URL. */
export function parseLink(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  if (!header) return links;
  for (const part of header.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part.trim());
    if (match?.[1] && match[2]) links[match[2]] = match[1];
  }
  return links;
}

/** Asserts the platform's error body: `{message, documentation_url, errors?}` and nothing else. */
export function expectErrorBody(body: unknown, message?: string | RegExp): void {
  expect(body).toBeTypeOf("object");
  const record = body as Record<string, unknown>;
  expect(record.message).toBeTypeOf("string");
  expect(record.documentation_url).toBe(DOCS_URL);
  for (const key of Object.keys(record)) expect(["message", "documentation_url", "errors"]).toContain(key);
  if (typeof message === "string") expect(record.message).toBe(message);
  else if (message) expect(record.message).toMatch(message);
}

/** Asserts a 422 naming the field (and code) in `errors[]`. */
export function expectValidationFailed(
  response: ApiResponse,
  field: string | undefined,
  code?: string,
): void {
  expect(response.status, response.text).toBe(422);
  expectErrorBody(response.body, "Validation Failed");
  const errors = response.body.errors as Array<Record<string, unknown>>;
  expect(Array.isArray(errors)).toBe(true);
  expect(errors.length).toBeGreaterThan(0);
  const item = errors.find((e) => field === undefined || e.field === field);
  expect(item, JSON.stringify(errors)).toBeDefined();
  expect(item?.resource).toBe("Hook");
  if (code) expect(item?.code).toBe(code);
}

/** Status, headers, the raw text and the parsed JSON body of a response. */
async function readResponse<T>(response: Response): Promise<ApiResponse<T>> {
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as T,
    text,
  };
}
