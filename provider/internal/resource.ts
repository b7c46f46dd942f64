/**
 * What every resource class shares: the type token from its provider's kind, a fresh props object
 * for `dynamic.Resource`, the provider object Pulumi serialises into state, and the static `get`.
 *
 * The serialised provider (`__provider`, stored twice per resource) decides the size of the state,
 * which the engine rewrites after every step. When this library is installed under `node_modules`,
 * the provider handed to Pulumi is the whole export of `pulumi-hosting/kinds/<kind>`, and Pulumi's
 * closure serialiser writes it as that `require(...)` (about 250 bytes): the provider process loads
 * the installed version's code. Used from anywhere else (a program inside this repository), the
 * serialiser would inline the module by value, so the thin shim of `shim.ts` is used instead.
 */
import { basename, dirname, join, sep } from "node:path";
// The SDK's modules by path, not its index: the index also loads the Automation API and the closure
// serialiser (about 0.3 s), which the plugin process, loading every kind for its providers, never uses.
import * as dynamic from "@pulumi/pulumi/dynamic";
import { type Input, type Inputs, type Output, secret } from "@pulumi/pulumi/output";
import { type CustomResourceOptions, Resource as SdkResource } from "@pulumi/pulumi/resource";
import type { AnyHostingProvider, HostingProvider } from "./lifecycle";
import { shimFor } from "./shim";

/** The module `require`d by name in the provider process: `kinds/repository-webhook` for RepositoryWebhook. */
export function kindModule(kind: string): string {
  return kind.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/** Whether this library was loaded from under a `node_modules` folder (an installed package). */
export const INSTALLED = __filename.split(sep).includes("node_modules");

/** The object Pulumi serialises for a kind: the kind module's export when installed, else the shim. */
export function serialisedProvider(provider: AnyHostingProvider): dynamic.ResourceProvider {
  if (!INSTALLED) return shimFor(provider.kind);
  const exported: unknown = require(`../kinds/${kindModule(provider.kind)}`);
  if (exported !== provider) {
    throw new Error(
      `pulumi-hosting: kinds/${kindModule(provider.kind)} does not export the ${provider.kind} provider`,
    );
  }
  return provider;
}

/** A fresh props object for `dynamic.Resource` (its constructor mutates what it is given). */
export function resourceProps(outputs: readonly string[], args: object | undefined): Inputs {
  const props: Inputs = {};
  for (const name of outputs) props[name] = undefined;
  return Object.assign(props, args ?? {});
}

/**
 * A resource class's outputs, from its provider's outputs type: every field as a `pulumi.Output`.
 * Each class merges it in (`interface X extends OutputsOf<XOutputs> {}`), so outputs are declared
 * once, where the provider shapes them.
 */
export type OutputsOf<O> = { readonly [K in keyof O]-?: Output<O[K]> };

/** Secret inputs wrapped, so the engine stores them encrypted in the inputs of state too. */
function withSecrets(args: object | undefined, secrets: readonly string[]): object | undefined {
  if (args === undefined) return args;
  const wrapped: Record<string, unknown> = { ...args };
  for (const name of secrets) {
    if (wrapped[name] !== undefined) wrapped[name] = secret(wrapped[name]);
  }
  return wrapped;
}

/** Secret outputs encrypted in state even where the engine would not mark them. */
function secretOutputs(
  opts: CustomResourceOptions | undefined,
  secrets: readonly string[],
): CustomResourceOptions | undefined {
  if (secrets.length === 0) return opts;
  return { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets] };
}

/**
 * How many stack frames the SDK's constructor may capture for the promises it makes. The SDK gives
 * each of the four promises of every declared property a captured and formatted stack
 * (`debuggablePromise`), shown only when the program exits with one still pending, in a report that
 * also names the resource and property: 64 stacks for a resource with 16 properties, and most of
 * what a preview costs in the program (docs/DECISIONS.md, "Stacks the SDK never shows"). None are
 * captured unless the SDK's promise-leak debugging is on. The resource's source position is not
 * affected: the SDK captures it with a limit of its own.
 */
function promiseStackLimit(current: number): number {
  return process.env.PULUMI_DEBUG_PROMISE_LEAKS ? current : 0;
}

