/**
 * The default fixture: the world the sandbox server starts with (documented in the README). The
 * demo, the tests and anyone trying the library rely on these names and tokens.
 */

import type {
  DependencyAlertRecord,
  DependencyGraphSource,
  IssueRecord,
  PullRequestRecord,
  TeamRecord,
} from "../families/security/seed";
import { securityFixture } from "../families/security/seed";

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

export interface RepoRecord {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  environments: string[];
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

export interface PropertyDefinition {
  name: string;
  valueType: "string" | "single_select" | "multi_select";
  allowedValues?: string[];
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
  // Security and review families (security-seed.ts). Optional: a data file or a fixture written
  // before them has none, and their routes then find nothing.
  /** Teams of organisations (acme-eng: `platform`, with octocat). */
  teams?: TeamRecord[];
  /** Issues with field values; #2 of acme-eng/api transferred, #3 deleted. */
  issues?: IssueRecord[];
  /** Pull requests (#7 of acme-eng/api); copied into the state, where review requests change them. */
  pullRequests?: PullRequestRecord[];
  /** Dependency alerts; copied into the state, where updates change them. */
  dependencyAlerts?: DependencyAlertRecord[];
  /** What the platform detects by itself (automatic submissions, static analysis). */
  dependencyGraph?: DependencyGraphSource[];
  /**
   * The git data of repositories (branches, commit histories, earlier renames, forks), which the
   * branch and statistics routes serve. Commit times are ages, made absolute when the state is
   * created (`freshState`), so the statistics windows hold data whatever the date.
   */
  git: GitSeed[];
  /**
   * Login -> the email addresses the user owns (all verified). A GPG key's email is shown verified
   * when it is one of its owner's. Optional: fixtures written before it have no addresses.
   */
  userEmails?: Record<string, string[]>;
  /**
   * Notification threads at start (spec, concepts, Notification thread): `admin` has three on
   * fixture repositories, two unread; nobody else has any. Optional so a fixture written before
   * notifications (a data file's) still loads.
   */
  notifications?: NotificationSeed[];
}

/** A notification thread of the fixture; the state keeps it as a `StoredThread` (store.ts). */
export interface NotificationSeed {
  /** A decimal integer as a string (the path takes it as an integer, bodies show a string). */
  id: string;
  /** The login of the user the thread belongs to. */
  user: string;
  /** The repository's id (not its name, which an organisation rename changes). */
  repoId: number;
  subject: {
    title: string;
    /** `Issue`, `PullRequest`, ... */
    type: string;
    /** Below the repository's API URL: `issues/1`, `pulls/7`. */
    path: string;
  };
  reason: string;
  unread: boolean;
  updatedAt: string;
  lastReadAt: string | null;
  /** Whether the user takes part directly (assigned, mentioned, reviewing, ...). */
  participating: boolean;
}

/** One commit of a seeded history. */
export interface SeedCommit {
  /** The name branches and other commits use for it; unique across the fixture. */
  id: string;
  /** The login of the author (and committer). */
  author: string;
  /** How long before the state is created the commit was made, in minutes. */
  ageMinutes: number;
  /** The author's UTC offset in minutes east of UTC (`-420` is UTC-07:00). */
  tzOffset: number;
  additions: number;
  deletions: number;
  message: string;
  /** Parent ids; absent: the commit listed just before it (none for the first of a history). */
  parents?: string[];
}

/** A repository's git data in the fixture. */
export interface GitSeed {
  /** `owner/name`. */
  repo: string;
  defaultBranch: string;
  /** The repository this one is a fork of (`owner/name`): what merge-upstream syncs from. */
  upstream?: string;
  /** Its own commits, oldest first (a fork shares its upstream's commits). */
  commits: SeedCommit[];
  /** Branches and the commit id each points at. */
  branches: Array<{ name: string; at: string; protected?: boolean }>;
  /** Renames done before: the old name answers 301 to the new one. */
  renamed: Array<{ from: string; to: string }>;
}

/** UTC offsets of the fixture's commit authors, so punch cards differ from UTC. */
const AUTHOR_OFFSETS: ReadonlyArray<[login: string, tzOffset: number]> = [
  ["olivia", 120],
  ["octocat", -420],
  ["admin", 0],
  ["mona", 330],
  ["hubot", -180],
];

const WEEK_MINUTES = 7 * 24 * 60;

/**
 * acme-eng/api's history: 48 commits on main, one a week or so over the last 48 weeks, by the five
 * authors in turn, each in their own time zone; every eighth a merge of a side commit; #20 empty.
 * Then two commits of `develop` ahead of main. Deterministic, so tests can recompute it.
 */
function apiHistory(): SeedCommit[] {
  const commits: SeedCommit[] = [];
  for (let k = 0; k < 48; k++) {
    const [author, tzOffset] = AUTHOR_OFFSETS[k % AUTHOR_OFFSETS.length] as [string, number];
    const ageMinutes = (47 - k) * WEEK_MINUTES + ((k * 397) % 5000) + 120;
    if (k % 8 === 7) {
      const [sideAuthor, sideOffset] = AUTHOR_OFFSETS[(k + 2) % AUTHOR_OFFSETS.length] as [string, number];
      commits.push({
        id: `api-side-${k}`,
        author: sideAuthor,
        ageMinutes: ageMinutes + 60,
        tzOffset: sideOffset,
        additions: 5 + k,
        deletions: k % 7,
        message: `Feature work ${k}`,
        parents: [`api-${k - 2}`],
      });
      commits.push({
        id: `api-${k}`,
        author,
        ageMinutes,
        tzOffset,
        additions: 5 + k,
        deletions: k % 7,
        message: `Merge branch 'feature-${k}'`,
        parents: [`api-${k - 1}`, `api-side-${k}`],
      });
      continue;
    }
    const empty = k === 20;
    commits.push({
      id: `api-${k}`,
      author,
      ageMinutes,
      tzOffset,
      additions: empty ? 0 : 10 + ((k * 37) % 200),
      deletions: empty ? 0 : (k * 13) % 50,
      message: empty ? "Empty commit to trigger CI" : `Change ${k}`,
      ...(k === 0 ? {} : { parents: [`api-${k - 1}`] }),
    });
  }
  commits.push(
    {
      id: "api-dev-1",
      author: "octocat",
      ageMinutes: 90,
      tzOffset: -420,
      additions: 12,
      deletions: 3,
      message: "Start the next feature",
      parents: ["api-47"],
    },
    {
      id: "api-dev-2",
      author: "mona",
      ageMinutes: 60,
      tzOffset: 330,
      additions: 30,
      deletions: 8,
      message: "Continue the next feature",
    },
  );
  return commits;
}

/** Branches and histories of the fixture's repositories. */
function defaultGit(): GitSeed[] {
  return [
    {
      repo: "acme-eng/api",
      defaultBranch: "main",
      commits: apiHistory(),
      branches: [
        { name: "main", at: "api-47", protected: true },
        { name: "develop", at: "api-dev-2" },
        { name: "release/1.0", at: "api-30" },
      ],
      renamed: [{ from: "legacy", to: "develop" }],
    },
    {
      repo: "acme-eng/web",
      defaultBranch: "main",
      commits: [
        {
          id: "web-0",
          author: "olivia",
          ageMinutes: 30 * 24 * 60,
          tzOffset: 120,
          additions: 120,
          deletions: 0,
          message: "Initial commit",
        },
      ],
      branches: [{ name: "main", at: "web-0" }],
      renamed: [],
    },
    // A private fork of acme-eng/api, made when api's main was at #40: behind its upstream.
    {
      repo: "acme-ops/infra",
      defaultBranch: "main",
      upstream: "acme-eng/api",
      commits: [],
      branches: [{ name: "main", at: "api-40" }],
      renamed: [],
    },
    // No commits: statistics answer 204, participation 404, and there is no branch.
    { repo: "acme-eng/empty", defaultBranch: "main", commits: [], branches: [], renamed: [] },
  ];
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
  // The scopes of routes the sandbox does not model (README, "Sandbox"): the platform's `copilot`
  // and `codespace` under the spec's names (`assistant`, `workspace`), and `gist`.
  "assistant",
  "workspace",
  "gist",
];

export function defaultFixture(): Fixture {
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
    userEmails: Object.fromEntries(
      ["admin", "olivia", "octocat", "mona", "hubot", "billie"].map((login) => [
        login,
        [`${login}@acme.example`],
      ]),
    ),
    notifications: [
      {
        id: "1",
        user: "admin",
        repoId: 1000,
        subject: { title: "Rotate the deploy keys", type: "Issue", path: "issues/1" },
        reason: "assign",
        unread: true,
        updatedAt: "2026-01-12T09:00:00Z",
        lastReadAt: null,
        participating: true,
      },
      {
        id: "2",
        user: "admin",
        repoId: 1000,
        subject: { title: "Add request tracing", type: "PullRequest", path: "pulls/7" },
        reason: "review_requested",
        unread: true,
        updatedAt: "2026-01-14T15:30:00Z",
        lastReadAt: null,
        participating: true,
      },
      {
        id: "3",
        user: "admin",
        repoId: 1002,
        subject: { title: "Upgrade the base images", type: "Issue", path: "issues/4" },
        reason: "subscribed",
        unread: false,
        updatedAt: "2026-01-05T08:00:00Z",
        lastReadAt: "2026-01-06T10:00:00Z",
        participating: false,
      },
    ],
    git: defaultGit(),
    ...securityFixture(),
  };
}
