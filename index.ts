/**
 * The demo program: the examples' resources declared together, run by `bash scripts/demo.sh`
 * against the sandbox server (see README).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { declareBranchProtections } from "./examples/branch-protection/branch-protection";
import { declareBudgets } from "./examples/budgets/budgets";
import { declarePropertyDefinition } from "./examples/custom-properties/property-definitions";
import { declarePropertyValues } from "./examples/custom-properties/property-values";
import { declareProtectionRules } from "./examples/environments/protection-rules";
import { declareMemberships } from "./examples/memberships/memberships";
import { declareRoleAssignments } from "./examples/org-roles/org-roles";
import { declareOrganization } from "./examples/organizations/organization";
import { declarePrivateRegistries } from "./examples/private-registries/private-registries";
import { declareRulesets } from "./examples/rulesets/rulesets";
import { declareRunnerGroups } from "./examples/runner-groups/runner-groups";
import { declareUserKeys } from "./examples/user-keys/user-keys";
import { declareWebhooks } from "./examples/webhooks/webhooks";

const config = new pulumi.Config();

export const webhooks = declareWebhooks({
  repository: "acme-eng/api",
  ciUrl: "https://ci.example.com/hooks/hosting",
  auditUrl: "https://audit.example.com/hosting",
  ciSecret: config.getSecret("ciSecret") ?? pulumi.secret("demo-signing-secret"),
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
// issue field, and a user it blocks.
export const organization = declareOrganization({
  login: "acme-platform",
  admin: "olivia",
  profileName: "ACME Platform",
  blocked: "hubot",
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
