/** Types shared by the sandbox server's modules: what every request handler can reach. */
import type { HttpBindings } from "@hono/node-server";
import type { Caller } from "./auth";
import type { Controls } from "./controls";
import type { Store } from "./store";

export interface ServerEnv {
  Bindings: HttpBindings;
  Variables: {
    store: Store;
    controls: Controls;
    caller: Caller;
    /** Set when a fault dropped the connection: the log records status 0 (no answer). */
    dropped: boolean;
  };
}
