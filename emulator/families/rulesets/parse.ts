/**
 * A ruleset's create and update bodies, checked as the platform checks them: every error a 422
 * naming its field (`rules[2].parameters.required_approving_review_count`, `bypass_actors[0].actor_id`).
 *
 * - `name` is required on create and unique among the owner's rulesets (case-insensitively);
 *   `enforcement` is required on create; `target` defaults to `branch`.
 * - Rules: each a type and its parameters as the description has them (`ruleProblems`, shared with
 *   the provider); push rulesets take only the file rules, branch and tag rulesets none of them, and
 *   the pull request and merge rules are for branches only. A type given twice is refused.
 * - Bypass actors: a team of the organisation, an app the sandbox knows, a base repository role
 *   (1-5); organisation admins, enterprise owners and deploy keys carry no id (one given is
 *   ignored). `pull_request` mode is for branch rulesets and not for deploy keys.
 * - Conditions: an organisation's branch and tag rulesets need `ref_name` and exactly one of
 *   `repository_name`, `repository_property`; a repository's take `ref_name` only. Properties
 *   targeted must be the organisation's (`source: custom`); the platform's system properties are
 *   not modelled (a 422 says so).
 */
import {
  type ApiBypassActor,
  type ApiConditions,
  type ApiRule,
  BRANCH_ONLY_RULE_TYPES,
  BYPASS_ACTOR_TYPES,
  BYPASS_ACTORS_WITHOUT_ID,
  BYPASS_MODES,
  type BypassActorType,
  PUSH_RULE_TYPES,
  REPOSITORY_ROLE_IDS,
  RULESET_ENFORCEMENTS,
  RULESET_TARGETS,
  type RulesetEnforcement,
  type RulesetTarget,
  type RuleType,
  ruleProblems,
  withRuleDefaults,
} from "../../../api";
import type { OrgRecord } from "../../core/fixture";
import { type ErrorItem, validationFailed } from "../../core/http";
import type { EmulatorState } from "../../core/store";
import { findDefinition } from "../custom-properties/definitions";
import { teamById } from "../teams/teams";
import type { StoredRuleset } from "./state";

export const RESOURCE = "Ruleset";

/** What a body sets; on update, what it leaves out keeps its value. */
export type RulesetSettings = Pick<
  StoredRuleset,
  "name" | "target" | "enforcement" | "bypassActors" | "conditions" | "rules"
>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isNames = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");

/** Where the ruleset lives: an organisation's (conditions name repositories) or a repository's. */
export interface RulesetPlace {
  scope: "org" | "repo";
  org: OrgRecord;
  /** The owner's other rulesets (the one being updated left out), for the unique name. */
  others: readonly StoredRuleset[];
}

/**
 * The settings of a create (`current` undefined) or an update body, or a 422 naming every field it
 * gets wrong.
 */
export function parseRuleset(
  state: EmulatorState,
  place: RulesetPlace,
  body: Record<string, unknown>,
  current: StoredRuleset | undefined,
): RulesetSettings {
  const errors: ErrorItem[] = [];
  const fail = (field: string, message: string, code: ErrorItem["code"] = "invalid") =>
    errors.push({ resource: RESOURCE, field, code, message });
  const given = (key: string) => body[key] !== undefined && body[key] !== null;

  let name = current?.name ?? "";
  if (given("name")) {
    if (typeof body.name !== "string" || body.name.trim() === "")
      fail("name", "name must be a non-empty string");
    else name = body.name;
  } else if (!current) fail("name", "name is required", "missing_field");
  if (place.others.some((r) => r.name.toLowerCase() === name.toLowerCase())) {
    fail("name", `a ruleset named ${name} already exists`, "already_exists");
  }
  const target = pick(body, "target", RULESET_TARGETS, current?.target ?? "branch", fail);
  let enforcement: RulesetEnforcement = current?.enforcement ?? "disabled";
  if (given("enforcement")) enforcement = pick(body, "enforcement", RULESET_ENFORCEMENTS, enforcement, fail);
  else if (!current) fail("enforcement", "enforcement is required", "missing_field");

  const rules = given("rules") ? parseRules(body.rules, target, fail) : (current?.rules ?? []);
  const bypassActors = given("bypass_actors")
    ? parseActors(state, place.org, body.bypass_actors, target, fail)
    : (current?.bypassActors ?? []);
  const conditions = given("conditions")
    ? parseConditions(place, body.conditions, target, fail)
    : (current?.conditions ?? null);
  if (!given("conditions") && !current && place.scope === "org" && target !== "push") {
    fail(
      "conditions",
      "conditions are required: ref_name and repository_name or repository_property",
      "missing_field",
    );
  }
  if (errors.length > 0) throw validationFailed(...errors);
  return { name, target, enforcement, bypassActors, conditions, rules };
}

