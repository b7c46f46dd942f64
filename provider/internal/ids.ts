/**
 * Composite ids, built and parsed in one place. Each part is URL-encoded, so a name holding the
 * separator (an environment called `prod/eu`) survives the round trip.
 */

import { integerParam } from "../../api/route";
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

/** An id's parts by name: the integer parts (server-assigned ids) as numbers, the others as text. */
export type IdParts<F extends readonly string[], N extends string = never> = string extends F[number]
  ? // A format not known as a tuple (a registry's kinds): any part may be either.
    Readonly<Record<string, string | number>>
  : { [K in F[number]]: K extends N ? number : string };

/** How a kind's ids are parsed and built, from its `idFormat`. */
export interface IdCodec<F extends readonly string[], N extends string> {
  /** The id's parts by name; fails naming the kind and the expected form, or the integer part. */
  parseId(id: string): IdParts<F, N>;
  /** The id of the object these parts name (each part URL-encoded). */
  formatId(parts: { readonly [K in F[number]]: string | number }): string;
}

/**
 * The codec of ids of the form `format` (parts joined by `/`, each URL-encoded), where the parts
 * named in `integers` are server-assigned integers.
 */
export function idCodec<F extends readonly string[], N extends string>(
  resource: string,
  format: F,
  integers: ReadonlySet<string>,
): IdCodec<F, N> {
  return {
    parseId(id) {
      const values = splitId(id, format, resource);
      const parts: Record<string, string | number> = {};
      format.forEach((name, i) => {
        const value = values[i] ?? "";
        parts[name] = integers.has(name) ? numericPart(value, name, resource) : value;
      });
      return parts as IdParts<F, N>;
    },
    formatId(parts) {
      return joinId(...format.map((name: F[number]) => parts[name]));
    },
  };
}
