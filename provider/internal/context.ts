/**
 * The provider process's configuration: set by `configure` (stack config) and falling back to the
 * environment. The client is built here, inside the provider process, once per settings, so no
 * token or client ever lands in the serialised provider. The functions (`provider/functions/`)
 * run in the program process and take their clients from here too (`clientFor`), so a process
 * holds one client, with its rate-limit window and retries, per settings.
 */
import { type ClientSettings, resolveSettings, type SettingsSource } from "../client/config";
import { type ClientOptions, HostingClient } from "../client/http";

let source: SettingsSource = { get: () => undefined };
/**
 * Whether the settings are the engine's (`configure` without options): the provider configuration,
 * which commands run without the program (`refresh`, `preview --refresh`, `destroy`) take from the
 * state. A 401 then says how to use the current one.
 */
let fromEngine = false;
let options: ClientOptions = {};
/** Clients by settings (address, token, version); a rotated token makes a new one. */
const clients = new Map<string, HostingClient>();

/**
 * Called by the dynamic-provider host with the stack config (`hosting:*` keys, secrets decrypted);
 * `clientOptions` lets a command that drives providers itself (hosting-import) see every request,
 * and makes the settings its own rather than the engine's.
 */
export function configure(config: SettingsSource, clientOptions?: ClientOptions): void {
  source = config;
  fromEngine = clientOptions === undefined;
  if (clientOptions !== undefined) {
    options = clientOptions;
    clients.clear();
  }
}

/** The client of the configured settings (the provider's). */
export function client(): HostingClient {
  const settings = resolveSettings(source);
  return clientFor({ ...settings, tokenOrigin: { ...settings.tokenOrigin, recorded: fromEngine } });
}

/** The process's client for these settings, built on first use. */
export function clientFor(settings: ClientSettings): HostingClient {
  const key = `${settings.apiRoot}\u0000${settings.token}\u0000${settings.apiVersion ?? ""}`;
  let found = clients.get(key);
  if (!found) {
    const log = process.env.HOSTING_DEBUG ? (line: string) => process.stderr.write(`${line}\n`) : undefined;
    found = new HostingClient(settings, log ? { ...options, log } : options);
    clients.set(key, found);
  }
  return found;
}

/**
 * Waits `ms` between look-ups the provider repeats itself (what a create whose answer was lost
 * made): through the client options' `sleep` when one is set, so a command or a test that drives
 * providers itself decides how long the waits take.
 */
export function wait(ms: number): Promise<void> {
  return options.sleep ? options.sleep(ms) : new Promise((resolve) => setTimeout(resolve, ms));
}

/** Where notices go instead of stderr, when set (the native plugin: the engine's log). */
let noticeSink: ((message: string) => void) | undefined;

/**
 * Sends notices to `sink` instead of stderr. The CLI shows the dynamic-provider host's stderr as
 * messages of the run, but a plugin's only with `--debug`, so the native plugin sends them to the
 * engine's log instead.
 */
export function sendNoticesTo(sink: ((message: string) => void) | undefined): void {
  noticeSink = sink;
}

/**
 * Tells the user something that is not an error (e.g. a default group left in place on destroy).
 * The engine shows a provider's stderr lines as messages of the run.
 */
export function notice(message: string): void {
  if (noticeSink !== undefined) {
    noticeSink(message);
    return;
  }
  process.stderr.write(`pulumi-hosting: ${message}\n`);
}
