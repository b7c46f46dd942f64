/**
 * The provider process's configuration: set by `configure` (stack config) and falling back to the
 * environment. The client is built here, inside the provider process, once per settings, so no
 * token or client ever lands in the serialised provider.
 */
import { resolveSettings, type SettingsSource } from "../client/config";
import { type ClientOptions, HostingClient } from "../client/http";

let source: SettingsSource = { get: () => undefined };
let options: ClientOptions = {};
let cached: { key: string; client: HostingClient } | undefined;

/**
 * Called by the dynamic-provider host with the stack config (`hosting:*` keys, secrets decrypted);
 * `clientOptions` lets a command that drives providers itself (hosting-import) see every request.
 */
export function configure(config: SettingsSource, clientOptions?: ClientOptions): void {
  source = config;
  if (clientOptions !== undefined) {
    options = clientOptions;
    cached = undefined;
  }
}

export function client(): HostingClient {
  const settings = resolveSettings(source);
  const key = `${settings.apiRoot}\u0000${settings.token}\u0000${settings.apiVersion ?? ""}`;
  if (cached?.key !== key) {
    const log = process.env.HOSTING_DEBUG ? (line: string) => process.stderr.write(`${line}\n`) : undefined;
    cached = { key, client: new HostingClient(settings, log ? { ...options, log } : options) };
  }
  return cached.client;
}

/**
 * Tells the user something that is not an error (e.g. a default group left in place on destroy).
 * The engine shows a provider's stderr lines as messages of the run.
 */
export function notice(message: string): void {
  process.stderr.write(`pulumi-hosting: ${message}\n`);
}
