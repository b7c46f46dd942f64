/**
 * `getBranchRules`: what applies to one branch: the rules of every active ruleset whose conditions
 * hold for it (`GET /repos/{owner}/{repo}/rules/branches/{branch}`, the repository's and its
 * organisation's, each with its ruleset), and the branch's protection.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { branchProtectionRoutes } from "../../api/branch-protection";
import { gitRoutes } from "../../api/git";
import { rulesetsRoutes } from "../../api/rulesets";
import { camelKeys } from "../../api/rulesets/rules";
import { isNotFound, refusedError } from "../client/errors";
import { fields } from "../internal/check";
import { declareFunction, field, output } from "../internal/declare";
import { restrictions, reviews, settingsFromApi, statusChecks } from "../resources/branch-protection/shape";
import { clientOf, type FunctionOptions, type InputArgs, outputOf, parseArgs } from "./common";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

const branchRuleSchema = z
  .object({
    type: z.string().meta({ description: "The rule's type (`deletion`, `pull_request`, ...)." }),
    parameters: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "The rule's parameters, in camelCase; absent for rules that take none." }),
    rulesetSourceType: z
      .enum(["Repository", "Organization"])
      .meta({ description: "Whether the ruleset is the repository's or its organisation's." }),
    rulesetSource: z
      .string()
      .meta({ description: "The ruleset's owner: `owner/repo`, or the organisation." }),
    rulesetId: z.number().int().meta({ description: "The ruleset's id." }),
  })
  .meta({
    id: "BranchRule",
    description: "A rule that applies to a branch, with the ruleset it comes from.",
  });

const protectionSchema = z
  .object({
    requiredStatusChecks: statusChecks
      .optional()
      .meta({ description: "The status checks that must pass; absent when none." }),
    enforceAdmins: z.boolean().meta({ description: "Whether administrators are held to the protection." }),
    requiredPullRequestReviews: reviews
      .optional()
      .meta({ description: "The reviews a pull request needs; absent when none." }),
    restrictions: restrictions
      .optional()
      .meta({ description: "Who may push; absent when anyone with write access may." }),
    requiredLinearHistory: z.boolean().meta({ description: "Whether merge commits are refused." }),
    allowForcePushes: z.boolean().meta({ description: "Whether force pushes are allowed." }),
    allowDeletions: z.boolean().meta({ description: "Whether the branch may be deleted." }),
    requiredConversationResolution: z
      .boolean()
      .meta({ description: "Whether conversations must be resolved before merging." }),
    lockBranch: z.boolean().meta({ description: "Whether the branch is read-only." }),
  })
  .meta({
    id: "BranchProtectionSettings",
    description: "A branch's protection, as `BranchProtection` declares it.",
  });

export const getBranchRulesFunction = declareFunction({
  name: "getBranchRules",
  description:
    "What applies to one branch of a repository: the rules of every active ruleset whose conditions hold for it, the repository's and its organisation's (those targeting the repository by name or by its custom property values), each with its ruleset, as the platform answers `GET /repos/{owner}/{repo}/rules/branches/{branch}` (rulesets in `evaluate` or `disabled` enforcement are not included; the branch need not exist), and the branch's protection (`GET .../branches/{branch}/protection`). Needs a token that can read the repository; reading the protection of a protected branch needs one that administers it (classic scope `repo`, or the fine-grained permission Administration read).",
  args: z.strictObject({
    owner: field(fields.name("owner"), { description: "The organisation or user owning the repository." }),
    repository: field(fields.name("repository"), { description: "The repository name (without `.git`)." }),
    branch: field(
      z
        .string({ error: 'branch is required: a branch name such as "main"' })
        .min(1, "branch must not be empty"),
      {
        description: "The branch (`main`, `release/1.0`).",
      },
    ),
  }),
  result: z.object({
    owner: output(z.string(), "The repository's owner, as asked for."),
    repository: output(z.string(), "The repository's name, as asked for."),
    branch: output(z.string(), "The branch, as asked for."),
    rules: output(
      z.array(branchRuleSchema),
      "The rules that apply, each with its ruleset, in the API's order.",
    ),
    protection: output(
      protectionSchema.optional(),
      "The branch's protection; absent when it is not protected.",
    ),
  }),
});

export type GetBranchRulesArgs = z.input<typeof getBranchRulesFunction.args>;
export type BranchRule = z.infer<typeof branchRuleSchema>;
export type GetBranchRulesResult = z.infer<typeof getBranchRulesFunction.result>;

// ---------------------------------------------------------------------------------------------
// Function
// ---------------------------------------------------------------------------------------------

/** The rules and the protection that apply to `branch` of `owner/repository`. */
export async function getBranchRules(
  args: GetBranchRulesArgs,
  opts?: FunctionOptions,
): Promise<GetBranchRulesResult> {
  const a = parseArgs(getBranchRulesFunction.name, getBranchRulesFunction.args, args);
  const c = clientOf(opts);
  const at = { owner: a.owner, repo: a.repository, branch: a.branch };
  const rules = await c.paginate(rulesetsRoutes.branchRules.get, at);
  let protection: GetBranchRulesResult["protection"];
  try {
    protection = settingsFromApi((await c.get(branchProtectionRoutes.branchProtection.get, at)).data);
  } catch (e) {
    if (!isNotFound(e)) throw e;
    // Not protected, or protected and hidden from a token that does not administer the repository:
    // the branch says which (a branch that does not exist is not protected).
    const branch = await c.get(gitRoutes.branches.get, at).catch((b: unknown) => {
      if (isNotFound(b)) return undefined;
      throw b;
    });
    if (branch?.data.protected) {
      throw refusedError(
        `getBranchRules: ${a.branch} of ${a.owner}/${a.repository} is protected, and the token cannot read its protection`,
        "Use a token that administers the repository (classic scope repo, or the fine-grained permission Administration read)",
      );
    }
  }
  return {
    owner: a.owner,
    repository: a.repository,
    branch: a.branch,
    rules: rules.map((r) => ({
      type: r.type,
      ...(r.parameters === undefined
        ? {}
        : { parameters: camelKeys(r.parameters) as Record<string, unknown> }),
      rulesetSourceType: r.ruleset_source_type,
      rulesetSource: r.ruleset_source,
      rulesetId: r.ruleset_id,
    })),
    ...(protection === undefined ? {} : { protection }),
  };
}

/** `getBranchRules` taking Inputs; secret when an input is. */
export function getBranchRulesOutput(
  args: InputArgs<GetBranchRulesArgs>,
  opts?: FunctionOptions,
): pulumi.Output<GetBranchRulesResult> {
  return outputOf(args, (a: GetBranchRulesArgs) => getBranchRules(a, opts));
}
