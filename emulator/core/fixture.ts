/**
 * The world the sandbox server starts with: its enterprises, users, organisations, repositories,
 * runners, apps and tokens, which every family reads. The families add their own facts to `Fixture`
 * and to the default fixture (families/index.ts). The default world is documented in the README:
 * the demo, the tests and anyone trying the library rely on these names and tokens.
 */

/**
 * The token kinds of the spec (Authentication 1): classic (and OAuth app) tokens, fine-grained
 * personal access tokens, app installation access tokens (IAT) and app user access tokens (UAT: an
 * app acting for a user, governed by the app's permissions as far as the user may go).
 */
export type TokenKind = "classic" | "fine_grained" | "app_installation" | "app_user";

export interface TokenRecord {
  kind: TokenKind;
  /** The user the token acts as (for an installation token, the app's bot login). */
  user: string;
  /** App user tokens: the slug of the app acting for `user`. */
  app?: string;
  /** Classic and OAuth tokens: granted scopes. */
  scopes: string[];
  /** Fine-grained and app tokens: permission group -> level. `*` grants every group. */
  permissions: Record<string, "read" | "write">;
  /** App installation tokens: the organisation the app is installed on. */
  installationOrg?: string;
}

export interface UserRecord {
  id: number;
  login: string;
  name: string;
  siteAdmin: boolean;
  /**
   * Two-factor authentication, as the owners' member filters see it: `disabled` (no 2FA),
   * `insecure` (only insecure methods such as SMS) or `enabled` (the default when absent).
   */
  twoFactor?: "enabled" | "disabled" | "insecure";
}

export interface OrgMember {
  role: "admin" | "member";
  state: "active" | "pending";
  concealed?: boolean;
}

export interface OrgRecord {
  id: number;
  login: string;
  description: string;
  enterprise: string | undefined;
  members: Record<string, OrgMember>;
  /** Custom properties the organisation defines for its repositories. */
  repositoryProperties: PropertyDefinition[];
  /** The display name given at creation (`profile_name` of POST /admin/organizations). */
  profileName?: string;
}

/**
 * A repository of the world: the fixture's, and those made through the API (the repositories
 * family adds, renames and removes them here, as organisations made through the API are added to
 * `orgs`), so every family's look-up finds them.
 */
export interface RepoRecord {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  environments: string[];
  /** Archived: read-only, every write to it is refused (403) until it is unarchived. */
  archived?: boolean;
}

export interface RunnerRecord {
  id: number;
  name: string;
  /** The organisation the runner is registered to, or absent for an enterprise-level runner. */
  org?: string;
  /** The enterprise of an enterprise-level runner. */
  enterprise?: string;
  os: string;
  status: "online" | "offline";
  busy: boolean;
  ephemeral: boolean;
  labels: string[];
}

export interface AppRecord {
  id: number;
  slug: string;
  installedOn: string[];
}

/**
 * A custom property's definition. The fields after `allowedValues` are absent from the fixture's
 * definitions and from data files written before definitions could be managed: absent, they read
 * as not required, no default, no description and `org_actors`.
 */
export interface PropertyDefinition {
  name: string;
  valueType: "string" | "single_select" | "multi_select" | "true_false";
  allowedValues?: string[];
  required?: boolean;
  /** What a repository without a value has (required properties only). */
  defaultValue?: string | string[];
  description?: string;
  valuesEditableBy?: "org_actors" | "org_and_repo_actors";
}

export interface EnterpriseRecord {
  id: number;
  slug: string;
  name: string;
  owners: string[];
  /** Billing managers: they read and write the enterprise's budgets. */
  billingManagers: string[];
  /** Custom properties the enterprise defines for its organisations. */
  properties: PropertyDefinition[];
}

export interface Fixture {
  enterprises: EnterpriseRecord[];
  users: UserRecord[];
  orgs: OrgRecord[];
  repos: RepoRecord[];
  runners: RunnerRecord[];
  apps: AppRecord[];
  tokens: Record<string, TokenRecord>;
}

/** Every classic scope the server knows; the site administrator's token holds them all. */
export const ALL_SCOPES = [
  "repo",
  "admin:org",
  "admin:repo_hook",
  "admin:org_hook",
  "admin:enterprise",
  "manage_runners:enterprise",
  "admin:gpg_key",
  "admin:public_key",
  "admin:ssh_signing_key",
  "security_events",
  "notifications",
  "user",
  "site_admin",
  "delete_repo",
  // The scopes of routes the sandbox does not model (README, "Sandbox"): the platform's `copilot`
  // and `codespace` under the spec's names (`assistant`, `workspace`), and `gist`.
  "assistant",
  "workspace",
  "gist",
];

