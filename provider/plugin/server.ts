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
import type * as pulumi from "@pulumi/pulumi";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { type ClientSettings, resolveSettings } from "../client/config";
import { isHostingApiError } from "../client/errors";
import { configure as configureContext } from "../internal/context";
import type { AnyHostingProvider } from "../internal/lifecycle";
import { checkConfig, configFromVariables, connectionCheck, diffConfig, settingsSource } from "./config";
import { logToEngine, serving } from "./engine-log";
import type * as Invoke from "./invoke";
import { packageSchema, packageVersion } from "./package";
import { type Properties, unwrap } from "./properties";
import { anyproto, emptyproto, fromStruct, type Grpc, grpc, toStruct } from "./proto";
import type * as Resources from "./resources";

type Unary<Req, Res> = Grpc.handleUnaryCall<Req, Res>;

/** A module loaded on the first call that needs it, then kept. */
function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}

/**
 * The kinds (every provider with its schemas) and the functions, loaded on the first resource call
 * and the first invoke: a provider process the engine asks only CheckConfig and DiffConfig (the
 * program's default provider while a refresh uses the one recorded in state) starts without them,
 * about a third of the plugin's start-up.
 */
const resources = onFirstUse((): Promise<typeof Resources> => import("./resources.js"));
const invoker = onFirstUse((): Promise<typeof Invoke> => import("./invoke.js"));

/** The SDK's limit for one message (`grpcChannelOptions`): large states travel in one Struct. */
const MAX_MESSAGE_BYTES = 400 * 1024 * 1024;

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
      const request = call.request as Req & { getUrn?: () => string };
      const urn = typeof request.getUrn === "function" ? request.getUrn() : "";
      serving(urn, () => work(call.request)).then(
        (response) => callback(null, response),
        (error: unknown) => callback(statusOf(error)),
      );
    };
  }

  /** Runs a call about one resource, with the kinds loaded and the resource's kind found. */
  private serveResource<Req extends ResourceRequest, Res>(
    work: (kinds: typeof Resources, provider: AnyHostingProvider, request: Req) => Promise<Res>,
  ): Unary<Req, Res> {
    return this.serve(async (request: Req) => {
      const kinds = await resources();
      return work(kinds, kinds.providerFor(kinds.typeOf(request.getType(), request.getUrn())), request);
    });
  }

  private unimplemented(name: string): Unary<unknown, never> {
    return (_call, callback) =>
      callback({
        code: grpc.status.UNIMPLEMENTED,
        details: `${name} is not implemented by the hosting plugin`,
      });
  }

  /** The service object grpc-js registers. */
  implementation(): provrpc.IResourceProviderServer {
    const unimplemented = <Req, Res>(name: string) => this.unimplemented(name) as unknown as Unary<Req, Res>;
    return {
      handshake: unimplemented("Handshake"),
      parameterize: unimplemented("Parameterize"),
      construct: unimplemented("Construct"),
      call: unimplemented("Call"),
      getMapping: unimplemented("GetMapping"),
      getMappings: unimplemented("GetMappings"),
      list: (call) => {
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
      checkConfig: this.serve(async (req: provproto.CheckRequest) => {
        const { inputs, failures } = await checkConfig(unwrap(fromStruct(req.getNews())).values);
        return checkResponse(inputs, failures);
      }),
      diffConfig: this.serve(async (req: provproto.DiffRequest) => {
        const changed = diffConfig(
          unwrap(fromStruct(req.getOlds())).values,
          unwrap(fromStruct(req.getNews())).values,
        );
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
      check: this.serveResource(async (kinds, provider, req: provproto.CheckRequest) => {
        const { inputs, failures } = await kinds.check(
          provider,
          fromStruct(req.getOlds()),
          fromStruct(req.getNews()),
        );
        return checkResponse(inputs, failures);
      }),
      diff: this.serveResource(async (kinds, provider, req: provproto.DiffRequest) =>
        diffResponse(
          await kinds.diff(provider, req.getId(), fromStruct(req.getOlds()), fromStruct(req.getNews())),
        ),
      ),
      create: this.serveResource(async (kinds, provider, req: provproto.CreateRequest) => {
        const properties = fromStruct(req.getProperties());
        // Not asked while ConfigureResponse says `supportsPreview: false`; answered without a write.
        if (req.getPreview()) return new provproto.CreateResponse().setProperties(toStruct(properties));
        try {
          const created = await kinds.create(provider, properties);
          return new provproto.CreateResponse().setId(created.id).setProperties(toStruct(created.properties));
        } catch (e) {
          throw partialCreate(kinds, provider, e, properties);
        }
      }),
      read: this.serveResource(async (kinds, provider, req: provproto.ReadRequest) => {
        const found = await kinds.read(
          provider,
          req.getId(),
          fromStruct(req.getProperties()),
          fromStruct(req.getInputs()),
        );
        // An empty answer (no id) tells the engine the object is gone: refresh drops it.
        if (found === undefined) return new provproto.ReadResponse();
        return new provproto.ReadResponse()
          .setId(found.id)
          .setProperties(toStruct(found.properties))
          .setInputs(toStruct(found.inputs));
      }),
      update: this.serveResource(async (kinds, provider, req: provproto.UpdateRequest) => {
        if (req.getPreview()) return new provproto.UpdateResponse().setProperties(req.getNews());
        const outs = await kinds.update(
          provider,
          req.getId(),
          fromStruct(req.getOlds()),
          fromStruct(req.getNews()),
        );
        return new provproto.UpdateResponse().setProperties(toStruct(outs));
      }),
      delete: this.serveResource(async (kinds, provider, req: provproto.DeleteRequest) => {
        await kinds.remove(provider, req.getId(), fromStruct(req.getProperties()));
        return new emptyproto.Empty();
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

/** What every resource request carries: the resource's type (or its URN, where the type is left out). */
interface ResourceRequest {
  getType(): string;
  getUrn(): string;
}

function checkResponse(inputs: Properties, failures: pulumi.dynamic.CheckFailure[]): provproto.CheckResponse {
  const response = new provproto.CheckResponse().setInputs(toStruct(inputs));
  response.setFailuresList(
    failures.map((f) => new provproto.CheckFailure().setProperty(f.property).setReason(f.reason)),
  );
  return response;
}

function diffResponse(answer: Resources.DiffAnswer): provproto.DiffResponse {
  const response = new provproto.DiffResponse()
    .setChanges(
      answer.changes
        ? provproto.DiffResponse.DiffChanges.DIFF_SOME
        : provproto.DiffResponse.DiffChanges.DIFF_NONE,
    )
    .setReplacesList(answer.replaces)
    .setDeletebeforereplace(answer.deleteBeforeReplace)
    .setDiffsList(Object.keys(answer.detailedDiff));
  // The engine shows exactly the fields a detailed diff names: send one only when it names every
  // changed field (a change without one would otherwise show nothing).
  const fields = Object.entries(answer.detailedDiff);
  if (!answer.changes || fields.length > 0) {
    response.setHasdetaileddiff(true);
    const map = response.getDetaileddiffMap();
    for (const [field, change] of fields) {
      map.set(field, new provproto.PropertyDiff().setKind(CHANGE_KINDS[change]).setInputdiff(true));
    }
  }
  return response;
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
  server.addService(provrpc.ResourceProviderService, new HostingService().implementation());
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
