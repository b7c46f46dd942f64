/**
 * Webhooks: RepositoryWebhook (`/repos/{owner}/{repo}/hooks`) and GlobalWebhook (`/admin/hooks`,
 * site administrators only).
 *
 * Secrets: the API masks a stored secret as `********` and never returns it. The secret is kept
 * from state (marked secret there), never read back as the mask, and never causes a perpetual diff.
 * Refresh can still tell whether the server has *a* secret: one removed outside Pulumi reads as
 * absent, one added outside Pulumi reads as `SECRET_SET_OUTSIDE`, and both show as drift.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { HostingApiError, isHostingApiError, isNotFound } from "../client/errors";
import type { HostingClient } from "../client/http";
import {
  type ApiWebhook,
  type ApiWebhookWrite,
  apiWebhookSchema,
  EVENT_NAME_PATTERN,
  GLOBAL_WEBHOOK_DEFAULT_EVENTS,
  GLOBAL_WEBHOOK_EVENTS,
  MASKED_SECRET,
  normaliseInsecureSsl,
  REPOSITORY_WEBHOOK_DEFAULT_EVENTS,
  WEBHOOK_CONTENT_TYPES,
} from "../client/schemas";
import { checkInputs, fields } from "../internal/check";
import { client } from "../internal/context";
import { diffFields, type FieldRules, sameValue } from "../internal/diff";
import { joinId, splitId } from "../internal/ids";
import {
  compact,
  createWithoutDuplicates,
  type HostingProvider,
  inputsFrom,
  PartialCreateError,
  parseResponse,
  resourceProps,
} from "../internal/provider";
import { shimFor } from "../internal/shim";

// ---------------------------------------------------------------------------------------------
// Args
// ---------------------------------------------------------------------------------------------

/** Settings common to both kinds of webhook. */
export interface WebhookArgs {
  /** Where deliveries are POSTed: an absolute http(s) URL. Updates in place. */
  url: pulumi.Input<string>;
  /** Payload serialisation: `"json"` or `"form"`. Default `"form"`. Updates in place. */
  contentType?: pulumi.Input<"json" | "form">;
  /**
   * Key for the HMAC signature of each delivery. Stored as a secret in state; the API never
   * returns it, so a change made outside Pulumi cannot be seen (its removal can). Updates in place.
   */
  secret?: pulumi.Input<string>;
  /** Skip TLS certificate verification of the target (discouraged). Default false. */
  insecureSsl?: pulumi.Input<boolean>;
  /** Whether deliveries are sent. Default true. */
  active?: pulumi.Input<boolean>;
  /**
   * Adopt the existing webhook with this id instead of creating one: it is read, then converged to
   * these args. Only read at create; later changes are ignored.
   */
  importId?: pulumi.Input<string | number>;
}

export interface RepositoryWebhookArgs extends WebhookArgs {
  /** The organisation or user owning the repository. A change replaces the webhook. */
  owner: pulumi.Input<string>;
  /** The repository name (without `.git`). A change replaces the webhook. */
  repository: pulumi.Input<string>;
  /** Events that trigger a delivery; compared as a set. Default `["push"]`. */
  events?: pulumi.Input<pulumi.Input<string>[]>;
}

export type GlobalWebhookEvent = (typeof GLOBAL_WEBHOOK_EVENTS)[number];

export interface GlobalWebhookArgs extends WebhookArgs {
  /** Installation events that trigger a delivery; compared as a set. Default `["user", "organization"]`. */
  events?: pulumi.Input<pulumi.Input<GlobalWebhookEvent>[]>;
}

// ---------------------------------------------------------------------------------------------
// Schemas (defaults applied in check)
// ---------------------------------------------------------------------------------------------

const commonInputs = {
  url: fields.httpUrl("url"),
  contentType: z
    .enum(WEBHOOK_CONTENT_TYPES, { error: `contentType must be one of ${WEBHOOK_CONTENT_TYPES.join(", ")}` })
    .default("form"),
  secret: z
    .string({ error: "secret must be a string" })
    .min(1, "secret must not be empty; omit it instead")
    .optional(),
  insecureSsl: z.boolean({ error: "insecureSsl must be a boolean" }).default(false),
  active: z.boolean({ error: "active must be a boolean" }).default(true),
  importId: fields.numericId("importId").optional(),
};

const repositoryEvent = z
  .string({ error: "events must be strings" })
  .regex(EVENT_NAME_PATTERN, "events must be event names such as push or pull_request (or *)");

