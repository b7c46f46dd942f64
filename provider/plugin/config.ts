/**
 * The provider's own configuration: the inputs of `pulumi:providers:hosting` (`baseUrl`, `token`,
 * `apiVersion`). The engine hands the default provider the stack config of the `hosting` namespace
 * under the same names (`hosting:baseUrl` arrives as `baseUrl`), and an explicit provider its
 * arguments; either falls back to the environment (`HOSTING_BASE_URL`, `HOSTING_TOKEN`,
 * `HOSTING_API_VERSION`) exactly as `client/config.ts` resolves stack config for the dynamic
 * resources, so one set of rules and messages serves both.
 *
 * The engine starts one plugin process per provider (default or explicit), so a process holds one
 * configuration: `configure` hands it to `internal/context.ts`, the same place the dynamic
 * resources' `configure` does.
 */
import type * as pulumi from "@pulumi/pulumi";
import { type ClientSettings, resolveSettings, type SettingsSource } from "../client/config";
import { isHostingApiError } from "../client/errors";
import { ROUTES } from "../client/routes";
import { clientFor } from "../internal/context";
import { isUnknown, type Properties, type Value, wrap } from "./properties";

/** The provider's inputs, as the schema's `provider.inputProperties` names them. */
export const CONFIG_KEYS = ["baseUrl", "token", "apiVersion"] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

/** Inputs stored encrypted in state. */
const SECRET_CONFIG: readonly ConfigKey[] = ["token"];

/**
 * Provider inputs (unwrapped) as the settings source `resolveSettings` reads: `hosting:baseUrl` is
 * the input `baseUrl`. Blank and absent values fall through to the environment there.
 */
export function settingsSource(config: Properties): SettingsSource {
  return {
    get(key) {
      const name = key.startsWith("hosting:") ? key.slice("hosting:".length) : undefined;
      const value = name === undefined ? undefined : config[name];
      return typeof value === "string" ? value : undefined;
    },
  };
}

/**
 * The configuration the engine sent to Configure: `args` (typed values, secrets wrapped, since
 * engines of 3.x) or, from older engines, the `variables` map keyed `hosting:config:<key>`.
 */
export function configFromVariables(variables: ReadonlyMap<string, string>): Properties {
  const config: Properties = {};
  for (const [key, value] of variables) {
    const match = /^hosting:(?:config:)?(.+)$/.exec(key);
    if (match?.[1] !== undefined) config[match[1]] = value;
  }
  return config;
}

/**
 * CheckConfig: the provider's inputs validated as `resolveSettings` will read them, with the
 * environment filled in where an input is absent, so a provider that cannot work fails here, once,
 * naming the input, before any resource is checked. Values unknown during preview pass. The token
 * goes back as a secret, whatever the program wrote.
 */
export function checkConfig(news: Properties): {
  inputs: Properties;
  failures: pulumi.dynamic.CheckFailure[];
} {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  for (const key of CONFIG_KEYS) {
    const value = news[key];
    if (value === undefined || value === null || isUnknown(value) || typeof value === "string") continue;
    failures.push({ property: key, reason: `${key} must be a string; got ${describe(value)}` });
  }
  const pending = CONFIG_KEYS.some((key) => isUnknown(news[key]));
  if (failures.length === 0 && !pending) {
    try {
      resolveSettings(settingsSource(news));
    } catch (e) {
      failures.push({ property: propertyOf((e as Error).message), reason: (e as Error).message });
    }
  }
  return { inputs: wrap(news, SECRET_CONFIG), failures };
}

/** Which input a settings error is about, from the names `resolveSettings` puts in its messages. */
function propertyOf(message: string): ConfigKey {
  if (/token/i.test(message) && !/baseUrl|BASE_URL|address/i.test(message)) return "token";
  if (/apiVersion|API_VERSION/.test(message)) return "apiVersion";
  return "baseUrl";
}

function describe(value: Value): string {
  return Array.isArray(value) ? "a list" : typeof value === "object" ? "an object" : JSON.stringify(value);
}

/**
 * DiffConfig: which inputs changed. A provider's settings never replace anything: a new address or
 * token reconfigures the same process's client, and the resources stay where they are (moving them
 * to another installation is not something a diff can decide).
 */
export function diffConfig(olds: Properties, news: Properties): ConfigKey[] {
  return CONFIG_KEYS.filter((key) => {
    const before = olds[key] ?? undefined;
    const after = news[key] ?? undefined;
    return isUnknown(after) || JSON.stringify(before) !== JSON.stringify(after);
  });
}

/**
 * The connection check: one `GET /user` with the configured settings, run once per provider
 * process at Configure. Only answers that mean these settings cannot work fail it: no answer (wrong
 * address, server down, TLS), 401 (token unknown or expired), and an answer that is not the API's
 * (a 404 page without the API's error body: the base URL misses the API root). A 403 passes: an
 * app or fine-grained token may be refused `/user` and still manage what it was made for; so do
 * rate limits and 5xx, which say nothing about the settings.
 */
const FATAL: ReadonlySet<string> = new Set([
  "unauthorized",
  "network_error",
  "timeout",
  "configuration",
  "unexpected_response",
]);

export async function connectionCheck(settings: ClientSettings): Promise<void> {
  try {
    await clientFor(settings).get(ROUTES.meta.user.path({}));
  } catch (e) {
    if (!isHostingApiError(e)) throw e;
    if (FATAL.has(e.code)) {
      throw new ConnectionError(settings, e.message);
    }
  }
}

/** Why the provider cannot work, in one line that says where the settings came from. */
export class ConnectionError extends Error {
  constructor(settings: ClientSettings, reason: string) {
    super(`hosting: the API at ${settings.apiRoot} cannot be used with the configured token: ${reason}`);
  }
}
