/**
 * The demo program: the examples' resources declared together, run by `bash scripts/demo.sh`
 * against the sandbox server (see README).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { declareActions } from "./examples/actions/actions";
import { declareBranchProtections } from "./examples/branch-protection/branch-protection";
import { declareBudgets } from "./examples/budgets/budgets";
import { declareCollaborators, declareRepositoryAccess } from "./examples/collaborators/collaborators";
import { declarePropertyDefinition } from "./examples/custom-properties/property-definitions";
import { declarePropertyValues } from "./examples/custom-properties/property-values";
import { declareEnvironment } from "./examples/environments/environments";
import { declareProtectionRules } from "./examples/environments/protection-rules";
import { declareMemberships } from "./examples/memberships/memberships";
import { declareRoleAssignments } from "./examples/org-roles/org-roles";
import { declareOrganization } from "./examples/organizations/organization";
import { declarePrivateRegistries } from "./examples/private-registries/private-registries";
import { declareRepositories } from "./examples/repositories/repositories";
import { declareRulesets } from "./examples/rulesets/rulesets";
import { declareRunnerGroups } from "./examples/runner-groups/runner-groups";
import { declareTeam } from "./examples/teams/teams";
import { declareUserKeys } from "./examples/user-keys/user-keys";
import { declareWebhooks } from "./examples/webhooks/webhooks";

const config = new pulumi.Config();

export const webhooks = declareWebhooks({
  repository: "acme-eng/api",
  ciUrl: "https://ci.example.com/hooks/hosting",
  auditUrl: "https://audit.example.com/hosting",
  ciSecret: config.getSecret("ciSecret") ?? pulumi.secret("demo-signing-secret"),
  // A hook of the organisation acme-eng (the site administrator's token holds admin:org_hook).
  org: "acme-eng",
  securityUrl: "https://security.example.com/hooks/acme-eng",
  securitySecret: config.getSecret("securitySecret") ?? pulumi.secret("demo-security-secret"),
});

export const runnerGroups = declareRunnerGroups({
  enterprise: "acme",
  deployOrgId: 100, // acme-eng
  deployRunners: [7],
  deployWorkflows: ["acme-eng/api/.github/workflows/deploy.yml@refs/heads/main"],
  org: "acme-eng",
  buildRepositoryIds: [1000, 1001], // acme-eng/api, acme-eng/web
  buildRunners: [1, 2],
});

// The demo runs as the site administrator (admin, owner of both organisations). mona is invited;
// destroying the demo leaves her membership as it is.
export const memberships = declareMemberships({
  org: "acme-eng",
  members: [{ username: "mona", role: "member", onDestroy: "retain" }],
});

// deploy-gate (101) guards production and release/eu of acme-eng/api; change-window (102) guards
// production too.
export const protectionRules = declareProtectionRules({
  owner: "acme-eng",
  repository: "api",
  gates: { production: [101, 102], "release/eu": [101] },
});

// A new environment of acme-eng/api, canary: octocat (user 3) approves, main, release/* and v* tags
// deploy after 10 minutes, and deploy-gate (101) must agree. Destroying the demo deletes it.
export const canary = declareEnvironment({
  owner: "acme-eng",
  repository: "api",
  environment: "canary",
  waitTimer: 10,
  reviewers: [{ type: "User", id: 3 }],
  branchPolicies: [
    { name: "main", type: "branch" },
    { name: "release/*", type: "branch" },
    { name: "v*", type: "tag" },
  ],
  gates: [101],
});

// Values of properties the enterprise acme defines (for acme-eng) and acme-eng defines (for its
// repositories). Destroying the demo removes these values and no others.
export const propertyValues = declarePropertyValues({
  org: "acme-eng",
  orgValues: { cost_center: "cc-1234", tier: "gold", regions: ["eu", "us"] },
  repositories: { "acme-eng/api": { tier: "silver", cost_center: "cc-api" } },
});

// Spending limits of enterprise acme: Actions per organisation, alerting acme's billing manager;
// AI credits for mona, which stop at the limit.
export const budgets = declareBudgets({
  enterprise: "acme",
  actionsByOrg: { "acme-eng": 500, "acme-ops": 200 },
  alertRecipients: ["billie", "admin"],
  aiCreditsByUser: { mona: 30 },
});

// The npm token is a demo default like the webhook secret; set your own with
// `pulumi config set --secret registryToken ...`. The server receives it sealed; state keeps a digest.
export const privateRegistries = declarePrivateRegistries({
  org: "acme-eng",
  npmUrl: "https://npm.example.com/registry",
  npmToken: config.getSecret("registryToken") ?? pulumi.secret("demo-registry-token"),
  npmRepositoryIds: [1000], // acme-eng/api
  mavenUrl: "https://acme.jfrog.example.com/artifactory/maven",
  jfrogProvider: "hosting",
});

// The keys of the token's user (admin): the demo public keys of examples/user-keys. Their GPG key's
// address is admin's, so the sandbox shows it verified.
const demoKey = (file: string) => readFileSync(join(__dirname, "examples/user-keys", file), "utf8");
export const userKeys = declareUserKeys({
  gpgKey: demoKey("demo-gpg.asc"),
  gpgKeyName: "demo",
  sshKey: demoKey("demo-ssh.pub"),
  sshKeyTitle: "demo laptop",
  signingKey: demoKey("demo-signing.pub"),
  signingKeyTitle: "demo signing",
});

// A new organisation of the installation (a site administrator's token), its issue types and
// issue field, a user it blocks, and its member policies.
export const organization = declareOrganization({
  login: "acme-platform",
  admin: "olivia",
  profileName: "ACME Platform",
  blocked: "hubot",
});

// Actions secrets and variables of acme-eng, acme-eng/api and its production environment. The
// values are demo defaults like the webhook secret; set your own with `pulumi config set --secret`.
// The server receives them sealed; state keeps a digest of each.
export const actions = declareActions({
  org: "acme-eng",
  repository: "api",
  repositoryId: 1000,
  publishToken: config.getSecret("publishToken") ?? pulumi.secret("demo-publish-token"),
  sentryDsn: config.getSecret("sentryDsn") ?? pulumi.secret("https://demo@sentry.example.com/1"),
  environment: "production",
  databasePassword: config.getSecret("databasePassword") ?? pulumi.secret("demo-database-password"),
  region: "eu-west-1",
});

// A repository of acme-eng with its settings and a deploy key (destroying the demo archives it), and
// the id of a reviewer read by name.
export const repositories = declareRepositories({
  org: "acme-eng",
  name: "payments",
  description: "Payments service",
  topics: ["payments", "backend"],
  deployKey: readFileSync(join(__dirname, "examples/repositories/demo-deploy.pub"), "utf8"),
  reviewer: "octocat",
});

// A team of acme-eng with its whole member list (olivia owns acme-eng: the platform calls her a
// maintainer, the program a member, and nothing shows as a change), pull on acme-eng/web, and a
// team nested under it with one membership of its own.
export const team = declareTeam({
  org: "acme-eng",
  name: "Platform Ops",
  members: [
    { username: "octocat", role: "maintainer" },
    { username: "olivia", role: "member" },
  ],
  repositories: { web: "pull" },
  child: { name: "Platform On-call", member: "octocat" },
});

// The whole direct access of acme-eng/api: octocat, and push for the team above. A person or team
// given access by hand is named by the drift check and removed by the next `up`.
export const apiAccess = declareRepositoryAccess({
  owner: "acme-eng",
  repository: "api",
  users: [{ username: "octocat", permission: "push" }],
  teams: [{ teamSlug: team.slug, permission: "push" }],
}).urn;

// hubot, outside acme-eng, is invited to triage acme-eng/web: pending until he accepts.
export const collaborators = declareCollaborators({
  owner: "acme-eng",
  repository: "web",
  collaborators: { hubot: "triage" },
});

// A repository property acme-eng defines (its value on acme-eng/web), the organisation ruleset of
// the repositories that have it, which waits for the definition through its name, and a ruleset
// of acme-eng/api's release branches in evaluate mode.
export const serviceLevel = declarePropertyDefinition({
  org: "acme-eng",
  propertyName: "service_level",
  valueType: "single_select",
  allowedValues: ["critical", "standard"],
  values: { web: "critical" },
});
export const rulesets = declareRulesets({
  org: "acme-eng",
  byProperty: { name: "critical services", propertyName: serviceLevel.propertyName, values: ["critical"] },
  bypassApps: [101], // deploy-gate
  releases: { owner: "acme-eng", repository: "api", pattern: "refs/heads/release/*" },
});

// Protection of acme-eng/api's release branch (a name with a slash): reviews, a linear history,
// and who may push.
export const branchProtections = declareBranchProtections({
  owner: "acme-eng",
  repository: "api",
  branches: {
    "release/1.0": {
      requiredStatusChecks: { strict: true, contexts: ["ci/build"] },
      requiredPullRequestReviews: { requiredApprovingReviewCount: 1 },
      requiredLinearHistory: true,
      restrictions: { users: ["octocat"], teams: ["platform"] },
    },
  },
});

// The platform team of acme-eng holds the security manager role.
export const roleAssignments = declareRoleAssignments({
  org: "acme-eng",
  teams: { platform: "security_manager" },
  users: {},
});
