import * as pulumi from "@pulumi/pulumi";
import { declareActions } from "./actions";

const config = new pulumi.Config();
export const actions = declareActions({
  org: config.get("org") ?? "acme-eng",
  repository: config.get("repository") ?? "api",
  repositoryId: config.getNumber("repositoryId") ?? 1000,
  publishToken: config.getSecret("publishToken") ?? pulumi.secret("change-me"),
  sentryDsn: config.getSecret("sentryDsn") ?? pulumi.secret("https://key@sentry.example.com/1"),
  environment: config.get("environment") ?? "production",
  databasePassword: config.getSecret("databasePassword") ?? pulumi.secret("change-me-too"),
  region: config.get("region") ?? "eu-west-1",
});
