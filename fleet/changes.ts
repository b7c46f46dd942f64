/**
 * What one stack's operation changed, read from the engine's events: one `resourcePreEvent` per
 * step names the resource, the fields the provider says differ and the state before and after,
 * so the report can say `role: admin -> member` (secrets as `[secret]`), and each error diagnostic
 * names its resource.
 */
import type { EngineEvent, OpType, StepEventMetadata } from "@pulumi/pulumi/automation";
import type { z } from "zod";
import { PROVIDERS } from "../provider/providers";
import { bounded, type FieldDiff, type ResourceChange } from "./report";

/** Steps that change nothing: what a drift check or a report of changes leaves out. */
const UNCHANGED: ReadonlySet<OpType> = new Set<OpType>([
  "same",
  "read",
  "refresh",
  "discard",
  "discard-replaced",
]);

/** Steps on a whole resource. */
const WHOLE: ReadonlySet<OpType> = new Set<OpType>(["create", "delete", "import"]);

/** The step that stands for a replacement in a report (the engine emits three). */
const REPLACEMENT: ReadonlySet<OpType> = new Set<OpType>(["create-replacement", "delete-replaced"]);

/** An error the engine reported, against a resource (its name) or the whole stack. */
export interface Diagnostic {
  name?: string;
  message: string;
}

/** The changed resources of one run, from its engine events, one entry per resource. */
export class Changes {
  private readonly byUrn = new Map<string, ResourceChange>();
  /** The error diagnostics the engine reported, each with its resource's name where it has one. */
  readonly errors: Diagnostic[] = [];

  /**
   * `refreshSteps`: the run is a refresh (`pulumi refresh --preview-only`), whose steps announce
   * themselves as `refresh` before the read; what each read found changed (`update`, or `delete`
   * for an object gone) comes in the step's outputs event, from the state (before) to the platform
   * (after). Other runs' outputs events repeat their steps, so they are not read.
   */
  constructor(private readonly options: { refreshSteps?: boolean } = {}) {}

  add(event: EngineEvent): void {
    const diagnostic = event.diagnosticEvent;
    if (diagnostic?.severity === "error") {
      const message = diagnostic.message.trim();
      const name = diagnostic.urn ? nameOf(diagnostic.urn) : undefined;
      if (!this.errors.some((e) => e.name === name && e.message === message)) {
        this.errors.push(name === undefined ? { message } : { name, message });
      }
    }
    const step = this.options.refreshSteps
      ? event.resOutputsEvent?.metadata
      : event.resourcePreEvent?.metadata;
    if (step === undefined || UNCHANGED.has(step.op) || step.type === "pulumi:pulumi:Stack") return;
    // A default provider comes and goes with the stack's resources: bookkeeping, not a change.
    if (step.type.startsWith("pulumi:providers:") && WHOLE.has(step.op)) return;
    const op = REPLACEMENT.has(step.op) ? "replace" : step.op;
    const known = this.byUrn.get(step.urn);
    // A resource created or deleted whole has no field that changed.
    const fields = WHOLE.has(step.op) ? [] : fieldsOf(step);
    const diffs = diffsOf(step, fields);
    if (known) {
      known.fields = sortFields([...new Set([...known.fields, ...fields])]);
      // A field's values from the first step that named it (a replacement's steps repeat them).
      const byField = new Map([...diffs, ...(known.diffs ?? [])].map((d) => [d.field, d]));
      known.diffs = known.fields.flatMap((f) => byField.get(f) ?? []);
      if (op === "replace") known.op = op;
      return;
    }
    this.byUrn.set(step.urn, { urn: step.urn, type: step.type, name: nameOf(step.urn), op, fields, diffs });
  }

  list(): ResourceChange[] {
    return [...this.byUrn.values()].sort((a, b) => a.urn.localeCompare(b.urn));
  }
}

/**
 * The inputs a step changes: the provider's own list where it gives one (the native plugin's
 * detailed diff), else the top-level inputs whose values differ between the recorded state and the
 * program (a dynamic provider's diff names none). Internal inputs (`__provider`) are left out.
 */
export function fieldsOf(step: Pick<StepEventMetadata, "diffs" | "detailedDiff" | "old" | "new">): string[] {
  const detailed = Object.keys(step.detailedDiff ?? {});
  const named = detailed.length > 0 ? detailed : (step.diffs ?? []);
  if (named.length > 0) return sortFields(named.filter((f) => !f.startsWith("__")));
  const before = step.old?.inputs ?? {};
  const after = step.new?.inputs ?? {};
  if (step.old === undefined || step.new === undefined) return [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return sortFields(
    [...keys].filter((k) => !k.startsWith("__") && JSON.stringify(before[k]) !== JSON.stringify(after[k])),
  );
}

/** Top-level fields first, then nested paths, each alphabetically. */
function sortFields(fields: string[]): string[] {
  const depth = (f: string) => (/[.[]/.test(f) ? 1 : 0);
  return [...new Set(fields)].sort((a, b) => depth(a) - depth(b) || a.localeCompare(b));
}

/** The engine's mark of a secret in an event: it writes secrets blinded, `{sig, ciphertext: "[secret]"}`. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG_VALUE = "1b47061264138c4ac30d75fd1eb44270";
/** The engine's stand-in for a value not known before the operation runs (an output of another resource). */
const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Whether an event's value is a secret (at this level). */
function isSecret(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<string, unknown>)[SECRET_SIG] === SECRET_SIG_VALUE
  );
}

