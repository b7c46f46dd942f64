/**
 * The rules of a ruleset as the published description has them (`repository-rule`, one type and its
 * `parameters` each): every type, the schema of its parameters on the wire (snake_case, closed to
 * other keys), the defaults the platform fills in, and one check both sides run, so the provider's
 * preview and the sandbox's 422 name the same rule and field. Programs write the parameters in
 * camelCase: `camelKeys` / `snakeKeys` map every key of a value both ways, whatever the rule.
 */
import { z } from "zod";

const patternOperators = ["starts_with", "ends_with", "contains", "regex"] as const;

/** `commit_message_pattern` and the other pattern rules share their parameters. */
const patternParameters = z.strictObject({
  name: z.string().optional(),
  negate: z.boolean().optional(),
  operator: z.enum(patternOperators),
  pattern: z.string().min(1),
});

const nonEmptyNames = z.array(z.string().min(1));

const statusCheck = z.strictObject({
  context: z.string().min(1),
  integration_id: z.number().int().positive().optional(),
});

const workflowFile = z.strictObject({
  path: z.string().min(1),
  ref: z.string().min(1).optional(),
  repository_id: z.number().int().positive(),
  sha: z.string().min(1).optional(),
});

const codeScanningTool = z.strictObject({
  alerts_threshold: z.enum(["none", "errors", "errors_and_warnings", "all"]),
  security_alerts_threshold: z.enum(["none", "critical", "high_or_higher", "medium_or_higher", "all"]),
  tool: z.string().min(1),
});

const reviewDismissalActor = z.strictObject({
  id: z.number().int().positive(),
  type: z.enum(["User", "Team", "IntegrationInstallation", "RepositoryRole"]),
});

const requiredReviewer = z.strictObject({
  file_patterns: nonEmptyNames,
  minimum_approvals: z.number().int().min(0),
  reviewer: z.strictObject({ id: z.number().int().positive(), type: z.enum(["Team"]) }),
});

/**
 * Every rule type of the description, with the schema of its parameters (undefined: the rule takes
 * none). In the description's order.
 */
export const RULE_PARAMETERS = {
  creation: undefined,
  update: z.strictObject({ update_allows_fetch_and_merge: z.boolean() }),
  deletion: undefined,
  required_linear_history: undefined,
  merge_queue: z.strictObject({
    check_response_timeout_minutes: z.number().int().min(1).max(360),
    grouping_strategy: z.enum(["ALLGREEN", "HEADGREEN"]),
    max_entries_to_build: z.number().int().min(0).max(100),
    max_entries_to_merge: z.number().int().min(0).max(100),
    merge_method: z.enum(["MERGE", "SQUASH", "REBASE"]),
    min_entries_to_merge: z.number().int().min(0).max(100),
    min_entries_to_merge_wait_minutes: z.number().int().min(0).max(360),
  }),
  required_deployments: z.strictObject({ required_deployment_environments: nonEmptyNames }),
  required_signatures: undefined,
  pull_request: z.strictObject({
    allowed_merge_methods: z
      .array(z.enum(["merge", "squash", "rebase"]))
      .min(1)
      .optional(),
    dismiss_stale_reviews_on_push: z.boolean(),
    dismissal_restriction: z
      .strictObject({ allowed_actors: z.array(reviewDismissalActor).optional(), enabled: z.boolean() })
      .optional(),
    require_code_owner_review: z.boolean(),
    require_last_push_approval: z.boolean(),
    required_approving_review_count: z.number().int().min(0).max(10),
    required_review_thread_resolution: z.boolean(),
    required_reviewers: z.array(requiredReviewer).optional(),
  }),
  required_status_checks: z.strictObject({
    do_not_enforce_on_create: z.boolean().optional(),
    required_status_checks: z.array(statusCheck),
    strict_required_status_checks_policy: z.boolean(),
  }),
  non_fast_forward: undefined,
  commit_message_pattern: patternParameters,
  commit_author_email_pattern: patternParameters,
  committer_email_pattern: patternParameters,
  branch_name_pattern: patternParameters,
  tag_name_pattern: patternParameters,
  workflows: z.strictObject({
    do_not_enforce_on_create: z.boolean().optional(),
    workflows: z.array(workflowFile),
  }),
  code_scanning: z.strictObject({ code_scanning_tools: z.array(codeScanningTool) }),
  copilot_code_review: z.strictObject({
    review_draft_pull_requests: z.boolean().optional(),
    review_on_push: z.boolean().optional(),
  }),
  file_path_restriction: z.strictObject({ restricted_file_paths: nonEmptyNames }),
  max_file_path_length: z.strictObject({ max_file_path_length: z.number().int().min(1).max(32767) }),
  file_extension_restriction: z.strictObject({ restricted_file_extensions: nonEmptyNames }),
  max_file_size: z.strictObject({ max_file_size: z.number().int().min(1).max(100) }),
} as const satisfies Record<string, z.ZodObject | undefined>;

export type RuleType = keyof typeof RULE_PARAMETERS;
export const RULE_TYPES = Object.keys(RULE_PARAMETERS) as RuleType[];

/** The rules of push rulesets (file contents), which branch and tag rulesets do not take. */
export const PUSH_RULE_TYPES: readonly RuleType[] = [
  "file_path_restriction",
  "max_file_path_length",
  "file_extension_restriction",
  "max_file_size",
];

