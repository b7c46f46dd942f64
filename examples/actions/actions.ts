/**
 * Actions secrets and variables as code: an organisation secret for selected repositories and an
 * organisation variable, a repository's secret and variable, and an environment's. Secret values
 * are sealed on the client before they are sent; state keeps only a digest of each. Used by this
 * example's program and by the root demo.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

export interface ActionsSettings {
  org: string;
  /** The repository (of `org`) whose secret, variable and environment ones are declared. */
  repository: string;
  /** Its id: the organisation secret is for it alone. */
  repositoryId: number;
  /** The token packages are published with (an organisation secret). */
  publishToken: pulumi.Input<string>;
  /** The error-reporting address of the repository's workflows (a repository secret). */
  sentryDsn: pulumi.Input<string>;
  /** An environment of the repository, and the database password its deployments use. */
  environment: string;
  databasePassword: pulumi.Input<string>;
  /** The cloud region its deployments go to (an environment variable). */
  region: string;
}

export function declareActions(settings: ActionsSettings) {
  const repo = { owner: settings.org, repository: settings.repository };
  const publish = new hosting.OrgActionsSecret("npm-publish-token", {
    org: settings.org,
    secretName: "NPM_PUBLISH_TOKEN",
    value: settings.publishToken,
    visibility: "selected",
    selectedRepositoryIds: [settings.repositoryId],
  });
  const registry = new hosting.OrgActionsVariable("registry-url", {
    org: settings.org,
    name: "REGISTRY_URL",
    value: "https://npm.example.com/registry",
    visibility: "all",
  });
  // Names are stored upper-case: written in lower case, this one is SENTRY_DSN on the platform,
  // and the program keeps showing no change.
  const sentry = new hosting.RepositoryActionsSecret("sentry-dsn", {
    ...repo,
    secretName: "sentry_dsn",
    value: settings.sentryDsn,
  });
  new hosting.RepositoryActionsVariable("node-version", { ...repo, name: "NODE_VERSION", value: "22" });
  const password = new hosting.EnvironmentActionsSecret(`${settings.environment}-db-password`, {
    ...repo,
    environment: settings.environment,
    secretName: "DB_PASSWORD",
    value: settings.databasePassword,
  });
  new hosting.EnvironmentActionsVariable(`${settings.environment}-region`, {
    ...repo,
    environment: settings.environment,
    name: "REGION",
    value: settings.region,
  });
  return {
    publishTokenUpdatedAt: publish.updatedAt,
    registryUrl: registry.value,
    sentrySecretName: sentry.secretName,
    databasePasswordId: password.id,
  };
}
