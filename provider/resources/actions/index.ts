/**
 * Actions secrets and variables of an organisation, a repository and an environment:
 * OrgActionsSecret, RepositoryActionsSecret, EnvironmentActionsSecret, OrgActionsVariable,
 * RepositoryActionsVariable, EnvironmentActionsVariable.
 */
export * from "./environment-actions-secret";
export * from "./environment-actions-variable";
export * from "./org-actions-secret";
export * from "./org-actions-variable";
export * from "./repository-actions-secret";
export * from "./repository-actions-variable";
export { VALUE_SET_OUTSIDE } from "./secret-value";
export type { ActionsVisibility } from "./shared";
