/**
 * `getRepository`: a repository by its owner and name (a former name too: a renamed repository's
 * old name answers 301, which is followed), with the ids other kinds take (`selectedRepositoryIds`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { REPOSITORY_VISIBILITIES, repositoriesRoutes } from "../../api/repositories";
import { fields } from "../internal/check";
import { declareFunction, field, output } from "../internal/declare";
import { clientOf, type FunctionOptions, type InputArgs, outputOf, parseArgs } from "./common";

/** How many renames in a row `getRepository` follows (each rename of a repository leaves a 301). */
export const MAX_REPOSITORY_REDIRECTS = 3;

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

export const getRepositoryFunction = declareFunction({
  name: "getRepository",
  description: `A repository (\`GET /repos/{owner}/{repo}\`), by its name or one an earlier rename left behind (the API's 301 is followed, at most ${MAX_REPOSITORY_REDIRECTS} times): its id (what \`selectedRepositoryIds\` take), names, visibility and default branch. Needs a token that can see the repository (classic \`repo\` for a private one, or the fine-grained permission \`metadata\` read).`,
  args: z.strictObject({
    owner: field(fields.name("owner"), { description: "The organisation or user owning the repository." }),
    repository: field(fields.name("repository"), {
      description: "The repository's name (without `.git`), current or one a rename left behind.",
    }),
  }),
  result: z.object({
    owner: output(z.string(), "The owner asked for."),
    repository: output(z.string(), "The name asked for; `name` is where it led, after following renames."),
    id: output(z.number().int(), "The repository's id: it stays the same across renames."),
    nodeId: output(z.string(), "The repository's node id."),
    name: output(z.string(), "The repository's name now."),
    fullName: output(z.string(), "`owner/name`, as the platform spells it."),
    visibility: output(z.enum(REPOSITORY_VISIBILITIES), "`public`, `private` or `internal`."),
    private: output(z.boolean(), "Whether it is private (internal repositories are too)."),
    archived: output(z.boolean(), "Whether it is archived (read-only)."),
    defaultBranch: output(z.string(), "Its default branch."),
    description: output(z.string().optional(), "Its description, where it has one."),
    topics: output(z.array(z.string()), "Its topics (empty where the answer has none)."),
    htmlUrl: output(z.string(), "Its page."),
    cloneUrl: output(z.string(), "The HTTPS clone URL."),
    sshUrl: output(z.string(), "The SSH clone URL."),
    renamed: output(z.boolean(), "Whether `repository` is an earlier name (the API answered 301)."),
  }),
});

export type GetRepositoryArgs = z.input<typeof getRepositoryFunction.args>;
export type GetRepositoryResult = z.infer<typeof getRepositoryFunction.result>;

// ---------------------------------------------------------------------------------------------
// Function
// ---------------------------------------------------------------------------------------------

/** A repository, following renames. */
export async function getRepository(
  args: GetRepositoryArgs,
  opts?: FunctionOptions,
): Promise<GetRepositoryResult> {
  const a = parseArgs(getRepositoryFunction.name, getRepositoryFunction.args, args);
  const response = await clientOf(opts).get(
    repositoriesRoutes.repositories.get,
    { owner: a.owner, repo: a.repository },
    { followRedirects: MAX_REPOSITORY_REDIRECTS },
  );
  const r = response.data;
  const visibility = (REPOSITORY_VISIBILITIES as readonly string[]).includes(r.visibility ?? "")
    ? (r.visibility as GetRepositoryResult["visibility"])
    : r.private
      ? "private"
      : "public";
  return {
    owner: a.owner,
    repository: a.repository,
    id: r.id,
    nodeId: typeof r.node_id === "string" ? r.node_id : "",
    name: r.name,
    fullName: r.full_name,
    visibility,
    private: r.private,
    archived: r.archived,
    defaultBranch: r.default_branch,
    ...(r.description ? { description: r.description } : {}),
    topics: r.topics ?? [],
    htmlUrl: r.html_url,
    cloneUrl: r.clone_url,
    sshUrl: r.ssh_url,
    renamed: (response.redirectedTo?.length ?? 0) > 0,
  };
}

/** `getRepository` taking Inputs; secret when an input is. */
export function getRepositoryOutput(
  args: InputArgs<GetRepositoryArgs>,
  opts?: FunctionOptions,
): pulumi.Output<GetRepositoryResult> {
  return outputOf(args, (a: GetRepositoryArgs) => getRepository(a, opts));
}
