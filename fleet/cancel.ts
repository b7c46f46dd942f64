/**
 * Stopping one stack's operation: at its time limit (`--timeout`) or when `hosting-fleet` is
 * interrupted (SIGINT, SIGTERM). The Automation API sends the CLI a SIGINT when the signal it was
 * given aborts; the CLI then cancels as after one Ctrl-C: it starts no further step, waits for the
 * steps in flight, saves the state and releases the stack's lock (a program that never settles is
 * stopped at once: the engine stops waiting on it). A step that never ends (a provider call that
 * hangs) would keep that cancel waiting, so after a grace period the CLI gets a second SIGINT, its
 * "terminate": it stops waiting on the step, records it as pending (the next `up` says so) and
 * still releases the lock. Both were checked with the CLI (docs/DECISIONS.md, 2026-11-27).
 *
 * The Automation API listens to the signal's one "abort" event; a second SIGINT is sent by running
 * its listener again, which kills the same process with SIGINT again.
 */

import { durationText } from "./args";

/**
 * How long the CLI has to stop after an interrupt before the next: one request's time limit in the
 * provider's client (60 s), so a step waiting on the server can end and be recorded.
 */
export const CANCEL_GRACE_MS = 60_000;

/** How long, after the second interrupt, the operation is waited for before it is given up. */
export const ABANDON_MS = 15_000;

export interface CancelOptions {
  /** The stack's time limit, milliseconds. */
  timeoutMs: number;
  /** Aborted at the first SIGINT or SIGTERM to hosting-fleet; its reason is the signal's name. */
  interrupt?: AbortSignal | undefined;
  /** Aborted at a second one: the CLI is told to terminate at once. */
  force?: AbortSignal | undefined;
  /** CANCEL_GRACE_MS unless a test says. */
  graceMs?: number | undefined;
  /** ABANDON_MS unless a test says. */
  abandonMs?: number | undefined;
}

type Listener = (this: AbortSignal, event: Event) => unknown;

export class Cancellation {
  /** For the Automation API: each interrupt runs its listeners, which send the CLI a SIGINT. */
  readonly signal: AbortSignal;
  /** Why the operation was stopped: set at the first timeout or interrupt. */
  reason: string | undefined;
  /** Resolves when the operation is to stop (a reason is set). */
  readonly stopped: Promise<void>;
  /** Resolves when the operation is given up: it did not end after two interrupts. */
  readonly abandoned: Promise<void>;
  /** How many interrupts the CLI was sent. */
  interrupts = 0;

  private readonly controller = new AbortController();
  private readonly listeners: Listener[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly graceMs: number;
  private readonly abandonMs: number;
  private resolveStopped: () => void = () => {};
  private resolveAbandoned: () => void = () => {};
  private readonly onInterrupt: () => void;
  private readonly onForce: () => void;

  constructor(private readonly options: CancelOptions) {
    this.graceMs = options.graceMs ?? CANCEL_GRACE_MS;
    this.abandonMs = options.abandonMs ?? ABANDON_MS;
    this.stopped = new Promise((resolve) => {
      this.resolveStopped = resolve;
    });
    this.abandoned = new Promise((resolve) => {
      this.resolveAbandoned = resolve;
    });
    const signal = this.controller.signal;
    const add = signal.addEventListener.bind(signal);
    // Keeps the listeners the Automation API adds, to run them again for a second interrupt; a
    // listener added after an interrupt (the CLI started in the meantime) runs at once, once for
    // each interrupt sent so far.
    signal.addEventListener = (...args: Parameters<AbortSignal["addEventListener"]>) => {
      const [type, listener] = args;
      if (type === "abort" && typeof listener === "function") {
        const call = listener as Listener;
        this.listeners.push(call);
        const missed = this.interrupts;
        if (missed > 0) {
          queueMicrotask(() => {
            for (let i = 0; i < missed; i++) call.call(signal, new Event("abort"));
          });
        }
      }
      add(...args);
    };
    this.signal = signal;
    this.timers.push(
      setTimeout(
        () =>
          this.stop(
            `timed out after ${durationText(options.timeoutMs)} (--timeout ${durationText(options.timeoutMs)}): the operation was cancelled`,
          ),
        options.timeoutMs,
      ),
    );
    this.onInterrupt = () =>
      this.stop(`interrupted by ${String(options.interrupt?.reason)}: the operation was cancelled`);
    this.onForce = () => {
      this.stop(`interrupted by ${String(options.force?.reason)}: the operation was cancelled`);
      this.terminate();
    };
    if (options.interrupt?.aborted) this.onInterrupt();
    else options.interrupt?.addEventListener("abort", this.onInterrupt, { once: true });
    if (options.force?.aborted) this.onForce();
    else options.force?.addEventListener("abort", this.onForce, { once: true });
  }

  /** Asks the CLI to cancel (the first interrupt), and to terminate if it has not ended after the grace period. */
  stop(reason: string): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.resolveStopped();
    this.interrupt();
    this.timers.push(setTimeout(() => this.terminate(), this.graceMs));
  }

  /** The second interrupt; the operation is given up if it has not ended after ABANDON_MS more. */
  private terminate(): void {
    if (this.interrupts >= 2) return;
    this.interrupt();
    this.timers.push(setTimeout(() => this.resolveAbandoned(), this.abandonMs));
  }

  private interrupt(): void {
    this.interrupts++;
    if (!this.controller.signal.aborted) {
      this.controller.abort(this.reason);
      return;
    }
    for (const listener of this.listeners) listener.call(this.signal, new Event("abort"));
  }

  /** Ends the timers and listeners: the operation is over. */
  dispose(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.options.interrupt?.removeEventListener("abort", this.onInterrupt);
    this.options.force?.removeEventListener("abort", this.onForce);
  }
}
