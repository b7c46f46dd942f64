/**
 * What the kinds living in environments share: the environment's name as an argument (checked as
 * the platform checks it, URL-encoded in paths and ids), and the list of a repository's
 * environments that discovery reads once per repository for every kind living there.
 */
import { z } from "zod";
import { type ApiEnvironment, ENVIRONMENT_NAME_MAX, ROUTES } from "../../../api";
import type { HostingClient } from "../../client/http";
import type { DiscoveryPlace } from "../../internal/declare";
import { joinId } from "../../internal/ids";

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
  return place.once("environments", () => c.paginate(ROUTES.environments.list, { owner, repo }));
}

/** The id of a RepositoryEnvironment (`owner/repository/environment`, each part URL-encoded). */
export const environmentId = (owner: string, repository: string, environment: string) =>
  joinId(owner, repository, environment);
