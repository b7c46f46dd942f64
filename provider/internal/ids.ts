/**
 * Composite ids, built and parsed in one place. Each part is URL-encoded, so a name holding the
 * separator (an environment called `prod/eu`) survives the round trip.
 */

import { integerParam } from "../../api";
import { configurationError } from "../client/errors";

export function joinId(...parts: Array<string | number>): string {
  return parts.map((p) => encodeURIComponent(String(p))).join("/");
}

/** Splits an id into `format.length` parts, or fails naming the expected format. */
export function splitId(id: string, format: readonly string[], resource: string): string[] {
  const parts = id.split("/");
  if (parts.length !== format.length || parts.some((p) => p === "")) {
    throw configurationError(`${resource} id "${id}" is not of the form ${format.join("/")}`);
  }
  return parts.map((p) => decodeURIComponent(p));
}

/** A part of an id that is a server-assigned integer (a group id), or fails naming the part. */
export function numericPart(value: string, part: string, resource: string): number {
  const id = integerParam(value);
  if (id === undefined) {
    throw configurationError(`${resource} id part ${part} must be a positive integer; got "${value}"`);
  }
  return id;
}
