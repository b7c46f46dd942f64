/**
 * The kinds' notices (an adoption that will change fields, a default runner group left in place)
 * sent to the engine's log, under the resource whose request is being served. The CLI shows a
 * plugin's stderr only with `--debug`, so the stderr the dynamic resources use would hide them.
 * The engine's address is the plugin's first argument.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import { sendNoticesTo } from "../internal/context";
import { grpc } from "./proto";

/** The URN of the request each asynchronous chain serves. */
const requests = new AsyncLocalStorage<string>();

/** Runs `work` as the handling of the request for `urn`: its notices go under that resource. */
export function serving<T>(urn: string, work: () => Promise<T>): Promise<T> {
  return requests.run(urn, work);
}

/** Sends notices to the engine at `address` (`host:port`) from now on; returns how to stop. */
export function logToEngine(address: string): () => void {
  const engine = new engrpc.EngineClient(address, grpc.credentials.createInsecure());
  sendNoticesTo((message) => {
    const request = new engproto.LogRequest()
      .setSeverity(engproto.LogSeverity.INFO)
      .setMessage(message)
      .setUrn(requests.getStore() ?? "");
    // A message the engine cannot take is not worth failing the operation that wrote it.
    engine.log(request, () => undefined);
  });
  return () => {
    sendNoticesTo(undefined);
    engine.close();
  };
}
