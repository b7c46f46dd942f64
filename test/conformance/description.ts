/**
 * The platform's published API description (`@octokit/openapi`, OpenAPI 3.0) as a checker of
 * response bodies: which operation a sandbox route is, which schema a status and media type of it
 * has, and an ajv validator for that schema. A document this project did not write, so it checks
 * the sandbox's fidelity independently of the spec's own reading.
 *
 * Loading costs: each description is 11-14 MB of JSON (about 150 ms to read and parse, 120 ms to
 * hand its components to ajv); it is loaded on first use only, once per test worker (cached on
 * `globalThis`, which a reused worker keeps across test files), and each operation's schema is
 * compiled on first use and cached.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

/** Tried in this order: the self-managed release first, then the cloud editions. */
export const DESCRIPTIONS = ["ghes-3.19", "ghec", "api.github.com"] as const;
export type DescriptionName = (typeof DESCRIPTIONS)[number];

/** The spec's neutral path segments and their names in the description. */
const SEGMENTS: Readonly<Record<string, string>> = {
  depwatch: "dependabot",
  assistant: "copilot",
  workspaces: "codespaces",
};

/** Body fields the spec names neutrally, with the description's name. */
const FIELDS: Readonly<Record<string, string>> = { avatar_provider_id: "gravatar_id" };

/** `/repos/{owner}/{repo}/depwatch/secrets/{name}` -> `/repos/{}/{}/dependabot/secrets/{}`. */
export function operationKey(method: string, route: string): string {
  const path = route
    .split("/")
    .map((s) => (s.startsWith("{") ? "{}" : (SEGMENTS[s] ?? s)))
    .join("/");
  return `${method.toUpperCase()} ${path}`;
}

/** The body with the spec's neutral field names renamed to the description's, at any depth. */
export function renameFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(renameFields);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[FIELDS[k] ?? k] = renameFields(v);
  return out;
}

/** `application/vnd.service+json; charset=utf-8` -> `application/vnd.github+json`. */
export function mediaType(contentType: string): string {
  return (contentType.split(";")[0] ?? "")
    .trim()
    .toLowerCase()
    .replace(/\bvnd\.service\b/, "vnd.github");
}

export function isJson(type: string): boolean {
  return type === "application/json" || type.endsWith("+json");
}

type Schema = Record<string, unknown>;
interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, Schema>; responses?: Record<string, ResponseObject> };
}

export interface FoundOperation {
  description: DescriptionName;
  /** The description's path template. */
  path: string;
  operationId: string;
  /** `METHOD path` in the description's words: the unit the totals count. */
  key: string;
}

/** What a status of an operation says a body should be. */
export type Expected =
  | { kind: "schema"; validate: ValidateFunction; mediaType: string }
  /** The description gives the status with no body (204, most redirects). */
  | { kind: "empty" }
  /** The description does not give this status for the operation. */
  | { kind: "status not described" }
  /** The status is given with bodies of other media types only (e.g. a diff, not JSON). */
  | { kind: "media type not described"; described: string[] };

class LoadedDescription {
  readonly name: DescriptionName;
  private readonly doc: Document;
  private readonly ajv: Ajv;
  private readonly byKey = new Map<string, { path: string; method: string; op: Operation }>();
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(name: DescriptionName) {
    this.name = name;
    const file = createRequire(__filename).resolve(`@octokit/openapi/generated/${name}.json`);
    this.doc = JSON.parse(readFileSync(file, "utf8")) as Document;
    for (const [path, item] of Object.entries(this.doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (typeof op !== "object" || op === null || !("responses" in op)) continue;
        this.byKey.set(operationKey(method, path), { path, method: method.toUpperCase(), op });
      }
    }
    this.ajv = new Ajv({ strict: false, allErrors: true, logger: false });
    addFormats(this.ajv);
    // Formats of the description that no JSON Schema vocabulary defines: documentation only.
    for (const f of ["repo.nwo", "binary", "ssh-key", "ssh-key fingerprint", "ip/cidr", "timestamp"]) {
      this.ajv.addFormat(f, true);
    }
    // Components are referenced as `#/components/...`; added under their own id, an operation's
    // schema reaches them as `components#/components/...`. OpenAPI 3.0's `nullable` becomes JSON
    // Schema first (ajv's own `nullable` needs a `type` beside it, which `allOf` schemas lack).
    this.ajv.addSchema(
      { components: { schemas: openApiToJsonSchema(this.doc.components.schemas ?? {}) } },
      "components",
    );
  }

