import * as pulumi from "@pulumi/pulumi";
import { declarePrivateRegistries } from "./private-registries";

const config = new pulumi.Config();
export const { npmSecretName, mavenSecretName } = declarePrivateRegistries({
  org: config.get("org") ?? "acme-eng",
  npmUrl: config.get("npmUrl") ?? "https://npm.example.com/registry",
  npmToken: config.getSecret("npmToken") ?? pulumi.secret("change-me"),
  npmRepositoryIds: config.getObject<number[]>("npmRepositoryIds") ?? [1000],
  mavenUrl: config.get("mavenUrl") ?? "https://acme.jfrog.example.com/artifactory/maven",
  jfrogProvider: config.get("jfrogProvider") ?? "hosting",
});
