/** Self-hosted runner groups: EnterpriseRunnerGroup, OrgRunnerGroup and RunnerGroupRunners. */
export * from "./enterprise-runner-group";
export * from "./org-runner-group";
export * from "./runner-group-runners";
