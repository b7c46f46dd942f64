/**
 * Budget: a spending limit of an enterprise (`/enterprises/{enterprise}/settings/billing/budgets`)
 * for one product or SKU, over the enterprise, an organisation, a repository, a cost center, every
 * user or one user.
 *
 * Every rule of the spec's create body is checked at preview, naming the field: the scopes and
 * types, the SKU each type covers, the per-user scopes (only for `ai_credits` and
 * `premium_requests`, and then preventing further usage), the entity each scope names, `user` for
 * user-scoped budgets, whole-number amounts. Recipients compare as a set. The API updates every
 * field in place (its PATCH takes them all), so only a change of enterprise replaces the budget.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ApiBudgetWrite,
  BUDGET_BUNDLE_SKU,
  BUDGET_ID_PATTERN,
  BUDGET_PER_USER_SCOPES,
  BUDGET_PER_USER_SKUS,
  BUDGET_PRODUCTS,
  BUDGET_SCOPES,
  BUDGET_SKUS,
  BUDGET_TYPES,
  type BudgetScope,
  type BudgetType,
} from "../../../api/budgets";
import { knownValue } from "../../client/errors";
import { type CrossFieldRules, fields } from "../../internal/check";
import { client } from "../../internal/context";
import { createWithoutDuplicates, PartialCreateError } from "../../internal/creates";
import {
  type ArgsOf,
  declareKind,
  type Found,
  field,
  type NestedArgsOf,
  type OutputsOfKind,
  output,
} from "../../internal/declare";
import { diffFields, sameValue } from "../../internal/diff";
import { defineProvider } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import { budgetApi, type LiveBudget } from "./budget-api";

// ---------------------------------------------------------------------------------------------
// Declaration (only the enterprise replaces: the API's PATCH takes every other field)
// ---------------------------------------------------------------------------------------------

export type { BudgetScope, BudgetType };

const list = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(", ");

const budgetAlerting = z
  .object(
    {
      willAlert: z
        .boolean({ error: "alerting.willAlert is required: true or false" })
        .meta({ description: "Whether alerts are sent as spending approaches the amount." }),
      recipients: z
        .array(fields.name("alerting.recipients"), { error: "alerting.recipients must be a list of logins" })
        .default([])
        .meta({
          description:
            "Logins of the people alerted; compared as a set (order and case do not matter). Default `[]`.",
        }),
    },
    { error: "alerting is required: {willAlert, recipients}" },
  )
  .meta({
    id: "BudgetAlerting",
    description: "Who is alerted as a budget's spending approaches its amount.",
  });

export type BudgetAlertingArgs = NestedArgsOf<typeof budgetAlerting>;

export const budgetKind = declareKind({
  kind: "Budget",
  description:
    "A spending limit of an enterprise for one product or SKU (`/enterprises/{enterprise}/settings/billing/budgets`, with API version `2026-03-10`). Needs a **classic token**: an enterprise admin or billing manager with `manage_billing:enterprise` (or `admin:enterprise`) may do everything but delete, which only an enterprise admin may do; an organisation admin with `admin:org` may create and update the budgets of their organisation and its repositories, but read none. Fine-grained and app tokens are refused by the API.",
  idFormat: ["enterprise", "budgetId"],
  inputs: z.object({
    enterprise: field(fields.name("enterprise"), {
      description: "The enterprise slug. A change replaces the budget (it lives under the enterprise).",
      replace: true,
    }),
    amount: field(
      z
        .number({ error: "amount is required: whole dollars (for license products, a number of licenses)" })
        .int("amount must be a whole number of dollars (or licenses)")
        .min(0, "amount must not be negative"),
      {
        description:
          "Whole dollars (for license products, a number of licenses), 0 or more. Updates in place.",
      },
    ),
    preventFurtherUsage: field(z.boolean({ error: "preventFurtherUsage is required: true or false" }), {
      description:
        'Stop usage once the amount is spent. Must be true with scope `"user"` or `"multi_user_customer"`. Updates in place.',
    }),
    alerting: field(budgetAlerting, { description: "Who is alerted. Updates in place." }),
    scope: field(z.enum(BUDGET_SCOPES, { error: `scope must be one of ${list(BUDGET_SCOPES)}` }), {
      description:
        'What the budget applies to: `"enterprise"`, `"organization"`, `"repository"`, `"cost_center"` (each named by `entityName`), `"multi_user_customer"` (every user) or `"user"` (one, named by `user`). The last two only for `productSku` `"ai_credits"` or `"premium_requests"`. Updates in place.',
    }),
    type: field(z.enum(BUDGET_TYPES, { error: `type must be one of ${list(BUDGET_TYPES)}` }), {
      description:
        '`"BundlePricing"` (all AI credit SKUs: `productSku` `"ai_credits"`), `"ProductPricing"` (every SKU of a product such as `"actions"`) or `"SkuPricing"` (one SKU such as `"actions_linux"`). Updates in place.',
    }),
    entityName: field(
      z
        .string({ error: "entityName must be a string" })
        .trim()
        .min(1, "entityName must not be empty; omit it")
        .optional(),
      {
        description:
          'The organisation (scope `"organization"`), repository as `owner/name` (`"repository"`) or cost center (`"cost_center"`); omitted for the other scopes. Updates in place.',
      },
    ),
    // Checked against the type's products and SKUs by the rules across fields (budgetCombinations).
    productSku: field(
      z
        .string({ error: "productSku must be a string" })
        .trim()
        .min(1, "productSku must not be empty")
        .optional(),
      {
        description:
          'The product or SKU covered. Default `"ai_credits"` with `"BundlePricing"`; required otherwise.',
      },
    ),
    user: field(fields.name("user").optional(), {
      description:
        'The login of the person a `"user"` budget applies to; only with that scope. Updates in place.',
    }),
    importId: field(
      z
        .string({ error: "importId must be a budget id" })
        .trim()
        .regex(
          BUDGET_ID_PATTERN,
          "importId must be a budget id: a UUID such as 2066deda-923f-43f9-88d2-62395a28c0cd",
        )
        .transform((v) => v.toLowerCase())
        .optional(),
      {
        description:
          "Adopt the existing budget with this id (a UUID) instead of creating one; it is converged to these args. Only read at create.",
        createOnly: true,
      },
    ),
  }),
  outputs: z.object({
    budgetId: output(z.string(), "The budget's id on the server (a UUID)."),
  }),
  discovery: {
    scope: "enterprise",
    what: ({ enterprise }) => `budgets of the enterprise ${enterprise}`,
    names: ["{enterprise|module}-budget-{entityName|user|scope}-{productSku|type}"],
    async list(c, { enterprise = "" }): Promise<Found[]> {
      const budgets = await budgetApi(c, enterprise).list();
      return budgets.map((b) => ({
        id: budgetKind.formatId({ enterprise, budgetId: b.id }),
        importId: b.id,
      }));
    },
  },
});

export type BudgetArgs = ArgsOf<typeof budgetKind.inputs>;
export type BudgetInputs = z.infer<typeof budgetKind.inputs>;
export type BudgetOutputs = OutputsOfKind<typeof budgetKind>;

// ---------------------------------------------------------------------------------------------
// The rules across fields
// ---------------------------------------------------------------------------------------------

/** What each type's `productSku` may be. */
const SKUS_OF: Record<BudgetType, readonly string[]> = {
  BundlePricing: [BUDGET_BUNDLE_SKU],
  ProductPricing: BUDGET_PRODUCTS,
  SkuPricing: BUDGET_SKUS,
};

