/**
 * The plugin's gRPC server: Pulumi's ResourceProvider service for the `hosting` package.
 *
 * Written on the SDK's generated service (`@pulumi/pulumi/proto/provider_grpc_pb`) and
 * `@grpc/grpc-js`, as the SDK's own dynamic-provider host is, not with `@pulumi/pulumi/provider`'s
 * `main`: that server ignores Configure's arguments and leaves CheckConfig and DiffConfig
 * unimplemented (pulumi/pulumi#10915), so explicit providers, a provider's token and its diffs could
 * not work (docs/DECISIONS.md, 2026-11-25). This module only translates between protobuf and the
 * plain operations of `resources.ts`, `config.ts` and `invoke.ts`.
 *
 * Handshake is left unimplemented on purpose: an engine that completes a handshake assumes the
 * provider previews creates and updates itself (Create and Update with `preview`), while a
 * provider configured without one is asked only what ConfigureResponse says (`supportsPreview`
 * false here), which keeps a preview free of API writes without a second code path.
 */
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { type ClientSettings, resolveSettings } from "../client/config";
import { isHostingApiError } from "../client/errors";
import { cachedOnceLoaded } from "../internal/compile-cache";
import { configure as configureContext } from "../internal/context";
import type { AnyHostingProvider } from "../internal/lifecycle";
import { checkConfig, configFromVariables, connectionCheck, diffConfig, settingsSource } from "./config";
import { logToEngine, serving } from "./engine-log";
import type * as Invoke from "./invoke";
import { packageSchema, packageVersion } from "./package";
import { type Properties, unwrap } from "./properties";
import { anyproto, emptyproto, fromStruct, type Grpc, grpc, toStruct } from "./proto";
import type * as Resources from "./resources";
import {
  type CheckResponse,
  type DiffResponse,
  type PropertiesResponse,
  type ResourceRequest,
  readRequest,
  writeResponse,
} from "./wire";

type Unary<Req, Res> = Grpc.handleUnaryCall<Req, Res>;

/**
 * A module loaded on the first call that needs it, then kept. What it loaded goes into the compile
 * cache at once: Node writes the cache only at a normal exit, and the engine kills the process.
 */
function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= cachedOnceLoaded(load());
    return loaded;
  };
}

/**
 * The resource operations and the functions, loaded on the first resource call and the first
 * invoke: a provider process the engine asks only CheckConfig and DiffConfig (the program's default
 * provider while a refresh uses the one recorded in state) starts without them. Each kind then loads
 * when a request first names it (resources.ts); the functions load whole (every kind's schemas).
 */
const resources = onFirstUse((): Promise<typeof Resources> => import("./resources.js"));
const invoker = onFirstUse((): Promise<typeof Invoke> => import("./invoke.js"));

/** The SDK's limit for one message (`grpcChannelOptions`): large states travel in one Struct. */
const MAX_MESSAGE_BYTES = 400 * 1024 * 1024;

/**
 * The service as grpc-js serves it: the SDK's generated definition, with the calls the engine makes
 * per resource (and the provider's own CheckConfig and DiffConfig, the same messages) read and written
 * by wire.ts instead of the generated messages.
 */
const SERVICE: Grpc.ServiceDefinition = Object.fromEntries(
  Object.entries(provrpc.ResourceProviderService).map(([name, method]) => {
    const codec = name === "checkConfig" ? "check" : name === "diffConfig" ? "diff" : name;
    if (!Object.hasOwn(readRequest, codec)) return [name, method];
    const known = codec as keyof typeof readRequest;
    return [
      name,
      { ...method, requestDeserialize: readRequest[known], responseSerialize: writeResponse[known] },
    ];
  }),
);

const CHANGE_KINDS: Readonly<Record<Resources.FieldChange, provproto.PropertyDiff.Kind>> = {
  add: provproto.PropertyDiff.Kind.ADD,
  "add-replace": provproto.PropertyDiff.Kind.ADD_REPLACE,
  delete: provproto.PropertyDiff.Kind.DELETE,
  "delete-replace": provproto.PropertyDiff.Kind.DELETE_REPLACE,
  update: provproto.PropertyDiff.Kind.UPDATE,
  "update-replace": provproto.PropertyDiff.Kind.UPDATE_REPLACE,
};

/**
 * One provider's state: the settings Configure resolved. The process-wide client context
 * (`internal/context.ts`) holds them too, for the kinds' code; the engine starts one process per
 * provider, so the two never disagree.
 */
class HostingService {
  private settings: ClientSettings | undefined;

  /** Runs a unary call: its answer, or its error as a gRPC status the engine prints as one line. */
  private serve<Req, Res>(work: (request: Req) => Promise<Res>): Unary<Req, Res> {
    return (call, callback) => {
      // Only the per-resource requests (wire.ts) carry a URN; the others' notices name no resource.
      const urn = (call.request as { urn?: string }).urn ?? "";
      serving(urn, () => work(call.request)).then(
        (response) => callback(null, response),
        (error: unknown) => callback(statusOf(error)),
      );
    };
  }

