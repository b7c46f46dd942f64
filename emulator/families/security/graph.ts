/**
 * Dependency snapshots (spec, Dependency snapshots; concepts, Dependency snapshot): what a
 * submission must hold, and the repository's effective dependency set, manifest file by manifest
 * file, with the spec's precedence: user submissions first (several detectors: the submissions
 * sorted alphabetically by correlator, the first one's detector wins; the same detector's
 * submissions merge), then automatic submissions, then static analysis.
 */
import { invalidField, missingField } from "../../core/http";
import type { EmulatorState } from "../../core/store";
import type { DependencyGraphSource, ManifestRecord, ResolvedPackage } from "./records";
import type { StoredSnapshot } from "./state";

const RESOURCE = "Snapshot";

/** At most this many characters in `sha` (spec, Limits). */
export const MAX_SHA_LENGTH = 40;
/** At most this many keys in a metadata object (spec, Limits). */
export const MAX_METADATA_KEYS = 8;

type Metadata = Record<string, string | number | boolean | null>;

const bad = (field: string, message: string) => invalidField(RESOURCE, field, message);

function object(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw bad(field, `${field} must be an object`);
  return value as Record<string, unknown>;
}

function only(value: Record<string, unknown>, allowed: readonly string[], prefix: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      const field = prefix ? `${prefix}.${key}` : key;
      throw bad(field, `${field} is not a permitted key; allowed: ${allowed.join(", ")}`);
    }
  }
}

function requiredString(parent: Record<string, unknown>, key: string, field: string): string {
  const value = parent[key];
  if (value === undefined) throw missingField(RESOURCE, field);
  if (typeof value !== "string" || value === "") throw bad(field, `${field} must be a non-empty string`);
  return value;
}

