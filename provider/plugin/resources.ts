/**
 * The resource operations of the plugin, on plain property maps: each one unwraps what the engine
 * sent, calls the kind's provider from `PROVIDERS` (the very objects the dynamic resources run, so
 * check failures, adoption, creates without duplicates and drift are the same), and wraps the
 * answer's secrets again. `server.ts` only translates these to and from protobuf.
 */
import { safeFailures } from "../internal/check";
import { cachedOnceLoaded } from "../internal/compile-cache";
import type { AnyHostingProvider } from "../internal/lifecycle";
import { typeToken } from "../internal/tokens";
import { KIND_LOADERS } from "../kind-loaders";
import { isUnknown, type Properties, unwrap, type Value, wrap } from "./properties";

/** The kinds this process has loaded or is loading, by type token. */
const loaded = new Map<string, Promise<AnyHostingProvider>>();
const TOKEN_PREFIX = typeToken("");

/**
 * The type token of a request: its `type` field where the engine sets it, else read from the URN
 * (`urn:pulumi:stack::project::[parent$]type::name`).
 */
export function typeOf(type: string, urn: string): string {
  if (type !== "") return type;
  const qualified = urn.split("::")[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

/**
 * The provider of a type token, its kind loaded on first use (`kind-loaders.ts`) and then written to
 * the compile cache. The engine's first requests come many at once, for the same kinds: they share
 * one load.
 */
export function providerFor(type: string): Promise<AnyHostingProvider> {
  const known = loaded.get(type);
  if (known !== undefined) return known;
  const kind = type.startsWith(TOKEN_PREFIX) ? type.slice(TOKEN_PREFIX.length) : "";
  const load = Object.hasOwn(KIND_LOADERS, kind) ? KIND_LOADERS[kind] : undefined;
  if (load === undefined) {
    const served = Object.keys(KIND_LOADERS).map(typeToken).sort();
    return Promise.reject(
      new Error(`hosting: unknown resource type ${type}; this plugin serves ${served.join(", ")}`),
    );
  }
  const loading = cachedOnceLoaded(load());
  loaded.set(type, loading);
  return loading;
}

/** What the kind keeps secret, plus every name the engine sent as a secret in any of `sent`. */
function secretsOf(provider: AnyHostingProvider, ...sent: ReadonlyArray<ReadonlySet<string>>): Set<string> {
  const names = new Set<string>(provider.secrets);
  for (const set of sent) for (const name of set) names.add(name);
  return names;
}

export interface CheckAnswer {
  inputs: Properties;
  failures: Array<{ property: string; reason: string }>;
}

export async function check(
  provider: AnyHostingProvider,
  olds: Properties,
  news: Properties,
): Promise<CheckAnswer> {
  const before = unwrap(olds);
  const after = unwrap(news);
  const result = await provider.check(before.values, after.values);
  return {
    inputs: wrap(result.inputs ?? after.values, secretsOf(provider, after.secrets)),
    // The dynamic path made declared secrets safe; a value sent secret may be any field.
    failures: safeFailures(result.failures ?? [], after.secrets, after.values),
  };
}

/** How one field changes, as the engine's detailed diff says it. */
export type FieldChange = "add" | "add-replace" | "delete" | "delete-replace" | "update" | "update-replace";

export interface DiffAnswer {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** Every changed argument and how; empty when nothing changes. */
  detailedDiff: Record<string, FieldChange>;
}

/**
 * The kind's own diff (old outputs against new inputs) decides whether anything changes, what
 * replaces and whether the old object goes first; the kind's `changedFields` (the same comparison)
 * names the fields, each an add, a delete or an update, replacing or not.
 */
export async function diff(
  provider: AnyHostingProvider,
  id: string,
  olds: Properties,
  news: Properties,
): Promise<DiffAnswer> {
  const before = unwrap(olds).values;
  const after = unwrap(news).values;
  const result = await provider.diff(id, before, after);
  const replaces = result.replaces ?? [];
  const detailedDiff: Record<string, FieldChange> = {};
  if (result.changes) {
    const normalised = provider.inputsOf(after) as Record<string, unknown>;
    for (const field of provider.changedFields(before, after)) {
      detailedDiff[field] = changeOf(before[field], normalised[field], replaces.includes(field));
    }
  }
  return {
    changes: result.changes === true || replaces.length > 0,
    replaces,
    deleteBeforeReplace: result.deleteBeforeReplace === true,
    detailedDiff,
  };
}

function changeOf(before: unknown, after: unknown, replace: boolean): FieldChange {
  const absent = (v: unknown) => v === undefined || v === null;
  const kind = absent(before) && !isUnknown(after) ? "add" : absent(after) ? "delete" : "update";
  return replace ? `${kind}-replace` : kind;
}

export async function create(
  provider: AnyHostingProvider,
  properties: Properties,
): Promise<{ id: string; properties: Properties }> {
  const inputs = unwrap(properties);
  const { id, outs } = await provider.create(inputs.values);
  return { id, properties: wrap(outs, secretsOf(provider, inputs.secrets)) };
}

/**
 * A read for refresh (old outputs and inputs given) or for import and `get` (only the id). Like the
 * dynamic-provider host, a read without recorded outputs hands the provider the recorded inputs,
 * if any. Undefined when the object is gone.
 */
export async function read(
  provider: AnyHostingProvider,
  id: string,
  properties: Properties,
  inputs: Properties,
): Promise<{ id: string; properties: Properties; inputs: Properties } | undefined> {
  const outs = unwrap(properties);
  const ins = unwrap(inputs);
  const recorded = Object.keys(outs.values).length > 0 ? outs.values : ins.values;
  const result = await provider.read(id, recorded);
  if (result.id === undefined || result.id === "" || result.props === undefined) return undefined;
  const secrets = secretsOf(provider, outs.secrets, ins.secrets);
  const adopted = Object.keys(recorded).length === 0 ? importedBy(provider, id) : {};
  return {
    id: result.id,
    properties: wrap({ ...result.props, ...adopted }, secrets),
    inputs: wrap({ ...result.inputs, ...adopted }, secrets),
  };
}

/**
 * What an import (or a `get`) records of an object of a kind whose `importKey` is not its id: the
 * key it was given, as `importId`, in outputs and inputs alike (so a refresh reads it back). An
 * Organization is imported by login, the only key the API finds it by, and its id is the numeric
 * id; without `importId` the program `pulumi import` writes would fail check (a new organisation
 * needs its `admin`, which the API never shows; an adopted one has one already).
 */
function importedBy(provider: AnyHostingProvider, id: string): Record<string, string> {
  return provider.declared.importKey === undefined ? {} : { importId: id };
}

export async function update(
  provider: AnyHostingProvider,
  id: string,
  olds: Properties,
  news: Properties,
): Promise<Properties> {
  const before = unwrap(olds);
  const after = unwrap(news);
  const { outs } = await provider.update(id, before.values, after.values);
  return wrap(outs, secretsOf(provider, after.secrets));
}

export async function remove(
  provider: AnyHostingProvider,
  id: string,
  properties: Properties,
): Promise<void> {
  await provider.delete(id, unwrap(properties).values);
}

/** The properties a half-done create leaves in state (`PartialCreateError`), secrets wrapped. */
export function partialProperties(
  provider: AnyHostingProvider,
  properties: object,
  sent: Properties,
): Properties {
  return wrap(properties, secretsOf(provider, unwrap(sent).secrets));
}

export type { Value };
