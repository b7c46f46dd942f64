/**
 * What the client reads of an answer: its body parsed (JSON where the content type says so), its
 * headers, and the body validated against the route's schema.
 */
import type { z } from "zod";
import { unexpectedResponse } from "./errors";
import type { HeaderBag } from "./rate-limit";

/** Validates a response body, so a surprise from the server fails clearly instead of corrupting state. */
export function validate<S extends z.ZodType>(
  schema: S,
  data: unknown,
  method: string,
  path: string,
): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw unexpectedResponse(
    method,
    path,
    `unexpected response body${issue ? ` (${issue.path.join(".") || "body"}: ${issue.message})` : ""}`,
  );
}

export function headerBag(raw: Record<string, string | string[] | undefined>): HeaderBag {
  return {
    get(name: string) {
      const value = raw[name.toLowerCase()];
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

export function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === "") return undefined;
  if (contentType && !/json/i.test(contentType)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
