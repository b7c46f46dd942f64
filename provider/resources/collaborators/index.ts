export * from "./repository-collaborator";
export * from "./repository-collaborators";
export type { RepositoryPermission } from "./shared";
