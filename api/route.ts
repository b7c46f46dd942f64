/**
 * A route of the API, written once as the spec writes it (`"GET /repos/{owner}/{repo}/hooks/{hook_id}"`),
 * with what the client needs to call it: the API version the spec documents for it where that is
 * not the default, and the schema its answer is validated with. The families of `api/` declare
 * their routes with `route()`; the provider's client takes nothing but these routes and the sandbox
 * server registers its router from them, so the two cannot drift apart.
 *
 * Parameters are typed from the template and checked and encoded in one place: an integer id
 * (`*_id` except `budget_id` and `gist_id`, and `*_number`) must be a positive decimal integer, and a name must be non-empty and
 * not `.` or `..` (which a URL would resolve as a step up the path), and is percent-encoded, so a
 * value can never reach another path.
 */
import { z } from "zod";

/** The API versions the spec lists (`X-Service-Api-Version`); the server refuses others with 400. */
export const API_VERSION_DEFAULT = "2022-11-28";
export const API_VERSION_2026 = "2026-03-10";
export const KNOWN_API_VERSIONS = [API_VERSION_DEFAULT, API_VERSION_2026] as const;
export type ApiVersion = (typeof KNOWN_API_VERSIONS)[number];

export type RouteMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** The parameter names of a path template: `"/orgs/{org}/hooks/{hook_id}"` -> `"org" | "hook_id"`. */
type ParamNames<T extends string> = T extends `${string}{${infer P}}${infer Rest}`
  ? P | ParamNames<Rest>
  : never;

/** Parameters that are not integer ids, although their names end in `_id` (gist ids are hex). */
type TextIds = "budget_id" | "gist_id";
/** Integer parameters: ids (`*_id`) and numbers (`*_number`: issues, pull requests, alerts). */
type IsInteger<P extends string> = P extends TextIds
  ? false
  : P extends `${string}_id` | `${string}_number`
    ? true
    : false;

/** What a route's parameters take: integer ids as numbers (or their decimal strings), names as strings. */
export type RouteParams<T extends string> = {
  readonly [P in ParamNames<T>]: IsInteger<P> extends true ? number | string : string;
};

/** The parameters of a route whose template has none (`GET /user`). */
export type NoParams = RouteParams<"/">;

/** A template in the router's syntax, as a type, so the router types its parameters. */
export type Pattern<T extends string> = T extends `${infer Head}{${infer P}}${infer Rest}`
  ? `${Head}:${P}${Pattern<Rest>}`
  : T;

/**
 * An answer that is one body (an object, an envelope, a statistic), validated with `schema`.
 * `bodyless` lists the statuses whose body is not read (`data` is then undefined): a statistic
 * still being computed (202), a repository without commits (204).
 */
export interface BodyAnswer<
  S extends z.ZodType = z.ZodType,
  B extends readonly number[] = readonly number[],
> {
  readonly kind: "body";
  readonly schema: S;
  readonly bodyless: B;
}

/**
 * An answer that is a list paginated by `Link`: each item is validated with `item`. `select`
 * picks the items out of a page that is not the list itself (an envelope such as
 * `{total_count, runners: [...]}`); anything but an array there is an unexpected answer.
 */
export interface ListAnswer<S extends z.ZodType = z.ZodType> {
  readonly kind: "list";
  readonly item: S;
  readonly select: ((page: unknown) => unknown) | undefined;
}

export type Answer = BodyAnswer | ListAnswer;

/** What the client gets from an answer: the schema's output (one page of items for a list). */
export type AnswerData<A extends Answer> =
  A extends BodyAnswer<infer S, infer B>
    ? B extends readonly []
      ? z.output<S>
      : z.output<S> | undefined
    : A extends ListAnswer<infer S>
      ? Array<z.output<S>>
      : never;

/** The items of a list answer. */
export type ItemOf<A extends ListAnswer> = A extends ListAnswer<infer S> ? z.output<S> : never;

/** What the client needs of a route: its method, version, answer and paths, whatever its template. */
export interface ClientRoute<M extends RouteMethod, P, A extends Answer | undefined> {
  readonly method: M;
  /** `METHOD template`, the route's name in logs and request counts. */
  readonly name: string;
  /** The `X-Service-Api-Version` the spec documents for the route (`hosting:apiVersion` overrides it). */
  readonly apiVersion: ApiVersion;
  /** How the client reads the answer; undefined for a route the client never calls. */
  readonly answer: A;
  /** The path for these parameters, each checked and encoded; throws `InvalidRouteParameter`. */
  path(params: P): string;
}

/** A route the client may send as `M` with parameters `P`, answering one body of type `T`. */
export type BodyRoute<M extends RouteMethod, P, T> = ClientRoute<M, P, BodyAnswer<z.ZodType<T>, readonly []>>;
/** A route the client may list with parameters `P`, answering items of type `T`. */
export type ListRoute<P, T> = ClientRoute<"GET", P, ListAnswer<z.ZodType<T>>>;
/** A route the client may send as `M` with parameters `P`, whose answer it does not need. */
export type AnyRoute<M extends RouteMethod, P> = ClientRoute<M, P, BodyAnswer>;

/**
 * The routes of a collection the client manages (`ROUTES.repoHooks`): list it and add to it with
 * parameters `P`, read, update and delete one of its objects of type `T` with `P & I`.
 */
export interface CollectionRoutes<P, I, T> {
  list: ListRoute<P, T>;
  create: BodyRoute<"POST", P, T>;
  get: BodyRoute<"GET", P & I, T>;
  update: BodyRoute<"PATCH", P & I, T>;
  delete: AnyRoute<"DELETE", P & I>;
}

