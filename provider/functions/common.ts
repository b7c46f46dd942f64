/**
 * What every function shares: where its settings come from, its client, the local validation of
 * its arguments, and the Output form. Functions run in the program process (or a plain script), not
 * in the provider process, so they read the stack config themselves.
 */
// The SDK's modules by path, not its index (which also loads the Automation API and the closure
// serialiser): the plugin process loads the functions for its invokes.
import { type Input, type Output, output as outputFrom } from "@pulumi/pulumi/output";
import { getConfig } from "@pulumi/pulumi/runtime/config";
import type { z } from "zod";
import { resolveSettings, type SettingsSource } from "../client/config";
import { HostingApiError, TOKEN_OPTION } from "../client/errors";
import type { HostingClient } from "../client/http";
import { clientFor } from "../internal/context";
import { output } from "../internal/declare";

/**
 * The second argument of every function. Pulumi's own invoke options (`parent`, `provider`,
 * `version`) choose a provider plugin to run an invoke in; these functions run in the program's
 * own process and call the API directly, so what they take instead is the settings to use for
 * this call, each overriding the stack config (`hosting:baseUrl`, `hosting:token`,
 * `hosting:apiVersion`) and the environment (`HOSTING_BASE_URL`, `HOSTING_TOKEN`,
 * `HOSTING_API_VERSION`).
 */
export interface FunctionOptions {
  baseUrl?: string;
  token?: string;
  apiVersion?: string;
}

/** The args of a `getXOutput`: each field may be an Input (an Output of a resource, a secret). */
export type InputArgs<T> = { [K in keyof T]: Input<T[K]> };

/**
 * Stack config as the program sees it. `pulumi.runtime.getConfig` reads a secret key decrypted and
 * without the "secret read as plaintext" warning `pulumi.Config#get` gives: the token is only ever
 * sent as the Authorization header, never returned. Outside a Pulumi program it finds nothing, and
 * `resolveSettings` falls back to the environment.
 */
function programConfig(): SettingsSource {
  return { get: (key) => getConfig(key) };
}

/** The process's shared client (`provider/internal/context.ts`) for these options and the config. */
export function clientOf(opts: FunctionOptions | undefined): HostingClient {
  const config = programConfig();
  const overrides: Record<string, string | undefined> = {
    "hosting:baseUrl": opts?.baseUrl,
    "hosting:token": opts?.token,
    "hosting:apiVersion": opts?.apiVersion,
  };
  return clientFor(
    resolveSettings({
      get: (key) => overrides[key] ?? config.get(key),
      describe: (key) => (key === "hosting:token" && opts?.token !== undefined ? TOKEN_OPTION : undefined),
    }),
  );
}

/**
 * Validates a function's arguments before any request: the error names the function, each field
 * and what is allowed, as a resource's check does.
 */
export function parseArgs<S extends z.ZodType>(fn: string, schema: S, args: unknown): z.infer<S> {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data;
  const reasons = result.error.issues.map((issue) => {
    const where = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") return `unknown argument(s): ${issue.keys.join(", ")}`;
    let given: unknown = args;
    for (const key of issue.path) given = (given as Record<PropertyKey, unknown> | undefined)?.[key];
    const got = where === "" || given === undefined ? "" : ` (got ${JSON.stringify(given)})`;
    if (issue.code === "invalid_value") {
      const allowed = issue.values.map((v) => JSON.stringify(v)).join(", ");
      return given === undefined
        ? `${where} is required: one of ${allowed}`
        : `${where} must be one of ${allowed}${got}`;
    }
    const reason = issue.message.startsWith(where) ? issue.message : `${where}: ${issue.message}`;
    return `${where === "" ? issue.message : reason}${got}`;
  });
  throw new HostingApiError({
    code: "validation_failed",
    apiMessage: `${fn}: ${reasons.join("; ")}`,
    hint: "Nothing was sent to the API; fix the arguments",
  });
}

/**
 * The Output form of a function: waits for the inputs, then calls it. The result of a call with a
 * secret input is secret (`pulumi.output` carries the secret flag through `apply`); with an input
 * unknown during preview, the result is unknown and no request is sent.
 */
export function outputOf<A, R>(args: InputArgs<A>, call: (args: A) => Promise<R>): Output<R> {
  return (outputFrom(args) as unknown as Output<A>).apply(call) as Output<R>;
}

/** A string or a list of them, as a list (the API's comma-separated filters). */
export function listOf<T extends string>(value: T | readonly T[] | undefined): T[] | undefined {
  if (value === undefined) return undefined;
  return typeof value === "string" ? [value] : [...value];
}

/**
 * The fields of a named object as a result's own fields (`getBranch` returns a `Branch`'s fields
 * beside its own): each declared with `output` and the description it has in the object.
 */
export function described<T extends Record<string, z.ZodType>>(shape: T): T {
  for (const [name, schema] of Object.entries(shape)) {
    const description = schema.meta()?.description;
    if (description === undefined) throw new Error(`${name} has no .meta({ description })`);
    output(schema, description);
  }
  return shape;
}
