import { z } from "zod";
import { route, slashed } from "./route";

/** A branch of `GET /repos/{owner}/{repo}/branches` and `.../branches/{branch}`. */
export const apiBranchSchema = z
  .object({
    name: z.string(),
    commit: z.object({ sha: z.string() }).loose(),
    protected: z.boolean(),
  })
  .loose();

const BRANCHES = "/repos/{owner}/{repo}/branches";

export const gitRoutes = {
  branches: {
    list: route(`GET ${BRANCHES}`, { list: apiBranchSchema }),
    get: slashed(route(`GET ${BRANCHES}/{branch}`, { body: apiBranchSchema }), "branch"),
    rename: slashed(route(`POST ${BRANCHES}/{branch}/rename`), "branch"),
    mergeUpstream: route("POST /repos/{owner}/{repo}/merge-upstream"),
    merge: route("POST /repos/{owner}/{repo}/merges"),
  },
} as const;
