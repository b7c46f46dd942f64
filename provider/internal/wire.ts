/**
 * The wire mapping declared with the field: a field whose state value is a wire field under
 * another name (`contentType` <- `config.content_type`) says so once, in its `field(...)`
 * behaviour (`wire`), and the mapper from an API object, the write body and the comparison with the
 * server are derived from it here. Fields without `wire` (a masked secret, ids the server sets) stay
 * with the kind's own code.
 */
import type { z } from "zod";
import { behaviourOf, type WireCodec } from "./declare";
import { changedFields, type FieldRule } from "./diff";

/** What derives from the wire paths of a kind's fields (`W`: the write body the API takes). */
export interface WireMapping<T, W extends object = Record<string, unknown>> {
  /** The mapped fields' state values from an API object; a value the API left out is the field's default. */
  fromWire(api: object): Partial<T>;
  /** The mapped fields of `values` as the API takes them: a value left out is sent as its `none`, or not at all. */
  toWire(values: Partial<T>): W;
  /** The mapped fields where the API object differs from `values`, compared as diff compares them. */
  changed(api: object, values: Partial<T>): string[];
  /** The mapped fields where state values read before (`live`) differ from `values`. */
  changedValues(live: Partial<T>, values: Partial<T>): string[];
}

/** A list sent without repeats (for a field compared as a set); read as the API sends it. */
export const distinct: WireCodec<unknown[], unknown[]> = {
  fromWire: (wire) => wire,
  toWire: (value) => [...new Set(value)],
};

const at = (value: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>(
    (v, key) => (typeof v === "object" && v !== null ? (v as Record<string, unknown>)[key] : undefined),
    value,
  );

/**
 * The wire mapping of the fields of `inputs` that declare a `wire`, with their diff rules. `W` is
 * the write body the kind's API takes, where its mapped fields make the whole of it.
 */
export function wireMapping<T, W extends object = Record<string, unknown>>(
  inputs: z.ZodObject,
  rules: Readonly<Record<string, FieldRule>>,
): WireMapping<T, W> {
  const mapped = Object.entries(inputs.shape as Record<string, z.ZodType>).flatMap(([name, schema]) => {
    const wire = behaviourOf(schema, name).wire;
    if (wire === undefined) return [];
    // A value the API leaves out reads as the field's default, as the program leaving it out would.
    const absent = schema.safeParse(undefined);
    return [
      {
        name,
        path: wire.path.split("."),
        codec: wire.codec,
        none: wire.none,
        absent: absent.success ? absent.data : undefined,
      },
    ];
  });
  const mappedRules = Object.fromEntries(mapped.map((f) => [f.name, rules[f.name] ?? {}]));
  // The wire's "none" (null, "") means a value left out, whichever side it is on.
  const isNone = (f: (typeof mapped)[number], value: unknown) => f.none !== undefined && value === f.none;
  const fromWire = (api: object): Partial<T> => {
    const values: Record<string, unknown> = {};
    for (const f of mapped) {
      const sent = at(api, f.path);
      const raw = isNone(f, sent) ? undefined : sent;
      const value = f.codec ? f.codec.fromWire(raw) : raw;
      values[f.name] = value ?? f.absent;
    }
    return values as Partial<T>;
  };
  const withoutNone = (values: object) => {
    const out: Record<string, unknown> = { ...values };
    for (const f of mapped) if (isNone(f, out[f.name])) out[f.name] = undefined;
    return out;
  };
  const changedValues = (live: Partial<T>, values: Partial<T>) =>
    changedFields(mappedRules, withoutNone(live), withoutNone(values));
  return {
    fromWire,
    toWire(values) {
      const body: Record<string, unknown> = {};
      for (const f of mapped) {
        const value = (values as Record<string, unknown>)[f.name];
        if (value === undefined && f.none === undefined) continue;
        let node = body;
        for (const key of f.path.slice(0, -1)) {
          node[key] ??= {};
          node = node[key] as Record<string, unknown>;
        }
        node[f.path[f.path.length - 1] as string] =
          value === undefined ? f.none : f.codec ? f.codec.toWire(value) : value;
      }
      return body as W;
    },
    changed: (api, values) => changedValues(fromWire(api), values),
    changedValues,
  };
}