export const repositoryWebhookInputs = z.object({
  owner: fields.name("owner"),
  repository: fields.name("repository"),
  ...commonInputs,
  events: z
    .array(repositoryEvent, { error: "events must be a list of event names" })
    .min(1, "events must not be empty")
    .default([...REPOSITORY_WEBHOOK_DEFAULT_EVENTS]),
});

export const globalWebhookInputs = z.object({
  ...commonInputs,
  events: z
    .array(
      z.enum(GLOBAL_WEBHOOK_EVENTS, { error: `events may hold only ${GLOBAL_WEBHOOK_EVENTS.join(", ")}` }),
      {
        error: "events must be a list of event names",
      },
    )
    .min(1, "events must not be empty")
    .default([...GLOBAL_WEBHOOK_DEFAULT_EVENTS]),
});

export type RepositoryWebhookInputs = z.infer<typeof repositoryWebhookInputs>;
export type GlobalWebhookInputs = z.infer<typeof globalWebhookInputs>;

interface WebhookState {
  hookId: number;
  pingUrl: string;
  createdAt: string;
  updatedAt: string;
}

export type RepositoryWebhookOutputs = RepositoryWebhookInputs &
  WebhookState & { testUrl: string; deliveriesUrl: string };
export type GlobalWebhookOutputs = GlobalWebhookInputs & WebhookState;

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/** State value of a secret the server holds but Pulumi never set; its presence shows as drift. */
export const SECRET_SET_OUTSIDE = "(set outside Pulumi)";

type WebhookInputs = RepositoryWebhookInputs | GlobalWebhookInputs;

/** The settings part of outputs, as the server has them; the secret comes from state. */
function settingsFromApi(api: ApiWebhook, stateSecret: string | undefined) {
  const serverHasSecret = api.config.secret !== undefined && api.config.secret !== "";
  return {
    url: api.config.url ?? "",
    contentType: (api.config.content_type ?? "form") as "json" | "form",
    secret: serverHasSecret ? (stateSecret ?? SECRET_SET_OUTSIDE) : undefined,
    insecureSsl: normaliseInsecureSsl(api.config.insecure_ssl) === "1",
    active: api.active,
    events: api.events,
  };
}

function stateFromApi(api: ApiWebhook): WebhookState {
  return {
    hookId: api.id,
    pingUrl: api.ping_url ?? "",
    createdAt: api.created_at ?? "",
    updatedAt: api.updated_at ?? "",
  };
}

function repositoryOutputs(
  who: { owner: string; repository: string; importId?: string | undefined },
  api: ApiWebhook,
  stateSecret: string | undefined,
): RepositoryWebhookOutputs {
  return compact({
    owner: who.owner,
    repository: who.repository,
    importId: who.importId,
    ...settingsFromApi(api, stateSecret),
    ...stateFromApi(api),
    testUrl: api.test_url ?? "",
    deliveriesUrl: api.deliveries_url ?? "",
  });
}

function globalOutputs(
  importId: string | undefined,
  api: ApiWebhook,
  stateSecret: string | undefined,
): GlobalWebhookOutputs {
  return compact({
    importId,
    ...settingsFromApi(api, stateSecret),
    ...stateFromApi(api),
  }) as GlobalWebhookOutputs;
}

/** The full desired state, sent on create and on every update (so a PATCH is idempotent). */
function writeBody(inputs: WebhookInputs): ApiWebhookWrite {
  const secret =
    inputs.secret !== undefined && inputs.secret !== SECRET_SET_OUTSIDE ? inputs.secret : undefined;
  if (secret === MASKED_SECRET) {
    throw new HostingApiError({ code: "configuration", apiMessage: "secret must not be the mask ********" });
  }
  return {
    active: inputs.active,
    events: [...new Set(inputs.events)],
    config: {
      url: inputs.url,
      content_type: inputs.contentType,
      insecure_ssl: inputs.insecureSsl ? "1" : "0",
      ...(secret !== undefined ? { secret } : {}),
    },
  };
}

/** Whether the server's webhook differs from the inputs (a secret to set always counts: it is unreadable). */
function differs(api: ApiWebhook, inputs: WebhookInputs): boolean {
  const live = settingsFromApi(api, undefined);
  return (
    inputs.secret !== undefined ||
    live.secret !== undefined ||
    live.url !== inputs.url ||
    live.contentType !== inputs.contentType ||
    live.insecureSsl !== inputs.insecureSsl ||
    live.active !== inputs.active ||
    !sameValue(live.events, inputs.events, true)
  );
}

// ---------------------------------------------------------------------------------------------
// Replace-on-change
// ---------------------------------------------------------------------------------------------