type Fail = (field: string, message: string, code?: ErrorItem["code"]) => void;

function pick<T extends string>(
  body: Record<string, unknown>,
  key: string,
  allowed: readonly T[],
  fallback: T,
  fail: Fail,
): T {
  const value = body[key];
  if (value === undefined || value === null) return fallback;
  if (!(allowed as readonly unknown[]).includes(value)) {
    fail(key, `${key} must be one of ${allowed.join(", ")}`);
    return fallback;
  }
  return value as T;
}

/** `rules[2].parameters.max_file_size` from a rule's index and its wire path. */
const at = (i: number, path: Array<string | number>) =>
  `rules[${i}]${path.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("")}`;

function parseRules(raw: unknown, target: RulesetTarget, fail: Fail): ApiRule[] {
  if (!Array.isArray(raw)) {
    fail("rules", "rules must be a list of {type, parameters?}");
    return [];
  }
  const seen = new Set<string>();
  return raw.flatMap((rule: unknown, i): ApiRule[] => {
    const problems = ruleProblems(rule);
    for (const p of problems) fail(at(i, p.path), `${at(i, p.path)} ${p.message}`);
    if (problems.length > 0) return [];
    const { type, parameters } = rule as ApiRule;
    const push = PUSH_RULE_TYPES.includes(type as RuleType);
    if (push !== (target === "push")) {
      fail(at(i, ["type"]), `${at(i, ["type"])}: ${type} is ${push ? "only for" : "not for"} push rulesets`);
    } else if (target !== "branch" && BRANCH_ONLY_RULE_TYPES.includes(type as RuleType)) {
      fail(at(i, ["type"]), `${at(i, ["type"])}: ${type} is only for branch rulesets`);
    }
    if (seen.has(type)) fail(at(i, ["type"]), `${at(i, ["type"])}: a ruleset takes one ${type} rule`);
    seen.add(type);
    return [
      withRuleDefaults(parameters === undefined || parameters === null ? { type } : { type, parameters }),
    ];
  });
}

function parseActors(
  state: EmulatorState,
  org: OrgRecord,
  raw: unknown,
  target: RulesetTarget,
  fail: Fail,
): ApiBypassActor[] {
  if (!Array.isArray(raw)) {
    fail("bypass_actors", "bypass_actors must be a list of {actor_id, actor_type, bypass_mode}");
    return [];
  }
  return raw.flatMap((actor: unknown, i): ApiBypassActor[] => {
    const where = `bypass_actors[${i}]`;
    if (!isObject(actor)) {
      fail(where, `${where} must be an object {actor_id, actor_type, bypass_mode}`);
      return [];
    }
    const type = actor.actor_type;
    if (!(BYPASS_ACTOR_TYPES as readonly unknown[]).includes(type)) {
      fail(`${where}.actor_type`, `${where}.actor_type must be one of ${BYPASS_ACTOR_TYPES.join(", ")}`);
      return [];
    }
    const mode = actor.bypass_mode ?? "always";
    if (!(BYPASS_MODES as readonly unknown[]).includes(mode)) {
      fail(`${where}.bypass_mode`, `${where}.bypass_mode must be one of ${BYPASS_MODES.join(", ")}`);
    } else if (mode === "pull_request" && (type === "DeployKey" || target !== "branch")) {
      fail(
        `${where}.bypass_mode`,
        `${where}.bypass_mode pull_request is for branch rulesets, and not for deploy keys`,
      );
    }
    const id = actorId(state, org, type as BypassActorType, actor.actor_id, `${where}.actor_id`, fail);
    return [
      {
        actor_id: id,
        actor_type: type as BypassActorType,
        bypass_mode: mode as ApiBypassActor["bypass_mode"],
      },
    ];
  });
}

