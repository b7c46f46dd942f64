/**
 * An inventory with one object of most kinds, the writers' shared sample: references, secrets,
 * nested types, text that needs escaping, and both destroy policies.
 */
import { RETAINED } from "../../importer/discover";
import type { Inventory, InventoryItem } from "../../importer/inventory";

const retained = { comment: RETAINED, retainOnDelete: true };
const base = { module: { org: "acme-eng" }, secrets: {}, refs: {}, adopted: retained };
const member = {
  comment:
    'A member before this stack: destroy and removal from code leave the membership (onDestroy: "retain").',
  retainOnDelete: false,
};
export const items: InventoryItem[] = [
  {
    ...base,
    kind: "RunnerGroupRunners",
    id: "acme-eng/5",
    name: "acme-eng-runners-build-members",
    args: { org: "acme-eng", runners: [1, 2] },
    refs: { runnerGroupId: { kind: "OrgRunnerGroup", id: "acme-eng/5", output: "runnerGroupId" } },
  },
  {
    ...base,
    kind: "OrgRunnerGroup",
    id: "acme-eng/5",
    name: "acme-eng-runners-build",
    args: { org: "acme-eng", name: "Build & Test", visibility: "selected", importId: 5 },
  },
  {
    ...base,
    kind: "OrgMembership",
    id: "acme-eng/mona",
    name: "acme-eng-member-mona",
    args: { org: "acme-eng", username: "mona", onDestroy: "retain" },
    adopted: member,
  },
  {
    ...base,
    kind: "IssueField",
    id: "acme-eng/13",
    name: "acme-eng-issue-field-priority",
    args: {
      org: "acme-eng",
      name: "Priority",
      dataType: "single_select",
      options: [
        { name: "High", color: "red" },
        { name: "Low", color: "gray", description: "Some day: maybe" },
      ],
      importId: 13,
    },
  },
  {
    ...base,
    kind: "RepositoryWebhook",
    id: "acme-eng/api/1",
    name: "acme-eng-api-hook-ci-example-com",
    args: {
      owner: "acme-eng",
      repository: "api",
      url: `https://ci.example.com/hook?token=\${literal}`,
      events: [
        "push",
        "pull_request",
        "pull_request_review",
        "pull_request_review_comment",
        "issues",
        "issue_comment",
        "yes",
      ],
      importId: 1,
    },
    secrets: { secret: "acmeEngApiHookCiExampleComSecret" },
  },
  {
    ...base,
    kind: "OrgWebhook",
    id: "acme-eng/3",
    name: "acme-eng-hook-org-example-com",
    args: {
      org: "acme-eng",
      url: "https://org.example.com/hook",
      events: ["organization", "team"],
      importId: 3,
    },
    secrets: { secret: "acmeEngHookOrgExampleComSecret" },
  },
  {
    ...base,
    kind: "RepositoryEnvironment",
    id: "acme-eng/api/release%2Feu",
    name: "acme-eng-api-release-eu",
    args: {
      owner: "acme-eng",
      repository: "api",
      environment: "release/eu",
      waitTimer: 30,
      reviewers: [
        { type: "User", id: 3 },
        { type: "Team", id: 1 },
      ],
      deploymentBranchPolicy: { protectedBranches: false, customBranchPolicies: true },
      branchPolicies: [
        { name: "main", type: "branch" },
        { name: "v*", type: "tag" },
      ],
    },
  },
  {
    ...base,
    kind: "DeploymentProtectionRule",
    id: "acme-eng/api/release%2Feu/9",
    name: "acme-eng-api-release-eu-gate-deploy-gate",
    args: { owner: "acme-eng", repository: "api", integrationId: 101 },
    refs: {
      environment: { kind: "RepositoryEnvironment", id: "acme-eng/api/release%2Feu", output: "environment" },
    },
  },
  {
    ...base,
    kind: "Budget",
    id: "acme/b1",
    name: "acme-budget-acme-eng-actions",
    module: { enterprise: "acme" },
    args: {
      enterprise: "acme",
      amount: 100,
      preventFurtherUsage: false,
      alerting: { willAlert: true, recipients: ["admin", "billie"] },
      scope: "organization",
      type: "ProductPricing",
      entityName: "acme-eng",
      importId: "b1",
    },
  },
  {
    ...base,
    kind: "GlobalWebhook",
    id: "4",
    name: "hook-audit-example-com",
    module: { siteAdmin: true },
    args: { url: "https://audit.example.com/", importId: 4 },
  },
  {
    ...base,
    kind: "UserGpgKey",
    id: "8",
    name: "gpg-key-work",
    module: { user: true },
    args: {
      name: "work",
      armoredPublicKey:
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nxjMEawbJsxYJKwYBBAHaRw8BAQdA\n=Srxg\n-----END PGP PUBLIC KEY BLOCK-----\n",
      importId: 8,
    },
  },
  {
    ...base,
    kind: "Repository",
    id: "acme-eng/api",
    name: "acme-eng-repo-api",
    args: {
      org: "acme-eng",
      name: "api",
      description: 'The API: "v2"',
      visibility: "private",
      hasWiki: false,
      allowMergeCommit: true,
      defaultBranch: "main",
      topics: ["api", "backend"],
      onDestroy: "retain",
    },
    adopted: {
      comment:
        'A repository before this stack: destroy and removal from code leave it (onDestroy: "retain"; adopted repositories are never archived or deleted).',
      retainOnDelete: false,
    },
  },
  {
    ...base,
    kind: "RepositoryDeployKey",
    id: "acme-eng/api/21",
    name: "acme-eng-api-deploy-key-ci",
    args: {
      owner: "acme-eng",
      repository: "api",
      title: "ci",
      key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILFhGaEHtN6jWINaPb8n48AWaGRdyQ+ajr1vMV0mAF8c",
      readOnly: false,
      importId: 21,
    },
  },
  {
    ...base,
    kind: "OrgSettings",
    id: "acme-eng",
    name: "acme-eng-settings",
    args: {
      org: "acme-eng",
      billingEmail: "billing@acme.example",
      defaultRepositoryPermission: "write",
      membersCanCreatePublicRepositories: false,
    },
    adopted: {
      comment:
        "The organisation's settings as they are: destroy and removal from code leave them as they are.",
      retainOnDelete: false,
    },
  },
];
export const inventory: Inventory = {
  format: 1,
  apiRoot: "https://hosting.example.com/api/v3",
  items,
  warnings: [],
  requests: 0,
};
export const options = {
  project: "acme-hosting",
  librarySpec: "0.2.0",
  pulumiVersion: "^3.270.0",
  sdkVersion: "0.2.0",
};

