/**
 * PrivateRegistry: a package registry an organisation's dependency updates may use
 * (`/orgs/{org}/private-registries`), with its credential sealed on the client.
 *
 * The value is the one secret the platform can never show back. The provider seals it with
 * libsodium for the organisation's current public key (fetched once per organisation per run,
 * again when the server says the key changed) and keeps neither the plaintext nor the ciphertext:
 * check replaces it by a salted scrypt digest (`internal/secret-digest.ts`), which is what state
 * records under `value`, in inputs and outputs, as a secret. A value changed in code gets a new
 * digest (an update that seals and sends it); an unchanged one keeps the recorded digest (no
 * diff). A value changed outside Pulumi cannot be seen by any client.
 *
 * The secret name is the server's (`NPM_REGISTRY_SECRET`); the id is `org/name`.
 */
import { z } from "zod";
import {
  type ApiPrivateRegistry,
  isOidcAuthType,
  PRIVATE_REGISTRY_AUTH_TYPES,
  PRIVATE_REGISTRY_TYPES,
  PRIVATE_REGISTRY_VISIBILITIES,
  type PrivateRegistryAuthType,
  type PrivateRegistryType,
  type PrivateRegistryVisibility,
} from "../../../api/private-registries";
import { configurationError, knownValue } from "../../client/errors";
import { type CrossFieldRules, fields, selectedIdsFailure, UNKNOWN } from "../../internal/check";
import { client } from "../../internal/context";
import { createWithoutDuplicates, madeSince, PartialCreateError } from "../../internal/creates";
import {
  type ArgsOf,
  declareKind,
  type Found,
  field,
  type OutputsOfKind,
  output,
} from "../../internal/declare";
import { diffFields, lowerCased } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import { digestFor, isDigest, plaintextOf } from "../../internal/secret-digest";
import { authTypeFailures, oidcBody, oidcFromApi, oidcInputs } from "./oidc";
import { type ApiPrivateRegistryWrite, readImport, registryApi } from "./registry-api";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

export type { PrivateRegistryAuthType, PrivateRegistryType, PrivateRegistryVisibility };

