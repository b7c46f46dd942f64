/**
 * The platform's published API description (`@octokit/openapi`, OpenAPI 3.0) as a checker of
 * response bodies: which operation a sandbox route is, which schema a status and media type of it
 * has, and an ajv validator for that schema. A document this project did not write, so it checks
 * the sandbox's fidelity independently of the spec's own reading.
 *
 * Loading costs: each description is 11-14 MB of JSON, and the three took 1.5 s to read, parse and
 * hand to ajv, in every test file (each runs in a process of its own), with 0.1-0.3 s more per
 * operation compiled. So what a file needs is kept on disk, in the toolchain's cache
 * (`~/.cache/pulumi-hosting/conformance-validators/<key>/`, where a fresh clone on the same
 * machine, as CI has, finds it), for the files and runs after it: each description's index of operations (path, operation id,
 * the media types with a schema by status) and each validator compiled, as ajv's standalone code.
 * A file reads those, and loads a description itself only for a validator no file compiled yet.
 * The key is a digest of the descriptions' package, ajv's and this module's source: a change to
 * any of them starts a new folder (the others are removed).
 *
 * The descriptions' package is not among the library's devDependencies but a package of its own
 * beside this module (test/conformance/package.json, installed by scripts/test.sh): an install from
 * a git URL installs the devDependencies to build, and would write its 385 MB.
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import Ajv, { _, type ValidateFunction } from "ajv";
import standaloneCode from "ajv/dist/standalone";
import addFormats from "ajv-formats";
import { cacheRoot } from "../../scripts/sea/executable";

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

/**
 * An operation as the index keeps it: the description's path, method and id, and for each status
 * it gives, the media types given with a schema (none: the status has no body), in its order.
 */
interface IndexedOperation {
  path: string;
  method: string;
  operationId: string;
  responses: Record<string, string[]>;
}

export class LoadedDescription {
  readonly name: DescriptionName;
  private readonly byKey: Map<string, IndexedOperation>;
  private readonly compiled = new Map<string, ValidateFunction>();
  /** The document and its ajv, loaded only to compile a validator the cache lacks. */
  private loaded?: { doc: Document; ajv: Ajv };

  /** `folder`: where the index and the validators are kept (the cache's folder by default). */
  constructor(
    name: DescriptionName,
    private readonly folder: string = cacheFolder(),
  ) {
    this.name = name;
    const file = join(folder, `${name}.index.json`);
    if (existsSync(file)) {
      this.byKey = new Map(
        Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, IndexedOperation>),
      );
    } else {
      this.byKey = indexOf(this.document().doc);
      writeAtomically(file, JSON.stringify(Object.fromEntries(this.byKey)));
    }
  }

  find(method: string, route: string): FoundOperation | undefined {
    const hit = this.byKey.get(operationKey(method, route));
    if (!hit) return undefined;
    return {
      description: this.name,
      path: hit.path,
      operationId: hit.operationId,
      key: `${hit.method} ${hit.path}`,
    };
  }

  expected(found: FoundOperation, status: number, contentType: string): Expected {
    const hit = this.byKey.get(operationKey(found.key.split(" ")[0] ?? "", found.path));
    const content = hit?.responses[String(status)];
    if (!hit || !content) return { kind: "status not described" };
    if (content.length === 0) return { kind: "empty" };
    const type = mediaType(contentType);
    // The sandbox answers JSON as `application/json`; the description may name its JSON by a
    // vendor type (`application/vnd.github.v3.star+json`): any JSON stands for any JSON. An answer
    // of another type where the description gives JSON is matched to the JSON, for the check to
    // report the difference.
    const described =
      content.find((t) => t === type) ??
      content.find((t) => t === "application/json") ??
      content.find(isJson);
    if (!described) return { kind: "media type not described", described: content };
    const id = `${found.key} ${status} ${described}`;
    let validate = this.compiled.get(id);
    if (!validate) {
      validate = this.validator(id, hit, String(status), described);
      this.compiled.set(id, validate);
    }
    return { kind: "schema", validate, mediaType: described };
  }

  /** The validator `id` as the cache keeps it; compiled (and kept) when no file compiled it yet. */
  private validator(id: string, hit: IndexedOperation, status: string, type: string): ValidateFunction {
    const digest = createHash("sha256").update(id).digest("hex").slice(0, 32);
    const file = join(this.folder, `${this.name}.${digest}.cjs`);
    if (existsSync(file)) return standaloneValidator(readFileSync(file, "utf8"));
    const { doc, ajv } = this.document();
    let response = doc.paths[hit.path]?.[hit.method.toLowerCase()]?.responses?.[status];
    if (response?.$ref) response = doc.components.responses?.[response.$ref.split("/").pop() ?? ""];
    const schema = response?.content?.[type]?.schema;
    if (!schema) throw new Error(`${this.name}: ${id} has no schema, yet its index gives one`);
    const validate = ajv.compile(openApiToJsonSchema(referToComponents(schema)) as Schema);
    writeAtomically(file, standaloneCode(ajv, validate));
    return validate;
  }

  /** Whether the description itself was read (for an index or a validator the cache lacked). */
  get documentLoaded(): boolean {
    return this.loaded !== undefined;
  }

  private document(): { doc: Document; ajv: Ajv } {
    if (this.loaded) return this.loaded;
    const file = descriptionFile(this.name);
    const doc = JSON.parse(readFileSync(file, "utf8")) as Document;
    // The formats' code as standalone validators reach it: ajv-formats' own.
    const ajv = new Ajv({
      strict: false,
      allErrors: true,
      logger: false,
      code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
    });
    addFormats(ajv);
    // Formats of the description that no JSON Schema vocabulary defines: documentation only.
    for (const f of ["repo.nwo", "binary", "ssh-key", "ssh-key fingerprint", "ip/cidr", "timestamp"]) {
      ajv.addFormat(f, true);
    }
    // Components are referenced as `#/components/...`; added under their own id, an operation's
    // schema reaches them as `components#/components/...`. OpenAPI 3.0's `nullable` becomes JSON
    // Schema first (ajv's own `nullable` needs a `type` beside it, which `allOf` schemas lack).
    ajv.addSchema(
      { components: { schemas: openApiToJsonSchema(doc.components.schemas ?? {}) } },
      "components",
    );
    this.loaded = { doc, ajv };
    return this.loaded;
  }
}

