/**
 * GlobalWebhook: a webhook of the whole installation (`/admin/hooks`). Only the classic token of a
 * site administrator may use these routes; the API answers 404 to anyone else, so a 404 here is
 * probed before it is taken to mean "gone".
 */
import { z } from "zod";
import { metaRoutes } from "../../../api/meta";
import type { NoParams } from "../../../api/route";
import {
  type ApiWebhook,
  GLOBAL_WEBHOOK_DEFAULT_EVENTS,
  GLOBAL_WEBHOOK_EVENTS,
  webhooksRoutes,
} from "../../../api/webhooks";
import { type HostingApiError, isHostingApiError, isNotFound, notAllowedError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, field, type OutputsOfKind } from "../../internal/declare";
import {
  defineProvider,
  deleteIgnoringGone,
  type NotFoundPolicy,
  readOrGone,
} from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import {
  commonInputs,
  createOrAdopt,
  EVENTS_WIRE,
  type HookPlace,
  stateFromApi,
  webhookApi,
  webhookMapping,
  webhookOutputs,
} from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration (nothing replaces)
// ---------------------------------------------------------------------------------------------

export type GlobalWebhookEvent = (typeof GLOBAL_WEBHOOK_EVENTS)[number];

export const globalWebhookKind = declareKind({
  kind: "GlobalWebhook",
  description:
    "A webhook of the whole installation (`/admin/hooks`). Needs the **classic token of a site administrator**; any other token gets an error saying so (the API answers 404 to everyone else, which the provider never mistakes for a deleted hook). Nothing forces replacement.",
  idFormat: ["hookId"],
  inputs: z.object({
    ...commonInputs,
    events: field(
      z
        .array(
          z.enum(GLOBAL_WEBHOOK_EVENTS, {
            error: `events may hold only ${GLOBAL_WEBHOOK_EVENTS.join(", ")}`,
          }),
          { error: "events must be a list of event names" },
        )
        .min(1, "events must not be empty")
        .default([...GLOBAL_WEBHOOK_DEFAULT_EVENTS]),
      {
        description:
          'Installation events that trigger a delivery; compared as a set. Default `["user", "organization"]`.',
        set: true,
        wire: EVENTS_WIRE,
      },
    ),
  }),
  outputs: z.object(webhookOutputs),
  discovery: {
    scope: "siteAdmin",
    what: () => "global webhooks",
    names: ["hook-{url:host}", "hook-{url:hostpath}"],
    async list(c) {
      const hooks = await webhookApi(c, GLOBAL_HOOKS).list();
      return hooks.map((h) => ({ id: String(h.id), importId: h.id }));
    },
  },
});

export type GlobalWebhookArgs = ArgsOf<typeof globalWebhookKind.inputs>;
export type GlobalWebhookInputs = z.infer<typeof globalWebhookKind.inputs>;
export type GlobalWebhookOutputs = OutputsOfKind<typeof globalWebhookKind>;

/** The hooks' mapping to state and write bodies, from the wire paths the fields declare. */
const hooks = webhookMapping(globalWebhookKind);

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

function globalOutputs(
  importId: string | undefined,
  api: ApiWebhook,
  stateSecret: string | undefined,
): GlobalWebhookOutputs {
  return compact({
    importId,
    ...hooks.settingsFromApi(api, stateSecret),
    ...stateFromApi(api),
  }) as GlobalWebhookOutputs;
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const GLOBAL_HOOKS: HookPlace<NoParams> = { routes: webhooksRoutes.globalHooks, params: {} };

const hookIdOf = (id: string) => globalWebhookKind.parseId(id).hookId;

/**
 * Site-administration routes answer 404 to anyone who is not a site administrator using a classic
 * token, so a 404 there is ambiguous. This probes the collection: when it is readable, the 404 meant
 * "gone" (undefined); when not, the error says what token is needed instead of dropping the resource.
 */
async function explainAdminNotFound(
  c: HostingClient,
  original: unknown,
): Promise<HostingApiError | undefined> {
  try {
    await c.get(webhooksRoutes.globalHooks.list, {}, { query: { per_page: 1 } });
    return undefined;
  } catch (probe) {
    if (!isHostingApiError(probe) || ![401, 403, 404].includes(probe.status ?? 0)) throw probe;
  }
  let who = "this token";
  try {
    const user = (await c.get(metaRoutes.meta.user, {})).data;
    if (user.login) who = `the token of ${user.login}${user.site_admin ? "" : " (not a site administrator)"}`;
  } catch {
    who = "this token (an app or installation token)";
  }
  return notAllowedError(
    isHostingApiError(original) ? original : {},
    `GlobalWebhook needs the classic personal access token of a site administrator; the server answered 404 to ${who}`,
    "Set hosting:token to a site administrator's classic token (fine-grained and app tokens are refused on /admin/hooks)",
  );
}

/** How a 404 of a site-administration route is read: gone only when the token may use the route. */
const siteAdmin = (c: HostingClient): NotFoundPolicy => ({ explain: (e) => explainAdminNotFound(c, e) });

/** Runs a write on a site-administration route: a 404 fails, saying what the token lacks when it lacks it. */
async function asSiteAdmin<T>(c: HostingClient, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw (isNotFound(e) ? await explainAdminNotFound(c, e) : undefined) ?? e;
  }
}

export const globalWebhookProvider = defineProvider<typeof globalWebhookKind.inputs, GlobalWebhookOutputs>(
  globalWebhookKind,
  {
    adoptedId: (inputs) => inputs.importId,

    async create(inputs) {
      const c = client();
      const outputsOf = (api: ApiWebhook) => globalOutputs(inputs.importId, api, inputs.secret);
      const hook = await asSiteAdmin(c, () =>
        createOrAdopt(
          hooks,
          c,
          GLOBAL_HOOKS,
          inputs,
          { name: "web", ...hooks.writeBody(inputs) },
          (hookId) => globalWebhookKind.formatId({ hookId }),
          outputsOf,
        ),
      );
      return { id: globalWebhookKind.formatId({ hookId: hook.id }), outs: outputsOf(hook) };
    },

    async read(id, props) {
      const c = client();
      const hook = await readOrGone(() => webhookApi(c, GLOBAL_HOOKS).get(hookIdOf(id)), siteAdmin(c));
      if (!hook) return {};
      return { id, props: globalOutputs(props?.importId, hook, props?.secret) };
    },

    async update(id, _olds, news) {
      const c = client();
      // PATCH resets omitted parameters to their defaults, so the whole desired state is always sent.
      const hook = await asSiteAdmin(c, () =>
        webhookApi(c, GLOBAL_HOOKS).update(hookIdOf(id), hooks.writeBody(news)),
      );
      return { outs: globalOutputs(news.importId, hook, news.secret) };
    },

    async delete(id) {
      const c = client();
      await deleteIgnoringGone(() => webhookApi(c, GLOBAL_HOOKS).delete(hookIdOf(id)), siteAdmin(c));
    },
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** A webhook of the whole installation: see its declaration, `globalWebhookKind`. Example: `examples/webhooks/`. */
export class GlobalWebhook extends resourceClass<GlobalWebhookArgs, GlobalWebhookOutputs>(
  globalWebhookProvider,
) {}
