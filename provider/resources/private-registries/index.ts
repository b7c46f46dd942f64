/** Private registries: PrivateRegistry. */

export type { PrivateRegistryOidcArgs } from "./oidc";
export * from "./private-registry";
