/**
 * The repository's settings between the program's names and the API's: which inputs are settings,
 * how each reads from a repository the API answers, how the platform means each (so a value it
 * returns in another form is no change), and the requests that bring a repository to what the
 * program declares, in the order the platform takes them.
 */
import { type ApiRepository, repositoriesRoutes } from "../../../api/repositories";
import { isHostingApiError, notFoundError, refusedError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { sameValue } from "../../internal/diff";
import { compact } from "../../internal/outputs";
import type { WireMapping } from "../../internal/wire";

/** The settings a program may declare: only those it declares are managed (written, read, compared). */
export const SETTINGS = [
  "description",
  "homepage",
  "visibility",
  "hasIssues",
  "hasProjects",
  "hasWiki",
  "isTemplate",
  "defaultBranch",
  "allowMergeCommit",
  "allowSquashMerge",
  "allowRebaseMerge",
  "allowAutoMerge",
  "deleteBranchOnMerge",
  "allowUpdateBranch",
  "archived",
  "topics",
] as const;
export type SettingKey = (typeof SETTINGS)[number];

export type Settings = {
  description?: string | null;
  homepage?: string | null;
  visibility?: "public" | "private" | "internal";
  hasIssues?: boolean;
  hasProjects?: boolean;
  hasWiki?: boolean;
  isTemplate?: boolean;
  defaultBranch?: string;
  allowMergeCommit?: boolean;
  allowSquashMerge?: boolean;
  allowRebaseMerge?: boolean;
  allowAutoMerge?: boolean;
  deleteBranchOnMerge?: boolean;
  allowUpdateBranch?: boolean;
  archived?: boolean;
  topics?: string[];
};

/** The settings' wire mapping, from the wire paths the Repository's fields declare (all but topics). */
export type SettingsWire = WireMapping<Settings>;

/**
 * The settings a repository the API answers has. A setting the answer leaves out is not there (the
 * merge settings are shown only to callers who may push): the caller keeps what it knew.
 */
export function settingsFromApi(wire: SettingsWire, api: ApiRepository): Settings {
  const out: Record<string, unknown> = compact(wire.fromWire(api));
  // A text the platform keeps as none answers null: state records it as null, still managed.
  if (api.description === null) out.description = null;
  if (api.homepage === null) out.homepage = null;
  // An answer without a visibility says it with `private`.
  out.visibility = api.visibility ?? (api.private ? "private" : "public");
  if (api.topics !== undefined) out.topics = api.topics;
  return out as Settings;
}

/**
 * Settings as the platform means them: no text and an empty text are the same (it keeps none), and
 * topics are lower case (it saves them so).
 */
export function comparableSettings(values: object): object {
  const out: Record<string, unknown> = { ...values };
  for (const key of ["description", "homepage"]) if (out[key] === "") out[key] = undefined;
  if (Array.isArray(out.topics)) out.topics = (out.topics as unknown[]).map((t) => String(t).toLowerCase());
  if (typeof out.org === "string") out.org = out.org.toLowerCase();
  return out;
}

/** Whether the repository has the value the program declares for `key` (as the platform means it). */
function hasValue(live: Settings, wanted: Settings, key: SettingKey): boolean {
  const a = comparableSettings({ [key]: live[key] }) as Record<string, unknown>;
  const b = comparableSettings({ [key]: wanted[key] }) as Record<string, unknown>;
  return sameValue(a[key], b[key], key === "topics");
}

/** Where a repository is now, and what it is known to have (from an answer, or from state). */
export interface Place {
  owner: string;
  name: string;
}

/**
 * Brings the repository at `at` to the declared settings `wanted` (and `name`), sending only what
 * differs from `live`: unarchiving first (an archived repository takes no other change), then one
 * PATCH of the settings and the name, then the topics, then archiving last. Nothing differs: no
 * request. Returns the last full answer (undefined when no PATCH was sent) and the topics as the
 * platform saved them (when they were sent).
 */
export async function converge(
  c: HostingClient,
  wire: SettingsWire,
  at: Place,
  live: Settings & { name: string },
  wanted: Settings & { name: string },
  what: string,
): Promise<{ answer?: ApiRepository; topics?: string[] }> {
  // Archiving has requests of its own, and topics their own route.
  const changed = SETTINGS.filter(
    (key) =>
      key !== "archived" && key !== "topics" && wanted[key] !== undefined && !hasValue(live, wanted, key),
  );
  const body: Record<string, unknown> = {
    ...(wanted.name !== live.name ? { name: wanted.name } : {}),
    ...wire.toWire(Object.fromEntries(changed.map((key) => [key, wanted[key] ?? ""]))),
  };
  const topics = wanted.topics !== undefined && !hasValue(live, wanted, "topics");
  const unarchive = wanted.archived === false && live.archived === true;
  const archive = wanted.archived === true && live.archived !== true;
  const changes = Object.keys(body).length > 0 || topics;
  if (live.archived === true && !unarchive && changes) {
    throw refusedError(
      `${what} is archived, so it is read-only: ${[...Object.keys(body), ...(topics ? ["topics"] : [])].join(", ")} cannot change`,
      "Set archived: false to change it (it is unarchived first), or leave its settings as they are",
    );
  }
  const place = { ...at };
  let answer: ApiRepository | undefined;
  // Each PATCH answers the whole repository; a rename moves where the next request goes.
  const patch = async (sent: Record<string, unknown>) => {
    answer = (
      await c.patch(repositoriesRoutes.repositories.update, { owner: place.owner, repo: place.name }, sent, {
        idempotent: true,
      })
    ).data;
    place.name = answer.name;
  };
  if (unarchive) await patch({ archived: false });
  if (Object.keys(body).length > 0) await patch(body);
  let saved: string[] | undefined;
  if (topics) {
    const params = { owner: place.owner, repo: place.name };
    saved = (await c.put(repositoriesRoutes.repositories.replaceTopics, params, { names: wanted.topics }))
      .data.names;
  }
  if (archive) await patch({ archived: true });
  return {
    ...(answer === undefined ? {} : { answer }),
    ...(saved === undefined ? {} : { topics: saved }),
  };
}

/** The repository at `at` now, following a rename's redirect; undefined when there is none. */
export async function current(
  c: HostingClient,
  at: Place,
  follow = true,
): Promise<ApiRepository | undefined> {
  try {
    return (
      await c.get(
        repositoriesRoutes.repositories.get,
        { owner: at.owner, repo: at.name },
        follow ? { followRedirects: 3 } : {},
      )
    ).data;
  } catch (e) {
    // 404: no such repository. Not followed, a 301 is the old name of a renamed one: not this name's.
    if (isHostingApiError(e) && (e.status === 404 || (!follow && e.status === 301))) return undefined;
    throw e;
  }
}

/** The repository now (after a topics-only change, whose answer is not the whole repository). */
export async function currentOrFail(
  c: HostingClient,
  kind: string,
  at: Place,
  id: string,
): Promise<ApiRepository> {
  const live = await current(c, at);
  if (live) return live;
  throw notFoundError({
    method: "GET",
    path: repositoriesRoutes.repositories.get.path({ owner: at.owner, repo: at.name }),
    what: `${kind} ${id}`,
    causes: ["the repository was deleted while it was being updated"],
  });
}