  /** Runs a call about one resource, with the kinds loaded and the resource's kind found. */
  private serveResource<Res>(
    work: (kinds: typeof Resources, provider: AnyHostingProvider, request: ResourceRequest) => Promise<Res>,
  ): Unary<ResourceRequest, Res> {
    return this.serve(async (request: ResourceRequest) => {
      const kinds = await resources();
      return work(kinds, await kinds.providerFor(kinds.typeOf(request.type, request.urn)), request);
    });
  }

  private unimplemented(name: string): Unary<unknown, never> {
    return (_call, callback) =>
      callback({
        code: grpc.status.UNIMPLEMENTED,
        details: `${name} is not implemented by the hosting plugin`,
      });
  }

  /** The service object grpc-js registers: every method of the service, none more. */
  implementation(): Record<keyof provrpc.IResourceProviderServer, Grpc.UntypedHandleCall> {
    const unimplemented = <Req, Res>(name: string) => this.unimplemented(name) as unknown as Unary<Req, Res>;
    return {
      handshake: unimplemented("Handshake"),
      parameterize: unimplemented("Parameterize"),
      construct: unimplemented("Construct"),
      call: unimplemented("Call"),
      getMapping: unimplemented("GetMapping"),
      getMappings: unimplemented("GetMappings"),
      list: (call: Grpc.ServerWritableStream<unknown, unknown>) => {
        call.emit("error", {
          code: grpc.status.UNIMPLEMENTED,
          details: "List is not implemented by the hosting plugin",
        });
      },
      getPluginInfo: this.serve(async () => new plugproto.PluginInfo().setVersion(packageVersion())),
      getSchema: this.serve(async (req: provproto.GetSchemaRequest) => {
        if (req.getVersion() !== 0)
          throw new Error(`hosting: unsupported schema version ${req.getVersion()}`);
        return new provproto.GetSchemaResponse().setSchema(packageSchema());
      }),
      attach: this.serve(async () => new emptyproto.Empty()),
      cancel: this.serve(async () => new emptyproto.Empty()),
      checkConfig: this.serve(async (req: ResourceRequest): Promise<CheckResponse> => {
        const { inputs, failures } = await checkConfig(unwrap(req.news).values);
        return { inputs, failures };
      }),
      diffConfig: this.serve(async (req: ResourceRequest) => {
        const changed = diffConfig(unwrap(req.olds).values, unwrap(req.news).values);
        return diffResponse({
          changes: Object.keys(changed).length > 0,
          replaces: [],
          deleteBeforeReplace: false,
          detailedDiff: changed,
        });
      }),
      configure: this.serve((req: provproto.ConfigureRequest) => this.configure(req)),
      invoke: this.serve(async (req: provproto.InvokeRequest) => {
        const { invoke } = await invoker();
        const result = await invoke(req.getTok(), fromStruct(req.getArgs()), this.configured());
        return new provproto.InvokeResponse().setReturn(toStruct(result));
      }),
      check: this.serveResource(async (kinds, provider, req): Promise<CheckResponse> => {
        const { inputs, failures } = await kinds.check(provider, req.olds, req.news);
        return { inputs, failures };
      }),
      diff: this.serveResource(async (kinds, provider, req) =>
        diffResponse(await kinds.diff(provider, req.id, req.olds, req.news)),
      ),
      create: this.serveResource(async (kinds, provider, req): Promise<PropertiesResponse> => {
        // Not asked while ConfigureResponse says `supportsPreview: false`; answered without a write.
        if (req.preview) return { properties: req.properties };
        try {
          return await kinds.create(provider, req.properties);
        } catch (e) {
          throw partialCreate(kinds, provider, e, req.properties);
        }
      }),
      read: this.serveResource(async (kinds, provider, req): Promise<PropertiesResponse> => {
        // An empty answer (no id) tells the engine the object is gone: refresh drops it.
        return (await kinds.read(provider, req.id, req.properties, req.inputs)) ?? {};
      }),
      update: this.serveResource(async (kinds, provider, req): Promise<PropertiesResponse> => {
        if (req.preview) return { properties: req.news };
        return { properties: await kinds.update(provider, req.id, req.olds, req.news) };
      }),
      delete: this.serveResource(async (kinds, provider, req) => {
        await kinds.remove(provider, req.id, req.properties);
      }),
    };
  }

