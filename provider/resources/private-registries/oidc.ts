/**
 * The OIDC settings of a private registry: their declaration and wire names, and the rules
 * that tie them (and the sealed value) to the auth type. OIDC registries authenticate with a
 * federated token and take no value; token and password registries take a value and no OIDC
 * setting.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  isOidcAuthType,
  PRIVATE_REGISTRY_OIDC_SETTINGS,
  type PrivateRegistryAuthType,
  type PrivateRegistryOidcField,
} from "../../../api/private-registries";
import { type ArgsOf, field } from "../../internal/declare";

// ---------------------------------------------------------------------------------------------
// Declaration: the OIDC settings, each an argument of PrivateRegistry (all update in place)
// ---------------------------------------------------------------------------------------------

const setting = (arg: string, description: string) =>
  field(
    z
      .string({ error: `${arg} must be a string` })
      .trim()
      .min(1, `${arg} must not be empty; omit it instead`)
      .optional(),
    { description: `${description} Updates in place.` },
  );

export const oidcInputs = {
  tenantId: setting("tenantId", "Microsoft Entra tenant. Required with `oidc_azure`."),
  clientId: setting("clientId", "Application (client) id. Required with `oidc_azure`."),
  awsRegion: setting("awsRegion", "AWS region of the CodeArtifact domain. Required with `oidc_aws`."),
  accountId: setting("accountId", "AWS account id. Required with `oidc_aws`."),
  roleName: setting("roleName", "IAM role to assume. Required with `oidc_aws`."),
  domain: setting("domain", "CodeArtifact domain. Required with `oidc_aws`."),
  domainOwner: setting("domainOwner", "Account owning the CodeArtifact domain. Required with `oidc_aws`."),
  jfrogOidcProviderName: setting(
    "jfrogOidcProviderName",
    "JFrog OIDC provider name. Required with `oidc_jfrog`.",
  ),
  audience: setting(
    "audience",
    "Token audience. Required with `oidc_cloudsmith`; optional with `oidc_aws`, `oidc_jfrog`, `oidc_gcp`.",
  ),
  identityMappingName: setting("identityMappingName", "JFrog identity mapping. Optional with `oidc_jfrog`."),
  namespace: setting("namespace", "Cloudsmith namespace. Required with `oidc_cloudsmith`."),
  serviceSlug: setting("serviceSlug", "Cloudsmith service slug. Required with `oidc_cloudsmith`."),
  apiHost: setting(
    "apiHost",
    "Cloudsmith API host. Optional with `oidc_cloudsmith` (the vendor's default host otherwise).",
  ),
  workloadIdentityProvider: setting(
    "workloadIdentityProvider",
    "Full resource name of the workload identity provider. Required with `oidc_gcp`.",
  ),
  serviceAccount: setting(
    "serviceAccount",
    "Service account to impersonate. Optional with `oidc_gcp` (the federated token is used directly otherwise).",
  ),
};

const oidcSchema = z.object(oidcInputs);

/** OIDC settings; each applies to the auth types named, and only there. All update in place. */
export type PrivateRegistryOidcArgs = ArgsOf<typeof oidcSchema>;

export type OidcInputs = z.infer<typeof oidcSchema>;

/** Each OIDC argument and its wire name. */
export const OIDC_ARGS = {
  tenantId: "tenant_id",
  clientId: "client_id",
  awsRegion: "aws_region",
  accountId: "account_id",
  roleName: "role_name",
  domain: "domain",
  domainOwner: "domain_owner",
  jfrogOidcProviderName: "jfrog_oidc_provider_name",
  audience: "audience",
  identityMappingName: "identity_mapping_name",
  namespace: "namespace",
  serviceSlug: "service_slug",
  apiHost: "api_host",
  workloadIdentityProvider: "workload_identity_provider",
  serviceAccount: "service_account",
} as const satisfies Record<keyof OidcInputs, PrivateRegistryOidcField>;

export type OidcArg = keyof typeof OIDC_ARGS;
export const OIDC_ARG_NAMES = Object.keys(OIDC_ARGS) as OidcArg[];

// ---------------------------------------------------------------------------------------------
// Rules across fields
// ---------------------------------------------------------------------------------------------

/** The OIDC arguments an auth type requires and accepts (none for token and password). */
export function oidcArgsOf(authType: PrivateRegistryAuthType): { required: OidcArg[]; accepted: OidcArg[] } {
  if (!isOidcAuthType(authType)) return { required: [], accepted: [] };
  const settings = PRIVATE_REGISTRY_OIDC_SETTINGS[authType];
  const argOf = (field: PrivateRegistryOidcField) => OIDC_ARG_NAMES.filter((a) => OIDC_ARGS[a] === field);
  const required = settings.required.flatMap(argOf);
  return { required, accepted: [...required, ...settings.optional.flatMap(argOf)] };
}

/** The auth types that use an OIDC argument, for messages. */
function authTypesUsing(arg: OidcArg): string {
  const types = Object.entries(PRIVATE_REGISTRY_OIDC_SETTINGS)
    .filter(([, s]) => [...s.required, ...s.optional].includes(OIDC_ARGS[arg]))
    .map(([t]) => `"${t}"`);
  return types.join(", ");
}

/**
 * What the auth type asks of the value and the OIDC arguments: token and password registries need
 * a value; OIDC registries take none and need their own settings; a setting of another auth type
 * is refused. Skipped while the auth type is unknown; a rule about an unknown field is skipped.
 */
export function authTypeFailures(
  inputs: OidcInputs & { authType: PrivateRegistryAuthType; value?: string | undefined },
  pending: ReadonlySet<string>,
): pulumi.dynamic.CheckFailure[] {
  if (pending.has("authType")) return [];
  const authType = inputs.authType;
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const oidc = isOidcAuthType(authType);
  if (!pending.has("value")) {
    if (oidc && inputs.value !== undefined) {
      failures.push({
        property: "value",
        reason: `value is not used with authType "${authType}" (OIDC registries store no secret); remove it`,
      });
    } else if (!oidc && inputs.value === undefined) {
      failures.push({
        property: "value",
        reason: `value is required with authType "${authType}": the registry's token or password`,
      });
    }
  }
  const { required, accepted } = oidcArgsOf(authType);
  for (const arg of OIDC_ARG_NAMES) {
    if (pending.has(arg)) continue;
    if (inputs[arg] === undefined && required.includes(arg)) {
      failures.push({ property: arg, reason: `${arg} is required with authType "${authType}"` });
    } else if (inputs[arg] !== undefined && !accepted.includes(arg)) {
      failures.push({
        property: arg,
        reason: `${arg} is used only with authType ${authTypesUsing(arg)}; authType is "${authType}"`,
      });
    }
  }
  return failures;
}

/** The OIDC part of a write: the auth type's settings, null for an optional one left out (clears it). */
export function oidcBody(inputs: OidcInputs, authType: PrivateRegistryAuthType) {
  const body: Partial<Record<PrivateRegistryOidcField, string | null>> = {};
  for (const arg of oidcArgsOf(authType).accepted) body[OIDC_ARGS[arg]] = inputs[arg] ?? null;
  return body;
}

/** The OIDC arguments as the server has them; one the answer leaves out keeps its recorded value. */
export function oidcFromApi(
  api: Partial<Record<PrivateRegistryOidcField, string | null | undefined>>,
  recorded: OidcInputs,
): OidcInputs {
  const values: OidcInputs = {};
  for (const arg of OIDC_ARG_NAMES) {
    const live = api[OIDC_ARGS[arg]];
    values[arg] = live === undefined ? recorded[arg] : (live ?? undefined);
  }
  return values;
}
