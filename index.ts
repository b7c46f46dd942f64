/**
 * The demo program: the examples' resources declared together, run by `bash scripts/demo.sh`
 * against the sandbox server (see README).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { declareBudgets } from "./examples/budgets/budgets";
import { declareCollaborators } from "./examples/collaborators/collaborators";
import { declarePropertyValues } from "./examples/custom-properties/property-values";
import { declareProtectionRules } from "./examples/environments/protection-rules";
import { declareMemberships } from "./examples/memberships/memberships";
import { declareOrganization } from "./examples/organizations/organization";
import { declarePrivateRegistries } from "./examples/private-registries/private-registries";
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

// A team of acme-eng with its whole member list (olivia owns acme-eng: the platform calls her a
// maintainer, the program a member, and nothing shows as a change) and push on acme-eng/api.
export const team = declareTeam({
  org: "acme-eng",
  name: "Platform Ops",
  members: [
    { username: "octocat", role: "maintainer" },
    { username: "olivia", role: "member" },
  ],
  repositories: { api: "push" },
});

// hubot, outside acme-eng, is invited to triage acme-eng/web: pending until he accepts.
export const collaborators = declareCollaborators({
  owner: "acme-eng",
  repository: "web",
  collaborators: { hubot: "triage" },
});
