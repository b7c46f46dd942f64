/**
 * Property values as the engine sends them to a provider that accepts secrets, and back.
 *
 * The engine marshals a secret as an object `{ [SIG_KEY]: SECRET_SIG, value }` and a value not known
 * during preview as the string `UNKNOWN`. The kinds' providers (the same objects the dynamic
 * resources use) expect plain values, as the dynamic-provider host gives them, so every request is
 * unwrapped before a provider method sees it, and every answer is wrapped again: a value the engine
 * sent as a secret, or one the kind declares secret, goes back wrapped, else the engine would store
 * it in plain text. Nothing here logs a value.
 */
import { UNKNOWN } from "../internal/check";

export { UNKNOWN };

/** The key whose value says what a special object is (`rpc.specialSigKey` of the SDK). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The signature of a secret (`rpc.specialSecretSig`). */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** A JSON-like value, as a protobuf `Struct` carries it. */
export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };
export type Properties = Record<string, Value>;

/** A secret as the engine marshals it (a type literal, so it is also a `Value`). */
export type WrappedSecret = {
  [SIG_KEY]: typeof SECRET_SIG;
  value: Value;
};

export function isSecret(value: unknown): value is WrappedSecret {
  return (
    typeof value === "object" && value !== null && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG
  );
}

export function secret(value: Value): WrappedSecret {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/**
 * Sets `key` as an own property of `target`: a key `__proto__` (which a program or a server may
 * send) becomes a property like any other instead of replacing the object's prototype.
 */
export function setOwn(target: Record<string, Value>, key: string, value: Value): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true });
  else target[key] = value;
}

/** A value with every secret inside it unwrapped, and whether it held one. */
export function unwrapValue(value: Value): { value: Value; secret: boolean } {
  if (isSecret(value)) return { value: unwrapValue(value.value).value, secret: true };
  if (Array.isArray(value)) {
    const items = value.map(unwrapValue);
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (typeof value === "object" && value !== null) {
    const { values, secrets } = unwrap(value);
    return { value: values, secret: secrets.size > 0 };
  }
  return { value, secret: false };
}

/**
 * Plain properties for a provider method, and the top-level names that held a secret anywhere
 * inside them: an output of that name goes back secret as a whole (the engine tracks secrets per
 * value, and the kinds' outputs are read whole from the API, so per-field is the honest grain).
 */
export function unwrap(properties: Properties | undefined): { values: Properties; secrets: Set<string> } {
  const values: Properties = {};
  const secrets = new Set<string>();
  for (const [key, raw] of Object.entries(properties ?? {})) {
    const { value, secret: held } = unwrapValue(raw);
    setOwn(values, key, value);
    if (held) secrets.add(key);
  }
  return { values, secrets };
}

/**
 * Properties for an answer to the engine: each name in `secrets` wrapped as a secret (an absent or
 * null value stays as it is: there is nothing to hide), values a `Struct` cannot carry dropped
 * (`undefined`), everything else as it is.
 */
export function wrap(values: object | undefined, secrets: Iterable<string>): Properties {
  const names = new Set(secrets);
  const out: Properties = {};
  for (const [key, raw] of Object.entries(values ?? {})) {
    if (raw === undefined) continue;
    const value = plain(raw);
    setOwn(out, key, names.has(key) && value !== null && !isSecret(value) ? secret(value) : value);
  }
  return out;
}

/**
 * A provider's answer as a `Struct` value: `undefined` members dropped, as JSON would (the kinds'
 * outputs are plain data; a `Date` or a class instance here would be a defect, so it is written as
 * JSON writes it rather than refused).
 */
function plain(value: unknown): Value {
  return JSON.parse(JSON.stringify(value) ?? "null") as Value;
}

/** Whether a value (or anything inside it) is not known yet (preview). */
export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (isSecret(value)) return isUnknown(value.value);
  if (Array.isArray(value)) return value.some(isUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(isUnknown);
  return false;
}
