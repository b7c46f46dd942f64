/**
 * Look-ups keyed by request input. The state is plain JSON (it is persisted as such), so its maps
 * are ordinary objects: a key such as `constructor` or `__proto__` must never reach
 * `Object.prototype`, or a token named `constructor` would pass as a caller.
 */

/** The record's own value for `key`, never an inherited one. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