/** The entity each scope names; scopes absent here take none. */
const ENTITY_OF: Partial<Record<BudgetScope, { what: string; pattern: RegExp; example: string }>> = {
  organization: { what: "the organisation's name", pattern: /^[A-Za-z0-9._-]+$/, example: "acme-eng" },
  repository: {
    what: "the repository as owner/name",
    pattern: /^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/,
    example: "acme-eng/api",
  },
  cost_center: { what: "the cost center's name", pattern: /\S/, example: "platform" },
};

/**
 * The spec's rules across fields (create body; notes/api.md), each skipped while a field it needs
 * is unknown. BundlePricing's SKU defaults to `ai_credits`.
 */
const budgetCombinations: CrossFieldRules<BudgetInputs> = (inputs, pending) => {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const fail = (property: string, reason: string) => failures.push({ property, reason });
  const known = (...keys: Array<keyof BudgetInputs>) => keys.every((k) => !pending.has(k));

  if (known("type", "productSku")) {
    const allowed = SKUS_OF[inputs.type];
    if (inputs.type === "BundlePricing") inputs.productSku ??= BUDGET_BUNDLE_SKU;
    if (inputs.productSku === undefined) {
      fail("productSku", `productSku is required with type "${inputs.type}": one of ${list(allowed)}`);
    } else if (!allowed.includes(inputs.productSku)) {
      fail(
        "productSku",
        `productSku of a "${inputs.type}" budget must be one of ${list(allowed)}; got "${inputs.productSku}"`,
      );
    }
  }
  if (known("scope") && BUDGET_PER_USER_SCOPES.includes(inputs.scope)) {
    const sku = inputs.productSku;
    if (
      known("type", "productSku") &&
      sku !== undefined &&
      !(BUDGET_PER_USER_SKUS as readonly string[]).includes(sku)
    ) {
      fail(
        "scope",
        `scope "${inputs.scope}" is only for productSku ${list(BUDGET_PER_USER_SKUS)}; got "${sku}"`,
      );
    }
    if (known("preventFurtherUsage") && !inputs.preventFurtherUsage) {
      fail("preventFurtherUsage", `preventFurtherUsage must be true with scope "${inputs.scope}"`);
    }
  }
  if (known("scope", "user")) {
    if (inputs.scope === "user" && inputs.user === undefined) {
      fail("user", 'user is required with scope "user": the login of the person the budget applies to');
    } else if (inputs.scope !== "user" && inputs.user !== undefined) {
      fail("user", `user is only for scope "user"; got scope "${inputs.scope}"`);
    }
  }
  if (known("scope", "entityName")) {
    const entity = ENTITY_OF[inputs.scope];
    if (!entity && inputs.entityName !== undefined) {
      fail("entityName", `entityName is not used with scope "${inputs.scope}"; omit it`);
    } else if (entity && inputs.entityName === undefined) {
      fail("entityName", `entityName is required with scope "${inputs.scope}": ${entity.what}`);
    } else if (entity && inputs.entityName !== undefined && !entity.pattern.test(inputs.entityName)) {
      fail(
        "entityName",
        `entityName with scope "${inputs.scope}" must be ${entity.what} such as "${entity.example}"; got "${inputs.entityName}"`,
      );
    }
  }
  return failures;
};

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

