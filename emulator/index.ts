/**
 * The sandbox server in code: `startEmulator()` serves the API on loopback and resolves once it
 * listens.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp } from "./app";
import { Controls } from "./controls";
import { defaultFixture, type Fixture } from "./fixture";
import { API_PREFIX } from "./http";
import { Store } from "./store";

export type { Fixture } from "./fixture";
export { defaultFixture } from "./fixture";

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Loopback by default: the sandbox server is for this machine only. */
  host?: string;
  /** Persist state to this JSON file across restarts; in memory when absent. */
  data?: string;
  fixture?: Fixture;
}

export interface RunningEmulator {
  /** The API root, e.g. `http://127.0.0.1:43117/api/v3`. */
  url: string;
  /** Scheme, host and port, where `/_emulator/` control routes live. */
  origin: string;
  port: number;
  store: Store;
  controls: Controls;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const store = new Store(options.fixture ?? defaultFixture(), options.data);
  const controls = new Controls();
  const app = createApp(store, controls);
  const host = options.host ?? "127.0.0.1";
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host }, () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}${API_PREFIX}`,
    origin,
    port,
    store,
    controls,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
