/**
 * Webhook rules shared by repository, organisation and global hooks: body validation (422 with
 * `errors[]`), the masked secret, the JSON shape of a hook, and its deliveries paged by cursor.
 */
import type { Context } from "hono";
import { MASKED_SECRET, normaliseInsecureSsl, WEBHOOK_CONTENT_TYPES } from "../../../api";
import type { ServerEnv } from "../../core/context";
import { invalidField, missingField, pageParams, validationFailed } from "../../core/http";
import { type Store, timestamp } from "../../core/store";
import type { Delivery, StoredHook, StoredHookConfig } from "./state";

const RESOURCE = "Hook";

const invalid = (field: string, message: string) => invalidField(RESOURCE, field, message);

/**
 * Parses a `config` object. `base` supplies values the caller may omit (on update); a secret is
 * kept only when sent again, as the spec states for updates.
 */
export function parseConfig(
  raw: unknown,
  base: Partial<Omit<StoredHookConfig, "secret">> | undefined,
): StoredHookConfig {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw invalid("config", "config must be an object");
  }
  const input = raw as Record<string, unknown>;
  const url = input.url ?? base?.url;
  if (url === undefined || url === "") throw missingField(RESOURCE, "url");
  if (typeof url !== "string" || !isHttpUrl(url)) {
    throw invalid("url", "url must be an absolute http or https URL");
  }
  const contentType = input.content_type ?? base?.content_type ?? "form";
  if (!(WEBHOOK_CONTENT_TYPES as readonly unknown[]).includes(contentType)) {
    throw invalid("content_type", "content_type must be json or form");
  }
  const insecure = normaliseInsecureSsl(input.insecure_ssl ?? base?.insecure_ssl ?? "0");
  if (insecure === undefined) {
    throw invalid("insecure_ssl", "insecure_ssl must be 0 or 1");
  }
  const config: StoredHookConfig = {
    url,
    content_type: contentType as StoredHookConfig["content_type"],
    insecure_ssl: insecure,
  };
  if (input.secret !== undefined && input.secret !== null && input.secret !== "") {
    if (typeof input.secret !== "string") throw invalid("secret", "secret must be a string");
    config.secret = input.secret;
  }
  return config;
}

export function parseEvents(raw: unknown, allowed: readonly string[], field = "events"): string[] {
  if (!Array.isArray(raw) || raw.some((e) => typeof e !== "string")) {
    throw invalid(field, `${field} must be an array of strings`);
  }
  const unknown = raw.filter((e) => !allowed.includes(e));
  if (unknown.length > 0) {
    throw invalid(
      field,
      `${unknown.join(", ")} ${unknown.length === 1 ? "is not a valid event" : "are not valid events"}`,
    );
  }
  return [...new Set(raw as string[])];
}

export function parseActive(raw: unknown): boolean {
  if (typeof raw !== "boolean") throw invalid("active", "active must be a boolean");
  return raw;
}

export function parseName(raw: unknown): void {
  if (raw !== undefined && raw !== "web") {
    throw validationFailed({
      resource: RESOURCE,
      field: "name",
      code: "custom",
      message: "name must be web",
    });
  }
}

/** The fields of both kinds of hook; `url` is the hook's own API URL. */
export function renderHook(
  hook: StoredHook,
  type: "Global" | "Organization" | "Repository",
  url: string,
): Record<string, unknown> {
  return {
    type,
    id: hook.id,
    name: "web",
    active: hook.active,
    events: hook.events,
    config: renderConfig(hook.config),
    updated_at: hook.updated_at,
    created_at: hook.created_at,
    url,
    ping_url: `${url}/pings`,
  };
}

/** Deletes a hook of any kind with its deliveries. */
export function deleteHook(store: Store, hook: StoredHook): void {
  const state = store.state;
  if (hook.repo !== undefined) state.repoHooks = state.repoHooks.filter((h) => h !== hook);
  else if (hook.org !== undefined) state.orgHooks = state.orgHooks.filter((h) => h !== hook);
  else state.globalHooks = state.globalHooks.filter((h) => h !== hook);
  state.deliveries = state.deliveries.filter((d) => d.hook_id !== hook.id);
}

