/**
 * The lifecycle every resource provider shares: the provider shape the engine calls (defined once per
 * kind with `defineProvider`), reads that treat 404 as gone, deletes that treat 404 as done, creates
 * that never leave a duplicate, and creates that keep a half-converged object in state.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { isNotFound } from "../client/errors";
import { type CrossFieldRules, checkInputs, containsUnknown, safeFailures, unknownArguments } from "./check";
import { flushingAfterCalls } from "./compile-cache";
import { configure, notice } from "./context";
import {
  adoptingSince,
  CreateOutcomeUnknown,
  pendingInputs,
  pendingRecord,
  pendingResolutions,
  pendingSince,
} from "./creates";
import type { DeclaredKind } from "./declare";
import { changedFields, diffFields, type FieldRule, type FieldRules, sameValue } from "./diff";
import { AS_WRITTEN_KEY, type AsWritten, asWritten, inputsFrom } from "./outputs";
import { quietErrors } from "./quiet-errors";

/** What the engine calls, in lifecycle order. */
export interface ProviderMethods<I, O> {
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult<I>>;
  diff(id: string, olds: O, news: I): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: I): Promise<{ id: string; outs: O }>;
  read(id: string, props?: Partial<O>): Promise<pulumi.dynamic.ReadResult<O>>;
  update(id: string, olds: O, news: I): Promise<{ outs: O }>;
  delete(id: string, props: O): Promise<void>;
}

/** The object the engine's dynamic-provider host calls for one resource kind. */
export interface HostingProvider<I, O> extends ProviderMethods<I, O> {
  /** The resource kind: the type token is `pulumi-nodejs:dynamic/hosting:<kind>`. */
  readonly kind: string;
  configure(request: pulumi.dynamic.ConfigureRequest): Promise<void>;
  /**
   * The schema's reading of inputs as the program wrote them (and as check records them): defaults
   * applied, values in the form the methods act on. Throws on inputs check refuses.
   */
  inputsOf(written: I): I;
  /**
   * The arguments diff finds changed between old outputs and new inputs, compared as diff compares
   * them: what the native plugin's detailed diff names field by field.
   */
  changedFields(olds: O, news: I): string[];
  /** The inputs that are secrets (rules with `secret: true`): the resource class wraps them. */
  readonly secrets: readonly string[];
  /** What the kind declares about itself (kind.ts): fields, behaviour, outputs, identity, discovery. */
  readonly declared: DeclaredKind;
}

// biome-ignore lint/suspicious/noExplicitAny: registries hold providers of every shape
export type AnyHostingProvider = HostingProvider<any, any>;

/**
 * What a resource family writes for one kind beside its declaration (check and diff follow from
 * the declaration's schema and field behaviour): rules across fields, and the four methods that
 * talk to the API.
 */
export interface ProviderSpec<S extends z.ZodObject, O extends object> {
  /** Rules across fields, run by check after the schema passed. */
  crossField?: CrossFieldRules<z.infer<S>>;
  /**
   * A replacement deletes the old object before it creates the new one: for objects the server
   * refuses twice (a key already in use), where creating the new one first cannot succeed.
   */
  deleteBeforeReplace?: boolean;
  /**
   * Fields whose being written out, rather than left to the default, means something to the kind
   * (OrgMembership's `onDestroy`: the token's own membership is removed only when "remove" is
   * written). Writing such a field out, or leaving it out again, is a change (an update that sends
   * nothing), so state records it.
   */
  writtenMatters?: readonly string[];
  /** Brings values to the form diff compares (e.g. names lower-cased where the API ignores case). */
  comparable?: (values: object) => object;
  /**
   * Kinds with `importId`: the id of the object it names. A preview of the create then reads that
   * object and shows, field by field, what adopting it will change.
   */
  adoptedId?: (inputs: z.infer<S>) => string | undefined;
  /**
   * What state records of the inputs check returns, where it must not be the program's text
   * (PrivateRegistry records a digest in place of the value). `failed`: check refused them.
   */
  recordedInputs?: (
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
    failed: boolean,
  ) => Promise<Record<string, unknown>>;
  /**
   * A check that needs the API, run at preview once the inputs are valid and known: the failure to
   * show, or undefined. It decides itself when a request is worth it (`olds`: what state recorded;
   * empty for a new resource), so a plain preview of an unchanged stack sends none.
   */
  preflight?: (
    inputs: z.infer<S>,
    olds: Partial<z.infer<S>>,
  ) => Promise<pulumi.dynamic.CheckFailure | undefined>;
  create: ProviderMethods<z.infer<S>, O>["create"];
  read: ProviderMethods<z.infer<S>, O>["read"];
  update: ProviderMethods<z.infer<S>, O>["update"];
  delete: ProviderMethods<z.infer<S>, O>["delete"];
}

