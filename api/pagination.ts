/**
 * `Link` header parsing: `<url?page=2&per_page=30>; rel="next", <...>; rel="last"`. The header is
 * absent when everything fits on one page.
 */
export type LinkRel = "next" | "prev" | "first" | "last";

export function parseLinkHeader(header: string | null | undefined): Partial<Record<LinkRel, string>> {
  const links: Partial<Record<LinkRel, string>> = {};
  if (!header) return links;
  for (const part of header.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="?([a-z]+)"?/i.exec(part.trim());
    if (!match) continue;
    const [, url, rel] = match;
    if (url && (rel === "next" || rel === "prev" || rel === "first" || rel === "last")) links[rel] = url;
  }
  return links;
}

/** The largest page the API serves; asking for it keeps large organisations to few round trips. */
export const MAX_PER_PAGE = 100;

/** Picks the list out of an envelope such as `{total_count, runners: [...]}` (not a list: an error). */
export const itemsOf =
  (key: string) =>
  (body: unknown): unknown[] =>
    (typeof body === "object" && body !== null
      ? (body as Record<string, unknown>)[key]
      : undefined) as unknown[];