/**
 * Fields shown as `[secret]` whatever the engine says: those a kind declares secret (a webhook's
 * `secret`, a private registry's `value`), and any field named like a credential (a provider's
 * `token`), since a dynamic resource's inputs reach the events in clear unless the program marked
 * them secret.
 */
const SECRET_NAME = /secret|token|password|passphrase|credential|private_?key/i;

/** Each kind's declaration, by kind name. */
const DECLARED = new Map(PROVIDERS.map((p) => [p.declared.kind, p.declared]));

/** The kind of a type token, by its last part (`hosting:index:OrgMembership`, `...dynamic/hosting:OrgMembership`). */
function declarationOf(type: string) {
  return DECLARED.get(type.split(":").at(-1) ?? "");
}

/**
 * The value the provider gives a top-level input the program or the state leaves out (an
 * OrgMembership's `role` is `member`), so a change to or from the default shows that value, not
 * "(none)": `hosting-import` leaves defaults out of the code it writes.
 */
function defaultOf(type: string, field: string): unknown {
  const schema = (declarationOf(type)?.inputs.shape as Record<string, z.ZodType> | undefined)?.[field];
  const parsed = schema?.safeParse(undefined);
  return parsed?.success ? parsed.data : undefined;
}

/** A property path's parts: `a.b[0]["c.d"]` is `a`, `b`, 0, `c.d`. */
export function pathParts(path: string): Array<string | number> {
  const parts: Array<string | number> = [];
  const re = /\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\.?([^.[]+)/y;
  let match = re.exec(path);
  while (match !== null && re.lastIndex <= path.length) {
    if (match[1] !== undefined) parts.push(Number(match[1]));
    else if (match[2] !== undefined) parts.push(JSON.parse(match[2]) as string);
    else if (match[3] !== undefined) parts.push(match[3]);
    if (re.lastIndex === path.length) return parts;
    match = re.exec(path);
  }
  // Not a path the engine writes: the whole text is one field name.
  return [path];
}

const SECRET_MARK = Symbol("secret");

/** The value at a path, SECRET_MARK where a secret encloses it, undefined where there is none. */
function valueAt(root: Record<string, unknown> | undefined, parts: ReadonlyArray<string | number>): unknown {
  let value: unknown = root;
  for (const part of parts) {
    if (isSecret(value)) return SECRET_MARK;
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[part];
  }
  return value;
}

/**
 * A value as a report shows it: a string as itself (`""` when empty), anything else as JSON, every
 * secret inside as `[secret]`, an unknown as `[unknown]`, a URL's password hidden; undefined where
 * the field has no value. Bounded, since values come from servers and programs.
 */
export function displayValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === SECRET_MARK || isSecret(value)) return "[secret]";
  const text =
    typeof value === "string"
      ? value === UNKNOWN_VALUE
        ? "[unknown]"
        : value === ""
          ? '""'
          : value
      : JSON.stringify(value, (_key, v: unknown) =>
          isSecret(v) ? "[secret]" : v === UNKNOWN_VALUE ? "[unknown]" : v,
        );
  return bounded(
    (text ?? String(value)).replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]*):[^\s/@]*@/gi, "$1:[secret]@"),
  );
}

/**
 * Each changed field with its value before and after: before from the recorded (or refreshed)
 * inputs, or the outputs where the provider says it compared those (`inputDiff: false`); after from
 * the program's inputs; a top-level input left out on a side has the kind's default there. A field
 * the kind declares secret, or named like a credential, is `[secret]` on both sides.
 */
export function diffsOf(
  step: Pick<StepEventMetadata, "detailedDiff" | "old" | "new" | "type">,
  fields: readonly string[],
): FieldDiff[] {
  const secrets = new Set(declarationOf(step.type)?.secrets ?? []);
  return fields.map((field) => {
    const parts = pathParts(field);
    const top = String(parts[0]);
    const byOutputs = step.detailedDiff?.[field]?.inputDiff === false;
    const recorded = byOutputs
      ? [step.old?.outputs, step.old?.inputs]
      : [step.old?.inputs, step.old?.outputs];
    const before = recorded.find((m) => m !== undefined && top in m);
    const orDefault = (value: unknown) =>
      value === undefined && parts.length === 1 ? defaultOf(step.type, top) : value;
    let old = displayValue(orDefault(valueAt(before, parts)));
    let after = displayValue(orDefault(valueAt(step.new?.inputs, parts)));
    if (secrets.has(top) || SECRET_NAME.test(top)) {
      old = old === undefined ? undefined : "[secret]";
      after = after === undefined ? undefined : "[secret]";
    }
    return { field, ...(old === undefined ? {} : { old }), ...(after === undefined ? {} : { new: after }) };
  });
}

/** The resource name of a URN (`urn:pulumi:stack::project::type::name`). */
export function nameOf(urn: string): string {
  return urn.split("::").at(-1) ?? urn;
}
