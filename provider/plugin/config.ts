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
import { metaRoutes } from "../../api/meta";
import { type ClientSettings, resolveSettings, type SettingsSource } from "../client/config";
import { isHostingApiError } from "../client/errors";
import { safeFailures } from "../internal/check";
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
 * environment filled in where an input is absent, then the connection check. A provider that
 * cannot work fails here, once, naming the input, before any resource is touched: the engine
 * checks a provider when the program registers it (the default provider included), before any
 * resource that uses it is checked, refreshed or created. Values unknown during preview pass. The
 * token goes back as a secret, whatever the program wrote.
 */
export async function checkConfig(news: Properties): Promise<{
  inputs: Properties;
  failures: pulumi.dynamic.CheckFailure[];
}> {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  for (const key of CONFIG_KEYS) {
    const value = news[key];
    if (value === undefined || value === null || isUnknown(value) || typeof value === "string") continue;
    failures.push({ property: key, reason: `${key} must be a string; got ${describe(value, key)}` });
  }
  const pending = CONFIG_KEYS.some((key) => isUnknown(news[key]));
  if (failures.length === 0 && !pending) {
    const failure = await settingsFailure(news);
    if (failure) failures.push(failure);
  }
  return {
    inputs: wrap(news, SECRET_CONFIG),
    failures: safeFailures(failures, new Set(SECRET_CONFIG), news),
  };
}

/**
 * Settings that are absent (in the inputs and the environment) or refused by the server. The
 * failure names no property: the engine prints a named property's value beside the reason, which
 * for these reads `{<nil>}` or `{&{{[secret]}}}`; the reason names the stack config key and the
 * environment variable to set instead.
 */
async function settingsFailure(news: Properties): Promise<pulumi.dynamic.CheckFailure | undefined> {
  let settings: ClientSettings;
  try {
    settings = resolveSettings(settingsSource(news));
  } catch (e) {
    const property = propertyOf((e as Error).message);
    const malformed = typeof news[property] === "string" && news[property] !== "";
    return { property: malformed ? property : "", reason: (e as Error).message };
  }
  try {
    await connectionCheck(settings);
  } catch (e) {
    if (!(e instanceof ConnectionError)) throw e;
    return { property: "", reason: e.message };
  }
  return undefined;
}

/** Which input a settings error is about, from the names `resolveSettings` puts in its messages. */
function propertyOf(message: string): ConfigKey {
  if (/token/i.test(message) && !/baseUrl|BASE_URL|address/i.test(message)) return "token";
  if (/apiVersion|API_VERSION/.test(message)) return "apiVersion";
  return "baseUrl";
}

/** What a value is, for a message; a secret input's value is never shown, only its type. */
function describe(value: Value, key: ConfigKey): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return (SECRET_CONFIG as readonly string[]).includes(key) ? `a ${typeof value}` : JSON.stringify(value);
}

/**
 * DiffConfig: which inputs changed, and how. A provider's settings never replace anything: a new
 * address or token reconfigures the same process's client, and the resources stay where they are
 * (moving them to another installation is not something a diff can decide).
 */
export function diffConfig(
  olds: Properties,
  news: Properties,
): Partial<Record<ConfigKey, "add" | "delete" | "update">> {
  const changes: Partial<Record<ConfigKey, "add" | "delete" | "update">> = {};
  for (const key of CONFIG_KEYS) {
    const before = olds[key] ?? undefined;
    const after = news[key] ?? undefined;
    if (!isUnknown(after) && JSON.stringify(before) === JSON.stringify(after)) continue;
    changes[key] = before === undefined ? "add" : after === undefined ? "delete" : "update";
  }
  return changes;
}

/** Failures of the connection check that mean these settings cannot work, and the input to fix. */
const FATAL: Readonly<Record<string, ConfigKey>> = {
  unauthorized: "token",
  network_error: "baseUrl",
  timeout: "baseUrl",
  configuration: "baseUrl",
  unexpected_response: "baseUrl",
};

/** One check per settings per process: CheckConfig and Configure of one provider share it. */
const checks = new Map<string, Promise<void>>();

/**
 * The connection check: one `GET /user` with the provider's settings, once per process (the
 * engine starts one per provider), shared by CheckConfig and Configure. Only answers that mean
 * these settings cannot work fail it: no answer (wrong address, server down, TLS), 401 (token
 * unknown or expired), an answer that is not the API's (a 404 page without the API's error
 * body: the base URL misses the API root), a 400 (the server refuses the API version asked for),
 * and every other failure the client could not get past with its retries (5xx, rate limits): a
 * provider whose first request fails would fail every resource after it. Only a 403 passes: an
 * app or fine-grained token may be refused `/user` and still manage what it was made for.
 */
export function connectionCheck(settings: ClientSettings): Promise<void> {
  const key = `${settings.apiRoot}\u0000${settings.token}\u0000${settings.apiVersion ?? ""}`;
  let check = checks.get(key);
  if (check === undefined) {
    check = clientFor(settings)
      .get(metaRoutes.meta.user, {})
      .then(
        () => undefined,
        (e: unknown) => {
          if (!isHostingApiError(e))
            throw new ConnectionError("baseUrl", settings, String((e as Error).message));
          if (e.status === 403) return;
          const property = FATAL[e.code] ?? (e.status === 400 ? "apiVersion" : "baseUrl");
          throw new ConnectionError(property, settings, e.message);
        },
      );
    checks.set(key, check);
  }
  return check;
}

/** Forgets the checks made (tests, which reuse one process for many providers). */
export function forgetConnectionChecks(): void {
  checks.clear();
}

/** Why the provider cannot work, in one line: the address and what it answered (never the token). */
export class ConnectionError extends Error {
  constructor(
    readonly property: ConfigKey,
    settings: ClientSettings,
    reason: string,
  ) {
    super(`cannot use the API at ${settings.apiRoot}: ${reason}`);
  }
}
