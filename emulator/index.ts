/**
 * The sandbox server in code: `startEmulator()` serves the API on loopback and resolves once it
 * listens; its `fetch` answers a request in process too.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp } from "./core/app";
import type { Connection } from "./core/context";
import { Controls } from "./core/controls";
import type { Fixture } from "./core/fixture";
import { API_PREFIX } from "./core/http";
import { Store } from "./core/store";
import { defaultFixture, FAMILIES, SANDBOX_MODEL } from "./families";

export type { Fixture } from "./core/fixture";
export { defaultFixture } from "./families";

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Loopback by default: the sandbox server is for this machine only. */
  host?: string;
  /** Keep state in this SQLite file across restarts; in memory when absent. */
  data?: string;
  fixture?: Fixture;
  /**
   * Required by `/_emulator/*` as `Authorization: Bearer <controlToken>` when given; a host other
   * than loopback refuses to start without it (the control routes show every token and key).
   */
  controlToken?: string;
  /** How many requests the control log keeps (default 10,000). */
  logSize?: number;
}

/** Whether `host` only listens on this machine. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

export interface RunningEmulator {
  /** The API root, e.g. `http://127.0.0.1:43117/api/v3`. */
  url: string;
  /** Scheme, host and port, where `/_emulator/` control routes live. */
  origin: string;
  port: number;
  store: Store;
  controls: Controls;
  /**
   * Answers `request` in this process, as the server answers it over HTTP, without a connection:
   * no socket and no HTTP parsing, for tests that send thousands of requests. The request's URL
   * names this server (`url`), as links in answers are made from it. A fault that drops the
   * connection makes it reject as `fetch` does (`TypeError: fetch failed`).
   */
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  if (options.controlToken !== undefined && options.controlToken.trim() === "") {
    throw new Error("the control token is empty; give one of visible characters");
  }
  if (!isLoopback(host) && options.controlToken === undefined) {
    throw new Error(
      `--host ${host} would let any machine that reaches it read every token and key on /_emulator/state: give --control-token T as well (then /_emulator/* needs "Authorization: Bearer T")`,
    );
  }
  const controls = new Controls(options.logSize);
  const store = new Store(SANDBOX_MODEL, options.fixture ?? defaultFixture(), options.data);
  const app = createApp(FAMILIES, store, controls, options.controlToken);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host }, () => resolve(s));
    s.once("error", (e) => {
      store.close();
      reject(e);
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}${API_PREFIX}`,
    origin,
    port,
    store,
    controls,
    fetch: async (request) => {
      let dropped = false;
      const connection: Connection = {
        incoming: {
          socket: {
            destroy: () => {
              dropped = true;
            },
          },
        },
      };
      const response = await app.fetch(request, connection);
      if (dropped) {
        throw new TypeError("fetch failed", {
          cause: new Error("the sandbox server dropped the connection (an injected fault)"),
        });
      }
      return response;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close((err) => {
          store.close();
          if (err) reject(err);
          else resolve();
        });
      }),
  };
}