/** The actor's id as stored: null for types named without one, else an id the sandbox knows. */
function actorId(
  state: EmulatorState,
  org: OrgRecord,
  type: BypassActorType,
  raw: unknown,
  field: string,
  fail: Fail,
): number | null {
  if (BYPASS_ACTORS_WITHOUT_ID.includes(type)) return null;
  if (typeof raw !== "number" || !Number.isSafeInteger(raw) || raw <= 0) {
    fail(
      field,
      `${field} must be the integer id of the ${type}`,
      raw === undefined ? "missing_field" : "invalid",
    );
    return null;
  }
  const known =
    type === "Team"
      ? teamById(state, raw)?.orgId === org.id
      : type === "Integration"
        ? state.fixture.apps.some((a) => a.id === raw)
        : Object.hasOwn(REPOSITORY_ROLE_IDS, raw);
  if (!known) {
    const what =
      type === "Team"
        ? `a team of ${org.login}`
        : type === "Integration"
          ? "an app"
          : "a repository role (1-5)";
    fail(field, `${field} ${raw} is not ${what}`);
  }
  return raw;
}

function parseConditions(
  place: RulesetPlace,
  raw: unknown,
  target: RulesetTarget,
  fail: Fail,
): ApiConditions | null {
  if (!isObject(raw)) {
    fail("conditions", "conditions must be an object");
    return null;
  }
  const allowed =
    place.scope === "org" ? ["ref_name", "repository_name", "repository_property"] : ["ref_name"];
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key))
      fail(
        `conditions.${key}`,
        `conditions.${key} is not a condition here; the conditions are ${allowed.join(", ")}`,
      );
  }
  const conditions: ApiConditions = {};
  const patterns = (key: string, value: unknown): { include: string[]; exclude: string[] } => {
    if (!isObject(value)) {
      fail(`conditions.${key}`, `conditions.${key} must be an object {include, exclude}`);
      return { include: [], exclude: [] };
    }
    const list = (part: "include" | "exclude") => {
      const names = value[part] ?? [];
      if (!isNames(names))
        fail(`conditions.${key}.${part}`, `conditions.${key}.${part} must be a list of names or patterns`);
      return isNames(names) ? [...names] : [];
    };
    return { include: list("include"), exclude: list("exclude") };
  };
  if (raw.ref_name !== undefined) conditions.ref_name = patterns("ref_name", raw.ref_name);
  else if (target !== "push") fail("conditions.ref_name", "conditions.ref_name is required", "missing_field");
  if (place.scope === "org") {
    const byName = raw.repository_name;
    const byProperty = raw.repository_property;
    if ((byName === undefined) === (byProperty === undefined)) {
      fail(
        "conditions",
        "conditions must target repositories by exactly one of repository_name, repository_property",
      );
    }
    if (byName !== undefined) {
      const protect = isObject(byName) ? (byName.protected ?? false) : false;
      if (typeof protect !== "boolean")
        fail(
          "conditions.repository_name.protected",
          "conditions.repository_name.protected must be true or false",
        );
      conditions.repository_name = { ...patterns("repository_name", byName), protected: protect === true };
    }
    if (byProperty !== undefined)
      conditions.repository_property = parseProperties(place.org, byProperty, fail);
  }
  return conditions;
}

function parseProperties(
  org: OrgRecord,
  raw: unknown,
  fail: Fail,
): NonNullable<ApiConditions["repository_property"]> {
  const base = "conditions.repository_property";
  if (!isObject(raw)) {
    fail(base, `${base} must be an object {include, exclude}`);
    return { include: [], exclude: [] };
  }
  const list = (part: "include" | "exclude") => {
    const specs = raw[part] ?? [];
    if (!Array.isArray(specs)) {
      fail(`${base}.${part}`, `${base}.${part} must be a list of {name, property_values, source?}`);
      return [];
    }
    return specs.flatMap((spec: unknown, i) => {
      const where = `${base}.${part}[${i}]`;
      if (!isObject(spec) || typeof spec.name !== "string" || !isNames(spec.property_values)) {
        fail(where, `${where} must be {name, property_values: [...], source?}`);
        return [];
      }
      const source = spec.source ?? "custom";
      if (source === "system")
        fail(`${where}.source`, `${where}.source: the sandbox does not model system properties`);
      else if (source !== "custom") fail(`${where}.source`, `${where}.source must be custom or system`);
      else if (!findDefinition(org, spec.name))
        fail(`${where}.name`, `${where}.name: ${spec.name} is not a custom property of ${org.login}`);
      return [{ name: spec.name, property_values: [...spec.property_values], source: "custom" as const }];
    });
  };
  return { include: list("include"), exclude: list("exclude") };
}