const enumOf = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of ${values.map((v) => `"${v}"`).join(", ")}` });

export const privateRegistryKind = declareKind({
  kind: "PrivateRegistry",
  description:
    "A package registry that the organisation's dependency updates may use (`/orgs/{org}/private-registries`), with its credential **sealed on the client**. Needs the token of an organisation owner: classic scope `admin:org`, or the fine-grained permission `organization_private_registries` write.",
  idFormat: ["org", "name"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the registry.",
      replace: true,
    }),
    registryType: field(enumOf("registryType", PRIVATE_REGISTRY_TYPES), {
      description:
        '`"npm_registry"`, `"maven_repository"`, `"docker_registry"`, ... A change replaces the registry.',
      replace: true,
    }),
    url: field(fields.httpUrl("url"), {
      description: "The registry's URL: an absolute http(s) URL. Updates in place.",
    }),
    visibility: field(enumOf("visibility", PRIVATE_REGISTRY_VISIBILITIES), {
      description:
        'Which repositories may use it: `"all"`, `"private"` (private and internal ones) or `"selected"` (those of `selectedRepositoryIds`). Updates in place.',
    }),
    username: field(
      z
        .string({ error: "username must be a string" })
        .min(1, "username must not be empty; omit it instead")
        .optional(),
      { description: "The user to authenticate as; omit it when the registry needs none. Updates in place." },
    ),
    replacesBase: field(z.boolean({ error: "replacesBase must be a boolean" }).default(false), {
      description:
        "Whether this registry replaces the public one of its ecosystem (no fallback), instead of serving scoped packages with fallback allowed. Default false. Updates in place.",
    }),
    // The messages never repeat the value.
    value: field(z.string({ error: "value must be a string" }).min(1, "value must not be empty").optional(), {
      description:
        'The token or password: required with authType `"token"` and `"username_password"`, refused with the OIDC auth types. Sealed on the client for the organisation\'s public key; state keeps only a salted digest of it (a secret), never the value. Changing it updates in place.',
      secret: true,
    }),
    selectedRepositoryIds: field(fields.idList("selectedRepositoryIds").optional(), {
      description:
        'Repository ids that may use it; a set. Only with visibility `"selected"`. Updates in place.',
      set: true,
    }),
    authType: field(enumOf("authType", PRIVATE_REGISTRY_AUTH_TYPES).default("token"), {
      description:
        '`"token"` (default), `"username_password"`, or an OIDC type (`"oidc_azure"`, `"oidc_aws"`, `"oidc_jfrog"`, `"oidc_cloudsmith"`, `"oidc_gcp"`) with its settings. The platform cannot change it: a change replaces the registry.',
      replace: true,
    }),
    ...oidcInputs,
    importId: field(
      z
        .string({ error: "importId must be a secret name such as NPM_REGISTRY_SECRET" })
        .trim()
        .regex(/^[A-Za-z0-9_]+$/, "importId must be a secret name such as NPM_REGISTRY_SECRET")
        .optional(),
      {
        description:
          "Adopt the organisation's existing registry of this secret name (e.g. `NPM_REGISTRY_SECRET`) instead of creating one; it is converged to these args, value included. Only read at create.",
        createOnly: true,
      },
    ),
  }),
  outputs: z.object({
    name: output(z.string(), "The secret name the platform gave the registry, e.g. `NPM_REGISTRY_SECRET`."),
    createdAt: output(z.string(), "When the registry was created, as the server reports it (ISO 8601)."),
    updatedAt: output(z.string(), "When the registry was last changed, as the server reports it (ISO 8601)."),
  }),
  discovery: {
    scope: "org",
    what: ({ org }) => `private registries of ${org}`,
    names: ["{org|module}-registry-{url:host}", "{org|module}-registry-{url:hostpath}"],
    async list(c, { org = "" }): Promise<Found[]> {
      const registries = await registryApi(c).list(org);
      return registries.map((r) => ({
        id: privateRegistryKind.formatId({ org, name: r.name }),
        importId: r.name,
      }));
    },
    // OIDC registries hold no value; token and password ones do, and it cannot be read.
    needsSecret: (inputs) => !isOidcAuthType(String(inputs.authType ?? "token")),
  },
});

export type PrivateRegistryArgs = ArgsOf<typeof privateRegistryKind.inputs>;
export type PrivateRegistryInputs = z.infer<typeof privateRegistryKind.inputs>;
export type PrivateRegistryOutputs = OutputsOfKind<typeof privateRegistryKind>;

// ---------------------------------------------------------------------------------------------
// Rules across fields
// ---------------------------------------------------------------------------------------------

/** Repository ids only with visibility "selected"; the auth type's value and OIDC settings. */
const crossField: CrossFieldRules<PrivateRegistryInputs> = (inputs, pending) => {
  const selected = selectedIdsFailure(inputs, pending, "selectedRepositoryIds");
  return [...(selected ? [selected] : []), ...authTypeFailures(inputs, pending)];
};

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/** What state knows that the API does not say: the org's spelling, the value's digest, importId. */
type Recorded = Partial<PrivateRegistryOutputs> & { org: string };

// Mapped by hand, not from wire paths: a field the answer leaves out keeps its recorded value, not a default.
/**
 * Outputs for the server's registry. A field the answer leaves out (the spec's field list is short)
 * keeps its recorded value; drift in it cannot be seen.
 */
function registryOutputs(recorded: Recorded, api: ApiPrivateRegistry): PrivateRegistryOutputs {
  const visibility = knownValue(
    PRIVATE_REGISTRY_VISIBILITIES,
    api.visibility,
    `private registry ${api.name}`,
    "visibility",
  );
  return compact({
    org: recorded.org,
    importId: recorded.importId,
    registryType: knownValue(
      PRIVATE_REGISTRY_TYPES,
      api.registry_type,
      `private registry ${api.name}`,
      "registry_type",
    ),
    url: api.url ?? recorded.url ?? "",
    visibility,
    username: api.username === undefined ? recorded.username : (api.username ?? undefined),
    replacesBase: api.replaces_base ?? recorded.replacesBase ?? false,
    value: recorded.value,
    selectedRepositoryIds:
      visibility === "selected"
        ? (api.selected_repository_ids ?? recorded.selectedRepositoryIds ?? [])
        : undefined,
    authType:
      api.auth_type === undefined
        ? (recorded.authType ?? "token")
        : knownValue(PRIVATE_REGISTRY_AUTH_TYPES, api.auth_type, `private registry ${api.name}`, "auth_type"),
    ...oidcFromApi(api, recorded),
    name: api.name,
    createdAt: api.created_at ?? "",
    updatedAt: api.updated_at ?? "",
  });
}

/** The whole desired state (the value travels sealed, apart). */
function writeBody(inputs: PrivateRegistryInputs): ApiPrivateRegistryWrite {
  return {
    registry_type: inputs.registryType,
    url: inputs.url,
    visibility: inputs.visibility,
    auth_type: inputs.authType,
    username: inputs.username ?? null,
    replaces_base: inputs.replacesBase,
    ...(inputs.visibility === "selected"
      ? { selected_repository_ids: inputs.selectedRepositoryIds ?? [] }
      : {}),
    ...oidcBody(inputs, inputs.authType),
  };
}

/** Whether the server's registry differs from the inputs in anything it shows (not the value). */
function differs(api: ApiPrivateRegistry, inputs: PrivateRegistryInputs): boolean {
  const live = registryOutputs({ org: inputs.org }, api);
  const result = diffFields(
    privateRegistryKind.rules,
    comparable(live),
    comparable({ ...inputs, value: undefined }),
  );
  return result.changes === true;
}

/** Organisation names are case-insensitive on the platform. */
const comparable = lowerCased<PrivateRegistryInputs>("org");

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = privateRegistryKind.kind;
const parseId = (id: string) => {
  const { org, name } = privateRegistryKind.parseId(id);
  return { org, name };
};

/**
 * The plaintext behind the inputs' digest, seen by check in this process; undefined without a
 * value. A digest with no plaintext at hand (an ignoreChanges on value) can be kept but not sent.
 */
function plaintextFor(inputs: PrivateRegistryInputs, required: boolean): string | undefined {
  if (inputs.value === undefined) return undefined;
  const plaintext = plaintextOf(inputs.value);
  if (plaintext === undefined && required) {
    throw configurationError(
      `${KIND} ${inputs.org}: the value to send is not known to this run (only its digest is), e.g. because of ignoreChanges on value`,
      "Give the value in the program and run pulumi up again",
    );
  }
  return plaintext;
}

export const privateRegistryProvider = defineProvider<
  typeof privateRegistryKind.inputs,
  PrivateRegistryOutputs
>(privateRegistryKind, {
  crossField,
  comparable,
  adoptedId: (inputs) =>
    inputs.importId === undefined
      ? undefined
      : privateRegistryKind.formatId({ org: inputs.org, name: inputs.importId }),

  /**
   * The plaintext value replaced by its digest, so the engine never records the value: the
   * recorded digest is kept while the value matches it (or when the engine hands the recorded
   * digest back, as `ignoreChanges` does). Refused inputs are recorded without the value.
   */
  async recordedInputs(olds, news, failed) {
    const { value, ...rest } = news;
    // Unknown during preview: a placeholder, not the value.
    if (value === undefined || value === UNKNOWN) return news;
    if (failed) return rest;
    const digest =
      value === olds.value && isDigest(value) ? value : await digestFor(String(value), olds.value);
    return { ...rest, value: digest };
  },

  async create(inputs) {
    const c = client();
    const api = registryApi(c);
    const plaintext = plaintextFor(inputs, true);
    let registry: ApiPrivateRegistry;
    let converge: boolean;
    if (inputs.importId !== undefined) {
      registry = await readImport(c, inputs.org, inputs.importId);
      if (registry.auth_type !== undefined && registry.auth_type !== inputs.authType) {
        throw configurationError(
          `importId ${inputs.importId}: the registry's authType is "${registry.auth_type}", the program says "${inputs.authType}"; the platform cannot change it`,
          "Set authType to the registry's, or create a new registry instead of adopting this one",
        );
      }
      // The value cannot be read, so one given is always sent.
      converge = plaintext !== undefined || differs(registry, inputs);
    } else {
      const made = await createWithoutDuplicates(
        () => api.create(inputs.org, writeBody(inputs), plaintext),
        async (startedAt) =>
          (await api.list(inputs.org)).find(
            (r) =>
              r.registry_type === inputs.registryType &&
              (r.url === undefined || r.url === inputs.url) &&
              madeSince(r.created_at, startedAt),
          ),
      );
      registry = made.value;
      converge = made.adopted && differs(registry, inputs);
    }
    const id = privateRegistryKind.formatId({ org: inputs.org, name: registry.name });
    if (!converge) return { id, outs: registryOutputs(inputs, registry) };
    try {
      await api.update(inputs.org, registry.name, writeBody(inputs), plaintext);
      return { id, outs: registryOutputs(inputs, await api.get(inputs.org, registry.name)) };
    } catch (e) {
      throw new PartialCreateError(id, registryOutputs(inputs, registry), e);
    }
  },

  async read(id, props) {
    const { org, name } = parseId(id);
    const registry = await readOrGone(() => registryApi(client()).get(org, name));
    if (!registry) return {};
    return { id, props: registryOutputs({ ...props, org: props?.org ?? org }, registry) };
  },

  async update(id, olds, news) {
    const { org, name } = parseId(id);
    const api = registryApi(client());
    // A new digest means a new value, which must be sent; an unchanged one is sent when at hand.
    const plaintext = plaintextFor(news, news.value !== olds.value);
    await api.update(org, name, writeBody(news), plaintext);
    // PATCH answers 204 without a body: read the result once.
    return { outs: registryOutputs(news, await api.get(org, name)) };
  },

  async delete(id) {
    const { org, name } = parseId(id);
    await deleteIgnoringGone(() => registryApi(client()).delete(org, name));
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/**
 * A package registry that the organisation's dependency updates may use: see its declaration,
 * `privateRegistryKind`. Example: `examples/private-registries/`. The value is a secret input, so
 * the engine encrypts what check leaves in its place (the digest).
 */
export class PrivateRegistry extends resourceClass<PrivateRegistryArgs, PrivateRegistryOutputs>(
  privateRegistryProvider,
) {}