/** The key under which the engine records the serialised provider in inputs and outputs. */
const PROVIDER_KEY = "__provider";

/**
 * Names a kind's provider. check and diff come from the spec's schema and rules; `configure` hands
 * the stack config to the shared client context. It also tells an upgrade of the recorded provider
 * from a change: when the only difference is the serialised provider (a stack written by an older
 * version), diff reports an update and update rewrites the state without a request, so one
 * `pulumi up` brings old state to the current form.
 */
export function defineProvider<S extends z.ZodObject, O extends object>(
  declared: DeclaredKind<S>,
  behaviour: ProviderSpec<S, O>,
): HostingProvider<z.infer<S>, O> {
  const { kind } = declared;
  const secretFields = new Set(declared.secrets);
  const spec = { ...behaviour, inputs: declared.inputs, rules: declared.rules as FieldRules<z.infer<S>> };
  const compare = spec.comparable ?? ((values: object) => values);
  // check records the inputs as the program wrote them (see AS_WRITTEN_KEY); the methods that act
  // on them get the schema's reading of them, defaults applied.
  const inputsOf = (news: z.infer<S>): z.infer<S> => {
    const checked = checkInputs(spec.inputs, news as Record<string, unknown>, spec.crossField);
    if (checked.failures?.length || checked.inputs === undefined) {
      throw new Error((checked.failures ?? []).map((f) => `${f.property}: ${f.reason}`).join("; "));
    }
    return checked.inputs;
  };
  const fieldDiff = (olds: O, news: z.infer<S>) =>
    diffFields(spec.rules, compare(olds as object), compare(news as object));
  // What read will report for each field is what state holds (the outputs); where the program
  // wrote it otherwise (left out, another form, a set in another order) and it means the same,
  // that is recorded.
  const recordWritten = <T extends object>(outs: T, written: z.infer<S>, normalised: z.infer<S>): T => {
    const { [AS_WRITTEN_KEY]: _previous, ...rest } = outs as Record<string, unknown>;
    const form = asWritten(spec.rules, written, normalised, rest, compare);
    return (form === undefined ? rest : { ...rest, [AS_WRITTEN_KEY]: form }) as T;
  };
  const pending = pendingResolutions(kind);
  // What a pending record's replacement names as the field that replaces: its identity, the fields
  // the look-up for the object goes by.
  const replaced = declared.identity[0] ?? Object.keys(spec.rules)[0] ?? "id";
  return flushingAfterCalls(
    quietErrors({
      kind,
      declared,
      secrets: declared.secrets,
      async configure(request) {
        configure(request.config);
      },
      inputsOf,
      changedFields: (olds, news) =>
        changedFields(spec.rules, compare(olds as object), compare(inputsOf(news) as object)),
      async check(olds, news) {
        const recorded = async (failed: boolean) =>
          (spec.recordedInputs ? await spec.recordedInputs(olds, news, failed) : news) as z.infer<S>;
        const unknown = unknownArguments(spec.inputs, news);
        if (unknown.length > 0) return { inputs: await recorded(true), failures: unknown };
        const checked = checkInputs(spec.inputs, news, spec.crossField);
        if (checked.failures?.length || checked.inputs === undefined) {
          const failures = safeFailures(checked.failures ?? [], secretFields, news);
          return { ...checked, failures, inputs: await recorded(true) };
        }
        // A resource not created yet (no recorded inputs) that adopts an object: show what changes.
        const isNew = Object.keys(olds).every((k) => k === PROVIDER_KEY);
        const known = !containsUnknown(checked.inputs);
        const id = isNew && known ? spec.adoptedId?.(checked.inputs) : undefined;
        if (id !== undefined) {
          const failure = await showAdoption(kind, spec, compare, id, checked.inputs);
          if (failure)
            return { inputs: await recorded(true), failures: safeFailures([failure], secretFields, news) };
        }
        const failure = known
          ? await spec.preflight?.(checked.inputs, olds as Partial<z.infer<S>>)
          : undefined;
        if (failure)
          return { inputs: await recorded(true), failures: safeFailures([failure], secretFields, news) };
        return { inputs: await recorded(false) };
      },
      async diff(id, olds, news) {
        const since = pendingSince(id);
        if (since !== undefined) return pending.resolveOnNextCreate(id, since, news, replaced);
        const fields = withWrittenChanges(spec.writtenMatters, fieldDiff(olds, inputsOf(news)), olds, news);
        const result =
          spec.deleteBeforeReplace && (fields.replaces?.length ?? 0) > 0
            ? { ...fields, deleteBeforeReplace: true }
            : fields;
        if (result.changes || !providerChanged(olds, news)) return result;
        return { changes: true, replaces: [], deleteBeforeReplace: false };
      },
      async create(written) {
        const inputs = inputsOf(written);
        const since = pending.adoptionFor(written);
        try {
          const run = () => spec.create(inputs);
          const { id, outs } = await (since === undefined ? run() : adoptingSince(since, run));
          return { id, outs: recordWritten(outs, written, inputs) };
        } catch (e) {
          if (!(e instanceof CreateOutcomeUnknown)) throw e;
          throw pendingRecord(kind, e, written);
        }
      },
      async read(id, props) {
        // A pending record stays as it is until an `up` resolves it (see PENDING_ID).
        if (pendingSince(id) !== undefined)
          return { id, props: props as O, inputs: pendingInputs(props) as O };
        // The input-shaped part of what was read, so refresh shows drift field by field.
        const read = await spec.read(id, props);
        const result = importing(props) ? withAdoptedArgs(read, declared.discovery?.adopted?.args) : read;
        if (result.props === undefined || result.inputs !== undefined) return result;
        keepRecordedOrder(spec.rules, result.props, props);
        const written = (props as Record<string, unknown> | undefined)?.[AS_WRITTEN_KEY] as
          | AsWritten
          | undefined;
        const outs = written === undefined ? result.props : { ...result.props, [AS_WRITTEN_KEY]: written };
        return {
          ...result,
          props: outs,
          inputs: inputsFrom(spec.rules, result.props, written, compare) as O,
        };
      },
      async update(id, olds, written) {
        if (pendingSince(id) !== undefined) {
          throw new Error(
            `hosting: ${kind} ${id} is pending; an \`up\` replaces it with the object its create made`,
          );
        }
        const news = inputsOf(written);
        if (providerChanged(olds, written) && !fieldDiff(olds, news).changes) {
          const { [PROVIDER_KEY]: _recorded, ...outs } = olds as Record<string, unknown>;
          return { outs: recordWritten(outs as O, written, news) };
        }
        const { outs } = await spec.update(id, olds, news);
        return { outs: recordWritten(outs, written, news) };
      },
      async delete(id, props) {
        if (pendingSince(id) === undefined) return spec.delete(id, props);
        if (pending.resolving.delete(id)) return;
        notice(
          `${kind}: a create at ${new Date(pendingSince(id) ?? 0).toISOString()} may have made one that this stack never learned the id of; it is left as it is: delete it on the platform if it is there`,
        );
      },
    }),
  );
}