export function renderConfig(config: StoredHookConfig): Record<string, unknown> {
  return {
    content_type: config.content_type,
    insecure_ssl: config.insecure_ssl,
    url: config.url,
    ...(config.secret ? { secret: MASKED_SECRET } : {}),
  };
}

/** Records a (simulated) delivery: nothing is sent over the network from the sandbox server. */
export function recordDelivery(
  store: Store,
  hook: StoredHook,
  event: string,
  repositoryId: number | null,
): Delivery {
  const delivery: Delivery = {
    id: store.nextId(),
    guid: store.newGuid(),
    hook_id: hook.id,
    delivered_at: timestamp(),
    redelivery: false,
    duration: 0.01,
    status: "OK",
    status_code: 200,
    event,
    action: null,
    installation_id: null,
    repository_id: repositoryId,
  };
  store.state.deliveries.push(delivery);
  hook.last_response = { code: 200, status: "active", message: "OK" };
  return delivery;
}

export function newHook(
  store: Store,
  fields: Pick<StoredHook, "active" | "events" | "config"> & { repo?: string; org?: string },
): StoredHook {
  const now = timestamp();
  return {
    id: store.nextId(),
    ...fields,
    created_at: now,
    updated_at: now,
    last_response: { code: null, status: "unused", message: null },
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * One hook per URL in a repository, an organisation, and the installation's global hooks: the
 * platform refuses a second (422), which is what lets a client find the hook a failed create may
 * have made by its URL.
 */
export function assertUniqueUrl(
  hooks: readonly StoredHook[],
  url: string,
  self: number | undefined,
  where: "repository" | "organization" | "installation",
): void {
  if (hooks.some((h) => h.id !== self && h.config.url === url)) {
    throw validationFailed({
      resource: "Hook",
      code: "custom",
      message: `Hook already exists on this ${where}`,
    });
  }
}

/**
 * A hook's deliveries, newest first, one page: deliveries page by cursor, the id of the first
 * delivery of the page; `Link` names the cursors of the previous and the next page (spec, table H).
 */
export function deliveriesPage(
  c: Context<ServerEnv>,
  store: Store,
  hook: StoredHook,
): Record<string, unknown>[] {
  const all = store.raw.deliveries.filter((d) => d.hook_id === hook.id).reverse();
  const { perPage } = pageParams(c);
  const start = cursorIndex(c, all);
  const link = (delivery: Readonly<Delivery>, rel: "prev" | "next") => {
    const url = new URL(c.req.url);
    url.searchParams.set("cursor", String(delivery.id));
    url.searchParams.set("per_page", String(perPage));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const previous = start > 0 ? all[Math.max(0, start - perPage)] : undefined;
  const following = all[start + perPage];
  const links = [previous && link(previous, "prev"), following && link(following, "next")].filter(Boolean);
  if (links.length > 0) c.header("Link", links.join(", "));
  return all.slice(start, start + perPage).map(({ hook_id: _hookId, ...d }) => d);
}

/**
 * Where the page starts: the index of the `cursor` delivery, 0 without a cursor (or with an empty
 * one). A cursor that names no delivery of this hook is a 422 (docs/DECISIONS.md).
 */
function cursorIndex(c: Context<ServerEnv>, deliveries: ReadonlyArray<Readonly<Delivery>>): number {
  const raw = c.req.query("cursor");
  if (raw === undefined || raw === "") return 0;
  const index = /^[1-9][0-9]*$/.test(raw) ? deliveries.findIndex((d) => d.id === Number(raw)) : -1;
  if (index < 0) throw invalidField("Hook", "cursor", `cursor ${raw} is not a delivery of this hook`);
  return index;
}
