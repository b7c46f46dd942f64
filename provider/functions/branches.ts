/** `getBranches` and `getBranch`: a repository's branches, and one branch by a current or former name. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ROUTES } from "../client/routes";
import type { apiBranchSchema } from "../client/schemas";
import { fields } from "../internal/check";
import { clientOf, type FunctionOptions, type InputArgs, outputOf, parseArgs } from "./common";
import { pageSize } from "./paging";

/** How many renames in a row `getBranch` follows (each rename of a branch leaves a 301). */
export const MAX_BRANCH_REDIRECTS = 2;

export interface GetBranchesArgs {
  owner: string;
  repository: string;
  /** `true`: protected branches only; `false`: unprotected only; absent: all. */
  protected?: boolean;
  /** Page size of the requests (1 to 100, default 100); every page is read whatever it is. */
  perPage?: number;
}

export interface Branch {
  name: string;
  /** The sha of the commit the branch points at (`commit.sha`). */
  commitSha: string;
  protected: boolean;
}

export interface GetBranchesResult {
  owner: string;
  repository: string;
  /** By name, as the API lists them. */
  branches: Branch[];
}

export interface GetBranchArgs {
  owner: string;
  repository: string;
  /** A branch name (slashes allowed), current or one a rename left behind. */
  branch: string;
}

export interface GetBranchResult extends Branch {
  owner: string;
  repository: string;
  /** The name asked for; `name` is where it led, after following renames. */
  requestedName: string;
  /** Whether `requestedName` is an earlier name of the branch (the API answered 301). */
  renamed: boolean;
}

const repositoryArgs = {
  owner: fields.name("owner"),
  repository: fields.name("repository"),
};

const listSchema = z.strictObject({
  ...repositoryArgs,
  protected: z.boolean({ error: "protected must be true or false" }).optional(),
  perPage: pageSize,
});

const getSchema = z.strictObject({
  ...repositoryArgs,
  branch: z
    .string({ error: 'branch is required: a branch name such as "main" or "release/1.0"' })
    .min(1, "branch must not be empty")
    .refine((v) => v.trim() === v && !/[\s~^:?*[\\]|\.\.|^\/|\/$/.test(v), {
      error:
        "branch is not a valid branch name (no spaces, ~ ^ : ? * [ \\ or .., nor a leading or trailing /)",
    }),
});

function branchOf(b: z.infer<typeof apiBranchSchema>): Branch {
  return { name: b.name, commitSha: b.commit.sha, protected: b.protected };
}

/** The branches of a repository, every page. */
export async function getBranches(args: GetBranchesArgs, opts?: FunctionOptions): Promise<GetBranchesResult> {
  const a = parseArgs("getBranches", listSchema, args);
  const branches = await clientOf(opts).paginate(
    ROUTES.branches.list,
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
  const a = parseArgs("getBranch", getSchema, args);
  const response = await clientOf(opts).get(
    ROUTES.branches.get,
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