/**
 * The validator of ajv's standalone code (a CommonJS module), run with this module's `require`: the
 * modules of ajv and ajv-formats it needs are found wherever the cache's folder is.
 */
function standaloneValidator(code: string): ValidateFunction {
  const module = { exports: {} as unknown };
  new Function("module", "exports", "require", code)(module, module.exports, createRequire(__filename));
  return module.exports as ValidateFunction;
}

/** The operations of a description by `operationKey`, with the media types of each status. */
function indexOf(doc: Document): Map<string, IndexedOperation> {
  const byKey = new Map<string, IndexedOperation>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (typeof op !== "object" || op === null || !("responses" in op)) continue;
      const responses: Record<string, string[]> = {};
      for (const [status, given] of Object.entries(op.responses ?? {})) {
        const response = given.$ref
          ? (doc.components.responses?.[given.$ref.split("/").pop() ?? ""] ?? {})
          : given;
        responses[status] = Object.entries(response.content ?? {})
          .filter(([, v]) => v.schema !== undefined)
          .map(([t]) => t);
      }
      byKey.set(operationKey(method, path), {
        path,
        method: method.toUpperCase(),
        operationId: op.operationId ?? "",
        responses,
      });
    }
  }
  return byKey;
}

/** Written whole or not at all: test files in other processes may read it at the same time. */
function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${randomUUID()}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** Where the descriptions' package is, or an error saying how to install it. */
function descriptionsPackage(): string {
  try {
    return createRequire(__filename).resolve("@octokit/openapi/package.json");
  } catch {
    throw new Error(
      "The platform's API description (@octokit/openapi) is not installed: run the tests with `bash scripts/test.sh`, which installs it, or run `npm ci --prefix test/conformance`",
    );
  }
}

/** The JSON file of a published description. */
export function descriptionFile(name: DescriptionName): string {
  return join(descriptionsPackage(), "..", "generated", `${name}.json`);
}

/**
 * The cache's folder for this version of the descriptions, ajv and this module (made, and the
 * folders of other versions removed, on first use).
 */
function cacheFolder(): string {
  const g = globalThis as { [FOLDER]?: string };
  if (g[FOLDER]) return g[FOLDER];
  const require = createRequire(__filename);
  const versions = [descriptionsPackage(), "ajv/package.json", "ajv-formats/package.json"].map((file) => {
    const { name, version } = require(file) as { name: string; version: string };
    return `${name}@${version}`;
  });
  const key = createHash("sha256")
    .update([...versions, readFileSync(__filename, "utf8")].join("\n"))
    .digest("hex")
    .slice(0, 16);
  const parent = join(cacheRoot(), "conformance-validators");
  const folder = join(parent, key);
  if (!existsSync(folder)) {
    mkdirSync(folder, { recursive: true });
    for (const other of readdirSync(parent)) {
      if (other !== key) rmSync(join(parent, other), { recursive: true, force: true });
    }
  }
  g[FOLDER] = folder;
  return folder;
}

const FOLDER = Symbol.for("pulumi-hosting.conformance.validators");

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