/** The default fixture's world (documented in the README); the families' facts are added to it. */
export function baseFixture(): Fixture {
  const member = (role: OrgMember["role"]): OrgMember => ({ role, state: "active" });
  return {
    enterprises: [
      {
        id: 1,
        slug: "acme",
        name: "Acme",
        owners: ["admin"],
        billingManagers: ["billie"],
        properties: [
          { name: "cost_center", valueType: "string" },
          { name: "tier", valueType: "single_select", allowedValues: ["gold", "silver", "bronze"] },
          { name: "regions", valueType: "multi_select", allowedValues: ["eu", "us", "apac"] },
        ],
      },
    ],
    users: [
      { id: 1, login: "admin", name: "Site Administrator", siteAdmin: true },
      { id: 2, login: "olivia", name: "Olivia", siteAdmin: false },
      { id: 3, login: "octocat", name: "Octocat", siteAdmin: false, twoFactor: "disabled" },
      { id: 4, login: "mona", name: "Mona", siteAdmin: false },
      { id: 5, login: "hubot", name: "Hubot", siteAdmin: false },
      { id: 6, login: "billie", name: "Billie", siteAdmin: false },
    ],
    orgs: [
      {
        id: 100,
        login: "acme-eng",
        description: "Acme engineering",
        enterprise: "acme",
        members: { admin: member("admin"), olivia: member("admin"), octocat: member("member") },
        repositoryProperties: [
          { name: "cost_center", valueType: "string" },
          { name: "tier", valueType: "single_select", allowedValues: ["gold", "silver", "bronze"] },
        ],
      },
      {
        id: 101,
        login: "acme-ops",
        description: "Acme operations",
        enterprise: "acme",
        members: { admin: member("admin") },
        repositoryProperties: [],
      },
      {
        id: 102,
        login: "solo",
        description: "An organisation outside any enterprise",
        enterprise: undefined,
        members: { admin: member("admin") },
        repositoryProperties: [],
      },
    ],
    repos: [
      {
        id: 1000,
        owner: "acme-eng",
        name: "api",
        private: true,
        environments: ["production", "staging", "release/eu"],
      },
      { id: 1001, owner: "acme-eng", name: "web", private: false, environments: [] },
      { id: 1002, owner: "acme-ops", name: "infra", private: true, environments: [] },
      // A repository without commits (branches, statistics).
      { id: 1003, owner: "acme-eng", name: "empty", private: true, environments: [] },
    ],
    runners: [1, 2, 3, 4, 5, 6, 7, 8].map(
      (id): RunnerRecord => ({
        id,
        name: id <= 6 ? `runner-${id}` : `enterprise-runner-${id}`,
        ...(id <= 4 ? { org: "acme-eng" } : id <= 6 ? { org: "acme-ops" } : { enterprise: "acme" }),
        os: "linux",
        status: id === 4 ? "offline" : "online",
        busy: false,
        ephemeral: false,
        labels: ["self-hosted", "linux", "x64"],
      }),
    ),
    apps: [
      { id: 101, slug: "deploy-gate", installedOn: ["acme-eng"] },
      { id: 102, slug: "change-window", installedOn: ["acme-eng"] },
    ],
    tokens: {
      svcp_siteadmin: { kind: "classic", user: "admin", scopes: ALL_SCOPES, permissions: {} },
      svcp_owner: {
        kind: "classic",
        user: "olivia",
        scopes: ["repo", "admin:org", "admin:repo_hook"],
        permissions: {},
      },
      svcp_member: { kind: "classic", user: "octocat", scopes: ["repo", "read:org"], permissions: {} },
      svcp_noscopes: { kind: "classic", user: "octocat", scopes: [], permissions: {} },
      svcp_billing: {
        kind: "classic",
        user: "billie",
        scopes: ["manage_billing:enterprise"],
        permissions: {},
      },
      svc_pat_admin: { kind: "fine_grained", user: "admin", scopes: [], permissions: { "*": "write" } },
      svcs_install: {
        kind: "app_installation",
        user: "deploy-gate[bot]",
        scopes: [],
        permissions: { deployments: "write", actions: "read", metadata: "read", environments: "read" },
        installationOrg: "acme-eng",
      },
      // deploy-gate acting for octocat (an app user access token): the app's repository
      // permissions, which its installation token has too, plus the user (account) permissions the
      // app requests, which only a user token exercises.
      svcu_user: {
        kind: "app_user",
        user: "octocat",
        app: "deploy-gate",
        scopes: [],
        permissions: {
          deployments: "write",
          actions: "read",
          metadata: "read",
          environments: "read",
          blocking: "write",
          email_addresses: "write",
          followers: "write",
          gists: "write",
          git_ssh_keys: "write",
          gpg_keys: "write",
          interaction_limits: "write",
          plan: "read",
          profile: "write",
          ssh_signing_keys: "write",
          starring: "write",
          watching: "write",
        },
      },
    },
  };
}
