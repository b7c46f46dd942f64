/**
 * Enterprise budget rules shared by the routes and the controls: who may read, write and delete
 * budgets (spec, Authentication 7), the budgets feature switch, and the validation of a budget as
 * the spec's create and update bodies state it (Budget; table "Enterprise billing budgets"; Errors).
 *
 * Missing required fields are a 400 naming them (the platform's "Missing required fields: ..."; a
 * user-scoped budget without `user` names `budget_entity_name`, as the spec says); a value that does
 * not validate is a 422 naming the field; a second budget for the same scope, entity, user, type and
 * SKU is a 422 `already_exists` (docs/DECISIONS.md).
 */
import {
  BUDGET_BUNDLE_SKU,
  BUDGET_PER_USER_SCOPES,
  BUDGET_PER_USER_SKUS,
  BUDGET_PRODUCTS,
  BUDGET_SCOPES,
  BUDGET_SKUS,
  BUDGET_TYPES,
  type BudgetScope,
  type BudgetType,
} from "../../../api";
import { expandScopes, orgRole } from "../../core/auth";
import type { Caller } from "../../core/context";
import type { EnterpriseRecord } from "../../core/fixture";
import { ApiFailure, badRequest, type ErrorItem, validationFailed } from "../../core/http";
import { findOrg, findRepo, findUser } from "../../core/lookup";
import type { EmulatorState } from "../../core/store";
import type { StoredBudget } from "./state";

export const RESOURCE = "Budget";

/** What a budget is, without its id and enterprise: what a create or update body decides. */
export type BudgetFields = Omit<StoredBudget, "id" | "enterprise">;

// ---------------------------------------------------------------------------------------------
// Who may do what (spec, Authentication 7)
// ---------------------------------------------------------------------------------------------

/** The caller's standing in an enterprise's budgets. */
export interface BudgetRole {
  /** An enterprise admin whose token holds `manage_billing:enterprise` (or `admin:enterprise`). */
  admin: boolean;
  /** A billing manager whose token holds `manage_billing:enterprise`. */
  billingManager: boolean;
  /** Organisations of the enterprise the caller administers with `admin:org`: their budgets only. */
  adminOrgs: string[];
}

export function budgetRole(state: EmulatorState, caller: Caller, enterprise: EnterpriseRecord): BudgetRole {
  const login = caller.user?.login;
  const scopes = expandScopes(caller.token.scopes);
  const billingScope = caller.token.kind === "classic" && scopes.has("manage_billing:enterprise");
  const orgScope = caller.token.kind === "classic" && scopes.has("admin:org");
  const owner = login !== undefined && (caller.user?.siteAdmin === true || enterprise.owners.includes(login));
  return {
    admin: billingScope && owner,
    billingManager: billingScope && login !== undefined && enterprise.billingManagers.includes(login),
    adminOrgs: orgScope
      ? state.fixture.orgs
          .filter((o) => o.enterprise === enterprise.slug && orgRole(caller, o) === "admin")
          .map((o) => o.login)
      : [],
  };
}

/** Reading needs an enterprise admin or a billing manager. */
export function assertMayRead(role: BudgetRole): void {
  if (!role.admin && !role.billingManager) {
    throw new ApiFailure(403, "Must be an enterprise admin or billing manager to read budgets");
  }
}

/**
 * Creating and updating need an enterprise admin or billing manager, or an organisation admin for a
 * budget of their organisation or of one of its repositories (`budgets`: as it is and as it will
 * be). With no budget given, whether the caller may write any budget at all.
 */
export function assertMayWrite(role: BudgetRole, ...budgets: BudgetFields[]): void {
  if (role.admin || role.billingManager) return;
  const own = (b: BudgetFields) => {
    const org =
      b.scope === "organization"
        ? b.entityName
        : b.scope === "repository"
          ? b.entityName.split("/")[0]
          : undefined;
    return org !== undefined && role.adminOrgs.some((o) => o.toLowerCase() === org.toLowerCase());
  };
  if (role.adminOrgs.length > 0 && budgets.every(own)) return;
  throw new ApiFailure(
    403,
    role.adminOrgs.length > 0
      ? `Organization admins may only manage budgets of their organizations (${role.adminOrgs.join(", ")}) and their repositories`
      : "Must be an enterprise admin, organization admin or billing manager to manage budgets",
  );
}

export function assertMayDelete(role: BudgetRole): void {
  if (!role.admin) throw new ApiFailure(403, "Must be an enterprise admin to delete budgets");
}

// ---------------------------------------------------------------------------------------------
// The budgets feature
// ---------------------------------------------------------------------------------------------

/** The platform's answer on every budget route of an enterprise whose budgets feature is off. */
export const featureNotEnabled = () => new ApiFailure(404, "Feature not enabled");

export function assertFeatureOn(state: EmulatorState, enterprise: EnterpriseRecord): void {
  if (state.budgetsOff.includes(enterprise.slug)) throw featureNotEnabled();
}

