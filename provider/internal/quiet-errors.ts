/**
 * One line per failing resource. The engine's dynamic-provider host reports a method's error to the
 * engine (shown under the resource) and also prints `${error}: ${error.stack}` to stderr for check,
 * diff, read, update and delete, which the CLI shows again as a message of the stack: the same text
 * twice more, with a stack trace of this library's internals. For the errors this library means
 * users to read (API answers, configuration, a half-done create), that echo says nothing new: it is
 * dropped. Any other error (a defect) keeps its stack trace, which is what a bug report needs.
 */
import { isHostingApiError } from "../client/errors";
import { wrapMethods } from "./wrap-methods";

/**
 * The texts the host is about to print for errors already reported under their resource, with how
 * many times: one error can fail several resources (the reads sharing one collection's list).
 */
const echoes = new Map<string, number>();

/** The methods whose failures the host echoes (it reports a failed create without one). */
const ECHOED = ["check", "diff", "read", "update", "delete"] as const;

/**
 * Wraps a provider's methods so that a failure with an error this library explains (a
 * `HostingApiError`, or an error carrying the id of a half-done create) is reported once, under
 * its resource.
 */
export function quietErrors<
  P extends Record<(typeof ECHOED)[number], (...args: never[]) => Promise<unknown>>,
>(provider: P): P {
  return wrapMethods(provider, ECHOED, (call) => async (...args) => {
    try {
      return await call(...args);
    } catch (e) {
      if (e instanceof Error && explained(e)) silenceEcho(e);
      throw e;
    }
  });
}

function explained(e: Error): boolean {
  return isHostingApiError(e) || isHostingApiError(e.cause) || "reasons" in e;
}

let filter: ((...args: unknown[]) => void) | undefined;

function silenceEcho(e: Error): void {
  // Installed on first use (only the provider process calls provider methods), and again if
  // something has replaced console.error since.
  if (console.error !== filter) {
    const original = console.error.bind(console);
    filter = (...args: unknown[]) => {
      if (args.length === 1 && typeof args[0] === "string" && forget(args[0])) return;
      original(...args);
    };
    console.error = filter;
  }
  // The exact text the host prints (cmd/dynamic-provider: console.error(`${e}: ${e.stack}`)).
  const text = `${e}: ${e.stack}`;
  echoes.set(text, (echoes.get(text) ?? 0) + 1);
}

/** Whether `text` was an expected echo (one of it is then used up). */
function forget(text: string): boolean {
  const left = echoes.get(text);
  if (left === undefined) return false;
  if (left > 1) echoes.set(text, left - 1);
  else echoes.delete(text);
  return true;
}
