/**
 * What repository, organisation and global webhooks share: the settings args and their schema, the
 * events field of the hooks that take any event name, the mapping of a hook to state (the secret
 * kept from state), the write body, the create-or-adopt flow, and how the secret is marked secret
 * in state.
 *
 * Secrets: the API masks a stored secret as `********` and never returns it. The secret is kept
 * from state (marked secret there), never read back as the mask, and never causes a perpetual diff.
 * Refresh can still tell whether the server has *a* secret: one removed outside Pulumi reads as
 * absent, one added outside Pulumi reads as `SECRET_SET_OUTSIDE`, and both show as drift.
 */
import { z } from "zod";
import type { CollectionRoutes } from "../../../api/route";
import {
  type ApiWebhook,
  type ApiWebhookWrite,
  EVENT_NAME_PATTERN,
  MASKED_SECRET,
  normaliseInsecureSsl,
  WEBHOOK_CONTENT_TYPES,
} from "../../../api/webhooks";
import {
  configurationError,
  type HostingApiError,
  isHostingApiError,
  isNotFound,
  notFoundError,
  validationError,
} from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { collectionReads } from "../../internal/collection-reads";
import { createWithoutDuplicates, madeSince, PartialCreateError } from "../../internal/creates";
import type { Wire, WireCodec } from "../../internal/declare";
import { type ArgsOf, type DeclaredKind, field, output } from "../../internal/declare";
import { distinct, wireMapping } from "../../internal/wire";

// ---------------------------------------------------------------------------------------------
// Declaration: the fields both kinds have
// ---------------------------------------------------------------------------------------------

/** `insecure_ssl` is `"1"`/`"0"` on the wire (or 1/0 as the server answers), a boolean in state. */
const insecureSslCodec: WireCodec<boolean, string | number> = {
  fromWire: (wire) => (wire === undefined ? undefined : normaliseInsecureSsl(wire) === "1"),
  toWire: (value) => (value ? "1" : "0"),
};

/** The wire form of the hooks' `events` field: sent without repeats (compared as a set anyway). */
export const EVENTS_WIRE: Wire = { path: "events", codec: distinct };

export const commonInputs = {
  url: field(fields.httpUrl("url"), {
    description: "Where deliveries are POSTed: an absolute http(s) URL. Updates in place.",
    wire: { path: "config.url" },
  }),
  contentType: field(
    z
      .enum(WEBHOOK_CONTENT_TYPES, {
        error: `contentType must be one of ${WEBHOOK_CONTENT_TYPES.join(", ")}`,
      })
      .default("form"),
    {
      description: 'Payload serialisation: `"json"` or `"form"`. Default `"form"`. Updates in place.',
      wire: { path: "config.content_type" },
    },
  ),
  secret: field(
    z
      .string({ error: "secret must be a string" })
      .min(1, "secret must not be empty; omit it instead")
      .optional(),
    {
      description:
        "Key for the HMAC signature of each delivery. Stored as a secret in state; the API never returns it, so a change made outside Pulumi cannot be seen (its removal can). Updates in place.",
      secret: true,
    },
  ),
  insecureSsl: field(z.boolean({ error: "insecureSsl must be a boolean" }).default(false), {
    description: "Skip TLS certificate verification of the target (discouraged). Default false.",
    wire: { path: "config.insecure_ssl", codec: insecureSslCodec },
  }),
  active: field(z.boolean({ error: "active must be a boolean" }).default(true), {
    description: "Whether deliveries are sent. Default true.",
    wire: { path: "active" },
  }),
  importId: field(fields.numericId("importId").optional(), {
    description:
      "Adopt the existing webhook with this id instead of creating one: it is read, then converged to these args. Only read at create; later changes are ignored.",
    createOnly: true,
  }),
};

/**
 * The `events` field of repository and organisation hooks: event names by their form only, so an
 * event a newer server knows is never refused client-side. Each kind gets its own schema (a field
 * is one registered schema), with `what` naming whose events they are.
 */
