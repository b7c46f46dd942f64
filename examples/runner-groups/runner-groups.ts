/**
 * Who may use which self-hosted runners: an enterprise group for deployments, restricted to two
 * workflows and one organisation, and an organisation group for builds with its runner set.
 * Used by this example's program and by the root demo.
 */
import * as hosting from "pulumi-hosting";

export interface RunnerGroupSettings {
  enterprise: string;
  /** Organisation id allowed to use the deployment runners. */
  deployOrgId: number;
  /** Enterprise runner ids reserved for deployments. */
  deployRunners: number[];
  /** Workflow references allowed to deploy. */
  deployWorkflows: string[];
  org: string;
  /** Repository ids allowed to use the build runners. */
  buildRepositoryIds: number[];
  /** Organisation runner ids in the build group. */
  buildRunners: number[];
}

export function declareRunnerGroups(settings: RunnerGroupSettings) {
  const deployers = new hosting.EnterpriseRunnerGroup("deployers", {
    enterprise: settings.enterprise,
    name: "deployers",
    visibility: "selected",
    selectedOrganizationIds: [settings.deployOrgId],
    runners: settings.deployRunners,
    restrictedToWorkflows: true,
    selectedWorkflows: settings.deployWorkflows,
  });
  const builders = new hosting.OrgRunnerGroup("builders", {
    org: settings.org,
    name: "builders",
    visibility: "selected",
    selectedRepositoryIds: settings.buildRepositoryIds,
  });
  new hosting.RunnerGroupRunners("builders-runners", {
    org: settings.org,
    runnerGroupId: builders.runnerGroupId,
    runners: settings.buildRunners,
  });
  return { deployersId: deployers.runnerGroupId, buildersId: builders.runnerGroupId };
}