/** A frame as the SDK's `Resource.callsites()` gives it (private to the SDK). */
interface Callsite {
  file?: string;
  line?: number;
  column?: number;
}

/**
 * Where this library's provider code lives: `provider/` here, and for the built package both
 * `dist/provider/` and the `provider/` its source maps name.
 */
const OWN_SOURCES = ((): string[] => {
  const providerDir = dirname(__dirname);
  const root = dirname(providerDir);
  return basename(root) === "dist"
    ? [providerDir + sep, join(dirname(root), "provider") + sep]
    : [providerDir + sep];
})();

/**
 * The SDK takes a resource's source position from its stack, skipping a fixed number of frames:
 * those of `Resource`, `CustomResource` and one class of the resource's package. Here two
 * constructors (`HostingResource` and the kind's class) stand between `dynamic.Resource` and the
 * program, so every resource would be placed at `super(...)` below. While the SDK's constructor runs,
 * its `callsites` leaves out this library's frames, so the position is the program's line. A
 * version of the SDK without that method keeps its own behaviour.
 */
function programCallsites(): (() => void) | undefined {
  const sdk = SdkResource as unknown as { callsites?: () => Callsite[] };
  const callsites = sdk.callsites;
  if (typeof callsites !== "function") return undefined;
  sdk.callsites = () =>
    callsites
      .call(SdkResource)
      .filter((frame) => frame.file === undefined || !OWN_SOURCES.some((dir) => frame.file?.startsWith(dir)));
  return () => {
    sdk.callsites = callsites;
  };
}

/** The base of every resource class: `new hosting.X(name, args, opts)` and `hosting.X.get(name, id)`. */
export abstract class HostingResource extends dynamic.Resource {
  /**
   * @param provider the kind's provider: its `kind` is the type token, and its declaration names
   *   every output, so the engine reports them before they are known
   */
  protected constructor(
    provider: AnyHostingProvider,
    name: string,
    args: object | undefined,
    opts: CustomResourceOptions | undefined,
  ) {
    const props = resourceProps(provider.declared.outputNames, withSecrets(args, provider.secrets));
    const limit = Error.stackTraceLimit;
    const lowered = promiseStackLimit(limit);
    const restoreCallsites = programCallsites();
    Error.stackTraceLimit = lowered;
    try {
      super(
        serialisedProvider(provider),
        name,
        props,
        secretOutputs(opts, provider.secrets),
        "hosting",
        provider.kind,
      );
    } catch (e) {
      // Thrown while no frames were captured: give it the stack from here to the program's line.
      Error.stackTraceLimit = limit;
      if (lowered !== limit && e instanceof Error) Error.captureStackTrace(e, HostingResource);
      throw e;
    } finally {
      Error.stackTraceLimit = limit;
      restoreCallsites?.();
    }
  }

  /** Reads an existing object into the program without managing it; `id` is the resource's id. */
  static get<T extends HostingResource>(
    this: new (
      name: string,
      args: never,
      opts?: CustomResourceOptions,
    ) => T,
    name: string,
    id: Input<string>,
    opts?: CustomResourceOptions,
  ): T {
    return new this(name, undefined as never, { ...opts, id });
  }
}

/** A kind's resource class as `resourceClass` makes it: its constructor, `get`, and its outputs. */
export interface ResourceClass<A, O> {
  new (name: string, args: A, opts?: CustomResourceOptions): HostingResource & OutputsOf<O>;
  get: typeof HostingResource.get;
}

/**
 * The base of a kind's resource class, `class X extends resourceClass<XArgs, XOutputs>(xProvider) {}`:
 * the constructor takes the kind's arguments, and the outputs come from the provider's outputs type.
 * `defaults` are options every resource of the kind gets unless the program sets them.
 */
export function resourceClass<A extends object, O>(
  // biome-ignore lint/suspicious/noExplicitAny: the class takes the arguments as written (A), not as checked
  provider: HostingProvider<any, O>,
  defaults?: CustomResourceOptions,
): ResourceClass<A, O> {
  class KindResource extends HostingResource {
    constructor(name: string, args: A, opts?: CustomResourceOptions) {
      super(provider, name, args, defaults === undefined ? opts : { ...defaults, ...opts });
    }
  }
  return KindResource as unknown as ResourceClass<A, O>;
}