export interface Route<
  T extends string = string,
  M extends RouteMethod = RouteMethod,
  A extends Answer | undefined = Answer | undefined,
> extends ClientRoute<M, RouteParams<T>, A> {
  /** The path template below the API root, as the spec writes it. */
  readonly template: T;
  /** The template in the router's syntax (`/repos/:owner/:repo/hooks`). */
  readonly pattern: Pattern<T>;
  /** The parameter names, in path order. */
  readonly params: readonly string[];
}

/**
 * What a route declares beside its method and template: its API version where the spec documents
 * another than the default, and its answer, `body` (one object, validated by the schema) or `list`
 * (the item schema, and `select` where the page is an envelope). A route the client never calls
 * may declare no answer; the client refuses it, at compile time.
 */
export type RouteDeclaration = { readonly version?: ApiVersion } & (
  | { readonly body: z.ZodType; readonly bodyless?: readonly number[]; readonly list?: never }
  | { readonly list: z.ZodType; readonly select?: (page: unknown) => unknown; readonly body?: never }
  | { readonly body?: never; readonly list?: never }
);

/** The answer a declaration gives. */
type AnswerOf<D> = D extends { readonly body: infer S extends z.ZodType }
  ? BodyAnswer<S, D extends { readonly bodyless: infer B extends readonly number[] } ? B : readonly []>
  : D extends { readonly list: infer S extends z.ZodType }
    ? ListAnswer<S>
    : undefined;

/** A parameter value no path may carry; the message names the route, the parameter and what is allowed. */
export class InvalidRouteParameter extends Error {
  override readonly name = "InvalidRouteParameter";
  constructor(
    readonly route: string,
    readonly parameter: string,
    readonly value: unknown,
    readonly allowed: string,
  ) {
    super(`${parameter} must be ${allowed}, got ${JSON.stringify(value)} (for ${route})`);
  }
}

/**
 * An integer id as a path carries it: digits only, without sign, spaces, exponent, hex prefix or
 * leading zero, within the safe integer range. Undefined for anything else (the sandbox answers 404).
 */
export function integerParam(text: string): number | undefined {
  const id = /^[1-9][0-9]*$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(id) ? id : undefined;
}

export function isIntegerParam(name: string): boolean {
  return (name.endsWith("_id") || name.endsWith("_number")) && name !== "budget_id" && name !== "gist_id";
}

/** One parameter as it goes into a path: checked, then encoded. */
function encodeParam(route: string, name: string, value: unknown): string {
  if (isIntegerParam(name)) {
    const text = typeof value === "number" ? String(value) : value;
    if (typeof text !== "string" || integerParam(text) === undefined) {
      throw new InvalidRouteParameter(route, name, value, "a positive decimal integer");
    }
    return text;
  }
  if (typeof value !== "string" || value === "" || value === "." || value === "..") {
    throw new InvalidRouteParameter(route, name, value, 'a non-empty name other than "." and ".."');
  }
  return encodeURIComponent(value);
}

function answerOf(declared: RouteDeclaration): Answer | undefined {
  if (declared.body !== undefined) {
    return { kind: "body", schema: declared.body, bodyless: declared.bodyless ?? [] };
  }
  if (declared.list !== undefined) return { kind: "list", item: declared.list, select: declared.select };
  return undefined;
}

export function route<
  const S extends `${RouteMethod} /${string}`,
  const D extends RouteDeclaration = Record<never, never>,
>(
  spec: S,
  declared: D = {} as D,
): Route<
  S extends `${RouteMethod} ${infer T}` ? T : never,
  S extends `${infer M extends RouteMethod} ${string}` ? M : never,
  AnswerOf<D>
> {
  const space = spec.indexOf(" ");
  const method = spec.slice(0, space) as RouteMethod;
  const template = spec.slice(space + 1);
  const params = [...template.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);
  return {
    method: method as never,
    template: template as never,
    name: spec,
    pattern: template.replace(/\{([a-z_]+)\}/g, ":$1") as never,
    params,
    apiVersion: declared.version ?? API_VERSION_DEFAULT,
    answer: answerOf(declared) as never,
    path(values) {
      const given = values as Record<string, unknown>;
      return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeParam(spec, name, given[name]));
    },
  };
}

/** The answer of a route the client sends only for its status (204, a queued job's 202): not read, not validated. */
export const STATUS_ONLY = { body: z.unknown() } as const;
/** Routes that exist in API version 2026-03-10 only (spec, Versioning). */
export const V2026 = { version: API_VERSION_2026 } as const;

/** A router pattern whose `:N` parameter takes the rest of the path, slashes included. */
type Slashed<P extends string, N extends string> = P extends `${infer Head}:${N}${infer Rest}`
  ? `${Head}:${N}{.+}${Rest}`
  : P;

/**
 * A route whose `{name}` may hold slashes (branch names such as `release/1.0`): the client sends it
 * percent-encoded (`release%2F1.0`), the platform also takes it raw, and the router's `:name{.+}`
 * matches both (docs/DECISIONS.md).
 */
export function slashed<
  T extends string,
  M extends RouteMethod,
  A extends Answer | undefined,
  N extends string,
>(
  r: Route<T, M, A>,
  name: N,
): Omit<Route<T, M, A>, "pattern"> & { readonly pattern: Slashed<Pattern<T>, N> } {
  return { ...r, pattern: r.pattern.replace(`:${name}`, `:${name}{.+}`) as Slashed<Pattern<T>, N> };
}
