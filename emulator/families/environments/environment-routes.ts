/**
 * Environments (`/repos/{owner}/{repo}/environments[/{environment_name}]`) and their deployment
 * branch policies (`.../deployment-branch-policies[/{branch_policy_id}]`), as the platform's
 * published description has them; who may read and write them: `places.ts`.
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import type { ServerEnv } from "../../core/context";
import { guard } from "../../core/guard";
import { notFound, paginate, pathId, readBody, urlOf } from "../../core/http";
import { createPolicy, findPolicy, policiesOf, renamePolicy, renderPolicy } from "./branch-policies";
import { environmentsOf, putEnvironment, removeEnvironment, renderEnvironment } from "./environments";
import {
  administeredEnvironment,
  administeredRepo,
  type EnvironmentWhere,
  PUBLIC_READ,
  readableEnvironment,
  readableRepoOf,
  WRITE,
} from "./places";
import type { StoredBranchPolicy } from "./state";

const E = ROUTES.environments;
const B = ROUTES.branchPolicies;

export function environmentRoutes(app: Hono<ServerEnv>): void {
  app.get(E.list.pattern, guard(PUBLIC_READ), (c) => {
    const { state, repo } = readableRepoOf(c);
    const all = environmentsOf(state, repo);
    return c.json({
      total_count: all.length,
      environments: paginate(c, all).map((env) => renderEnvironment(c, state, repo, env)),
    });
  });

  app.get(E.get.pattern, guard(PUBLIC_READ), (c) => {
    const { state, repo, environment } = readableEnvironment(c);
    return c.json(renderEnvironment(c, state, repo, environment));
  });

  app.put(E.put.pattern, guard(WRITE), async (c) => {
    const { store, state, repo } = administeredRepo(c);
    const body = await readBody(c);
    const { environment } = putEnvironment(store, repo, c.req.param("environment_name"), body);
    return c.json(renderEnvironment(c, state, repo, environment));
  });

  app.delete(E.delete.pattern, guard(WRITE), (c) => {
    const { store, repo, environment } = administeredEnvironment(c);
    removeEnvironment(store, repo, environment);
    return c.body(null, 204);
  });

  app.get(B.list.pattern, guard(PUBLIC_READ), (c) => {
    const { state, environment } = readableEnvironment(c);
    const all = policiesOf(state, environment);
    return c.json({ total_count: all.length, branch_policies: paginate(c, all).map(renderPolicy) });
  });

  app.post(B.create.pattern, guard(WRITE), async (c) => {
    const { store, repo, environment } = administeredEnvironment(c);
    const body = await readBody(c);
    const { policy, existing } = createPolicy(store, environment, body);
    if (existing) {
      // The platform's answer to a pattern the environment already has: where it is.
      const location = urlOf(c, B.get, {
        owner: repo.owner,
        repo: repo.name,
        environment_name: environment.name,
        branch_policy_id: policy.id,
      });
      return c.body(null, 303, { location });
    }
    return c.json(renderPolicy(policy));
  });

  app.get(B.get.pattern, guard(PUBLIC_READ), (c) =>
    c.json(renderPolicy(findBranchPolicy(c, readableEnvironment(c)))),
  );

  app.put(B.update.pattern, guard(WRITE), async (c) => {
    const where = administeredEnvironment(c);
    const policy = findBranchPolicy(c, where);
    renamePolicy(where.state, where.environment, policy, await readBody(c));
    return c.json(renderPolicy(policy));
  });

  app.delete(B.delete.pattern, guard(WRITE), (c) => {
    const where = administeredEnvironment(c);
    const policy = findBranchPolicy(c, where);
    where.state.branchPolicies = where.state.branchPolicies.filter((p) => p !== policy);
    return c.body(null, 204);
  });
}

function findBranchPolicy(c: Context<ServerEnv>, where: EnvironmentWhere): StoredBranchPolicy {
  const policy = findPolicy(where.state, where.environment, pathId(c, "branch_policy_id"));
  if (!policy) throw notFound();
  return policy;
}
