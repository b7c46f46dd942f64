/**
 * What every resource class shares: the type token from its provider's kind, a fresh props object,
 * the serialised provider Pulumi records in state, and the static `get`.
 *
 * The serialised provider (`__provider`, stored twice per resource) decides the size of the state,
 * which the engine rewrites after every step. When this library is installed under `node_modules`,
 * it is the text Pulumi's closure serialiser makes of the kind module's export: a `require` of
 * `pulumi-hosting/kinds/<kind>` (about 250 bytes), so the provider process loads the installed
 * version's code. That text is written here, byte for byte what the serialiser gives (the
 * serialization e2e test compares them), because the serialiser costs a program run about 10 ms of
 * CPU per kind (docs/DECISIONS.md). Used from anywhere else (a program inside this repository), the
 * serialiser would inline the module by value, so the thin shim of `shim.ts` is serialised instead,
 * by Pulumi's serialiser.
 */
import { basename, dirname, join, sep } from "node:path";
// The SDK's modules by path, not its index: the index also loads the Automation API and the closure
// serialiser (about 0.3 s), which the plugin process, loading every kind for its providers, never uses.
import * as dynamic from "@pulumi/pulumi/dynamic";
import { type Input, type Inputs, type Output, output, secret } from "@pulumi/pulumi/output";
import { CustomResource, type CustomResourceOptions, Resource as SdkResource } from "@pulumi/pulumi/resource";
import type { AnyHostingProvider, HostingProvider } from "./lifecycle";
import { shimFor } from "./shim";
import { dynamicToken } from "./tokens";

/** The module `require`d by name in the provider process: `kinds/repository-webhook` for RepositoryWebhook. */
export function kindModule(kind: string): string {
  return kind.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/**
 * The name this library is installed under (`pulumi-hosting`, or a scope and name), the folder
 * after the last `node_modules` of its path; undefined when it is not under a `node_modules`.
 */
export function installedName(file: string): string | undefined {
  const parts = file.split(sep);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return undefined;
  const first = parts[at + 1] ?? "";
  return first.startsWith("@") ? `${first}/${parts[at + 2] ?? ""}` : first;
}

/** The name this library was loaded under, when from a `node_modules` folder (an installed package). */
const INSTALLED_NAME = installedName(__filename);

/** Whether this library was loaded from under a `node_modules` folder (an installed package). */
export const INSTALLED = INSTALLED_NAME !== undefined;

/**
 * The text Pulumi's closure serialiser makes of `() => provider` when `provider` is the export of
 * `<name>/kinds/<module>`: the same in every SDK version this library supports (3.216 to today).
 */
export function requireText(specifier: string): string {
  return [
    "exports.handler = __f0;",
    `const provider = require(${JSON.stringify(specifier)});`,
    "",
    "function __f0() {",
    "  return (function() {",
    "    with({ this: undefined, arguments: undefined }) {",
    "",
    "return () => provider;",
    "",
    "    }",
    "  }).apply(undefined, undefined).apply(this, arguments);",
    "}",
    "",
  ].join("\n");
}

/** `__provider` of each kind, made once per program and shared by its resources. */
const serialised = new Map<string, Input<string>>();

/** `__provider` for a kind: the `require` text when installed, else the serialised shim. */
export function serialisedProvider(provider: AnyHostingProvider): Input<string> {
  let text = serialised.get(provider.kind);
  if (text === undefined) {
    text = INSTALLED_NAME === undefined ? shimText(provider.kind) : installedText(provider, INSTALLED_NAME);
    serialised.set(provider.kind, text);
  }
  return text;
}

function installedText(provider: AnyHostingProvider, name: string): string {
  const module = kindModule(provider.kind);
  const exported: unknown = require(`../kinds/${module}`);
  if (exported !== provider) {
    throw new Error(`pulumi-hosting: kinds/${module} does not export the ${provider.kind} provider`);
  }
  return requireText(`${name}/kinds/${module}`);
}

function shimText(kind: string): Output<string> {
  const shim = shimFor(kind);
  // Loaded on demand, as `dynamic.Resource` does: its dependencies are slow to load.
  const { serializeFunction } =
    require("@pulumi/pulumi/runtime/closure/serializeClosure") as typeof import("@pulumi/pulumi/runtime/closure/serializeClosure");
  return output(serializeFunction(() => shim, { allowSecrets: true }).then((f) => f.text));
}

/** A fresh props object for the resource (the SDK's constructor mutates what it is given). */
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
 * those of `Resource`, `CustomResource` and one class of the resource's package. Here the
 * constructors of `HostingResource`, the kind's class and the class the program names stand between
 * `CustomResource` and the program, so every resource would be placed at `super(...)` below. While
 * the SDK's constructor runs, its `callsites` gives this library's frames as the one frame of the
 * package's class it skips, so the position is the program's line. A version of the SDK without
 * that method keeps its own behaviour.
 */
function programCallsites(): (() => void) | undefined {
  const sdk = SdkResource as unknown as { callsites?: () => Callsite[] };
  const callsites = sdk.callsites;
  if (typeof callsites !== "function") return undefined;
  const own = (frame: Callsite) =>
    frame.file !== undefined && OWN_SOURCES.some((dir) => frame.file?.startsWith(dir));
  sdk.callsites = () => {
    const [first = {}, _here, ...rest] = callsites.call(SdkResource);
    // Without this function's own frame (the second); the library's constructors as one frame.
    const frames = [first, ...rest];
    return frames.filter((frame, i) => !own(frame) || !own(frames[i - 1] ?? {}));
  };
  return () => {
    sdk.callsites = callsites;
  };
}

/**
 * The base of every resource class: `new hosting.X(name, args, opts)` and `hosting.X.get(name, id)`.
 * What `dynamic.Resource` would make, with the serialised provider given rather than computed: the
 * type token `pulumi-nodejs:dynamic/hosting:<Kind>` and `__provider` among the inputs. Its instances
 * are still `dynamic.Resource`s (the prototype chain below).
 */
export abstract class HostingResource extends CustomResource {
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
      props.__provider = serialisedProvider(provider);
      super(dynamicToken(provider.kind), name, props, secretOutputs(opts, provider.secrets));
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

// `instanceof pulumi.dynamic.Resource` holds, as when the class extended it.
Object.setPrototypeOf(HostingResource.prototype, dynamic.Resource.prototype);

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
