/**
 * Creates that never leave a duplicate: a POST is never sent again while the provider cannot tell
 * whether it made the object; it looks for what it made instead. A create that made the object but
 * did not converge is kept in state (`PartialCreateError`), and one whose outcome stays unknown is
 * kept as a pending record that the next `up` resolves (see `PENDING_ID`).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as pulumi from "@pulumi/pulumi";
import { isAmbiguous, isRateLimited } from "../client/errors";
import { wait } from "./context";

/** Tolerated difference between this machine's clock and the server's when matching `created_at`. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Whether an object's `created_at` (from the server's clock) falls after a create attempt began
 * (this machine's clock), give or take the clock skew: how `findMade` tells a failed attempt's
 * object from an older one.
 */
export function madeSince(createdAt: string | undefined, startedAt: number): boolean {
  return Date.parse(createdAt ?? "") >= startedAt - CLOCK_SKEW_MS;
}

/** Attempts at a create that keeps failing ambiguously (each after looking for the object first). */
export const CREATE_ATTEMPTS = 3;
/** How many times a look-up for what a failed create made is tried before the create gives up. */
export const LOOKUP_ATTEMPTS = 8;
/** The first wait between look-ups; it doubles, up to `LOOKUP_MAX_DELAY_MS`. */
export const LOOKUP_FIRST_DELAY_MS = 500;
export const LOOKUP_MAX_DELAY_MS = 8_000;

/** Failures a look-up may meet and try again after: no answer, a 5xx, a rate limit. */
const transient = (e: unknown) => isAmbiguous(e) || isRateLimited(e);

/**
 * How the create of a pending record goes (see `PENDING_ID`): it first looks for what the earlier
 * create made since `since`, and adopts it.
 */
const pendingCreate = new AsyncLocalStorage<{ since: number }>();

/** Runs the create of a pending record: its look-ups go by `since`, and it adopts what they find. */
export function adoptingSince<T>(since: number, run: () => Promise<T>): Promise<T> {
  return pendingCreate.run({ since }, run);
}

/**
 * A create that cannot tell whether the object was made: the answer to its POST was lost, and the
 * look-ups for what it may have made failed too. `startedAt` is when the first attempt began, what a
 * later look-up compares `created_at` with.
 */
export class CreateOutcomeUnknown extends Error {
  constructor(
    readonly startedAt: number,
    cause: unknown,
  ) {
    super((cause as Error)?.message ?? String(cause), { cause });
  }
}

/**
 * Runs a create (a POST) so that an ambiguous failure (timeout, reset, 5xx) never leaves a
 * duplicate: before trying again, it looks for the object the failed attempt may have made. A
 * look-up that fails for the same passing reasons is tried again (a read is safe to repeat); when
 * it still cannot know whether the object exists, it throws `CreateOutcomeUnknown`, which
 * `defineProvider` records as a pending object that the next `up` resolves. Inside the create of a
 * pending record, it looks first for what the earlier create made.
 */
export async function createWithoutDuplicates<T>(
  attempt: () => Promise<T>,
  findMade: (startedAt: number) => Promise<T | undefined>,
  sleep: (ms: number) => Promise<void> = wait,
): Promise<{ value: T; adopted: boolean }> {
  const pending = pendingCreate.getStore();
  const startedAt = pending?.since ?? Date.now();
  const lookUp = async (): Promise<T | undefined> => {
    for (let i = 1, delay = LOOKUP_FIRST_DELAY_MS; ; i++, delay = Math.min(delay * 2, LOOKUP_MAX_DELAY_MS)) {
      try {
        return await findMade(startedAt);
      } catch (e) {
        if (i >= LOOKUP_ATTEMPTS || !transient(e)) throw new CreateOutcomeUnknown(startedAt, e);
        await sleep(delay);
      }
    }
  };
  if (pending !== undefined) {
    const found = await lookUp();
    if (found !== undefined) return { value: found, adopted: true };
  }
  let lastError: unknown;
  for (let i = 0; i < CREATE_ATTEMPTS; i++) {
    if (i > 0) {
      const found = await lookUp();
      if (found !== undefined) return { value: found, adopted: true };
    }
    try {
      return { value: await attempt(), adopted: false };
    } catch (e) {
      if (!isAmbiguous(e)) throw e;
      lastError = e;
    }
  }
  const found = await lookUp();
  if (found !== undefined) return { value: found, adopted: true };
  throw lastError;
}