  /**
   * Configure: the provider's inputs (or the stack config, for the default provider) resolved with
   * the environment as fallback and handed to the kinds' client context. The connection check is
   * the one CheckConfig made in this process when the program declared the provider (shared, so no
   * second request); it runs here only where the engine skips CheckConfig (settings recorded in
   * state, for a plain refresh or destroy), and then the engine reports its failure on each
   * operation that waits for this provider.
   */
  private async configure(req: provproto.ConfigureRequest): Promise<provproto.ConfigureResponse> {
    const args = req.getArgs();
    const config: Properties = args
      ? unwrap(fromStruct(args)).values
      : configFromVariables(new Map(req.getVariablesMap().getEntryList()));
    const source = settingsSource(config);
    const name = req.getName();
    const who = `hosting provider${name ? ` ${JSON.stringify(name)}` : ""}: `;
    let settings: ClientSettings;
    try {
      settings = resolveSettings(source);
    } catch (e) {
      throw new Error(`${who}${(e as Error).message}`);
    }
    configureContext(source);
    try {
      await connectionCheck(settings);
    } catch (e) {
      throw new Error(`${who}${(e as Error).message}`);
    }
    this.settings = settings;
    return new provproto.ConfigureResponse()
      .setAcceptsecrets(true)
      .setSupportspreview(false)
      .setAcceptresources(false)
      .setAcceptoutputs(false);
  }

  private configured(): ClientSettings {
    if (this.settings === undefined) {
      // An engine configures a provider before any call; a direct caller may not have.
      return resolveSettings(settingsSource({}));
    }
    return this.settings;
  }
}

function diffResponse(answer: Resources.DiffAnswer): DiffResponse {
  const fields = Object.entries(answer.detailedDiff);
  return {
    changes: answer.changes
      ? provproto.DiffResponse.DiffChanges.DIFF_SOME
      : provproto.DiffResponse.DiffChanges.DIFF_NONE,
    replaces: answer.replaces,
    deleteBeforeReplace: answer.deleteBeforeReplace,
    diffs: Object.keys(answer.detailedDiff),
    detailedDiff: Object.fromEntries(fields.map(([field, change]) => [field, CHANGE_KINDS[change]])),
    // The engine shows exactly the fields a detailed diff names: send one only when it names every
    // changed field (a change without one would otherwise show nothing).
    hasDetailedDiff: !answer.changes || fields.length > 0,
  };
}

/**
 * A create that failed after the object came to exist (`PartialCreateError`: adopted or made, but
 * not converged) goes back with its id and properties (`ErrorResourceInitFailed`), so the engine
 * keeps the object in state instead of losing it; any other error as it is.
 */
function partialCreate(
  kinds: typeof Resources,
  provider: AnyHostingProvider,
  e: unknown,
  sent: Properties,
): unknown {
  const partial = e as { id?: unknown; properties?: unknown; reasons?: unknown; message?: unknown };
  if (typeof partial.id !== "string" || partial.id === "") return e;
  const detail = new provproto.ErrorResourceInitFailed()
    .setId(partial.id)
    .setProperties(toStruct(kinds.partialProperties(provider, (partial.properties ?? {}) as object, sent)))
    .setReasonsList(Array.isArray(partial.reasons) ? partial.reasons.map(String) : [String(partial.message)]);
  const details = new anyproto.Any();
  details.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const message = String(partial.message);
  const status = new statusproto.Status().setCode(grpc.status.UNKNOWN).setMessage(message);
  status.addDetails(details);
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return { code: grpc.status.UNKNOWN, details: message, metadata } satisfies Partial<Grpc.StatusObject>;
}

/**
 * An error as a gRPC status: the message is what the engine prints under the resource. The
 * library's own errors (API answers, settings) are complete sentences that never carry a token;
 * anything else is a defect, whose stack goes to stderr (shown with `--debug`).
 */
function statusOf(error: unknown): Partial<Grpc.StatusObject> {
  if (typeof error === "object" && error !== null && "code" in error && "metadata" in error) {
    return error as Partial<Grpc.StatusObject>;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (!isHostingApiError(error) && error instanceof Error && !isExplained(error)) {
    process.stderr.write(`hosting plugin: ${error.stack ?? message}\n`);
  }
  return { code: grpc.status.UNKNOWN, details: message };
}

function isExplained(error: Error): boolean {
  return error.message.startsWith("hosting") || isHostingApiError(error.cause);
}

export interface RunningPlugin {
  port: number;
  /** Stops accepting calls and ends the ones in flight. */
  close(): Promise<void>;
}

/**
 * Starts the server on loopback (port 0: any free port) and resolves once it listens. `engine`:
 * the engine's address (the plugin's argument), where the kinds' notices go.
 */
export async function startPlugin(options: { port?: number; engine?: string } = {}): Promise<RunningPlugin> {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
    "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
  });
  server.addService(SERVICE, new HostingService().implementation());
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(
      `127.0.0.1:${options.port ?? 0}`,
      grpc.ServerCredentials.createInsecure(),
      (err, bound) => (err ? reject(err) : resolve(bound)),
    );
  });
  const stopLogging = options.engine ? logToEngine(options.engine) : () => undefined;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        stopLogging();
        server.tryShutdown(() => resolve());
        // Calls still running after a moment are cut: a test or the engine is done with us.
        setTimeout(() => server.forceShutdown(), 1_000).unref();
      }),
  };
}