const lower = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : v);

/** The server's value of an enumerated field, or an error: this resource manages no other value. */

/** What outputs keep from the program (or from state) rather than from the server. */
interface Recorded {
  enterprise: string;
  importId?: string | undefined;
  user?: string | undefined;
  alerting?: { recipients: string[] } | undefined;
}

// Mapped by hand, not from wire paths: the SKU comes from one of two answers, and recipients keep the program's spelling.
/**
 * Outputs from the server's budget. The enterprise's spelling, importId and a user the server does
 * not echo come from the program; so does the recipients' order and spelling while they are the
 * same set, so a reordering on the server changes nothing in state or in what a preview shows.
 */
function budgetOutputs(from: Recorded, live: LiveBudget): BudgetOutputs {
  const scope = knownValue(BUDGET_SCOPES, live.scope, `budget ${live.id}`, "budget_scope");
  const recorded = from.alerting?.recipients;
  const sameSet = recorded !== undefined && sameValue(recorded.map(lower), live.recipients.map(lower), true);
  return compact({
    enterprise: from.enterprise,
    importId: from.importId,
    amount: live.amount,
    preventFurtherUsage: live.preventFurtherUsage,
    alerting: { willAlert: live.willAlert, recipients: sameSet ? recorded : live.recipients },
    scope,
    type: knownValue(BUDGET_TYPES, live.type, `budget ${live.id}`, "budget_type"),
    entityName: live.entityName === "" ? undefined : live.entityName,
    productSku: live.productSku,
    user: scope === "user" ? (live.user ?? from.user) : undefined,
    budgetId: live.id,
  });
}

