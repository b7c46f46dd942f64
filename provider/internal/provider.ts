/**
 * What every resource provider shares: the interface the runtime dispatches to, the
 * create-without-duplicates loop, response validation, and the props handed to `dynamic.Resource`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { HostingApiError, isAmbiguous } from "../client/errors";

export interface HostingProvider<I, O> {
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult<I>>;
  diff(id: string, olds: O, news: I): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: I): Promise<{ id: string; outs: O }>;
  read(id: string, props?: Partial<O>): Promise<pulumi.dynamic.ReadResult<O>>;
  update(id: string, olds: O, news: I): Promise<{ outs: O }>;
  delete(id: string, props: O): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: the runtime registry holds providers of every shape
export type AnyHostingProvider = HostingProvider<any, any>;

/** Attempts at a create that keeps failing ambiguously (each after looking for the object first). */
export const CREATE_ATTEMPTS = 3;

/**
 * Runs a create (a POST) so that an ambiguous failure (timeout, reset, 5xx) never leaves a
 * duplicate: before trying again, it looks for the object the failed attempt may have made.
 */
export async function createWithoutDuplicates<T>(
  attempt: () => Promise<T>,
  findMade: (startedAt: number) => Promise<T | undefined>,
): Promise<{ value: T; adopted: boolean }> {
  const startedAt = Date.now();
  let lastError: unknown;
  for (let i = 0; i < CREATE_ATTEMPTS; i++) {
    if (i > 0) {
      const found = await findMade(startedAt);
      if (found !== undefined) return { value: found, adopted: true };
    }
    try {
      return { value: await attempt(), adopted: false };
    } catch (e) {
      if (!isAmbiguous(e)) throw e;
      lastError = e;
    }
  }
  const found = await findMade(startedAt);
  if (found !== undefined) return { value: found, adopted: true };
  throw lastError;
}

/** Validates a response body, so a surprise from the server fails clearly instead of corrupting state. */
export function parseResponse<S extends z.ZodType>(
  schema: S,
  data: unknown,
  method: string,
  path: string,
): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new HostingApiError({
    code: "unexpected_response",
    method,
    path,
    apiMessage: `unexpected response body${issue ? ` (${issue.path.join(".") || "body"}: ${issue.message})` : ""}`,
  });
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
  ) {
    super(`${(cause as Error)?.message ?? String(cause)} (the object ${id} exists and is kept in state)`);
  }
  get reasons(): string[] {
    return [this.message];
  }
}

/** A fresh props object for `dynamic.Resource` (its constructor mutates what it is given). */
export function resourceProps(outputs: readonly string[], args: object | undefined): pulumi.Inputs {
  const props: pulumi.Inputs = {};
  for (const name of outputs) props[name] = undefined;
  return Object.assign(props, args ?? {});
}

/**
 * The input-shaped part of outputs (the fields the diff rules name), which read returns as
 * `inputs` so that refresh shows drift field by field.
 */
export function inputsFrom<T extends object>(rules: object, outputs: T): T {
  return Object.fromEntries(Object.entries(outputs).filter(([k, v]) => k in rules && v !== undefined)) as T;
}

/** Drops keys whose value is undefined (state holds no explicit undefineds). */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
