/**
 * Node's compile cache for this library's modules, in every process the engine starts: the plugin
 * (imported by its cli.ts before anything else) and the dynamic provider (imported first by every
 * `kinds/` module, which the serialised provider `require`s). The engine kills both at the end of a
 * command, so the cache Node would write at exit never gets written: the plugin flushes it once it
 * listens and after each module loaded on a first call; the dynamic provider after each call that
 * loaded modules (`flushWhenLoaded`). The next process then loads the V8 code instead of compiling
 * every module again (the plugin: 170 ms to listen without, 132 ms with; a dynamic provider process
 * compiled for about 0.5 CPU-s at each start before). The cache goes where NODE_COMPILE_CACHE says,
 * else in the system's temporary folder (Node's default); where it cannot be used, nothing changes.
 */
import * as nodeModule from "node:module";
import { wrapMethods } from "./wrap-methods";

/**
 * Whether the cache is on. Not in the release's single executable (its `require` has no module
 * cache either), nor where Node may not write the folder.
 */
const enabled = ((): boolean => {
  try {
    const status = nodeModule.enableCompileCache?.().status;
    const { ENABLED, ALREADY_ENABLED } = nodeModule.constants.compileCacheStatus;
    return status === ENABLED || status === ALREADY_ENABLED;
  } catch {
    return false;
  }
})();

/** How many modules were loaded at the last flush. */
let loadedAtFlush = -1;

/** How many modules are loaded (undefined in the single executable, which has no module cache). */
const loadedModules = (): number | undefined =>
  require.cache === undefined ? undefined : Object.keys(require.cache).length;

/** Writes what the process compiled to the cache (nothing when every module came from it). */
export function flushCompileCache(): void {
  loadedAtFlush = loadedModules() ?? -1;
  try {
    nodeModule.flushCompileCache?.();
  } catch {
    // As above: the cache is an optimisation only.
  }
}

/**
 * Flushes when modules were loaded since the last flush, by either function (a count of the module
 * cache otherwise): the plugin's first call after `cachedOnceLoaded` writes nothing again.
 */
export function flushWhenLoaded(): void {
  if (!enabled) return;
  const loaded = loadedModules();
  if (loaded === undefined || loaded === loadedAtFlush) return;
  flushCompileCache();
}

/**
 * A module loading after the server listens, written to the cache once it has loaded (Node would
 * write it only at a normal exit, which the engine never lets the plugin reach).
 */
export function cachedOnceLoaded<T>(loading: Promise<T>): Promise<T> {
  return loading.then((module) => {
    flushCompileCache();
    return module;
  });
}

/** The dynamic provider methods the engine calls, which may load modules on a first call. */
const CALLED = ["configure", "check", "diff", "create", "read", "update", "delete"] as const;

/**
 * A provider whose methods flush the compile cache once they end, when they loaded modules: in a
 * dynamic provider process the library's modules load on the first calls of each kind, and the
 * engine kills the process when its command ends. Once a call of this provider has ended, later
 * calls no longer look (the module count, about 20 ms of CPU a process when every call looked).
 */
export function flushingAfterCalls<
  P extends Record<(typeof CALLED)[number], (...args: never[]) => Promise<unknown>>,
>(provider: P): P {
  let ended = false;
  const afterFirst = () => {
    ended = true;
    flushWhenLoaded();
  };
  return wrapMethods(provider, CALLED, (call) => (...args) => {
    const result = call(...args);
    return ended ? result : result.finally(afterFirst);
  });
}