export function namedEventsField(defaults: readonly string[], what: string) {
  const event = z
    .string({ error: "events must be strings" })
    .regex(EVENT_NAME_PATTERN, "events must be event names such as push or pull_request (or *)");
  return field(
    z
      .array(event, { error: "events must be a list of event names" })
      .min(1, "events must not be empty")
      .default([...defaults]),
    {
      description: `${what} events that trigger a delivery (\`*\`: every event); compared as a set. Default \`${JSON.stringify(defaults)}\`.`,
      set: true,
      wire: EVENTS_WIRE,
    },
  );
}

const commonSchema = z.object(commonInputs);

/** Settings common to both kinds of webhook. */
export type WebhookArgs = ArgsOf<typeof commonSchema>;

/** The inputs both kinds have, as check leaves them. */
export type WebhookInputs = z.infer<typeof commonSchema> & { events: string[] };

/** The values the server sets on both kinds. */
export const webhookOutputs = {
  hookId: output(
    z.number().int(),
    "The webhook's id on the server (the `X-Service-Hook-ID` of its deliveries).",
  ),
  pingUrl: output(z.string(), "The API URL that sends the hook a `ping` event."),
  createdAt: output(z.string(), "When the hook was created, as the server reports it (ISO 8601)."),
  updatedAt: output(z.string(), "When the hook was last changed, as the server reports it (ISO 8601)."),
};

/** The URL of a hook's deliveries (repository and organisation hooks). */
export const deliveriesUrlOutput = output(z.string(), "The API URL that lists the hook's recent deliveries.");

const stateSchema = z.object(webhookOutputs);
export type WebhookState = z.infer<typeof stateSchema>;

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/** State value of a secret the server holds but Pulumi never set; its presence shows as drift. */
export const SECRET_SET_OUTSIDE = "(set outside Pulumi)";

/**
 * A kind's mapping between its hooks and state: url, contentType, insecureSsl, active and events
 * from the wire paths their fields declare. The secret is written here: the API masks it, so state
 * keeps the program's value and the server only says whether it holds one.
 */
export function webhookMapping(declared: Pick<DeclaredKind, "inputs" | "rules">) {
  const wire = wireMapping<WebhookInputs>(declared.inputs, declared.rules);

  /** The settings part of outputs, as the server has them; the secret comes from state. */
  function settingsFromApi(api: ApiWebhook, stateSecret: string | undefined) {
    const serverHasSecret = api.config.secret !== undefined && api.config.secret !== "";
    // Every mapped field has a default or is always sent, the url aside (empty if it were not).
    const live = wire.fromWire(api) as Omit<WebhookInputs, "secret" | "importId">;
    return {
      ...live,
      url: live.url ?? "",
      secret: serverHasSecret ? (stateSecret ?? SECRET_SET_OUTSIDE) : undefined,
    };
  }

  /** The full desired state, sent on create and on every update (so a PATCH is idempotent). */
  function writeBody(inputs: WebhookInputs): ApiWebhookWrite {
    const secret =
      inputs.secret !== undefined && inputs.secret !== SECRET_SET_OUTSIDE ? inputs.secret : undefined;
    if (secret === MASKED_SECRET) {
      throw configurationError("secret must not be the mask ********");
    }
    const body = wire.toWire(inputs) as unknown as ApiWebhookWrite;
    return secret === undefined ? body : { ...body, config: { ...body.config, secret } };
  }

  /** Whether the server's hook differs from the inputs (a secret to set always counts: it is unreadable). */
  function differs(api: ApiWebhook, inputs: WebhookInputs): boolean {
    const serverHasSecret = api.config.secret !== undefined && api.config.secret !== "";
    return inputs.secret !== undefined || serverHasSecret || wire.changed(api, inputs).length > 0;
  }

  return { settingsFromApi, writeBody, differs };
}

/** What `webhookMapping` derives for a kind. */
export type WebhookMapping = ReturnType<typeof webhookMapping>;

export function stateFromApi(api: ApiWebhook): WebhookState {
  return {
    hookId: api.id,
    pingUrl: api.ping_url ?? "",
    createdAt: api.created_at ?? "",
    updatedAt: api.updated_at ?? "",
  };
}

// ---------------------------------------------------------------------------------------------
// Provider helpers
// ---------------------------------------------------------------------------------------------

/** The routes of one collection of hooks (`ROUTES.repoHooks`, `ROUTES.globalHooks`), placed by `P`. */
export type HookRoutes<P> = CollectionRoutes<P, { hook_id: number | string }, ApiWebhook>;