const webhookRules = {
  url: {},
  contentType: {},
  secret: {},
  insecureSsl: {},
  active: {},
  events: { set: true },
  importId: { createOnly: true },
};

export const repositoryWebhookRules: FieldRules<RepositoryWebhookInputs> = {
  owner: { replace: true },
  repository: { replace: true },
  ...webhookRules,
};

export const globalWebhookRules: FieldRules<GlobalWebhookInputs> = webhookRules;

// ---------------------------------------------------------------------------------------------
// Providers
// ---------------------------------------------------------------------------------------------

const webhookApi = (c: HostingClient) => ({
  get: async (path: string) => parseResponse(apiWebhookSchema, (await c.get(path)).data, "GET", path),
  list: async (path: string) =>
    parseResponse(z.array(apiWebhookSchema), await c.paginate<unknown>(path), "GET", path),
  create: async (path: string, body: ApiWebhookWrite) =>
    parseResponse(apiWebhookSchema, (await c.post(path, body)).data, "POST", path),
  /** Every update sends the whole desired state, so repeating it after a failure is safe. */
  update: async (path: string, body: ApiWebhookWrite) =>
    parseResponse(apiWebhookSchema, (await c.patch(path, body, { idempotent: true })).data, "PATCH", path),
});

/**
 * Creates, or adopts `importId`, without ever leaving a duplicate: after an ambiguous failure it
 * looks for a webhook with the same URL made since the attempt began before trying again.
 */
async function createOrAdopt(
  c: HostingClient,
  collection: string,
  inputs: WebhookInputs,
  postBody: ApiWebhookWrite & { name?: "web" },
  idOf: (hookId: number) => string,
  outputsOf: (api: ApiWebhook) => object,
): Promise<ApiWebhook> {
  const api = webhookApi(c);
  let hook: ApiWebhook;
  let converge: boolean;
  if (inputs.importId !== undefined) {
    hook = await api.get(`${collection}/${inputs.importId}`).catch((e: unknown) => {
      throw isNotFound(e) ? adoptNotFound(collection, inputs.importId ?? "") : e;
    });
    converge = differs(hook, inputs);
  } else {
    const made = await createWithoutDuplicates(
      () => api.create(collection, postBody),
      async (startedAt) =>
        (await api.list(collection)).find(
          (h) => h.config.url === inputs.url && Date.parse(h.created_at ?? "") >= startedAt - CLOCK_SKEW_MS,
        ),
    ).catch((e: unknown) => {
      throw alreadyExists(e, collection, inputs.url) ?? e;
    });
    hook = made.value;
    converge = made.adopted && differs(hook, inputs);
  }
  if (!converge) return hook;
  try {
    return await api.update(`${collection}/${hook.id}`, writeBody(inputs));
  } catch (e) {
    throw new PartialCreateError(idOf(hook.id), outputsOf(hook), e);
  }
}

/** Tolerated difference between this machine's clock and the server's when matching `created_at`. */
const CLOCK_SKEW_MS = 5 * 60_000;

function adoptNotFound(collection: string, importId: string): HostingApiError {
  return new HostingApiError({
    code: "not_found",
    status: 404,
    method: "GET",
    path: `${collection}/${importId}`,
    apiMessage: `importId ${importId}: no such webhook`,
    hint: "Check the id (it is the number at the end of the webhook's URL) and that the token can read it",
  });
}

function alreadyExists(e: unknown, collection: string, url: string): HostingApiError | undefined {
  if (!isHostingApiError(e) || e.status !== 422 || !/already exists/i.test(e.message)) return undefined;
  return new HostingApiError({
    code: "validation_failed",
    status: 422,
    method: "POST",
    path: collection,
    apiMessage: `a webhook for ${url} already exists there`,
    hint: "Set importId to its id to bring it under management instead of creating a second one",
  });
}

const hooksPath = (owner: string, repository: string) =>
  `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repository)}/hooks`;

const REPOSITORY_ID_FORMAT = ["owner", "repository", "hookId"] as const;