/**
 * An error from create after the object exists (e.g. adoption converged only halfway): the engine
 * records the resource with this id and these properties instead of losing it.
 */
export class PartialCreateError extends Error {
  constructor(
    readonly id: string,
    readonly properties: object,
    cause: unknown,
    message = `${(cause as Error)?.message ?? String(cause)} (the object ${id} exists and is kept in state)`,
  ) {
    super(message);
  }
  get reasons(): string[] {
    return [this.message];
  }
}

/**
 * The id of a pending record: a create that could not tell whether it made the object (its POST's
 * answer was lost and so were its look-ups, `CreateOutcomeUnknown`) is recorded under this id with
 * the inputs it sent, through the engine's partial-create path (`PartialCreateError`: the engine
 * keeps the resource in state with its init error). The next `up` diffs it as a replacement that
 * deletes first: the delete of a pending record sends nothing, and the replacement's create looks
 * for what the earlier create made since it began and adopts it, or makes it when there is none.
 * So the stack neither asks for `importId` nor makes a duplicate. The number is when the earlier
 * create began (milliseconds since the epoch).
 */
const PENDING_ID = /^pending-create:(\d+)$/;
/** The key of a pending record's properties that holds when its create began. */
const PENDING_KEY = "__pendingCreate";

export function pendingSince(id: string): number | undefined {
  const match = PENDING_ID.exec(id);
  return match ? Number(match[1]) : undefined;
}

/** What state records for a create whose outcome is unknown: the inputs it sent, under a pending id. */
export function pendingRecord(kind: string, e: CreateOutcomeUnknown, written: object): PartialCreateError {
  return new PartialCreateError(
    `pending-create:${e.startedAt}`,
    { ...written, [PENDING_KEY]: e.startedAt },
    e,
    `${e.message}; whether the ${kind} was made cannot be told now: it is kept in state as pending, and the next \`pulumi up\` adopts it if it was made, or makes it`,
  );
}

/** A pending record's inputs: its properties without the pending mark. */
export function pendingInputs(props: object | undefined): object {
  const { [PENDING_KEY]: _since, ...inputs } = (props ?? {}) as Record<string, unknown>;
  return inputs;
}

/**
 * What one provider process remembers between a pending record's diff and the replacement's
 * delete and create, which the engine sends to the same process in the same `up`. The create's
 * inputs are those diff saw as `news` (both are what check returned), so they find each other.
 */
export function pendingResolutions(kind: string) {
  const resolving = new Set<string>();
  const adopting = new Map<string, number>();
  const keyOf = (inputs: object) => `${kind}\u0000${canonical(inputs)}`;
  return {
    resolving,
    /**
     * When the pending record the create of `inputs` replaces began, taken once; undefined for any
     * other create (no key is made while nothing is pending: creates are the hot path).
     */
    adoptionFor(inputs: object): number | undefined {
      if (adopting.size === 0) return undefined;
      const key = keyOf(inputs);
      const since = adopting.get(key);
      adopting.delete(key);
      return since;
    },
    resolveOnNextCreate(
      id: string,
      since: number,
      news: object,
      replaced: string,
    ): pulumi.dynamic.DiffResult {
      resolving.add(id);
      adopting.set(keyOf(news), since);
      return { changes: true, replaces: [replaced], deleteBeforeReplace: true };
    },
  };
}

/** JSON with object keys sorted, so two equal values give one string whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