  find(method: string, route: string): FoundOperation | undefined {
    const hit = this.byKey.get(operationKey(method, route));
    if (!hit) return undefined;
    return {
      description: this.name,
      path: hit.path,
      operationId: hit.op.operationId ?? "",
      key: `${hit.method} ${hit.path}`,
    };
  }

  expected(found: FoundOperation, status: number, contentType: string): Expected {
    const hit = this.byKey.get(operationKey(found.key.split(" ")[0] ?? "", found.path));
    let response = hit?.op.responses?.[String(status)];
    if (!response) return { kind: "status not described" };
    if (response.$ref) response = this.doc.components.responses?.[response.$ref.split("/").pop() ?? ""] ?? {};
    const content = Object.entries(response.content ?? {}).filter(([, v]) => v.schema !== undefined);
    if (content.length === 0) return { kind: "empty" };
    const type = mediaType(contentType);
    // The sandbox answers JSON as `application/json`; the description may name its JSON by a
    // vendor type (`application/vnd.github.v3.star+json`): any JSON stands for any JSON. An answer
    // of another type where the description gives JSON is matched to the JSON, for the check to
    // report the difference.
    const match =
      content.find(([t]) => t === type) ??
      content.find(([t]) => t === "application/json") ??
      content.find(([t]) => isJson(t));
    if (!match) return { kind: "media type not described", described: content.map(([t]) => t) };
    const [described, { schema }] = match;
    const id = `${found.key} ${status} ${described}`;
    let validate = this.compiled.get(id);
    if (!validate) {
      validate = this.ajv.compile(openApiToJsonSchema(referToComponents(schema)) as Schema);
      this.compiled.set(id, validate);
    }
    return { kind: "schema", validate, mediaType: described };
  }
}

/** `#/components/...` references, made to point into the schema registered as `components`. */
function referToComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(referToComponents);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `components${v}` : referToComponents(v);
  }
  return out;
}

/**
 * OpenAPI 3.0 schemas as JSON Schema: `nullable: true` becomes `null` among the types (and the
 * enum), or an `anyOf` with `{type: "null"}` where the schema has no type of its own.
 */
export function openApiToJsonSchema<T>(value: T): T {
  if (Array.isArray(value)) return value.map(openApiToJsonSchema) as T;
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = openApiToJsonSchema(v);
  if (out.nullable !== true) return out as T;
  delete out.nullable;
  if (typeof out.type === "string") {
    out.type = [out.type, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out as T;
  }
  return { anyOf: [out, { type: "null" }] } as T;
}

/** The loaded descriptions of this worker, shared by the test files it runs. */
const CACHE = Symbol.for("pulumi-hosting.conformance.descriptions");
type Cache = Map<DescriptionName, LoadedDescription>;

function cache(): Cache {
  const g = globalThis as { [CACHE]?: Cache };
  g[CACHE] ??= new Map();
  return g[CACHE];
}

/** The description, loaded on first use. */
export function description(name: DescriptionName): LoadedDescription {
  const loaded = cache().get(name);
  if (loaded) return loaded;
  const fresh = new LoadedDescription(name);
  cache().set(name, fresh);
  return fresh;
}

/**
 * The operation a sandbox route is: in the first description that has it. Later descriptions are
 * loaded only for routes the earlier ones lack.
 */
export function findOperation(
  method: string,
  route: string,
): { found: FoundOperation; from: LoadedDescription } | undefined {
  for (const name of DESCRIPTIONS) {
    const from = description(name);
    const found = from.find(method, route);
    if (found) return { found, from };
  }
  return undefined;
}

export type { LoadedDescription };
