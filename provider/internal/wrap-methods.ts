/**
 * A provider with some of its methods wrapped: what the dynamic provider's wrappers (quiet errors,
 * the compile cache's flush) share. The engine's host calls the methods of the object it is given,
 * so each wrapper returns a copy whose listed methods call the original through `wrap`, bound to the
 * original provider; the other members are the provider's own (its own enumerable properties, as
 * the kinds' providers are object literals: a class's prototype methods would not be copied).
 */

/** A method as a wrapper sees it: any arguments, a promise. */
export type ProviderCall = (...args: unknown[]) => Promise<unknown>;

export function wrapMethods<N extends string, P extends Record<N, (...args: never[]) => Promise<unknown>>>(
  provider: P,
  names: readonly N[],
  wrap: (call: ProviderCall) => ProviderCall,
): P {
  const wrapped: Record<string, unknown> = { ...provider };
  for (const name of names) {
    const method = provider[name] as unknown as ProviderCall;
    wrapped[name] = wrap((...args) => method.apply(provider, args));
  }
  return wrapped as P;
}
