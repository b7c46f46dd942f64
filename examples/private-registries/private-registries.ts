/**
 * Private registries as code: an npm registry with a token for selected repositories, and a Maven
 * repository reached through OIDC (no stored secret). Used by this example's program and by the
 * root demo.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

export interface RegistrySettings {
  org: string;
  npmUrl: string;
  /** The npm token. Sealed for the organisation before it is sent; state keeps only a digest. */
  npmToken: pulumi.Input<string>;
  /** Repositories that may use the npm registry. */
  npmRepositoryIds: number[];
  mavenUrl: string;
  /** The JFrog OIDC provider the Maven repository trusts. */
  jfrogProvider: string;
}

export function declarePrivateRegistries(settings: RegistrySettings) {
  const npm = new hosting.PrivateRegistry("npm", {
    org: settings.org,
    registryType: "npm_registry",
    url: settings.npmUrl,
    visibility: "selected",
    selectedRepositoryIds: settings.npmRepositoryIds,
    value: settings.npmToken,
    replacesBase: true,
  });
  const maven = new hosting.PrivateRegistry("maven", {
    org: settings.org,
    registryType: "maven_repository",
    url: settings.mavenUrl,
    visibility: "private",
    authType: "oidc_jfrog",
    jfrogOidcProviderName: settings.jfrogProvider,
  });
  return { npmSecretName: npm.name, mavenSecretName: maven.name };
}
