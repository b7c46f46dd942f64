/**
 * Deployment branch policies (`.../environments/{environment_name}/deployment-branch-policies`): the
 * name patterns branches or tags must match to deploy to an environment whose
 * `deployment_branch_policy` has `custom_branch_policies`. As the published description has it:
 * creating one on an environment without custom policies is a 404; a pattern the environment
 * already has (same name and type) is a 303 to it; `PUT` renames a pattern, keeping its type.
 */
import { invalidField, missingField, notFound, validationFailed } from "../../core/http";
import { nodeId } from "../../core/render";
import type { EmulatorState, Store } from "../../core/store";
import type { StoredBranchPolicy, StoredEnvironment } from "./state";

const RESOURCE = "DeploymentBranchPolicy";
const NAME_MAX = 255;

export function policiesOf(state: EmulatorState, env: StoredEnvironment): StoredBranchPolicy[] {
  return state.branchPolicies.filter((p) => p.repo === env.repo && p.environment === env.name);
}

export function findPolicy(
  state: EmulatorState,
  env: StoredEnvironment,
  id: number,
): StoredBranchPolicy | undefined {
  return policiesOf(state, env).find((p) => p.id === id);
}

/**
 * `POST`: a new pattern, or the one the environment already has with that name and type
 * (`existing`: the route answers 303 to it).
 */
export function createPolicy(
  store: Store,
  env: StoredEnvironment,
  body: Record<string, unknown>,
): { policy: StoredBranchPolicy; existing: boolean } {
  if (!env.deployment_branch_policy?.custom_branch_policies) throw notFound();
  const name = parseName(body.name);
  const type = body.type ?? "branch";
  if (type !== "branch" && type !== "tag") throw invalidField(RESOURCE, "type", "type must be branch or tag");
  const same = policiesOf(store.state, env).find((p) => p.name === name && p.type === type);
  if (same) return { policy: same, existing: true };
  const policy: StoredBranchPolicy = {
    id: store.nextId(),
    repo: env.repo,
    environment: env.name,
    name,
    type,
  };
  store.state.branchPolicies.push(policy);
  return { policy, existing: false };
}

/** `PUT .../{branch_policy_id}`: a new name for the pattern (its type stays). */
export function renamePolicy(
  state: EmulatorState,
  env: StoredEnvironment,
  policy: StoredBranchPolicy,
  body: Record<string, unknown>,
): void {
  const name = parseName(body.name);
  if (policiesOf(state, env).some((p) => p !== policy && p.name === name && p.type === policy.type)) {
    throw validationFailed({
      resource: RESOURCE,
      field: "name",
      code: "already_exists",
      message: `the environment already has the ${policy.type} pattern ${name}`,
    });
  }
  policy.name = name;
}

function parseName(raw: unknown): string {
  if (raw === undefined || raw === null) throw missingField(RESOURCE, "name");
  if (typeof raw !== "string" || raw.trim() === "" || raw.length > NAME_MAX) {
    throw invalidField(RESOURCE, "name", `name must be a name pattern of 1 to ${NAME_MAX} characters`);
  }
  return raw;
}

export function renderPolicy(policy: StoredBranchPolicy): Record<string, unknown> {
  return {
    id: policy.id,
    node_id: nodeId("DeploymentBranchPolicy", policy.id),
    name: policy.name,
    type: policy.type,
  };
}
