/** `getBranches` and `getBranch`: a repository's branches, and one branch by a current or former name. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { type apiBranchSchema, gitRoutes } from "../../api/git";
import { fields } from "../internal/check";
import { declareFunction, field, output } from "../internal/declare";
import { clientOf, described, type FunctionOptions, type InputArgs, outputOf, parseArgs } from "./common";
import { pageSize } from "./paging";

/** How many renames in a row `getBranch` follows (each rename of a branch leaves a 301). */
export const MAX_BRANCH_REDIRECTS = 2;

// ---------------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------------

const repositoryArgs = {
  owner: field(fields.name("owner"), { description: "The organisation or user owning the repository." }),
  repository: field(fields.name("repository"), { description: "The repository name (without `.git`)." }),
};

const repositoryResult = {
  owner: output(z.string(), "The repository's owner, as asked for."),
  repository: output(z.string(), "The repository's name, as asked for."),
};

/** A branch's fields, each described: the named `Branch`, and `getBranch`'s result beside its own. */
const branchFields = {
  name: z.string().meta({ description: "The branch's name." }),
  commitSha: z.string().meta({ description: "The sha of the commit the branch points at (`commit.sha`)." }),
  protected: z.boolean().meta({ description: "Whether the branch is protected." }),
};

const branchSchema = z.object(branchFields).meta({ id: "Branch", description: "A branch of a repository." });

export const getBranchesFunction = declareFunction({
  name: "getBranches",
  description:
    "The branches of a repository, every page (`GET /repos/{owner}/{repo}/branches`), optionally only the protected or the unprotected ones. Needs a token that can read the repository.",
  args: z.strictObject({
    ...repositoryArgs,
    protected: field(z.boolean({ error: "protected must be true or false" }).optional(), {
      description: "`true`: protected branches only; `false`: unprotected only; absent: all.",
    }),
    perPage: pageSize,
  }),
  result: z.object({
    ...repositoryResult,
    branches: output(z.array(branchSchema), "The branches, by name, as the API lists them."),
  }),
});

export const getBranchFunction = declareFunction({
  name: "getBranch",
  description: `One branch of a repository (\`GET /repos/{owner}/{repo}/branches/{branch}\`), by its current name or one an earlier rename left behind: the API answers such a name with a 301 to the branch's new address, which is followed (at most ${MAX_BRANCH_REDIRECTS} times). Needs a token that can read the repository.`,
  args: z.strictObject({
    ...repositoryArgs,
    branch: field(
      z
        .string({ error: 'branch is required: a branch name such as "main" or "release/1.0"' })
        .min(1, "branch must not be empty")
        .refine((v) => v.trim() === v && !/[\s~^:?*[\\]|\.\.|^\/|\/$/.test(v), {
          error:
            "branch is not a valid branch name (no spaces, ~ ^ : ? * [ \\ or .., nor a leading or trailing /)",
        }),
      { description: "A branch name (slashes allowed), current or one a rename left behind." },
    ),
  }),
  result: z.object({
    ...repositoryResult,
    requestedName: output(z.string(), "The name asked for; `name` is where it led, after following renames."),
    renamed: output(
      z.boolean(),
      "Whether `requestedName` is an earlier name of the branch (the API answered 301).",
    ),
    ...described(branchFields),
  }),
});

export type GetBranchesArgs = z.input<typeof getBranchesFunction.args>;
export type Branch = z.infer<typeof branchSchema>;
export type GetBranchesResult = z.infer<typeof getBranchesFunction.result>;
export type GetBranchArgs = z.input<typeof getBranchFunction.args>;
export type GetBranchResult = z.infer<typeof getBranchFunction.result>;

// ---------------------------------------------------------------------------------------------
// Functions
// ---------------------------------------------------------------------------------------------

function branchOf(b: z.infer<typeof apiBranchSchema>): Branch {
  return { name: b.name, commitSha: b.commit.sha, protected: b.protected };
}

/** The branches of a repository, every page. */
export async function getBranches(args: GetBranchesArgs, opts?: FunctionOptions): Promise<GetBranchesResult> {
  const a = parseArgs(getBranchesFunction.name, getBranchesFunction.args, args);
  const branches = await clientOf(opts).paginate(
    gitRoutes.branches.list,
    { owner: a.owner, repo: a.repository },
    { query: { protected: a.protected, per_page: a.perPage } },
  );
  return { owner: a.owner, repository: a.repository, branches: branches.map(branchOf) };
}

/**
 * One branch. A name an earlier rename left answers 301 with the branch's new address; that is
 * followed (at most `MAX_BRANCH_REDIRECTS` times) and the result names where it ended.
 */
export async function getBranch(args: GetBranchArgs, opts?: FunctionOptions): Promise<GetBranchResult> {
  const a = parseArgs(getBranchFunction.name, getBranchFunction.args, args);
  const response = await clientOf(opts).get(
    gitRoutes.branches.get,
    { owner: a.owner, repo: a.repository, branch: a.branch },
    { followRedirects: MAX_BRANCH_REDIRECTS },
  );
  return {
    owner: a.owner,
    repository: a.repository,
    requestedName: a.branch,
    renamed: (response.redirectedTo?.length ?? 0) > 0,
    ...branchOf(response.data),
  };
}

/** `getBranches` taking Inputs; secret when an input is. */
export function getBranchesOutput(
  args: InputArgs<GetBranchesArgs>,
  opts?: FunctionOptions,
): pulumi.Output<GetBranchesResult> {
  return outputOf(args, (a: GetBranchesArgs) => getBranches(a, opts));
}

/** `getBranch` taking Inputs; secret when an input is. */
export function getBranchOutput(
  args: InputArgs<GetBranchArgs>,
  opts?: FunctionOptions,
): pulumi.Output<GetBranchResult> {
  return outputOf(args, (a: GetBranchArgs) => getBranch(a, opts));
}
