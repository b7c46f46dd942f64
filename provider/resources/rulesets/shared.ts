/**
 * The lifecycle organisation and repository rulesets share: the wire body, the state read from the
 * API, the comparison of meaning (sets of rules and actors, lists inside parameters in any order,
 * the platform's defaults, ids the platform ignores), and create (or adopt `importId`), read,
 * update (the whole ruleset) and delete over either kind's routes.
 */
import {
  type ApiRuleset,
  type ApiRulesetWrite,
  BYPASS_ACTORS_WITHOUT_ID,
  type BypassActorType,
} from "../../../api/rulesets";
import { camelKeys, snakeKeys, withRuleDefaults } from "../../../api/rulesets/rules";
import { isHostingApiError, isNotFound, notFoundError, validationError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { client } from "../../internal/context";
import { createWithoutDuplicates, PartialCreateError } from "../../internal/creates";
import { canonical, changedFields, type FieldRule } from "../../internal/diff";
import { deleteIgnoringGone, type ProviderMethods, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import type { RulesetInputs } from "./schema";

/** One kind's rulesets on the API: its owner's routes, bound. */
export interface RulesetApi {
  /** The collection's path (`/orgs/acme-eng/rulesets`), for messages. */
  path: string;
  list(): Promise<ApiRuleset[]>;
  create(body: ApiRulesetWrite): Promise<ApiRuleset>;
  get(id: number | string): Promise<ApiRuleset>;
  update(id: number | string, body: ApiRulesetWrite): Promise<ApiRuleset>;
  remove(id: number | string): Promise<unknown>;
}

/** What a kind says about itself; `rulesetMethods` does the rest. */
export interface RulesetKind<I extends RulesetInputs> {
  kind: string;
  /** The owner's parts and the ruleset's id an id names (the kind's `parseId`). */
  parseId(id: string): Partial<I> & { rulesetId: number };
  rules: Readonly<Record<string, FieldRule>>;
  /** The kind's routes for the owner the inputs (or an id's parts) name. */
  api(c: HostingClient, owner: Partial<I>): RulesetApi;
  /** The identity fields of the inputs (org, or owner and repository). */
  identity(inputs: Partial<I>): Partial<I>;
  /** The resource's id: the owner's parts and the ruleset's id. */
  idOf(inputs: I, rulesetId: number): string;
  /** The likely causes of a 404 on the owner's rulesets. */
  notFound(owner: Partial<I>): string[];
}

// Mapped by hand, not from wire paths: bypass actors, conditions and rules are nested lists mapped item by item.
/** The body of a create and of every update: the whole ruleset. */
export function rulesetBody(inputs: RulesetInputs): ApiRulesetWrite {
  return {
    name: inputs.name,
    target: inputs.target,
    enforcement: inputs.enforcement,
    bypass_actors: inputs.bypassActors.map((a) => ({
      actor_id: BYPASS_ACTORS_WITHOUT_ID.includes(a.actorType) ? null : (a.actorId ?? null),
      actor_type: a.actorType,
      bypass_mode: a.bypassMode,
    })),
    conditions: (snakeKeys(inputs.conditions ?? {}) as ApiRulesetWrite["conditions"]) ?? {},
    rules: inputs.rules.map((r) =>
      r.parameters === undefined
        ? { type: r.type }
        : { type: r.type, parameters: snakeKeys(r.parameters) as Record<string, unknown> },
    ),
  };
}

/** State from the API's ruleset; `from` gives the identity, importId, and the actors when the API hides them. */
export function rulesetState<I extends RulesetInputs>(
  from: Partial<I>,
  identity: Partial<I>,
  r: ApiRuleset,
): I & { rulesetId: number; nodeId: string } {
  return compact({
    ...identity,
    importId: from.importId,
    name: r.name,
    enforcement: r.enforcement,
    target: r.target ?? "branch",
    // Shown only to those who may write the ruleset: a reader keeps what state recorded.
    bypassActors:
      r.bypass_actors === undefined
        ? (from.bypassActors ?? [])
        : r.bypass_actors.map((a) =>
            compact({
              actorId: a.actor_id ?? undefined,
              actorType: a.actor_type,
              bypassMode: a.bypass_mode ?? "always",
            }),
          ),
    conditions: r.conditions ? (camelKeys(r.conditions) as RulesetInputs["conditions"]) : undefined,
    rules: (r.rules ?? []).map((rule) =>
      rule.parameters === undefined
        ? { type: rule.type }
        : { type: rule.type, parameters: camelKeys(rule.parameters) as Record<string, unknown> },
    ),
    rulesetId: r.id,
    nodeId: r.node_id ?? "",
  }) as unknown as I & { rulesetId: number; nodeId: string };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const lower = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : v);

/** Every list inside a value sorted (and its repeats dropped), at every depth: lists of a ruleset are sets. */
function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(sortedDeep);
    const byKey = new Map(items.map((item) => [canonical(item), item]));
    return [...byKey.keys()].sort().map((k) => byKey.get(k));
  }
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sortedDeep(v)]));
}

