/** Shared set-up of the lifecycle suites: a sandbox server and a provider configured against it. */

import { afterAll, beforeAll, beforeEach } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator/index";
import { collectionReads } from "../../../provider/internal/collection-reads";
import { configure } from "../../../provider/internal/context";

export async function startSandbox(): Promise<RunningEmulator> {
  return startEmulator({ port: 0 });
}

/**
 * One sandbox server per test file, reset before each test (fixture restored, request log empty)
 * with the provider configured for the site administrator's token. `bind` receives the server.
 */
export function useSandbox(bind: (emulator: RunningEmulator) => void): void {
  let emulator: RunningEmulator | undefined;
  beforeAll(async () => {
    emulator = await startSandbox();
    bind(emulator);
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(async () => {
    if (!emulator) return;
    await control(emulator, "POST", "/reset");
    // Each test starts as a new provider process would: no list of an earlier test answers its reads.
    collectionReads.clear();
    useToken(emulator, "svcp_siteadmin");
  });
}

/** Points the provider's stack config at the sandbox server with the given fixture token. */
export function useToken(emulator: RunningEmulator, token: string): void {
  const config: Record<string, string> = { "hosting:baseUrl": emulator.origin, "hosting:token": token };
  configure({ get: (key) => config[key] });
}

export async function control(emulator: RunningEmulator, method: string, path: string, body?: unknown) {
  const response = await fetch(`${emulator.origin}/_emulator${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  return response.status === 204 ? undefined : response.json();
}

/**
 * Calls the API as an administrator would, outside Pulumi (the "web UI" of the tests). `headers`
 * adds to the request's, e.g. the `X-Service-Api-Version` of a route that exists in one version.
 */
export async function api(
  emulator: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
  token = "svcp_siteadmin",
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export function requestCounts(emulator: RunningEmulator): Record<string, number> {
  return emulator.controls.counts().byRoute;
}