/** Where one collection of hooks lives (a repository's, or the installation's): its routes and their parameters. */
export interface HookPlace<P extends object> {
  routes: HookRoutes<P>;
  params: P;
}

/**
 * The hooks of one place. Reads of several hooks of one place in a run share the collection's list
 * (`collectionReads`); every write goes through it, so no list from before a write is used after it.
 */
export const webhookApi = <P extends object>(c: HostingClient, { routes, params }: HookPlace<P>) => {
  const collection = routes.list.path(params);
  const hook = (hook_id: number | string) => ({ ...params, hook_id });
  const list = () => c.paginate(routes.list, params);
  const writing = <T>(run: () => Promise<T>) => collectionReads.write(c, collection, run);
  return {
    get: (hookId: number | string) =>
      collectionReads.read(c, {
        collection,
        key: String(hookId),
        keyOf: (h: ApiWebhook) => String(h.id),
        list,
        single: async () => (await c.get(routes.get, hook(hookId))).data,
      }),
    list,
    create: (body: ApiWebhookWrite) => writing(async () => (await c.post(routes.create, params, body)).data),
    /** Every update sends the whole desired state, so repeating it after a failure is safe. */
    update: (hookId: number | string, body: ApiWebhookWrite) =>
      writing(async () => (await c.patch(routes.update, hook(hookId), body, { idempotent: true })).data),
    delete: (hookId: number | string) => writing(() => c.delete(routes.delete, hook(hookId))),
  };
};

/**
 * Creates, or adopts `importId`, without ever leaving a duplicate: after an ambiguous failure it
 * looks for a webhook with the same URL made since the attempt began before trying again.
 */
export async function createOrAdopt<P extends object>(
  mapping: WebhookMapping,
  c: HostingClient,
  place: HookPlace<P>,
  inputs: WebhookInputs,
  postBody: ApiWebhookWrite & { name?: "web" },
  idOf: (hookId: number) => string,
  outputsOf: (api: ApiWebhook) => object,
): Promise<ApiWebhook> {
  const api = webhookApi(c, place);
  let hook: ApiWebhook;
  let converge: boolean;
  if (inputs.importId !== undefined) {
    const importId = inputs.importId;
    hook = await api.get(importId).catch((e: unknown) => {
      throw isNotFound(e)
        ? notFoundError({
            method: "GET",
            path: place.routes.get.path({ ...place.params, hook_id: importId }),
            what: `importId ${importId}`,
            causes: [
              "there is no webhook with that id there (it is the number at the end of the webhook's URL)",
              "the token cannot read the webhooks there",
            ],
          })
        : e;
    });
    converge = mapping.differs(hook, inputs);
  } else {
    const made = await createWithoutDuplicates(
      () => api.create(postBody),
      async (startedAt) =>
        (await api.list()).find((h) => h.config.url === inputs.url && madeSince(h.created_at, startedAt)),
    ).catch(async (e: unknown) => {
      throw (await alreadyExists(e, api, place, inputs.url)) ?? e;
    });
    hook = made.value;
    converge = made.adopted && mapping.differs(hook, inputs);
  }
  if (!converge) return hook;
  try {
    return await api.update(hook.id, mapping.writeBody(inputs));
  } catch (e) {
    throw new PartialCreateError(idOf(hook.id), outputsOf(hook), e);
  }
}

/** The platform's refusal of a second hook for one URL, as the error that names the hook to adopt. */
async function alreadyExists<P extends object>(
  e: unknown,
  api: ReturnType<typeof webhookApi<P>>,
  place: HookPlace<P>,
  url: string,
): Promise<HostingApiError | undefined> {
  if (!isHostingApiError(e) || e.status !== 422 || !/already exists/i.test(e.message)) return undefined;
  // The answer does not say which hook has the URL: one list read finds it.
  const existing = await api
    .list()
    .then((hooks) => hooks.find((h) => h.config.url === url))
    .catch(() => undefined);
  return validationError(
    { method: "POST", path: place.routes.create.path(place.params) },
    `a webhook for ${url} already exists there${existing ? ` (id ${existing.id})` : ""}`,
    existing
      ? `Set importId to ${existing.id} to bring it under management instead of creating a second one`
      : "Set importId to its id to bring it under management instead of creating a second one",
  );
}
