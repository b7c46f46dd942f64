/**
 * Driving the plugin's gRPC server as the engine does: a `ResourceProviderClient` of the SDK's
 * generated service, requests built with the protobuf copy the SDK resolves (provider/plugin/proto),
 * secrets and unknowns in the engine's wire form.
 */
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { type Properties, secret, UNKNOWN, type Value } from "../../../provider/plugin/properties";
import { emptyproto, fromStruct, type Grpc, grpc, toStruct } from "../../../provider/plugin/proto";

export type { Properties, Value };
export { secret, UNKNOWN };

export const urnOf = (type: string, name: string): string => `urn:pulumi:dev::plugin-test::${type}::${name}`;

type Callback<Res> = (error: Grpc.ServiceError | null, response: Res) => void;

/** The engine's side of one plugin: each method sends one request and resolves with the answer. */
export class PluginClient {
  readonly raw: provrpc.ResourceProviderClient;

  constructor(port: number) {
    this.raw = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  }

  close(): void {
    this.raw.close();
  }

  /** One unary call; `Res` is named by the caller (the client's methods are overloaded). */
  private send<Res>(method: (...args: never[]) => unknown, request: unknown): Promise<Res> {
    const unary = method as (request: unknown, callback: Callback<Res>) => unknown;
    return new Promise((resolve, reject) => {
      unary.call(this.raw, request, (error, response) => (error ? reject(error) : resolve(response)));
    });
  }

  pluginVersion(): Promise<string> {
    return this.send<PluginInfo>(this.raw.getPluginInfo, new emptyproto.Empty()).then((r) => r.getVersion());
  }

  schema(): Promise<string> {
    return this.send<provproto.GetSchemaResponse>(this.raw.getSchema, new provproto.GetSchemaRequest()).then(
      (r) => r.getSchema(),
    );
  }

  checkConfig(news: Properties, olds: Properties = {}) {
    const req = new provproto.CheckRequest()
      .setUrn(urnOf("pulumi:providers:hosting", "p"))
      .setOlds(toStruct(olds))
      .setNews(toStruct(news));
    return this.send<provproto.CheckResponse>(this.raw.checkConfig, req).then(checkAnswer);
  }

  diffConfig(olds: Properties, news: Properties) {
    const req = new provproto.DiffRequest()
      .setUrn(urnOf("pulumi:providers:hosting", "p"))
      .setId("provider-id")
      .setOlds(toStruct(olds))
      .setNews(toStruct(news));
    return this.send<provproto.DiffResponse>(this.raw.diffConfig, req).then(diffAnswer);
  }

  /** Configure as the engine sends it: `args` typed (secrets wrapped), `variables` the old form. */
  configure(args: Properties, name = "default") {
    const req = new provproto.ConfigureRequest()
      .setArgs(toStruct(args))
      .setAcceptsecrets(true)
      .setName(name)
      .setType("pulumi:providers:hosting");
    for (const [k, v] of Object.entries(args)) {
      if (typeof v === "string") req.getVariablesMap().set(`hosting:config:${k}`, v);
    }
    return this.send<provproto.ConfigureResponse>(this.raw.configure, req).then((r) => ({
      acceptSecrets: r.getAcceptsecrets(),
    }));
  }

  check(type: string, news: Properties, olds: Properties = {}) {
    const req = new provproto.CheckRequest()
      .setUrn(urnOf(type, "r"))
      .setType(type)
      .setOlds(toStruct(olds))
      .setNews(toStruct(news));
    return this.send<provproto.CheckResponse>(this.raw.check, req).then(checkAnswer);
  }

  diff(type: string, id: string, olds: Properties, news: Properties) {
    const req = new provproto.DiffRequest()
      .setUrn(urnOf(type, "r"))
      .setType(type)
      .setId(id)
      .setOlds(toStruct(olds))
      .setNews(toStruct(news));
    return this.send<provproto.DiffResponse>(this.raw.diff, req).then(diffAnswer);
  }

  create(type: string, properties: Properties) {
    const req = new provproto.CreateRequest()
      .setUrn(urnOf(type, "r"))
      .setType(type)
      .setProperties(toStruct(properties));
    return this.send<provproto.CreateResponse>(this.raw.create, req).then((r) => ({
      id: r.getId(),
      properties: fromStruct(r.getProperties()),
    }));
  }

  read(type: string, id: string, properties?: Properties, inputs?: Properties) {
    const req = new provproto.ReadRequest().setUrn(urnOf(type, "r")).setType(type).setId(id);
    if (properties) req.setProperties(toStruct(properties));
    if (inputs) req.setInputs(toStruct(inputs));
    return this.send<provproto.ReadResponse>(this.raw.read, req).then((r) => ({
      id: r.getId(),
      properties: fromStruct(r.getProperties()),
      inputs: fromStruct(r.getInputs()),
    }));
  }

  update(type: string, id: string, olds: Properties, news: Properties) {
    const req = new provproto.UpdateRequest()
      .setUrn(urnOf(type, "r"))
      .setType(type)
      .setId(id)
      .setOlds(toStruct(olds))
      .setNews(toStruct(news));
    return this.send<provproto.UpdateResponse>(this.raw.update, req).then((r) =>
      fromStruct(r.getProperties()),
    );
  }

  delete(type: string, id: string, properties: Properties) {
    const req = new provproto.DeleteRequest()
      .setUrn(urnOf(type, "r"))
      .setType(type)
      .setId(id)
      .setProperties(toStruct(properties));
    return this.send<unknown>(this.raw.delete, req).then(() => undefined);
  }

  invoke(token: string, args: Properties) {
    const req = new provproto.InvokeRequest().setTok(token).setArgs(toStruct(args));
    return this.send<provproto.InvokeResponse>(this.raw.invoke, req).then((r) => fromStruct(r.getReturn()));
  }
}

function checkAnswer(r: provproto.CheckResponse) {
  return {
    inputs: fromStruct(r.getInputs()),
    failures: r.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
  };
}

const KIND_NAMES: Record<number, string> = {
  [provproto.PropertyDiff.Kind.ADD]: "add",
  [provproto.PropertyDiff.Kind.ADD_REPLACE]: "add-replace",
  [provproto.PropertyDiff.Kind.DELETE]: "delete",
  [provproto.PropertyDiff.Kind.DELETE_REPLACE]: "delete-replace",
  [provproto.PropertyDiff.Kind.UPDATE]: "update",
  [provproto.PropertyDiff.Kind.UPDATE_REPLACE]: "update-replace",
};

function diffAnswer(r: provproto.DiffResponse) {
  const detailed: Record<string, string> = {};
  r.getDetaileddiffMap().forEach((value, key) => {
    detailed[key] = `${KIND_NAMES[value.getKind()]}${value.getInputdiff() ? "" : " (outputs)"}`;
  });
  return {
    changes: r.getChanges(),
    replaces: r.getReplacesList(),
    deleteBeforeReplace: r.getDeletebeforereplace(),
    hasDetailedDiff: r.getHasdetaileddiff(),
    detailed,
  };
}

export const DIFF_SOME = provproto.DiffResponse.DiffChanges.DIFF_SOME;
export const DIFF_NONE = provproto.DiffResponse.DiffChanges.DIFF_NONE;