/** A custom property value of a multi select property: a list where the schema allows a string too. */
export const propertyValue: InventoryItem = {
  kind: "OrgPropertyValue",
  id: "acme/acme-eng/regions",
  name: "acme-eng-property-regions",
  module: { enterprise: "acme" },
  args: { org: "acme-eng", propertyName: "regions", value: ["eu", "us"] },
  secrets: {},
  refs: {},
  adopted: { comment: "Kept on destroy.", retainOnDelete: true },
};

/**
 * An organisation ruleset: lists of nested objects (bypass actors, rules, property targets), and
 * rule parameters, a map of the program's camelCase names to values of any shape.
 */
export const ruleset: InventoryItem = {
  kind: "OrgRuleset",
  id: "acme-eng/21",
  name: "acme-eng-ruleset-critical",
  module: { org: "acme-eng" },
  args: {
    org: "acme-eng",
    name: "critical",
    enforcement: "evaluate",
    bypassActors: [
      { actorType: "OrganizationAdmin", bypassMode: "always" },
      { actorType: "Team", actorId: 1, bypassMode: "pull_request" },
    ],
    conditions: {
      refName: { include: ["~DEFAULT_BRANCH"], exclude: [] },
      repositoryProperty: {
        include: [{ name: "tier", propertyValues: ["gold"], source: "custom" }],
        exclude: [],
      },
    },
    rules: [
      { type: "deletion" },
      {
        type: "required_status_checks",
        parameters: {
          requiredStatusChecks: [{ context: "ci/build", integrationId: 101 }],
          strictRequiredStatusChecksPolicy: true,
          doNotEnforceOnCreate: false,
        },
      },
    ],
    importId: 21,
  },
  secrets: {},
  refs: {},
  adopted: { comment: "Kept on destroy.", retainOnDelete: true },
};