export const repositoryWebhookProvider: HostingProvider<RepositoryWebhookInputs, RepositoryWebhookOutputs> = {
  async check(_olds, news) {
    return checkInputs(repositoryWebhookInputs, news);
  },

  async diff(_id, olds, news) {
    return diffFields(repositoryWebhookRules, olds, news);
  },

  async create(inputs) {
    const collection = hooksPath(inputs.owner, inputs.repository);
    const idOf = (hookId: number) => joinId(inputs.owner, inputs.repository, hookId);
    const outputsOf = (api: ApiWebhook) => repositoryOutputs(inputs, api, inputs.secret);
    const hook = await createOrAdopt(client(), collection, inputs, writeBody(inputs), idOf, outputsOf);
    return { id: idOf(hook.id), outs: outputsOf(hook) };
  },

  async read(id, props) {
    const [owner = "", repository = "", hookId = ""] = splitId(id, REPOSITORY_ID_FORMAT, "RepositoryWebhook");
    let hook: ApiWebhook;
    try {
      hook = await webhookApi(client()).get(`${hooksPath(owner, repository)}/${hookId}`);
    } catch (e) {
      if (isNotFound(e)) return {};
      throw e;
    }
    const outs = repositoryOutputs(
      {
        owner: props?.owner ?? owner,
        repository: props?.repository ?? repository,
        importId: props?.importId,
      },
      hook,
      props?.secret,
    );
    return { id, props: outs, inputs: inputsFrom(repositoryWebhookRules, outs) };
  },

  async update(id, _olds, news) {
    const [, , hookId = ""] = splitId(id, REPOSITORY_ID_FORMAT, "RepositoryWebhook");
    const path = `${hooksPath(news.owner, news.repository)}/${hookId}`;
    const hook = await webhookApi(client()).update(path, writeBody(news));
    return { outs: repositoryOutputs(news, hook, news.secret) };
  },

  async delete(id) {
    const [owner = "", repository = "", hookId = ""] = splitId(id, REPOSITORY_ID_FORMAT, "RepositoryWebhook");
    try {
      await client().delete(`${hooksPath(owner, repository)}/${hookId}`);
    } catch (e) {
      if (!isNotFound(e)) throw e; // already gone: the goal of delete is met
    }
  },
};

const ADMIN_HOOKS = "/admin/hooks";

/**
 * Site-administration routes answer 404 to anyone who is not a site administrator using a classic
 * token, so a 404 there is ambiguous. This probes the collection: when it is readable, the 404 meant
 * "gone"; when not, the error says what token is needed instead of dropping the resource.
 */
async function explainAdminNotFound(
  c: HostingClient,
  original: unknown,
): Promise<HostingApiError | undefined> {
  try {
    await c.get(ADMIN_HOOKS, { query: { per_page: 1 } });
    return undefined;
  } catch (probe) {
    if (!isHostingApiError(probe) || ![401, 403, 404].includes(probe.status ?? 0)) throw probe;
  }
  let who = "this token";
  try {
    const user = (await c.get<{ login?: string; site_admin?: boolean }>("/user")).data;
    if (user?.login)
      who = `the token of ${user.login}${user.site_admin ? "" : ", who is not a site administrator,"}`;
  } catch {
    who = "this token (an app or installation token)";
  }
  const e = isHostingApiError(original) ? original : undefined;
  return new HostingApiError({
    code: "forbidden",
    status: 404,
    ...(e?.method ? { method: e.method } : {}),
    ...(e?.path ? { path: e.path } : {}),
    apiMessage: `GlobalWebhook needs the classic personal access token of a site administrator; the server answered 404 to ${who}`,
    hint: "Set hosting:token to a site administrator's classic token (fine-grained and app tokens are refused on /admin/hooks)",
  });
}

async function withAdminCheck<T>(c: HostingClient, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (isNotFound(e)) throw (await explainAdminNotFound(c, e)) ?? e;
    throw e;
  }
}

