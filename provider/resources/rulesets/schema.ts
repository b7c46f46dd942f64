/**
 * What organisation and repository rulesets declare alike: bypass actors, conditions and rules,
 * checked at preview as the platform checks them. Rule parameters are written in camelCase and
 * checked against the published description's schema of their type (api/rulesets/rules.ts, which
 * the sandbox runs too): a failure names the rule by index and type, and the parameter.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  BYPASS_ACTOR_TYPES,
  BYPASS_ACTORS_WITHOUT_ID,
  BYPASS_MODES,
  PROPERTY_SOURCES,
  REPOSITORY_ROLE_IDS,
  RULESET_ENFORCEMENTS,
  RULESET_TARGETS,
} from "../../../api/rulesets";
import {
  BRANCH_ONLY_RULE_TYPES,
  camelCase,
  PUSH_RULE_TYPES,
  RULE_TYPES,
  type RuleType,
  ruleProblems,
  snakeKeys,
} from "../../../api/rulesets/rules";
import type { CrossFieldRules } from "../../internal/check";
import { fields } from "../../internal/check";
import { field, type NestedArgsOf, output } from "../../internal/declare";

const list = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(", ");

export const bypassActorSchema = z
  .strictObject(
    {
      actorId: z
        .number({ error: "bypassActors[].actorId must be an integer id" })
        .int("bypassActors[].actorId must be an integer id")
        .positive("bypassActors[].actorId must be a positive id")
        .nullable()
        .optional()
        .meta({
          description:
            "The actor's id: the team's id (`Team`), the app's id (`Integration`), the repository role's id (`RepositoryRole`: 1 read, 2 maintain, 3 triage, 4 write, 5 admin); none for `OrganizationAdmin`, `EnterpriseOwner` and `DeployKey` (one given is ignored).",
        }),
      actorType: z
        .enum(BYPASS_ACTOR_TYPES, {
          error: `bypassActors[].actorType must be one of ${list(BYPASS_ACTOR_TYPES)}`,
        })
        .meta({ description: `Who may bypass the ruleset: ${list(BYPASS_ACTOR_TYPES)}.` }),
      bypassMode: z
        .enum(BYPASS_MODES, { error: `bypassActors[].bypassMode must be one of ${list(BYPASS_MODES)}` })
        .default("always")
        .meta({
          description:
            '`"always"` (default) or `"pull_request"` (only when merging a pull request: branch rulesets, not deploy keys).',
        }),
    },
    { error: "bypassActors must hold objects {actorId, actorType, bypassMode}" },
  )
  .meta({ id: "RulesetBypassActor", description: "An actor who may bypass a ruleset's rules." });

const patterns = (label: string, what: string) =>
  z
    .array(z.string({ error: `${label} must hold strings` }).min(1, `${label} must not hold empty strings`), {
      error: `${label} must be a list of ${what}`,
    })
    .default([])
    .meta({ description: `${what}; compared as a set. Default \`[]\`.` });

export const refNameSchema = z
  .strictObject(
    {
      include: patterns(
        "conditions.refName.include",
        "Ref names or patterns the ruleset applies to (`refs/heads/main`, `refs/heads/release/*`, `~DEFAULT_BRANCH`, `~ALL`); one must match",
      ),
      exclude: patterns("conditions.refName.exclude", "Ref names or patterns it does not apply to"),
    },
    { error: "conditions.refName must be an object {include, exclude}" },
  )
  .meta({ id: "RulesetRefNameCondition", description: "The refs (branches or tags) a ruleset applies to." });

const repositoryNameSchema = z
  .strictObject(
    {
      include: patterns(
        "conditions.repositoryName.include",
        "Repository names or patterns the ruleset applies to (`~ALL` for every repository); one must match",
      ),
      exclude: patterns(
        "conditions.repositoryName.exclude",
        "Repository names or patterns it does not apply to",
      ),
      protected: z
        .boolean({ error: "conditions.repositoryName.protected must be true or false" })
        .default(false)
        .meta({ description: "Whether the targeted repositories may not be renamed. Default `false`." }),
    },
    { error: "conditions.repositoryName must be an object {include, exclude, protected}" },
  )
  .meta({
    id: "RulesetRepositoryNameCondition",
    description: "The repositories an organisation ruleset applies to, by name.",
  });

const propertyTargetSchema = z
  .strictObject(
    {
      name: z
        .string({ error: "conditions.repositoryProperty: each target needs a name (a custom property)" })
        .min(1, "conditions.repositoryProperty: a target's name must not be empty")
        .meta({ description: "The property's name." }),
      propertyValues: z
        .array(z.string({ error: "conditions.repositoryProperty: propertyValues must hold strings" }), {
          error: "conditions.repositoryProperty: propertyValues must be a list of values",
        })
        .meta({ description: "The values that match (any of them); compared as a set." }),
      source: z
        .enum(PROPERTY_SOURCES, {
          error: `conditions.repositoryProperty: source must be one of ${list(PROPERTY_SOURCES)}`,
        })
        .optional()
        .meta({
          description: '`"custom"` (default: a custom property) or `"system"` (one of the platform\'s).',
        }),
    },
    { error: "conditions.repositoryProperty targets must be objects {name, propertyValues, source?}" },
  )
  .meta({ id: "RulesetPropertyTarget", description: "A repository property and the values that match." });

const targets = (label: string, what: string) =>
  z
    .array(propertyTargetSchema, { error: `${label} must be a list of {name, propertyValues, source?}` })
    .default([])
    .meta({ description: `${what}; compared as a set. Default \`[]\`.` });

const repositoryPropertySchema = z
  .strictObject(
    {
      include: targets(
        "conditions.repositoryProperty.include",
        "Properties every targeted repository has (all must match)",
      ),
      exclude: targets(
        "conditions.repositoryProperty.exclude",
        "Properties that exclude a repository (any that matches)",
      ),
    },
    { error: "conditions.repositoryProperty must be an object {include, exclude}" },
  )
  .meta({
    id: "RulesetRepositoryPropertyCondition",
    description: "The repositories an organisation ruleset applies to, by their custom property values.",
  });

export const orgConditionsSchema = z
  .strictObject(
    {
      refName: refNameSchema
        .optional()
        .meta({ description: "The refs it applies to (required but for push rulesets)." }),
      repositoryName: repositoryNameSchema
        .optional()
        .meta({ description: "Repositories by name (or by property: exactly one of the two)." }),
      repositoryProperty: repositoryPropertySchema.optional().meta({
        description: "Repositories by custom property values (or by name: exactly one of the two).",
      }),
    },
    { error: "conditions must be an object {refName, repositoryName | repositoryProperty}" },
  )
  .meta({
    id: "OrgRulesetConditions",
    description: "Where an organisation ruleset applies: refs, and repositories.",
  });

export const repositoryConditionsSchema = z
  .strictObject(
    {
      refName: refNameSchema
        .optional()
        .meta({ description: "The refs it applies to (required but for push rulesets)." }),
    },
    { error: "conditions must be an object {refName}" },
  )
  .meta({ id: "RepositoryRulesetConditions", description: "Where a repository ruleset applies: its refs." });

export const ruleSchema = z
  .strictObject(
    {
      type: z.string({ error: 'rules[].type is required: a rule type such as "deletion"' }).meta({
        description: `The rule's type, as the API names it: ${RULE_TYPES.map((t) => `\`${t}\``).join(", ")}.`,
      }),
      parameters: z
        .record(z.string(), z.unknown(), { error: "rules[].parameters must be an object" })
        .optional()
        .meta({
          description:
            "The rule's parameters, in camelCase (`requiredApprovingReviewCount`), as the platform's description gives them for its type; left out for rules that take none. Lists in them compare as sets.",
        }),
    },
    { error: "rules must hold objects {type, parameters?}" },
  )
  .meta({ id: "RulesetRule", description: "One rule of a ruleset: its type and parameters." });

export type RulesetBypassActorArgs = NestedArgsOf<typeof bypassActorSchema>;
export type RulesetRuleArgs = NestedArgsOf<typeof ruleSchema>;
export type OrgRulesetConditionsArgs = NestedArgsOf<typeof orgConditionsSchema>;
export type RepositoryRulesetConditionsArgs = NestedArgsOf<typeof repositoryConditionsSchema>;

/** Keys written in snake_case anywhere in a value (the program writes camelCase). */
function snakeKeysIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(snakeKeysIn);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => [...(k.includes("_") ? [k] : []), ...snakeKeysIn(v)]);
}