export function setBudgetsFeature(state: EmulatorState, enterprise: EnterpriseRecord, on: boolean): void {
  state.budgetsOff = state.budgetsOff.filter((slug) => slug !== enterprise.slug);
  if (!on) state.budgetsOff.push(enterprise.slug);
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

const invalid = (field: string, message: string): ErrorItem => ({
  resource: RESOURCE,
  field,
  code: "invalid",
  message,
});

/** The body fields a create must carry (spec, create body). */
const REQUIRED = ["budget_amount", "prevent_further_usage", "budget_alerting", "budget_scope", "budget_type"];

/** A budget as the request body fields hold it, before validation. */
type RawBudget = Record<string, unknown>;

/** The stored budget written back as body fields, so an update can be validated as a whole. */
function rawOf(b: BudgetFields): RawBudget {
  return {
    budget_amount: b.amount,
    prevent_further_usage: b.preventFurtherUsage,
    budget_alerting: { will_alert: b.willAlert, alert_recipients: b.recipients },
    budget_scope: b.scope,
    budget_entity_name: b.entityName,
    budget_type: b.type,
    budget_product_sku: b.sku,
    ...(b.user !== undefined ? { user: b.user } : {}),
  };
}

/** A create body, validated. */
export function budgetFromCreate(
  state: EmulatorState,
  enterprise: EnterpriseRecord,
  body: RawBudget,
): BudgetFields {
  const missing = REQUIRED.filter((f) => body[f] === undefined);
  const alerting = body.budget_alerting;
  if (isRecord(alerting)) {
    for (const f of ["will_alert", "alert_recipients"]) {
      if (alerting[f] === undefined) missing.push(`budget_alerting.${f}`);
    }
  }
  if (missing.length > 0) throw badRequest(`Missing required fields: ${missing.join(", ")}`);
  return validate(state, enterprise, body);
}

/** An update body (every field optional) applied to the budget as it is, validated as a whole. */
export function budgetFromUpdate(
  state: EmulatorState,
  enterprise: EnterpriseRecord,
  current: BudgetFields,
  body: RawBudget,
): BudgetFields {
  const merged: RawBudget = { ...rawOf(current), ...body };
  const alerting = body.budget_alerting;
  if (isRecord(alerting))
    merged.budget_alerting = { ...(rawOf(current).budget_alerting as object), ...alerting };
  return validate(state, enterprise, merged);
}

function validate(state: EmulatorState, enterprise: EnterpriseRecord, raw: RawBudget): BudgetFields {
  const errors: ErrorItem[] = [];
  const scope = oneOf(raw.budget_scope, BUDGET_SCOPES, "budget_scope", errors);
  const type = oneOf(raw.budget_type, BUDGET_TYPES, "budget_type", errors);
  const sku = raw.budget_product_sku ?? (type === "BundlePricing" ? BUDGET_BUNDLE_SKU : undefined);
  if (type !== undefined && type !== "BundlePricing" && sku === undefined) {
    throw badRequest("Missing required fields: budget_product_sku");
  }
  // Spec, Errors: a user-scoped budget without `user` is a 400 naming budget_entity_name.
  if (scope === "user" && (raw.user === undefined || raw.user === "")) {
    throw badRequest("Missing required fields: budget_entity_name");
  }

  const amount = raw.budget_amount;
  if (typeof amount !== "number" || !Number.isInteger(amount) || amount < 0) {
    errors.push(
      invalid("budget_amount", "budget_amount must be a whole number of dollars (or licenses), 0 or more"),
    );
  }
  const prevent = raw.prevent_further_usage;
  if (typeof prevent !== "boolean")
    errors.push(invalid("prevent_further_usage", "prevent_further_usage must be a boolean"));
  const { willAlert, recipients } = alertingOf(state, raw.budget_alerting, errors);
  if (typeof sku !== "string")
    errors.push(invalid("budget_product_sku", "budget_product_sku must be a string"));
  else if (type !== undefined) checkSku(type, sku, errors);
  if (scope !== undefined && BUDGET_PER_USER_SCOPES.includes(scope)) {
    if (!(BUDGET_PER_USER_SKUS as readonly unknown[]).includes(sku)) {
      errors.push(
        invalid(
          "budget_scope",
          `budget_scope ${scope} is only supported when budget_product_sku is ${BUDGET_PER_USER_SKUS.join(" or ")}`,
        ),
      );
    }
    if (prevent === false) {
      errors.push(
        invalid("prevent_further_usage", `prevent_further_usage must be true for budget_scope ${scope}`),
      );
    }
  }
  const entityName =
    scope === undefined ? "" : entityOf(state, enterprise, scope, raw.budget_entity_name ?? "", errors);
  const user = scope === "user" ? userOf(state, raw.user, errors) : undefined;
  if (errors.length > 0 || scope === undefined || type === undefined) throw validationFailed(...errors);
  return {
    type,
    sku: sku as string,
    scope,
    entityName,
    ...(user !== undefined ? { user } : {}),
    amount: amount as number,
    preventFurtherUsage: prevent as boolean,
    willAlert,
    recipients,
  };
}

function oneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  field: string,
  errors: ErrorItem[],
): T | undefined {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  errors.push(invalid(field, `${field} must be one of ${allowed.join(", ")}`));
  return undefined;
}

