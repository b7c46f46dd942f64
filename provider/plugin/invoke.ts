/**
 * Invokes: the read functions as `hosting:index:<getX>`. They are the same functions a
 * TypeScript program calls (`provider/functions/`), given the settings of this provider process
 * as their per-call options, so an invoke through an explicit provider reads with that provider's
 * address and token, not the stack config's.
 */
import type { ClientSettings } from "../client/config";
import type { FunctionOptions } from "../functions";
import { typeToken } from "../internal/tokens";
import { IMPLEMENTATIONS as CODE, FUNCTIONS } from "../registry";
import { isUnknown, type Properties, unwrap, wrap } from "./properties";

/** A function as the plugin calls it: arguments checked by the function itself. */
type PluginFunction = (args: never, opts?: FunctionOptions) => Promise<object>;

/** The code of each function, by the name its declaration gives (`registry.ts`). */
const IMPLEMENTATIONS: Readonly<Record<string, PluginFunction>> = CODE;

/**
 * The invokes, from the functions' declarations (`provider/functions/declarations.ts`, which the
 * schema's functions come from too): a declared function without code here fails at load.
 */
const byToken = new Map(
  FUNCTIONS.map((declared) => {
    const fn = IMPLEMENTATIONS[declared.name];
    if (fn === undefined)
      throw new Error(`hosting: the function ${declared.name} is declared but has no code`);
    return [typeToken(declared.name), fn] as const;
  }),
);

/**
 * Runs an invoke. A result is secret as a whole when any argument was (as `getXOutput` does in a
 * TypeScript program). With an argument not known yet (a preview), nothing is sent and the result
 * is empty: reading with a placeholder for an owner would read something else.
 */
export async function invoke(token: string, args: Properties, settings: ClientSettings): Promise<Properties> {
  const fn = byToken.get(token);
  if (fn === undefined) {
    throw new Error(
      `hosting: unknown function ${token}; the functions are ${[...byToken.keys()].join(", ")}`,
    );
  }
  if (isUnknown(args)) return {};
  const { values, secrets } = unwrap(args);
  const options: FunctionOptions = {
    baseUrl: settings.apiRoot,
    token: settings.token,
    ...(settings.apiVersion === undefined ? {} : { apiVersion: settings.apiVersion }),
  };
  const result = await fn(values as never, options);
  return wrap(result, secrets.size > 0 ? Object.keys(result) : []);
}
