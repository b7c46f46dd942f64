/** Shaping outputs: what state holds, and the input-shaped part of it that read reports. */

/**
 * The input-shaped part of outputs (the fields the diff rules name), which read returns as
 * `inputs` so that refresh shows drift field by field.
 */
export function inputsFrom<T extends object>(rules: object, outputs: T): T {
  return Object.fromEntries(Object.entries(outputs).filter(([k, v]) => k in rules && v !== undefined)) as T;
}

/** Drops keys whose value is undefined (state holds no explicit undefineds). */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
