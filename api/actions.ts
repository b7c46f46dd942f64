/**
 * Actions secrets and variables of an organisation, a repository and an environment. The spec's
 * permission matrix names these groups (organisation: Secrets, Variables; repository: Secrets,
 * Variables, Environments) without their endpoints: paths, bodies and statuses are those of the
 * platform's published REST description (notes/api.md, "The everyday configuration").
 *
 * - Secret values travel sealed (`api/sealed-box.ts`) for the scope's public key
 *   (`GET .../secrets/public-key`); `PUT .../secrets/{secret_name}` answers 201 when it creates and
 *   204 when it updates. No answer ever carries a value: reads give `name`, `created_at`,
 *   `updated_at` (and the organisation's `visibility`).
 * - Variables are created with `POST` (201) and changed with `PATCH` (204); reads give the value.
 * - Names are stored upper-case and compared case-insensitively; the rules are `ACTIONS_NAME_RULES`.
 */
import { z } from "zod";
import { apiRepositorySummarySchema } from "./meta";
import { itemsOf } from "./pagination";
import { route, STATUS_ONLY } from "./route";

/** Which repositories of the organisation may use an organisation secret or variable. */
export const ACTIONS_VISIBILITIES = ["all", "private", "selected"] as const;
export type ActionsVisibility = (typeof ACTIONS_VISIBILITIES)[number];

/**
 * The prefix no secret or variable name may start with: the platform keeps it for its own (the
 * platform's vendor name, which the spec's neutral naming writes as "service").
 */
export const RESERVED_ACTIONS_PREFIX = "SERVICE_";

/** The most a secret or variable value may hold: 48 KB, as the platform says. */
export const ACTIONS_VALUE_MAX_BYTES = 48 * 1024;

/**
 * Why a secret or variable name is refused, or undefined when the platform takes it: letters,
 * digits and underscores only, not starting with a digit, nor with the reserved prefix (in any
 * case). `what` names the field in the message.
 */
export function actionsNameProblem(name: string, what: string): string | undefined {
  if (name === "") return `${what} must not be empty`;
  if (!/^[A-Za-z0-9_]+$/.test(name)) {
    return `${what} may hold only letters, digits and underscores (no spaces or "-"); got ${JSON.stringify(name)}`;
  }
  if (/^[0-9]/.test(name)) return `${what} must not start with a digit; got ${JSON.stringify(name)}`;
  if (name.toUpperCase().startsWith(RESERVED_ACTIONS_PREFIX)) {
    return `${what} must not start with the reserved prefix ${RESERVED_ACTIONS_PREFIX}; got ${JSON.stringify(name)}`;
  }
  return undefined;
}

/** A name as the platform stores it (and as answers carry it): upper-case. */
export const storedActionsName = (name: string): string => name.toUpperCase();

/** `GET .../secrets/public-key`: the Curve25519 key values are sealed for (base64), and its id. */
export const apiActionsPublicKeySchema = z.object({ key_id: z.string(), key: z.string() });
export type ApiActionsPublicKey = z.infer<typeof apiActionsPublicKeySchema>;

/** A secret as the API shows it: never its value. The organisation's carries its visibility. */
export const apiActionsSecretSchema = z.object({
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  visibility: z.string().optional(),
  selected_repositories_url: z.string().optional(),
});
export type ApiActionsSecret = z.infer<typeof apiActionsSecretSchema>;

/** A variable as the API shows it, value included. The organisation's carries its visibility. */
export const apiActionsVariableSchema = z.object({
  name: z.string(),
  value: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  visibility: z.string().optional(),
  selected_repositories_url: z.string().optional(),
});
export type ApiActionsVariable = z.infer<typeof apiActionsVariableSchema>;

/** What a secret's PUT carries: the sealed value, and the organisation's visibility. */
export interface ApiActionsSecretWrite {
  encrypted_value?: string;
  key_id?: string;
  visibility?: ActionsVisibility;
  selected_repository_ids?: number[];
}

/** What a variable's POST or PATCH carries. */
export interface ApiActionsVariableWrite {
  name: string;
  value: string;
  visibility?: ActionsVisibility;
  selected_repository_ids?: number[];
}

const SECRET = { body: apiActionsSecretSchema } as const;
const SECRET_LIST = { list: apiActionsSecretSchema, select: itemsOf("secrets") } as const;
const VARIABLE = { body: apiActionsVariableSchema } as const;
const VARIABLE_LIST = { list: apiActionsVariableSchema, select: itemsOf("variables") } as const;
const PUBLIC_KEY = { body: apiActionsPublicKeySchema } as const;
const SELECTED_REPOSITORIES = { list: apiRepositorySummarySchema, select: itemsOf("repositories") } as const;