/** Rules about pull requests and merging, which only branch rulesets take. */
export const BRANCH_ONLY_RULE_TYPES: readonly RuleType[] = [
  "merge_queue",
  "pull_request",
  "required_deployments",
  "code_scanning",
  "copilot_code_review",
  "branch_name_pattern",
];

/** Rules whose parameters may be left out: every parameter of theirs is optional (or the rule has none). */
export function parametersOptional(type: RuleType): boolean {
  const schema: z.ZodObject | undefined = RULE_PARAMETERS[type];
  if (schema === undefined) return true;
  return (
    type === "update" ||
    Object.values(schema.shape).every((s) => (s as z.ZodType).safeParse(undefined).success)
  );
}

/**
 * What the platform fills in for parameters a rule was written without, and answers with
 * afterwards: what both sides compare (the sandbox stores it; the provider reads a program's rule
 * with it), so a rule written without them reads back as the same rule.
 */
export const RULE_PARAMETER_DEFAULTS: Partial<Record<RuleType, Record<string, unknown>>> = {
  pull_request: { allowed_merge_methods: ["merge", "squash", "rebase"] },
  required_status_checks: { do_not_enforce_on_create: false },
  workflows: { do_not_enforce_on_create: false },
  commit_message_pattern: { negate: false },
  commit_author_email_pattern: { negate: false },
  committer_email_pattern: { negate: false },
  branch_name_pattern: { negate: false },
  tag_name_pattern: { negate: false },
};

/** A rule on the wire. */
export interface ApiRule {
  type: string;
  parameters?: Record<string, unknown>;
}

/** A rule with the platform's defaults filled in (the parameters the rule was written without). */
export function withRuleDefaults<R extends ApiRule>(rule: R): R {
  const defaults = RULE_PARAMETER_DEFAULTS[rule.type as RuleType];
  if (defaults === undefined || rule.parameters === undefined) return rule;
  return { ...rule, parameters: { ...defaults, ...rule.parameters } };
}

/** One problem of a rule: where (below the rule, on the wire: `["parameters", "max_file_size"]`) and what. */
export interface RuleProblem {
  path: Array<string | number>;
  message: string;
}

/**
 * What is wrong with a rule (empty when nothing): an unknown type, parameters a type takes none of
 * or needs, and each parameter its schema refuses. Paths are the wire's; messages say what is
 * allowed without naming the path (the caller names it, in its own spelling).
 */
export function ruleProblems(rule: unknown): RuleProblem[] {
  if (typeof rule !== "object" || rule === null || Array.isArray(rule)) {
    return [{ path: [], message: "must be an object {type, parameters?}" }];
  }
  const { type, parameters, ...rest } = rule as Record<string, unknown>;
  const problems: RuleProblem[] = Object.keys(rest).map((key) => ({
    path: [key],
    message: "is not a field of a rule: a rule has a type and parameters",
  }));
  if (typeof type !== "string" || !Object.hasOwn(RULE_PARAMETERS, type)) {
    const given = type === undefined ? "is required" : `${JSON.stringify(type)} is not a rule type`;
    return [...problems, { path: ["type"], message: `${given}; the types are ${RULE_TYPES.join(", ")}` }];
  }
  const schema: z.ZodObject | undefined = RULE_PARAMETERS[type as RuleType];
  if (parameters === undefined || parameters === null) {
    if (!parametersOptional(type as RuleType)) {
      problems.push({ path: ["parameters"], message: `are required by a ${type} rule` });
    }
    return problems;
  }
  if (schema === undefined) {
    return [
      ...problems,
      { path: ["parameters"], message: `are not taken by a ${type} rule; leave them out` },
    ];
  }
  const result = schema.safeParse(parameters, { reportInput: true });
  if (result.success) return problems;
  for (const issue of result.error.issues) {
    const at = ["parameters", ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))];
    if (issue.code === "unrecognized_keys") {
      const known = Object.keys(schema.shape).join(", ");
      for (const key of issue.keys) {
        problems.push({
          path: [...at, key],
          message: `is not a parameter of a ${type} rule (its parameters: ${known})`,
        });
      }
    } else {
      problems.push({ path: at, message: issueMessage(issue) });
    }
  }
  return problems;
}

const KINDS: Record<string, string> = {
  boolean: "true or false",
  number: "a number",
  int: "a whole number",
  string: "a string",
  array: "a list",
  object: "an object",
};

/** What a schema's issue says the value must be, in words (the path is the caller's to name). */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.input === undefined) return "is required";
  switch (issue.code) {
    case "invalid_type":
      return `must be ${KINDS[issue.expected] ?? issue.expected}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_small":
      if (issue.origin === "array") return "must not be empty";
      if (issue.origin === "string") return "must not be empty";
      return `must be at least ${String(issue.minimum)}`;
    case "too_big":
      return `must be at most ${String(issue.maximum)}`;
    default:
      return issue.message;
  }
}

/** `required_status_checks` -> `requiredStatusChecks`. */
export const camelCase = (key: string): string =>
  key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
/** `requiredStatusChecks` -> `required_status_checks`. */
export const snakeCase = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Every object key of a value renamed (lists and nested objects included); other values as they are. */
export function renameKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, rename));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), renameKeys(v, rename)]));
}

/** A program's value (camelCase keys) as the wire has it (snake_case). */
export const snakeKeys = (value: unknown): unknown => renameKeys(value, snakeCase);
/** A wire value (snake_case keys) as a program writes it (camelCase). */
export const camelKeys = (value: unknown): unknown => renameKeys(value, camelCase);