/** A read with nothing recorded: `pulumi import` (or `X.get`) taking an object that existed before. */
function importing(props: object | undefined): boolean {
  return props === undefined || Object.keys(props).every((k) => k === PROVIDER_KEY);
}

/**
 * What `pulumi import` records of an object that existed before the stack: the arguments
 * `hosting-import` writes for it too (`discovery.adopted.args`, e.g. a membership's
 * `onDestroy: "retain"`), so the code the CLI writes destroys nothing the program did not make.
 */
function withAdoptedArgs<R extends { props?: object | undefined; inputs?: object | undefined }>(
  result: R,
  args: Record<string, unknown> | undefined,
): R {
  if (args === undefined || result.props === undefined) return result;
  return {
    ...result,
    props: { ...result.props, ...args },
    ...(result.inputs === undefined ? {} : { inputs: { ...result.inputs, ...args } }),
  };
}

/** Whether `key` was left to its default when `outputs` were recorded (`__asWritten` holds `[value]`). */
export function leftToDefault(outputs: object | undefined, key: string): boolean {
  const written = (outputs as Record<string, unknown> | undefined)?.[AS_WRITTEN_KEY] as AsWritten | undefined;
  return written?.[key]?.length === 1;
}

/** A diff that also counts a `writtenMatters` field written out or left out since state recorded it. */
function withWrittenChanges(
  keys: readonly string[] | undefined,
  diff: pulumi.dynamic.DiffResult,
  olds: object,
  news: object,
): pulumi.dynamic.DiffResult {
  if (diff.changes || keys === undefined) return diff;
  const given = news as Record<string, unknown>;
  const moved = keys.some(
    (key) => leftToDefault(olds, key) !== (given[key] === undefined || given[key] === null),
  );
  return moved ? { ...diff, changes: true } : diff;
}

