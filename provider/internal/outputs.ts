/** Shaping outputs: what state holds, and the input-shaped part of it that read reports. */
import { type FieldRule, sameValue } from "./diff";

/**
 * The output key that records how the program wrote the inputs that differ from what check made of
 * them: `[value]` for an argument the program left out (check filled the default `value`), and
 * `[value, written]` for one written in another form (an `importId` given as the number 42 and
 * used as "42").
 *
 * Why: the engine records the program's inputs as written, and the drift check
 * (`preview --refresh --run-program`) compares what read reports as inputs with the program's
 * inputs as written. Reporting a default the program never wrote (`-active`) or another spelling
 * of an id (`~importId`) shows a row that looks like drift on an unchanged object.
 */
export const AS_WRITTEN_KEY = "__asWritten";

export type AsWritten = Record<string, [unknown] | [unknown, unknown]>;

type Rules = Record<string, FieldRule>;

/**
 * What `AS_WRITTEN_KEY` holds for inputs `written` by the program, `normalised` (check's reading of
 * them) and the `outputs` state holds (what a read of the unchanged object reports): the fields
 * whose outputs mean what the program asked for but are written otherwise. A field whose outputs
 * differ in meaning (the object was left unlike the program) is not recorded, so it keeps showing.
 * A secret's written form is never recorded (outputs are not all encrypted). Undefined when none.
 */
export function asWritten(
  rules: object,
  written: object,
  normalised: object,
  outputs: object,
  compare: (values: object) => object = (v) => v,
): AsWritten | undefined {
  const raw = written as Record<string, unknown>;
  const wanted = compare(normalised) as Record<string, unknown>;
  const made = outputs as Record<string, unknown>;
  const held = compare(outputs) as Record<string, unknown>;
  const record: AsWritten = {};
  for (const [key, rule] of Object.entries(rules as Rules)) {
    const value = made[key];
    if (value === undefined || rule.secret) continue;
    if (!sameValue(held[key], wanted[key], rule.set === true)) continue;
    if (raw[key] === undefined || raw[key] === null) {
      if (value !== null) record[key] = [value];
    } else if (JSON.stringify(raw[key]) !== JSON.stringify(value)) {
      record[key] = [value, raw[key]];
    }
  }
  return Object.keys(record).length > 0 ? record : undefined;
}

/**
 * The input-shaped part of outputs (the fields the diff rules name), which read returns as
 * `inputs` so that refresh shows drift field by field. Where `written` says how the program wrote a
 * field and the object still has the value check made of it, the field is reported as written (left
 * out, or in the program's form); a value changed outside Pulumi is reported as it now is.
 */
export function inputsFrom<T extends object>(
  rules: object,
  outputs: T,
  written: AsWritten | undefined = undefined,
  compare: (values: object) => object = (v) => v,
): T {
  const values = outputs as Record<string, unknown>;
  const comparable = compare(values) as Record<string, unknown>;
  const inputs: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(rules as Rules)) {
    const value = values[key];
    const form = written?.[key];
    if (form !== undefined) {
      const recorded = (compare({ [key]: form[0] }) as Record<string, unknown>)[key];
      if (sameValue(comparable[key], recorded, rule.set === true)) {
        if (form.length === 2) inputs[key] = form[1];
        continue;
      }
    }
    if (value !== undefined) inputs[key] = value;
  }
  return inputs as T;
}

/** Drops keys whose value is undefined (state holds no explicit undefineds). */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