/** A rule as the platform means it: its defaults filled in, its lists as sets. */
function ruleMeaning(rule: unknown): unknown {
  if (!isObject(rule) || typeof rule.type !== "string" || !isObject(rule.parameters)) return rule;
  const wire = withRuleDefaults({
    type: rule.type,
    parameters: snakeKeys(rule.parameters) as Record<string, unknown>,
  });
  return { type: rule.type, parameters: sortedDeep(camelKeys(wire.parameters)) };
}

/** An actor as the platform means it: no id where the platform ignores it, `always` by default. */
function actorMeaning(actor: unknown): unknown {
  if (!isObject(actor) || typeof actor.actorType !== "string") return actor;
  const withoutId = BYPASS_ACTORS_WITHOUT_ID.includes(actor.actorType as BypassActorType);
  return compact({
    actorType: actor.actorType,
    actorId: withoutId ? undefined : (actor.actorId ?? undefined),
    bypassMode: actor.bypassMode ?? "always",
  });
}

/** Conditions as the platform means them: lists as sets, defaults filled in. */
function conditionsMeaning(conditions: unknown): unknown {
  if (!isObject(conditions)) return conditions;
  const patterns = (c: unknown, extra: Record<string, unknown> = {}) =>
    isObject(c) ? sortedDeep({ include: [], exclude: [], ...extra, ...c }) : c;
  const targets = (list: unknown) =>
    Array.isArray(list) ? list.map((t) => (isObject(t) ? { source: "custom", ...t } : t)) : list;
  const out: Record<string, unknown> = { ...conditions };
  if ("refName" in conditions) out.refName = patterns(conditions.refName);
  if ("repositoryName" in conditions)
    out.repositoryName = patterns(conditions.repositoryName, { protected: false });
  const byProperty = conditions.repositoryProperty;
  if (isObject(byProperty)) {
    out.repositoryProperty = patterns({
      include: targets(byProperty.include ?? []),
      exclude: targets(byProperty.exclude ?? []),
    });
  }
  return out;
}

/** What diff compares: the meaning of rules, actors and conditions; owner names regardless of case. */
export function comparable(values: object): object {
  const v = values as Record<string, unknown>;
  return {
    ...v,
    org: lower(v.org),
    owner: lower(v.owner),
    repository: lower(v.repository),
    bypassActors: Array.isArray(v.bypassActors) ? v.bypassActors.map(actorMeaning) : v.bypassActors,
    conditions: conditionsMeaning(v.conditions),
    rules: Array.isArray(v.rules) ? v.rules.map(ruleMeaning) : v.rules,
  };
}

/**
 * The fields of `recorded` that mean what `live` means, kept in the program's form (its order, the
 * defaults it left out, the ids it gave actors the platform ignores): what read reports for an
 * unchanged ruleset is what state recorded.
 */
