/**
 * An environment as code: who approves deployments to it, how long a job waits, and which refs
 * may deploy, with the apps that gate it. Used by this example's program and by the root demo.
 */
import * as hosting from "pulumi-hosting";

export interface EnvironmentSettings {
  owner: string;
  repository: string;
  /** The environment's name; it may hold `/` (`release/eu`). */
  environment: string;
  /** Minutes a job waits before it may deploy (0 to 43,200). */
  waitTimer: number;
  /** Who may approve a deployment: users and teams by id, at most six. */
  reviewers: hosting.EnvironmentReviewerArgs[];
  /** Name patterns of the branches (`release/*`) and tags (`v*`) allowed to deploy. */
  branchPolicies: hosting.EnvironmentBranchPolicyArgs[];
  /** Ids of apps to enable as custom deployment protection rules of the environment. */
  gates: number[];
}

/**
 * Declares the environment and its gates. Each gate names the environment through its output, so
 * the engine creates the environment before the rules (and destroys them first).
 */
export function declareEnvironment(settings: EnvironmentSettings) {
  const name = `${settings.repository}-${slug(settings.environment)}`;
  const environment = new hosting.RepositoryEnvironment(name, {
    owner: settings.owner,
    repository: settings.repository,
    environment: settings.environment,
    waitTimer: settings.waitTimer,
    preventSelfReview: true,
    reviewers: settings.reviewers,
    // Only the refs matching `branchPolicies` may deploy.
    deploymentBranchPolicy: { protectedBranches: false, customBranchPolicies: true },
    branchPolicies: settings.branchPolicies,
  });
  const gates = settings.gates.map(
    (integrationId) =>
      new hosting.DeploymentProtectionRule(`${name}-gate-${integrationId}`, {
        owner: settings.owner,
        repository: settings.repository,
        environment: environment.environment,
        integrationId,
      }),
  );
  return { environmentId: environment.environmentId, gateIds: gates.map((gate) => gate.ruleId) };
}

/** Resource names stay readable and free of the `/` an environment name may hold. */
const slug = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, "-");