/**
 * Reads the object `importId` names and tells what adopting it will change, field by field, as an
 * update would show it (secrets by whether they are set, never by value). A failure when there is
 * no such object; a notice when the object cannot be read now (the create will say why).
 */
async function showAdoption<S extends z.ZodObject, O extends object>(
  kind: string,
  spec: ProviderSpec<S, O> & { rules: FieldRules<z.infer<S>> },
  compare: (values: object) => object,
  id: string,
  inputs: z.infer<S>,
): Promise<pulumi.dynamic.CheckFailure | undefined> {
  const importId = String((inputs as { importId?: unknown }).importId);
  let read: pulumi.dynamic.ReadResult<O>;
  try {
    read = await spec.read(id, { importId } as unknown as Partial<O>);
  } catch (e) {
    notice(
      `${kind} importId ${importId}: could not read it to show what adopting it changes (${(e as Error).message})`,
    );
    return undefined;
  }
  if (read.props === undefined) {
    return {
      property: "importId",
      reason: `importId ${importId}: there is no such ${kind}, or the token cannot see it`,
    };
  }
  const live = compare(inputsFrom(spec.rules, read.props)) as Record<string, unknown>;
  const wanted = compare(inputs as object) as Record<string, unknown>;
  const changes: string[] = [];
  for (const [key, rule] of Object.entries(spec.rules as Record<string, FieldRule>)) {
    if (rule.createOnly || sameValue(live[key], wanted[key], rule.set === true)) continue;
    if (rule.secret) {
      changes.push(wanted[key] === undefined ? `${key}: removed` : `${key}: set (the API never shows it)`);
    } else {
      changes.push(`${key}: ${shown(live[key])} => ${shown(wanted[key])}`);
    }
  }
  if (changes.length > 0) {
    notice(`${kind} ${id} (importId ${importId}): adopting it will change ${changes.join(", ")}`);
  }
  return undefined;
}

const shown = (v: unknown) => (v === undefined ? "(none)" : JSON.stringify(v));

/**
 * A set read back in another order is the same set: state keeps the order it recorded, so a
 * reordering on the server changes nothing in state, nor in what an update that happens for
 * another field shows.
 */
function keepRecordedOrder(rules: object, read: object, recorded: object | undefined): void {
  if (recorded === undefined) return;
  const now = read as Record<string, unknown>;
  const before = recorded as Record<string, unknown>;
  for (const [key, rule] of Object.entries(rules as Record<string, FieldRule>)) {
    if (!rule.set || !Array.isArray(now[key]) || !Array.isArray(before[key])) continue;
    if (sameValue(now[key], before[key], true)) now[key] = before[key];
  }
}

function providerChanged(olds: unknown, news: unknown): boolean {
  const before = (olds as Record<string, unknown>)[PROVIDER_KEY];
  const after = (news as Record<string, unknown>)[PROVIDER_KEY];
  return typeof before === "string" && typeof after === "string" && before !== after;
}

/**
 * What a 404 means where it is ambiguous. `explain` is asked after a 404: it returns the error to
 * show when the 404 meant something other than "gone" (the feature is off, the token may not use a
 * site-administration route), or undefined when the object is gone. It may send requests.
 */
export interface NotFoundPolicy {
  explain?: (notFound: unknown) => Promise<Error | undefined>;
}

/** Runs a read: a 404 means the object is gone (undefined) unless `policy` explains it otherwise. */
export async function readOrGone<T>(
  read: () => Promise<T>,
  policy: NotFoundPolicy = {},
): Promise<T | undefined> {
  try {
    return await read();
  } catch (e) {
    if (!isNotFound(e)) throw e;
    const other = await policy.explain?.(e);
    if (other) throw other;
    return undefined;
  }
}

/** Runs a delete: a 404 means the object is already gone, which is what delete wants, unless `policy` explains it otherwise. */
export async function deleteIgnoringGone(
  remove: () => Promise<unknown>,
  policy: NotFoundPolicy = {},
): Promise<void> {
  await readOrGone(remove, policy);
}