/** `["parameters", "required_status_checks", 0, "context"]` -> `parameters.requiredStatusChecks[0].context`. */
function programPath(path: Array<string | number>): string {
  return path
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${camelCase(p)}`))
    .join("")
    .replace(/^\./, "");
}

/** What is wrong with each rule, one sentence each naming the rule (`rules[2] (pull_request)`) and the field. */
export function ruleFailures(rules: ReadonlyArray<{ type?: unknown; parameters?: unknown }>): string[] {
  return rules.flatMap((rule, i) => {
    const where =
      typeof rule.type === "string" && rule.type !== "" ? `rules[${i}] (${rule.type})` : `rules[${i}]`;
    const snake = snakeKeysIn(rule.parameters);
    if (snake.length > 0) {
      return snake.map((k) => `${where}: parameters are written in camelCase: ${k} is ${camelCase(k)}`);
    }
    const wire =
      rule.parameters === undefined
        ? { type: rule.type }
        : { type: rule.type, parameters: snakeKeys(rule.parameters) };
    return ruleProblems(wire).map((p) => `${where}: ${programPath(p.path)} ${p.message}`);
  });
}

/** The `rules` field: a set of rules, each checked against its type. */
export const rulesField = field(
  z
    .array(ruleSchema, { error: "rules must be a list of {type, parameters?}" })
    .default([])
    .superRefine((rules, ctx) => {
      for (const message of ruleFailures(rules)) ctx.addIssue({ code: "custom", message, path: [] });
    }),
  {
    description:
      "The rules, each `{type, parameters?}` as the platform's description has it (parameters in camelCase), every type and parameter checked at preview. Compared as a set (their order means nothing, nor the order of lists in their parameters). Updates in place.",
    set: true,
  },
);

export const bypassActorsField = field(
  z
    .array(bypassActorSchema, { error: "bypassActors must be a list of {actorId, actorType, bypassMode}" })
    .default([]),
  {
    description:
      "Who may bypass the rules: teams, apps, repository roles, organisation admins, enterprise owners, deploy keys. Compared as a set. Default `[]`. Updates in place.",
    set: true,
  },
);

export const rulesetFields = {
  name: field(
    z.string({ error: "name is required: the ruleset's name" }).trim().min(1, "name must not be empty"),
    {
      description: "The ruleset's name, unique among its owner's rulesets. Updates in place.",
    },
  ),
  enforcement: field(
    z.enum(RULESET_ENFORCEMENTS, { error: `enforcement must be one of ${list(RULESET_ENFORCEMENTS)}` }),
    {
      description:
        '`"active"` (enforced), `"evaluate"` (recorded in rule insights, not enforced; reads back as written) or `"disabled"`. Updates in place.',
    },
  ),
  target: field(
    z.enum(RULESET_TARGETS, { error: `target must be one of ${list(RULESET_TARGETS)}` }).default("branch"),
    {
      description:
        '`"branch"` (default), `"tag"` or `"push"` (rules on pushed file contents: the file path, extension and size rules). Updates in place.',
    },
  ),
  bypassActors: bypassActorsField,
  rules: rulesField,
  importId: field(fields.numericId("importId").optional(), {
    description:
      "Adopt the existing ruleset with this id instead of creating one; it is converged to these args. Only read at create.",
    createOnly: true,
  }),
};

export const rulesetOutputs = {
  rulesetId: output(z.number().int(), "The ruleset's id on the server."),
  nodeId: output(z.string(), "The ruleset's global node id."),
};

/** What every ruleset's inputs hold (conditions differ by kind). */
export interface RulesetInputs {
  name: string;
  enforcement: (typeof RULESET_ENFORCEMENTS)[number];
  target: (typeof RULESET_TARGETS)[number];
  bypassActors: Array<z.infer<typeof bypassActorSchema>>;
  rules: Array<z.infer<typeof ruleSchema>>;
  importId?: string | undefined;
  conditions?: z.infer<typeof orgConditionsSchema> | undefined;
}

/**
 * The rules across fields of both kinds: the rules a target takes (push rules only in push
 * rulesets, pull request and merge rules only in branch rulesets, each type once), the bypass
 * actors' ids and modes, and the conditions an organisation ruleset needs.
 */
export function rulesetRules<I extends RulesetInputs>(scope: "org" | "repo"): CrossFieldRules<I> {
  return (inputs, pending) => {
    const failures: pulumi.dynamic.CheckFailure[] = [];
    const fail = (property: string, reason: string) => failures.push({ property, reason });
    const target = pending.has("target") ? undefined : inputs.target;
    if (target !== undefined && !pending.has("rules")) {
      const seen = new Set<string>();
      inputs.rules.forEach((rule, i) => {
        const where = `rules[${i}] (${rule.type})`;
        const push = PUSH_RULE_TYPES.includes(rule.type as RuleType);
        if (push !== (target === "push")) {
          fail(
            "rules",
            `${where}: ${rule.type} is ${push ? "only for" : "not for"} push rulesets (target is "${target}")`,
          );
        } else if (target !== "branch" && BRANCH_ONLY_RULE_TYPES.includes(rule.type as RuleType)) {
          fail("rules", `${where}: ${rule.type} is only for branch rulesets (target is "${target}")`);
        }
        if (seen.has(rule.type)) fail("rules", `${where}: a ruleset takes one ${rule.type} rule`);
        seen.add(rule.type);
      });
    }
    if (target !== undefined && !pending.has("bypassActors")) {
      inputs.bypassActors.forEach((actor, i) => {
        const where = `bypassActors[${i}] (${actor.actorType})`;
        if (
          !BYPASS_ACTORS_WITHOUT_ID.includes(actor.actorType) &&
          (actor.actorId === undefined || actor.actorId === null)
        ) {
          fail(
            "bypassActors",
            `${where}: actorId is required: the ${actor.actorType === "Team" ? "team's" : actor.actorType === "Integration" ? "app's" : "repository role's"} id`,
          );
        }
        if (
          actor.actorType === "RepositoryRole" &&
          typeof actor.actorId === "number" &&
          !Object.hasOwn(REPOSITORY_ROLE_IDS, actor.actorId)
        ) {
          fail(
            "bypassActors",
            `${where}: actorId ${actor.actorId} is not a repository role: 1 read, 2 maintain, 3 triage, 4 write, 5 admin`,
          );
        }
        if (actor.bypassMode === "pull_request" && (actor.actorType === "DeployKey" || target !== "branch")) {
          fail(
            "bypassActors",
            `${where}: bypassMode "pull_request" is for branch rulesets, and not for deploy keys`,
          );
        }
      });
    }
    if (target !== undefined && !pending.has("conditions")) {
      const c = inputs.conditions;
      if (target !== "push" && c?.refName === undefined) {
        fail(
          "conditions",
          `conditions.refName is required by a ${target} ruleset: e.g. {include: ["~DEFAULT_BRANCH"]}`,
        );
      }
      if (scope === "org" && (c?.repositoryName === undefined) === (c?.repositoryProperty === undefined)) {
        fail(
          "conditions",
          "conditions must target repositories by exactly one of repositoryName, repositoryProperty",
        );
      }
    }
    return failures;
  };
}
