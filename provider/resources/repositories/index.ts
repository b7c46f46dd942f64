/** Repositories and their deploy keys: Repository and RepositoryDeployKey. */
export * from "./deploy-key";
export * from "./repository";
