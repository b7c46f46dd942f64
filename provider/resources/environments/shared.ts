/**
 * What the kinds living in environments share: the environment's name as an argument (checked as
 * the platform checks it, URL-encoded in paths and ids), and the list of a repository's
 * environments that discovery reads once per repository for every kind living there.
 */
import { z } from "zod";
import {
  type ApiEnvironment,
  BRANCH_POLICY_TYPES,
  ENVIRONMENT_NAME_MAX,
  environmentsRoutes,
  REVIEWER_TYPES,
} from "../../../api/environments";
import type { HostingClient } from "../../client/http";
import type { DiscoveryPlace } from "../../internal/declare";

/**
 * An environment's name: 1-255 characters, no spaces at either end. `/` and `:` are fine
 * (`release/eu`). A new schema per call: each kind registers its own field.
 */
export function environmentName() {
  return z
    .string({ error: 'environment is required: an environment name such as "production" or "release/eu"' })
    .min(1, "environment must not be empty")
    .max(ENVIRONMENT_NAME_MAX, `environment must be at most ${ENVIRONMENT_NAME_MAX} characters`)
    .refine((v) => v.trim() === v, { error: "environment must not start or end with spaces" })
    .refine((v) => v !== "." && v !== "..", { error: 'environment must not be "." or ".."' });
}

/** Where an object of an environment lives: the repository and the environment. */
export interface EnvironmentPlace {
  owner: string;
  repository: string;
  environment: string;
}

/** The route parameters of an environment. */
export const environmentAt = (w: EnvironmentPlace) => ({
  owner: w.owner,
  repo: w.repository,
  environment_name: w.environment,
});

/** The repository's environments, read once per repository however many kinds ask (discovery). */
export function environmentsAt(c: HostingClient, place: DiscoveryPlace): Promise<ApiEnvironment[]> {
  const owner = place.owner ?? "";
  const repo = place.repo ?? "";
  return place.once("environments", () => c.paginate(environmentsRoutes.environments.list, { owner, repo }));
}

// RepositoryEnvironment's nested objects (named types of the schema).

/** A reviewer of an environment, as RepositoryEnvironment declares it. */
export const reviewer = z
  .object({
    type: z
      .enum(REVIEWER_TYPES, { error: 'reviewers: type must be "User" or "Team"' })
      .meta({ description: '`"User"` or `"Team"`.' }),
    id: z
      .number({ error: "reviewers: id must be the integer id of a user or team" })
      .int("reviewers: id must be an integer")
      .positive("reviewers: id must be positive")
      .meta({ description: "The user's or team's numeric id (the `id` the API shows for it)." }),
  })
  .meta({
    id: "EnvironmentReviewer",
    description: "A user or team who may approve deployments to the environment.",
  });

export const deploymentBranchPolicy = z
  .object({
    protectedBranches: z
      .boolean({ error: "deploymentBranchPolicy: protectedBranches must be a boolean" })
      .meta({ description: "Only branches with branch protection may deploy." }),
    customBranchPolicies: z
      .boolean({ error: "deploymentBranchPolicy: customBranchPolicies must be a boolean" })
      .meta({ description: "Only refs matching `branchPolicies` may deploy." }),
  })
  .meta({
    id: "DeploymentBranchPolicy",
    description:
      "Which refs may deploy: exactly one of `protectedBranches` and `customBranchPolicies` is true.",
  });

export const branchPolicy = z
  .object({
    name: z
      .string({ error: "branchPolicies: name must be a name pattern such as main or release/*" })
      .min(1, "branchPolicies: name must not be empty")
      .max(255, "branchPolicies: name must be at most 255 characters")
      .meta({ description: "The name pattern (`release/*`; `*` does not match `/`)." }),
    type: z
      .enum(BRANCH_POLICY_TYPES, { error: 'branchPolicies: type must be "branch" or "tag"' })
      .default("branch")
      .meta({ description: '`"branch"` (default) or `"tag"`.' }),
  })
  .meta({
    id: "EnvironmentBranchPolicy",
    description: "A name pattern branches (or tags) must match to deploy to the environment.",
  });