/** The whole desired state, sent on create and on every update. */
function writeBody(inputs: BudgetInputs): ApiBudgetWrite {
  return {
    budget_amount: inputs.amount,
    prevent_further_usage: inputs.preventFurtherUsage,
    budget_alerting: {
      will_alert: inputs.alerting.willAlert,
      alert_recipients: [...new Set(inputs.alerting.recipients)],
    },
    budget_scope: inputs.scope,
    budget_entity_name: inputs.entityName ?? "",
    budget_type: inputs.type,
    budget_product_sku: inputs.productSku ?? BUDGET_BUNDLE_SKU,
    ...(inputs.scope === "user" && inputs.user !== undefined ? { user: inputs.user } : {}),
  };
}

/**
 * Logins, enterprise, organisation and repository names are case-insensitive on the platform;
 * recipients are a set. Cost center names are compared as written.
 */
function comparable(values: object): object {
  // Values still unknown during preview are the engine's placeholder string: typeof guards them.
  const v = values as Partial<BudgetInputs>;
  const alerting = v.alerting;
  const caseless = v.scope === "organization" || v.scope === "repository";
  return {
    ...v,
    enterprise: lower(v.enterprise),
    user: lower(v.user),
    entityName: caseless ? lower(v.entityName) : v.entityName,
    alerting:
      typeof alerting === "object" && Array.isArray(alerting.recipients)
        ? { ...alerting, recipients: [...new Set(alerting.recipients.map(lower))].sort() }
        : alerting,
  };
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const parseId = (id: string) => {
  const { enterprise, budgetId } = budgetKind.parseId(id);
  return { enterprise, budgetId };
};

/** Whether the server's budget differs from the program's (so adopting it needs an update). */
const differs = (live: LiveBudget, inputs: BudgetInputs) =>
  diffFields(budgetKind.rules, comparable(budgetOutputs(inputs, live)), comparable(inputs)).changes === true;

export const budgetProvider = defineProvider<typeof budgetKind.inputs, BudgetOutputs>(budgetKind, {
  crossField: budgetCombinations,
  comparable,
  adoptedId: (inputs) =>
    inputs.importId === undefined
      ? undefined
      : budgetKind.formatId({ enterprise: inputs.enterprise, budgetId: inputs.importId }),

  async create(inputs) {
    const budgets = budgetApi(client(), inputs.enterprise);
    let live: LiveBudget;
    let converge: boolean;
    if (inputs.importId !== undefined) {
      live = await budgets.adopt(inputs.importId);
      converge = differs(live, inputs);
    } else {
      // A POST that fails ambiguously may have made the budget: look for it by its key first.
      const made = await createWithoutDuplicates(
        () => budgets.create(writeBody(inputs)),
        () => budgets.find(inputs),
      ).catch(async (e: unknown) => {
        throw await budgets.createFailure(e, inputs);
      });
      live = made.value;
      converge = made.adopted && differs(live, inputs);
    }
    const id = budgetKind.formatId({ enterprise: inputs.enterprise, budgetId: live.id });
    if (!converge) return { id, outs: budgetOutputs(inputs, live) };
    try {
      return { id, outs: budgetOutputs(inputs, await budgets.update(live.id, writeBody(inputs))) };
    } catch (e) {
      throw new PartialCreateError(id, budgetOutputs(inputs, live), e);
    }
  },

  async read(id, props) {
    const { enterprise, budgetId } = parseId(id);
    const live = await budgetApi(client(), enterprise).read(budgetId, props?.productSku);
    if (!live) return {};
    return {
      id,
      props: budgetOutputs({ ...props, enterprise: props?.enterprise ?? enterprise }, live),
    };
  },

  async update(id, _olds, news) {
    const { enterprise, budgetId } = parseId(id);
    return {
      outs: budgetOutputs(news, await budgetApi(client(), enterprise).update(budgetId, writeBody(news))),
    };
  },

  async delete(id) {
    const { enterprise, budgetId } = parseId(id);
    await budgetApi(client(), enterprise).remove(budgetId);
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/**
 * A spending limit of an enterprise for one product or SKU: see its declaration, `budgetKind`.
 * Example: `examples/budgets/`.
 */
export class Budget extends resourceClass<BudgetArgs, BudgetOutputs>(budgetProvider) {}
