/**
 * OrgWebhook: a webhook of one organisation (`/orgs/{org}/hooks`), hearing the organisation's own
 * events and those of all its repositories. Only the organisation's owners may use these routes;
 * the API answers 404 to anyone else, so a 404 of one hook is probed (the organisation's list)
 * before it is taken to mean "gone".
 */
import { z } from "zod";
import { type ApiWebhook, ORG_WEBHOOK_DEFAULT_EVENTS, webhooksRoutes } from "../../../api/webhooks";
import { type HostingApiError, isHostingApiError, isNotFound, notAllowedError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, type Found, field, type OutputsOfKind } from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
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
  deliveriesUrlOutput,
  type HookPlace,
  namedEventsField,
  stateFromApi,
  webhookApi,
  webhookMapping,
  webhookOutputs,
} from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

export const orgWebhookKind = declareKind({
  kind: "OrgWebhook",
  description:
    "A webhook of one organisation (`/orgs/{org}/hooks`): it hears the organisation's events and those of every repository in it. Needs the token of an organisation owner: classic scope `admin:org_hook`, or the fine-grained permission `organization_hooks` write; the API answers 404 to anyone else, which the provider never mistakes for a deleted hook.",
  idFormat: ["org", "hookId"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the webhook.",
      replace: true,
    }),
    ...commonInputs,
    events: namedEventsField(ORG_WEBHOOK_DEFAULT_EVENTS, "Organisation and repository"),
  }),
  outputs: z.object({ ...webhookOutputs, deliveriesUrl: deliveriesUrlOutput }),
  discovery: {
    scope: "org",
    what: ({ org }) => `webhooks of ${org}`,
    names: ["{org}-hook-{url:host}", "{org}-hook-{url:hostpath}"],
    async list(c, { org = "" }): Promise<Found[]> {
      const hooks = await webhookApi(c, hooksOf(org)).list();
      return hooks.map((h) => ({ id: orgWebhookKind.formatId({ org, hookId: h.id }), importId: h.id }));
    },
  },
});

export type OrgWebhookArgs = ArgsOf<typeof orgWebhookKind.inputs>;
export type OrgWebhookInputs = z.infer<typeof orgWebhookKind.inputs>;
export type OrgWebhookOutputs = OutputsOfKind<typeof orgWebhookKind>;

/** The hooks' mapping to state and write bodies, from the wire paths the fields declare. */
const hooks = webhookMapping(orgWebhookKind);

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

function orgOutputs(
  who: { org: string; importId?: string | undefined },
  api: ApiWebhook,
  stateSecret: string | undefined,
): OrgWebhookOutputs {
  return compact({
    org: who.org,
    importId: who.importId,
    ...hooks.settingsFromApi(api, stateSecret),
    ...stateFromApi(api),
    deliveriesUrl: api.deliveries_url ?? "",
  });
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = orgWebhookKind.kind;

/** The hooks of one organisation. */
const hooksOf = (org: string): HookPlace<{ org: string }> => ({
  routes: webhooksRoutes.orgHooks,
  params: { org },
});

const parseId = (id: string) => {
  const { org, hookId } = orgWebhookKind.parseId(id);
  return { org, hookId };
};

/**
 * The organisation's hooks answer 404 to anyone but its owners, so the 404 of one hook is
 * ambiguous: when the organisation's list is readable the hook is gone (undefined); when not, the
 * error says who may manage the hooks instead of dropping the resource.
 */
async function explainNotFound(
  c: HostingClient,
  org: string,
  original: unknown,
): Promise<HostingApiError | undefined> {
  try {
    await c.get(webhooksRoutes.orgHooks.list, { org }, { query: { per_page: 1 } });
    return undefined;
  } catch (probe) {
    if (!isHostingApiError(probe) || ![401, 403, 404].includes(probe.status ?? 0)) throw probe;
  }
  return notAllowedError(
    isHostingApiError(original) ? original : {},
    `${KIND}: the server answered 404 to the webhooks of ${org}: there is no organisation ${org}, or the token's user is not one of its owners`,
    `Use the token of an owner of ${org} (classic scope admin:org_hook, or the fine-grained permission organization_hooks)`,
  );
}

const ownerOnly = (c: HostingClient, org: string): NotFoundPolicy => ({
  explain: (e) => explainNotFound(c, org, e),
});

/** A write that answers 404: said as who may write there, never as a missing hook. */
async function asOwner<T>(c: HostingClient, org: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw (isNotFound(e) ? await explainNotFound(c, org, e) : undefined) ?? e;
  }
}

export const orgWebhookProvider = defineProvider<typeof orgWebhookKind.inputs, OrgWebhookOutputs>(
  orgWebhookKind,
  {
    // Organisation logins are case-insensitive on the platform.
    comparable: lowerCased<OrgWebhookInputs>("org"),

    adoptedId: (inputs) =>
      inputs.importId === undefined
        ? undefined
        : orgWebhookKind.formatId({ org: inputs.org, hookId: inputs.importId }),

    async create(inputs) {
      const c = client();
      const idOf = (hookId: number) => orgWebhookKind.formatId({ org: inputs.org, hookId });
      const outputsOf = (api: ApiWebhook) => orgOutputs(inputs, api, inputs.secret);
      // The organisation's routes take `name: "web"` on create.
      const body = { name: "web" as const, ...hooks.writeBody(inputs) };
      const hook = await asOwner(c, inputs.org, () =>
        createOrAdopt(hooks, c, hooksOf(inputs.org), inputs, body, idOf, outputsOf),
      );
      return { id: idOf(hook.id), outs: outputsOf(hook) };
    },

    async read(id, props) {
      const c = client();
      const { org, hookId } = parseId(id);
      const hook = await readOrGone(() => webhookApi(c, hooksOf(org)).get(hookId), ownerOnly(c, org));
      if (!hook) return {};
      return {
        id,
        props: orgOutputs({ org: props?.org ?? org, importId: props?.importId }, hook, props?.secret),
      };
    },

    async update(id, _olds, news) {
      const c = client();
      // The whole desired state, secret included: a PATCH without the secret removes it.
      const hook = await asOwner(c, news.org, () =>
        webhookApi(c, hooksOf(news.org)).update(parseId(id).hookId, hooks.writeBody(news)),
      );
      return { outs: orgOutputs(news, hook, news.secret) };
    },

    async delete(id) {
      const c = client();
      const { org, hookId } = parseId(id);
      await deleteIgnoringGone(() => webhookApi(c, hooksOf(org)).delete(hookId), ownerOnly(c, org));
    },
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** A webhook of one organisation: see its declaration, `orgWebhookKind`. Example: `examples/webhooks/`. */
export class OrgWebhook extends resourceClass<OrgWebhookArgs, OrgWebhookOutputs>(orgWebhookProvider) {}
