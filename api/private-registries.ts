import { z } from "zod";
import { itemsOf } from "./pagination";
import { route, STATUS_ONLY } from "./route";

/** `registry_type` of an organisation private registry (spec, Organization private registries). */
export const PRIVATE_REGISTRY_TYPES = [
  "maven_repository",
  "nuget_feed",
  "goproxy_server",
  "npm_registry",
  "rubygems_server",
  "cargo_registry",
  "composer_repository",
  "docker_registry",
  "git_source",
  "helm_registry",
  "hex_organization",
  "hex_repository",
  "pub_repository",
  "python_index",
  "terraform_registry",
] as const;
export type PrivateRegistryType = (typeof PRIVATE_REGISTRY_TYPES)[number];

/** Which repositories of the organisation may use a private registry. */
export const PRIVATE_REGISTRY_VISIBILITIES = ["all", "private", "selected"] as const;
export type PrivateRegistryVisibility = (typeof PRIVATE_REGISTRY_VISIBILITIES)[number];

/** `auth_type`: fixed at creation. The OIDC ones take no sealed value. */
export const PRIVATE_REGISTRY_AUTH_TYPES = [
  "token",
  "username_password",
  "oidc_azure",
  "oidc_aws",
  "oidc_jfrog",
  "oidc_cloudsmith",
  "oidc_gcp",
] as const;
export type PrivateRegistryAuthType = (typeof PRIVATE_REGISTRY_AUTH_TYPES)[number];
export type PrivateRegistryOidcAuthType = Extract<PrivateRegistryAuthType, `oidc_${string}`>;

/** Every OIDC setting of a private registry, by its wire name. */
export const PRIVATE_REGISTRY_OIDC_FIELDS = [
  "tenant_id",
  "client_id",
  "aws_region",
  "account_id",
  "role_name",
  "domain",
  "domain_owner",
  "jfrog_oidc_provider_name",
  "audience",
  "identity_mapping_name",
  "namespace",
  "service_slug",
  "api_host",
  "workload_identity_provider",
  "service_account",
] as const;
export type PrivateRegistryOidcField = (typeof PRIVATE_REGISTRY_OIDC_FIELDS)[number];

/**
 * The OIDC settings each OIDC auth type requires and accepts (spec, the update body's table). A
 * setting of another auth type is refused: it would be stored and never used.
 */
export const PRIVATE_REGISTRY_OIDC_SETTINGS: Record<
  PrivateRegistryOidcAuthType,
  { required: readonly PrivateRegistryOidcField[]; optional: readonly PrivateRegistryOidcField[] }
> = {
  oidc_azure: { required: ["tenant_id", "client_id"], optional: [] },
  oidc_aws: {
    required: ["aws_region", "account_id", "role_name", "domain", "domain_owner"],
    optional: ["audience"],
  },
  oidc_jfrog: { required: ["jfrog_oidc_provider_name"], optional: ["audience", "identity_mapping_name"] },
  oidc_cloudsmith: { required: ["namespace", "service_slug", "audience"], optional: ["api_host"] },
  oidc_gcp: { required: ["workload_identity_provider"], optional: ["audience", "service_account"] },
};

export function isOidcAuthType(authType: string): authType is PrivateRegistryOidcAuthType {
  return Object.hasOwn(PRIVATE_REGISTRY_OIDC_SETTINGS, authType);
}

/** An OIDC setting as answers carry it (absent or null when unset). */
const oidcSetting = z.string().nullable().optional();

/**
 * A private registry configuration as the API returns it. The spec lists name, registry_type,
 * username, visibility and the timestamps; the platform's answers also carry the URL, auth type,
 * replaces_base, the selected repositories and the OIDC settings, so those are read when present.
 * The value is never returned.
 */
export const apiPrivateRegistrySchema = z.object({
  name: z.string(),
  registry_type: z.string(),
  auth_type: z.string().optional(),
  url: z.string().optional(),
  username: z.string().nullable().optional(),
  replaces_base: z.boolean().optional(),
  visibility: z.string(),
  selected_repository_ids: z.array(z.number().int()).optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  tenant_id: oidcSetting,
  client_id: oidcSetting,
  aws_region: oidcSetting,
  account_id: oidcSetting,
  role_name: oidcSetting,
  domain: oidcSetting,
  domain_owner: oidcSetting,
  jfrog_oidc_provider_name: oidcSetting,
  audience: oidcSetting,
  identity_mapping_name: oidcSetting,
  namespace: oidcSetting,
  service_slug: oidcSetting,
  api_host: oidcSetting,
  workload_identity_provider: oidcSetting,
  service_account: oidcSetting,
});
export type ApiPrivateRegistry = z.infer<typeof apiPrivateRegistrySchema>;

/** `GET /orgs/{org}/private-registries/public-key`: the Curve25519 key values are sealed for (base64). */
export const apiRegistryPublicKeySchema = z.object({ key_id: z.string(), key: z.string() });
export type ApiRegistryPublicKey = z.infer<typeof apiRegistryPublicKeySchema>;

const REGISTRIES = "/orgs/{org}/private-registries";

export const privateRegistriesRoutes = {
  privateRegistries: {
    list: route(`GET ${REGISTRIES}`, { list: apiPrivateRegistrySchema, select: itemsOf("configurations") }),
    create: route(`POST ${REGISTRIES}`, { body: apiPrivateRegistrySchema }),
    publicKey: route(`GET ${REGISTRIES}/public-key`, { body: apiRegistryPublicKeySchema }),
    get: route(`GET ${REGISTRIES}/{secret_name}`, { body: apiPrivateRegistrySchema }),
    update: route(`PATCH ${REGISTRIES}/{secret_name}`, STATUS_ONLY),
    delete: route(`DELETE ${REGISTRIES}/{secret_name}`, STATUS_ONLY),
  },
} as const;
