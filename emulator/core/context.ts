/** Types shared by the sandbox server's modules: what every request handler can reach. */
import type { Controls } from "./controls";
import type { TokenRecord, UserRecord } from "./fixture";
import type { Store } from "./store";

/** Who is calling: the bearer token and the user it acts as. */
export interface Caller {
  token: TokenRecord;
  user: UserRecord | undefined;
}

/**
 * What the request handlers reach of a request's connection: its socket, which a fault drops.
 * Over HTTP, @hono/node-server's request and response; a request answered in process
 * (`RunningEmulator.fetch`) has a connection of its own.
 */
export interface Connection {
  incoming: { socket: { destroy(): void } };
}

export interface ServerEnv {
  Bindings: Connection;
  Variables: {
    store: Store;
    controls: Controls;
    /** Undefined on a public route called without a token (see `guard.ts`). */
    caller: Caller | undefined;
    /** Set when a fault dropped the connection: the log records status 0 (no answer). */
    dropped: boolean;
    /** The request body, read in full before the request's transaction starts. */
    bodyText: string;
  };
}