function optionalString(parent: Record<string, unknown>, key: string, field: string): string | undefined {
  const value = parent[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw bad(field, `${field} must be a string`);
  return value;
}

function metadata(value: unknown, field: string): Metadata | undefined {
  if (value === undefined) return undefined;
  const record = object(value, field);
  const keys = Object.keys(record);
  if (keys.length > MAX_METADATA_KEYS) {
    throw bad(field, `${field} has ${keys.length} keys; at most ${MAX_METADATA_KEYS} are allowed`);
  }
  for (const key of keys) {
    const inner = record[key];
    if (inner !== null && !["string", "number", "boolean"].includes(typeof inner)) {
      throw bad(`${field}.${key}`, `${field}.${key} must be a scalar: a string, number, boolean or null`);
    }
  }
  return record as Metadata;
}

/** A package URL: `pkg:` then a type and a name (https://github.com/package-url/purl-spec). */
const PURL = /^pkg:[A-Za-z.+-][A-Za-z0-9.+-]*\/[^\s]+$/;

function purl(value: unknown, field: string): string {
  if (typeof value !== "string" || !PURL.test(value)) {
    throw bad(field, `${field} must be a package URL (purl) such as pkg:npm/lodash@4.17.21`);
  }
  return value;
}

function resolvedPackage(value: unknown, field: string): ResolvedPackage {
  const record = object(value, field);
  only(record, ["package_url", "metadata", "relationship", "scope", "dependencies"], field);
  const result: ResolvedPackage = { package_url: "" };
  if (record.package_url === undefined) throw missingField(RESOURCE, `${field}.package_url`);
  result.package_url = purl(record.package_url, `${field}.package_url`);
  const meta = metadata(record.metadata, `${field}.metadata`);
  if (meta) result.metadata = meta;
  if (record.relationship !== undefined) {
    if (record.relationship !== "direct" && record.relationship !== "indirect") {
      throw bad(`${field}.relationship`, `${field}.relationship must be "direct" or "indirect"`);
    }
    result.relationship = record.relationship;
  }
  if (record.scope !== undefined) {
    if (record.scope !== "runtime" && record.scope !== "development") {
      throw bad(`${field}.scope`, `${field}.scope must be "runtime" or "development"`);
    }
    result.scope = record.scope;
  }
  if (record.dependencies !== undefined) {
    if (!Array.isArray(record.dependencies))
      throw bad(`${field}.dependencies`, `${field}.dependencies must be an array of purls`);
    result.dependencies = record.dependencies.map((d, i) => purl(d, `${field}.dependencies[${i}]`));
  }
  return result;
}

function manifest(value: unknown, field: string): ManifestRecord {
  const record = object(value, field);
  only(record, ["name", "file", "metadata", "resolved"], field);
  const result: ManifestRecord = { name: requiredString(record, "name", `${field}.name`) };
  if (record.file !== undefined) {
    const file = object(record.file, `${field}.file`);
    only(file, ["source_location"], `${field}.file`);
    const location = optionalString(file, "source_location", `${field}.file.source_location`);
    result.file = location === undefined ? {} : { source_location: location };
  }
  const meta = metadata(record.metadata, `${field}.metadata`);
  if (meta) result.metadata = meta;
  if (record.resolved !== undefined) {
    const resolved = object(record.resolved, `${field}.resolved`);
    result.resolved = {};
    for (const [key, inner] of Object.entries(resolved)) {
      result.resolved[key] = resolvedPackage(inner, `${field}.resolved.${key}`);
    }
  }
  return result;
}

/** A submission as the spec requires it; anything else is a 422 naming the field. */
export function parseSnapshot(
  body: Record<string, unknown>,
): Omit<StoredSnapshot, "id" | "repo" | "created_at"> {
  only(body, ["version", "job", "sha", "ref", "detector", "metadata", "manifests", "scanned"], "");
  if (body.version === undefined) throw missingField(RESOURCE, "version");
  if (typeof body.version !== "number" || !Number.isSafeInteger(body.version)) {
    throw bad("version", "version must be an integer");
  }
  if (body.job === undefined) throw missingField(RESOURCE, "job");
  const job = object(body.job, "job");
  only(job, ["id", "correlator", "html_url"], "job");
  const jobId = requiredString(job, "id", "job.id");
  const correlator = requiredString(job, "correlator", "job.correlator");
  const htmlUrl = optionalString(job, "html_url", "job.html_url");
  const sha = requiredString(body, "sha", "sha");
  if (sha.length > MAX_SHA_LENGTH)
    throw bad("sha", `sha has ${sha.length} characters; at most ${MAX_SHA_LENGTH} are allowed`);
  const ref = requiredString(body, "ref", "ref");
  if (!ref.startsWith("refs/")) throw bad("ref", "ref must be a full reference such as refs/heads/main");
  if (body.detector === undefined) throw missingField(RESOURCE, "detector");
  const detectorBody = object(body.detector, "detector");
  only(detectorBody, ["name", "version", "url"], "detector");
  const detector = {
    name: requiredString(detectorBody, "name", "detector.name"),
    version: requiredString(detectorBody, "version", "detector.version"),
    url: requiredString(detectorBody, "url", "detector.url"),
  };
  const scanned = requiredString(body, "scanned", "scanned");
  if (
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(scanned) ||
    Number.isNaN(Date.parse(scanned))
  ) {
    throw bad("scanned", "scanned must be an ISO 8601 timestamp such as 2026-01-10T09:00:00Z");
  }
  const manifests: Record<string, ManifestRecord> = {};
  if (body.manifests !== undefined) {
    for (const [key, inner] of Object.entries(object(body.manifests, "manifests"))) {
      manifests[key] = manifest(inner, `manifests.${key}`);
    }
  }
  const meta = metadata(body.metadata, "metadata");
  return {
    version: body.version,
    job: { id: jobId, correlator, ...(htmlUrl === undefined ? {} : { html_url: htmlUrl }) },
    sha,
    ref,
    detector,
    ...(meta ? { metadata: meta } : {}),
    manifests,
    scanned,
  };
}

/** Keeps the new snapshot and drops the earlier ones of its correlator and detector. */
export function storeSnapshot(state: EmulatorState, snapshot: StoredSnapshot): void {
  const stale = (s: StoredSnapshot) =>
    s.repo === snapshot.repo &&
    s.job.correlator === snapshot.job.correlator &&
    s.detector.name === snapshot.detector.name;
  for (let i = state.dependencySnapshots.length - 1; i >= 0; i--) {
    const s = state.dependencySnapshots[i];
    if (s && stale(s)) state.dependencySnapshots.splice(i, 1);
  }
  state.dependencySnapshots.push(snapshot);
}

/** The manifest file a manifest describes: its source location, else its name (no leading `/`). */
export function manifestFile(manifest: ManifestRecord): string {
  return (manifest.file?.source_location ?? manifest.name).replace(/^\/+/, "");
}

export interface EffectiveManifest {
  file: string;
  source: "user" | "automatic" | "static";
  detector: string;
  /** User submissions: the snapshots merged into this manifest (ids and correlators). */
  snapshots: Array<{ id: number; correlator: string }>;
  resolved: Record<string, ResolvedPackage>;
}

/**
 * The effective dependency set of a repository's default branch, manifest file by manifest file.
 * Only snapshots of the default branch count (`defaultRef`); others are kept but change nothing.
 */
export function effectiveGraph(state: EmulatorState, repo: string, defaultRef: string): EffectiveManifest[] {
  const files = new Map<string, EffectiveManifest>();
  const user = state.dependencySnapshots
    .filter((s) => s.repo === repo && s.ref === defaultRef)
    .sort((a, b) =>
      a.job.correlator < b.job.correlator ? -1 : a.job.correlator > b.job.correlator ? 1 : a.id - b.id,
    );
  for (const snapshot of user) {
    for (const m of Object.values(snapshot.manifests)) {
      const file = manifestFile(m);
      const current = files.get(file);
      // The first submission (alphabetically by correlator) names the detector; others of it merge.
      if (current && current.detector !== snapshot.detector.name) continue;
      const entry = current ?? {
        file,
        source: "user",
        detector: snapshot.detector.name,
        snapshots: [],
        resolved: {},
      };
      entry.snapshots.push({ id: snapshot.id, correlator: snapshot.job.correlator });
      for (const [key, pkg] of Object.entries(m.resolved ?? {})) {
        if (!Object.hasOwn(entry.resolved, key)) entry.resolved[key] = pkg;
      }
      files.set(file, entry);
    }
  }
  const sources = state.fixture.dependencyGraph ?? [];
  for (const kind of ["automatic", "static"] as const) {
    for (const source of sources.filter((s: DependencyGraphSource) => s.repo === repo && s.source === kind)) {
      for (const m of Object.values(source.manifests)) {
        const file = manifestFile(m);
        if (files.has(file)) continue;
        files.set(file, {
          file,
          source: kind,
          detector: source.detector.name,
          snapshots: [],
          resolved: { ...(m.resolved ?? {}) },
        });
      }
    }
  }
  return [...files.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}