export const globalWebhookProvider: HostingProvider<GlobalWebhookInputs, GlobalWebhookOutputs> = {
  async check(_olds, news) {
    return checkInputs(globalWebhookInputs, news);
  },

  async diff(_id, olds, news) {
    return diffFields(globalWebhookRules, olds, news);
  },

  async create(inputs) {
    const c = client();
    const outputsOf = (api: ApiWebhook) => globalOutputs(inputs.importId, api, inputs.secret);
    const hook = await withAdminCheck(c, () =>
      createOrAdopt(c, ADMIN_HOOKS, inputs, { name: "web", ...writeBody(inputs) }, String, outputsOf),
    );
    return { id: String(hook.id), outs: outputsOf(hook) };
  },

  async read(id, props) {
    const c = client();
    const [hookId = ""] = splitId(id, ["hookId"], "GlobalWebhook");
    let hook: ApiWebhook;
    try {
      hook = await webhookApi(c).get(`${ADMIN_HOOKS}/${hookId}`);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      const denied = await explainAdminNotFound(c, e);
      if (denied) throw denied;
      return {};
    }
    const outs = globalOutputs(props?.importId, hook, props?.secret);
    return { id, props: outs, inputs: inputsFrom(globalWebhookRules, outs) };
  },

  async update(id, _olds, news) {
    const c = client();
    const [hookId = ""] = splitId(id, ["hookId"], "GlobalWebhook");
    // PATCH resets omitted parameters to their defaults, so the whole desired state is always sent.
    const hook = await withAdminCheck(c, () =>
      webhookApi(c).update(`${ADMIN_HOOKS}/${hookId}`, writeBody(news)),
    );
    return { outs: globalOutputs(news.importId, hook, news.secret) };
  },

  async delete(id) {
    const c = client();
    const [hookId = ""] = splitId(id, ["hookId"], "GlobalWebhook");
    try {
      await c.delete(`${ADMIN_HOOKS}/${hookId}`);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      const denied = await explainAdminNotFound(c, e);
      if (denied) throw denied;
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------

const SECRET_OUTPUTS = ["secret"];

function withSecret<T extends WebhookArgs>(args: T | undefined): T | undefined {
  // Wrapping the input makes the engine store it encrypted in the inputs of state as well.
  return args?.secret === undefined ? args : { ...args, secret: pulumi.secret(args.secret) };
}

function secretOptions(opts: pulumi.CustomResourceOptions | undefined): pulumi.CustomResourceOptions {
  return { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...SECRET_OUTPUTS] };
}

const REPOSITORY_WEBHOOK_OUTPUTS = [
  "owner",
  "repository",
  "url",
  "contentType",
  "secret",
  "insecureSsl",
  "events",
  "active",
  "importId",
  "hookId",
  "pingUrl",
  "testUrl",
  "deliveriesUrl",
  "createdAt",
  "updatedAt",
] as const;

/** A webhook of one repository. id: `owner/repository/hookId`. */
export class RepositoryWebhook extends pulumi.dynamic.Resource {
  declare readonly owner: pulumi.Output<string>;
  declare readonly repository: pulumi.Output<string>;
  declare readonly url: pulumi.Output<string>;
  declare readonly contentType: pulumi.Output<"json" | "form">;
  declare readonly secret: pulumi.Output<string | undefined>;
  declare readonly insecureSsl: pulumi.Output<boolean>;
  declare readonly events: pulumi.Output<string[]>;
  declare readonly active: pulumi.Output<boolean>;
  /** The webhook's id on the server (the `X-Service-Hook-ID` of its deliveries). */
  declare readonly hookId: pulumi.Output<number>;
  declare readonly pingUrl: pulumi.Output<string>;
  declare readonly testUrl: pulumi.Output<string>;
  declare readonly deliveriesUrl: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: RepositoryWebhookArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      shimFor("RepositoryWebhook"),
      name,
      resourceProps(REPOSITORY_WEBHOOK_OUTPUTS, withSecret(args)),
      secretOptions(opts),
      "hosting",
      "RepositoryWebhook",
    );
  }

  /** Reads an existing webhook into the program without managing it. id: `owner/repository/hookId`. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): RepositoryWebhook {
    return new RepositoryWebhook(name, undefined as unknown as RepositoryWebhookArgs, { ...opts, id });
  }
}

const GLOBAL_WEBHOOK_OUTPUTS = [
  "url",
  "contentType",
  "secret",
  "insecureSsl",
  "events",
  "active",
  "importId",
  "hookId",
  "pingUrl",
  "createdAt",
  "updatedAt",
] as const;

/** A webhook of the whole installation (site administrators only). id: `hookId`. */
export class GlobalWebhook extends pulumi.dynamic.Resource {
  declare readonly url: pulumi.Output<string>;
  declare readonly contentType: pulumi.Output<"json" | "form">;
  declare readonly secret: pulumi.Output<string | undefined>;
  declare readonly insecureSsl: pulumi.Output<boolean>;
  declare readonly events: pulumi.Output<GlobalWebhookEvent[]>;
  declare readonly active: pulumi.Output<boolean>;
  declare readonly hookId: pulumi.Output<number>;
  declare readonly pingUrl: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: GlobalWebhookArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      shimFor("GlobalWebhook"),
      name,
      resourceProps(GLOBAL_WEBHOOK_OUTPUTS, withSecret(args)),
      secretOptions(opts),
      "hosting",
      "GlobalWebhook",
    );
  }

  /** Reads an existing global webhook into the program without managing it. id: `hookId`. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): GlobalWebhook {
    return new GlobalWebhook(name, undefined as unknown as GlobalWebhookArgs, { ...opts, id });
  }
}
