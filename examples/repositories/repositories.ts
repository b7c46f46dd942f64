/**
 * A repository of an organisation with the settings a platform team cares about, its deploy key,
 * and the ids other kinds need read by name. Used by this example's program and by the root demo.
 *
 * Only the settings declared here are managed: the others stay as the platform or a person set
 * them. Renaming the repository (`name`) renames it in place; destroying the stack archives it
 * (`onDestroy`), and a repository that existed before the stack is never archived or deleted.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

export interface RepositorySettings {
  org: string;
  name: string;
  description: string;
  topics: string[];
  /** A public key line for the CI that deploys from the repository (read-only). */
  deployKey: string;
  /** A login whose id a reviewer list or a bypass list would take. */
  reviewer: string;
}

export function declareRepositories(settings: RepositorySettings): Record<string, pulumi.Output<unknown>> {
  const repository = new hosting.Repository(settings.name, {
    org: settings.org,
    name: settings.name,
    description: settings.description,
    visibility: "private",
    hasWiki: false,
    allowMergeCommit: false,
    allowSquashMerge: true,
    allowRebaseMerge: true,
    deleteBranchOnMerge: true,
    topics: settings.topics,
    autoInit: true,
  });
  const key = new hosting.RepositoryDeployKey(`${settings.name}-ci`, {
    owner: settings.org,
    repository: repository.name,
    title: "ci",
    key: settings.deployKey,
    readOnly: true,
  });
  const reviewer = hosting.getUserOutput({ username: settings.reviewer });
  return {
    repositoryId: repository.repositoryId,
    cloneUrl: repository.cloneUrl,
    deployKeyId: key.keyId,
    reviewerId: reviewer.id,
  };
}
