/** Environments: RepositoryEnvironment, and DeploymentProtectionRule of an environment. */
export * from "./deployment-protection-rule";
export * from "./repository-environment";