/** BundlePricing covers ai_credits; ProductPricing a product; SkuPricing one SKU (spec, create body). */
function checkSku(type: BudgetType, sku: string, errors: ErrorItem[]): void {
  const allowed: readonly string[] =
    type === "BundlePricing"
      ? [BUDGET_BUNDLE_SKU]
      : type === "ProductPricing"
        ? BUDGET_PRODUCTS
        : BUDGET_SKUS;
  if (!allowed.includes(sku)) {
    errors.push(
      invalid(
        "budget_product_sku",
        `budget_product_sku of a ${type} budget must be one of ${allowed.join(", ")}`,
      ),
    );
  }
}

function alertingOf(
  state: EmulatorState,
  raw: unknown,
  errors: ErrorItem[],
): { willAlert: boolean; recipients: string[] } {
  if (!isRecord(raw)) {
    errors.push(
      invalid("budget_alerting", "budget_alerting must be an object {will_alert, alert_recipients}"),
    );
    return { willAlert: false, recipients: [] };
  }
  const willAlert = raw.will_alert;
  if (typeof willAlert !== "boolean")
    errors.push(invalid("budget_alerting.will_alert", "will_alert must be a boolean"));
  const list = raw.alert_recipients;
  if (!Array.isArray(list) || list.some((r) => typeof r !== "string")) {
    errors.push(
      invalid("budget_alerting.alert_recipients", "alert_recipients must be an array of user logins"),
    );
    return { willAlert: willAlert === true, recipients: [] };
  }
  const recipients: string[] = [];
  for (const login of list as string[]) {
    const user = findUser(state, login);
    if (!user) errors.push(invalid("budget_alerting.alert_recipients", `no user ${login}`));
    else if (!recipients.includes(user.login)) recipients.push(user.login);
  }
  return { willAlert: willAlert === true, recipients };
}

/** The entity a scope names, in its canonical spelling. */
function entityOf(
  state: EmulatorState,
  enterprise: EnterpriseRecord,
  scope: BudgetScope,
  raw: unknown,
  errors: ErrorItem[],
): string {
  const field = "budget_entity_name";
  if (typeof raw !== "string") {
    errors.push(invalid(field, `${field} must be a string`));
    return "";
  }
  switch (scope) {
    case "enterprise":
      if (raw !== "" && raw.toLowerCase() !== enterprise.slug)
        errors.push(invalid(field, `${field} of an enterprise budget must be empty or ${enterprise.slug}`));
      return raw;
    case "organization": {
      const org = findOrg(state, raw);
      if (org?.enterprise === enterprise.slug) return org.login;
      errors.push(invalid(field, `${field} must name an organization of ${enterprise.slug}; got "${raw}"`));
      return raw;
    }
    case "repository": {
      const [owner = "", name = "", ...rest] = raw.split("/");
      const repo = rest.length === 0 ? findRepo(state, owner, name) : undefined;
      if (repo && findOrg(state, repo.owner)?.enterprise === enterprise.slug)
        return `${repo.owner}/${repo.name}`;
      errors.push(
        invalid(field, `${field} must name a repository (owner/name) of ${enterprise.slug}; got "${raw}"`),
      );
      return raw;
    }
    case "cost_center":
      if (raw.trim() === "") errors.push(invalid(field, `${field} must name the cost center`));
      return raw;
    case "multi_user_customer":
      if (raw !== "")
        errors.push(invalid(field, `${field} must be empty for budget_scope multi_user_customer`));
      return "";
    case "user":
      // The person is named by `user`; the spec allows an empty entity name.
      return "";
  }
}

function userOf(state: EmulatorState, raw: unknown, errors: ErrorItem[]): string | undefined {
  const user = typeof raw === "string" ? findUser(state, raw) : undefined;
  if (!user) errors.push(invalid("user", `user must be the login of a user; got ${JSON.stringify(raw)}`));
  return user?.login;
}

/** One budget per enterprise, scope, entity, user, type and SKU. */
export function assertUnique(state: EmulatorState, enterprise: string, b: BudgetFields, self?: string): void {
  const same = (x: string | undefined, y: string | undefined) =>
    (x ?? "").toLowerCase() === (y ?? "").toLowerCase();
  const taken = state.budgets.some(
    (o) =>
      o.id !== self &&
      o.enterprise === enterprise &&
      o.scope === b.scope &&
      o.type === b.type &&
      o.sku === b.sku &&
      same(o.entityName, b.entityName) &&
      same(o.user, b.user),
  );
  if (taken) {
    throw validationFailed({
      resource: RESOURCE,
      code: "already_exists",
      message: "A budget for this scope, entity and product SKU already exists",
    });
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
