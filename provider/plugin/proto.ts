/**
 * The gRPC runtime and protobuf messages the plugin speaks, loaded from where `@pulumi/pulumi`
 * resolves them. The SDK's generated messages (`@pulumi/pulumi/proto/*_pb`) are built on its own
 * copy of `google-protobuf`: a `Struct` from a second copy fails inside them (`c.g is not a
 * function`), and `@grpc/grpc-js` is the SDK's dependency, not this package's. Resolving both
 * through the SDK makes the plugin use exactly the copies the messages were generated against,
 * wherever npm placed them.
 */
import { createRequire } from "node:module";
import type * as grpcModule from "@grpc/grpc-js";
import type * as anyModule from "google-protobuf/google/protobuf/any_pb";
import type * as emptyModule from "google-protobuf/google/protobuf/empty_pb";
import type * as structModule from "google-protobuf/google/protobuf/struct_pb";
import type { Properties } from "./properties";

const fromSdk = createRequire(require.resolve("@pulumi/pulumi"));

export const grpc = fromSdk("@grpc/grpc-js") as typeof grpcModule;
export const structproto = fromSdk("google-protobuf/google/protobuf/struct_pb") as typeof structModule;
export const emptyproto = fromSdk("google-protobuf/google/protobuf/empty_pb") as typeof emptyModule;
export const anyproto = fromSdk("google-protobuf/google/protobuf/any_pb") as typeof anyModule;

export type { grpcModule as Grpc };

/** A request's `Struct` as plain properties (secrets still wrapped: see properties.ts). */
export function fromStruct(struct: structModule.Struct | undefined): Properties {
  return (struct?.toJavaScript() ?? {}) as Properties;
}

export function toStruct(properties: Properties): structModule.Struct {
  return structproto.Struct.fromJavaScript(properties);
}