const ORG_SECRETS = "/orgs/{org}/actions/secrets";
const REPO_SECRETS = "/repos/{owner}/{repo}/actions/secrets";
const ENV_SECRETS = "/repos/{owner}/{repo}/environments/{environment_name}/secrets";
const ORG_VARIABLES = "/orgs/{org}/actions/variables";
const REPO_VARIABLES = "/repos/{owner}/{repo}/actions/variables";
const ENV_VARIABLES = "/repos/{owner}/{repo}/environments/{environment_name}/variables";

/** `public-key` comes before `{secret_name}` in each group: the router tries routes in this order. */
export const actionsRoutes = {
  orgActionsSecrets: {
    list: route(`GET ${ORG_SECRETS}`, SECRET_LIST),
    publicKey: route(`GET ${ORG_SECRETS}/public-key`, PUBLIC_KEY),
    get: route(`GET ${ORG_SECRETS}/{secret_name}`, SECRET),
    put: route(`PUT ${ORG_SECRETS}/{secret_name}`, STATUS_ONLY),
    delete: route(`DELETE ${ORG_SECRETS}/{secret_name}`, STATUS_ONLY),
    repositories: route(`GET ${ORG_SECRETS}/{secret_name}/repositories`, SELECTED_REPOSITORIES),
    setRepositories: route(`PUT ${ORG_SECRETS}/{secret_name}/repositories`, STATUS_ONLY),
    addRepository: route(`PUT ${ORG_SECRETS}/{secret_name}/repositories/{repository_id}`, STATUS_ONLY),
    removeRepository: route(`DELETE ${ORG_SECRETS}/{secret_name}/repositories/{repository_id}`, STATUS_ONLY),
  },
  repoActionsSecrets: {
    list: route(`GET ${REPO_SECRETS}`, SECRET_LIST),
    publicKey: route(`GET ${REPO_SECRETS}/public-key`, PUBLIC_KEY),
    get: route(`GET ${REPO_SECRETS}/{secret_name}`, SECRET),
    put: route(`PUT ${REPO_SECRETS}/{secret_name}`, STATUS_ONLY),
    delete: route(`DELETE ${REPO_SECRETS}/{secret_name}`, STATUS_ONLY),
  },
  envActionsSecrets: {
    list: route(`GET ${ENV_SECRETS}`, SECRET_LIST),
    publicKey: route(`GET ${ENV_SECRETS}/public-key`, PUBLIC_KEY),
    get: route(`GET ${ENV_SECRETS}/{secret_name}`, SECRET),
    put: route(`PUT ${ENV_SECRETS}/{secret_name}`, STATUS_ONLY),
    delete: route(`DELETE ${ENV_SECRETS}/{secret_name}`, STATUS_ONLY),
  },
  orgActionsVariables: {
    list: route(`GET ${ORG_VARIABLES}`, VARIABLE_LIST),
    create: route(`POST ${ORG_VARIABLES}`, STATUS_ONLY),
    get: route(`GET ${ORG_VARIABLES}/{name}`, VARIABLE),
    update: route(`PATCH ${ORG_VARIABLES}/{name}`, STATUS_ONLY),
    delete: route(`DELETE ${ORG_VARIABLES}/{name}`, STATUS_ONLY),
    repositories: route(`GET ${ORG_VARIABLES}/{name}/repositories`, SELECTED_REPOSITORIES),
    setRepositories: route(`PUT ${ORG_VARIABLES}/{name}/repositories`, STATUS_ONLY),
    addRepository: route(`PUT ${ORG_VARIABLES}/{name}/repositories/{repository_id}`, STATUS_ONLY),
    removeRepository: route(`DELETE ${ORG_VARIABLES}/{name}/repositories/{repository_id}`, STATUS_ONLY),
  },
  repoActionsVariables: {
    list: route(`GET ${REPO_VARIABLES}`, VARIABLE_LIST),
    create: route(`POST ${REPO_VARIABLES}`, STATUS_ONLY),
    get: route(`GET ${REPO_VARIABLES}/{name}`, VARIABLE),
    update: route(`PATCH ${REPO_VARIABLES}/{name}`, STATUS_ONLY),
    delete: route(`DELETE ${REPO_VARIABLES}/{name}`, STATUS_ONLY),
  },
  envActionsVariables: {
    list: route(`GET ${ENV_VARIABLES}`, VARIABLE_LIST),
    create: route(`POST ${ENV_VARIABLES}`, STATUS_ONLY),
    get: route(`GET ${ENV_VARIABLES}/{name}`, VARIABLE),
    update: route(`PATCH ${ENV_VARIABLES}/{name}`, STATUS_ONLY),
    delete: route(`DELETE ${ENV_VARIABLES}/{name}`, STATUS_ONLY),
  },
} as const;