export function keepRecordedForm(recorded: object | undefined, live: object): void {
  if (recorded === undefined) return;
  const before = recorded as Record<string, unknown>;
  const now = live as Record<string, unknown>;
  const a = comparable(before) as Record<string, unknown>;
  const b = comparable(now) as Record<string, unknown>;
  for (const key of ["bypassActors", "conditions", "rules"]) {
    if (before[key] === undefined) continue;
    const same =
      Array.isArray(a[key]) && Array.isArray(b[key])
        ? canonical([...new Set((a[key] as unknown[]).map(canonical))].sort()) ===
          canonical([...new Set((b[key] as unknown[]).map(canonical))].sort())
        : canonical(a[key]) === canonical(b[key]);
    if (same) now[key] = before[key];
  }
}

/** create (or adopt `importId`), read, update and delete of one kind of ruleset. */
export function rulesetMethods<I extends RulesetInputs>(
  k: RulesetKind<I>,
): Pick<
  ProviderMethods<I, I & { rulesetId: number; nodeId: string }>,
  "create" | "read" | "update" | "delete"
> {
  type O = I & { rulesetId: number; nodeId: string };
  const parse = (id: string) => {
    // The owner's parts; the ruleset's id beside them is read by neither `api` nor `identity`.
    const owner = k.parseId(id);
    return { owner, rulesetId: owner.rulesetId };
  };
  const stateOf = (from: Partial<I>, r: ApiRuleset): O => {
    const outs = rulesetState<I>(from, k.identity(from), r);
    keepRecordedForm(from, outs);
    return outs;
  };
  const differs = (live: ApiRuleset, inputs: I) =>
    changedFields(k.rules, comparable(rulesetState<I>(inputs, k.identity(inputs), live)), comparable(inputs))
      .length > 0;

  return {
    async create(inputs) {
      const api = k.api(client(), inputs);
      const body = rulesetBody(inputs);
      let live: ApiRuleset;
      let converge: boolean;
      if (inputs.importId !== undefined) {
        live = await api.get(inputs.importId).catch((e: unknown) => {
          if (!isNotFound(e)) throw e;
          throw notFoundError({
            method: "GET",
            path: `${api.path}/${inputs.importId}`,
            what: `${k.kind} importId ${inputs.importId}`,
            causes: [`there is no ruleset ${inputs.importId} of ${api.path}`, ...k.notFound(inputs)],
          });
        });
        converge = differs(live, inputs);
      } else {
        // A POST that fails ambiguously may have made the ruleset: look for it by name first.
        const made = await createWithoutDuplicates(
          () => api.create(body),
          async () => {
            const found = (await api.list()).find((r) => r.name === inputs.name);
            return found && (await api.get(found.id));
          },
        ).catch((e: unknown) => {
          if (isHostingApiError(e) && e.status === 422 && e.errors.some((x) => x.code === "already_exists")) {
            throw validationError(
              e,
              `a ruleset named "${inputs.name}" already exists in ${api.path}`,
              `Set importId to its id to bring it under management as a ${k.kind}`,
            );
          }
          if (isNotFound(e)) {
            throw notFoundError({ method: "POST", path: api.path, what: k.kind, causes: k.notFound(inputs) });
          }
          throw e;
        });
        live = made.value;
        converge = made.adopted && differs(live, inputs);
      }
      const id = k.idOf(inputs, live.id);
      if (!converge) return { id, outs: stateOf(inputs, live) };
      try {
        return { id, outs: stateOf(inputs, await api.update(live.id, body)) };
      } catch (e) {
        throw new PartialCreateError(id, stateOf(inputs, live), e);
      }
    },

    async read(id, props) {
      const { owner, rulesetId } = parse(id);
      const from = { ...owner, ...props } as Partial<I>;
      const live = await readOrGone(() => k.api(client(), from).get(rulesetId));
      if (!live) return {};
      return { id, props: stateOf(from, live) };
    },

    async update(id, _olds, news) {
      const { rulesetId } = parse(id);
      return { outs: stateOf(news, await k.api(client(), news).update(rulesetId, rulesetBody(news))) };
    },

    async delete(id, props) {
      const { owner, rulesetId } = parse(id);
      const api = k.api(client(), { ...owner, ...k.identity(props) });
      await deleteIgnoringGone(() => api.remove(rulesetId));
    },
  };
}
