/**
 * One stack declaring every kind, through the real Pulumi CLI against the sandbox server: what only
 * the engine shows. Create; a refresh preview with its requests per route, exactly (a request of a
 * plain preview's check or diff would be one more there); one batch of changes made outside Pulumi,
 * then one `preview --refresh --diff` that names every drifted field (and none of the changes that
 * are not drift); convergence; token rotation and `--run-program`; one batch of deletions made
 * outside Pulumi, refresh and recreation (with a registry value changed in code and sealed for a
 * rotated key); budgets turned off; the last-admin guard; a change of an organisation's admin
 * refused at preview; a repository and an organisation renamed in place (the up waits for the
 * platform's rename job); and destroy applying each membership's and repository's onDestroy,
 * leaving the organisation and saying so. Bad input is checked in process
 * (test/provider/resources/*); one preview here (a bad key line) shows how the engine prints a
 * check failure.
 * The program is rewritten between steps (`declare`), which costs no CLI invocation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultFixture, type RunningEmulator, startEmulator } from "../../emulator/index";
import { gpgPublicKey, sshPublicKey } from "../emulator/helpers";
import { ORG_BUDGET_ARGS, USER_BUDGET_ARGS } from "../provider/resources/budget-args";
import { PulumiProgram, type RunResult, requirePulumi } from "./pulumi";

/** What changes made outside Pulumi use. */
const TOKEN = "svcp_siteadmin";
/** The stack's token: the site administrator's too, revoked and replaced by NEW_TOKEN in the rotation step. */
const OLD_TOKEN = "svcp_rotation_old";
const NEW_TOKEN = "svcp_rotation_new";
const HOOK_SECRET = "e2e-hook-secret-4f1c";
const GLOBAL_SECRET = "e2e-global-secret-9a2b";
const ORG_SECRET = "e2e-org-secret-5d7e";
const FIRST_VALUE = "e2e-registry-token-31c9";
const SECOND_VALUE = "e2e-registry-token-rotated-8e04";
/** Actions secret values: an organisation's, a repository's, an environment's. */
const PUBLISH_VALUE = "e2e-publish-token-62d0";
const SENTRY_VALUE = "e2e-sentry-dsn-0b7e";
const DB_VALUE = "e2e-db-password-c4a1";
const W1 = "acme-eng/api/.github/workflows/deploy.yml@refs/heads/main";
const W2 = "acme-eng/web/.github/workflows/deploy.yml@refs/heads/main";
const BUDGETS = "/enterprises/acme/settings/billing/budgets";
const REGISTRIES = "/orgs/acme-eng/private-registries";

interface Options {
  /** The app of the protection rule (101 unless given). */
  integrationId?: number;
  /** acme-ops's only admin, declared with this role and onDestroy (absent: not declared). */
  opsAdmin?: { role: "admin" | "member"; onDestroy?: "remove" | "retain" };
}

/** The program: every kind, with `options` varying what the guard steps need. */
function programOf(options: Options = {}): string {
  const admin = options.opsAdmin
    ? `new hosting.OrgMembership("ops-admin", ${JSON.stringify({ org: "acme-ops", username: "admin", ...options.opsAdmin })});`
    : "";
  // `secret` from its own module: the SDK's index also loads the Automation API and the closure
  // serialiser, about 0.3 CPU-s of each of this file's thirty program runs.
  return `
const { secret } = require("@pulumi/pulumi/output");
const hosting = require("pulumi-hosting");
const ci = new hosting.RepositoryWebhook("ci", {
  owner: "acme-eng", repository: "api", url: "https://ci.example.com/hook", contentType: "json",
  secret: "${HOOK_SECRET}", events: ["push", "pull_request"],
});
new hosting.RepositoryWebhook("ci-other", { owner: "acme-eng", repository: "api", url: "https://ci.example.com/other" });
new hosting.GlobalWebhook("audit", {
  url: "https://audit.example.com/hook", secret: "${GLOBAL_SECRET}", events: ["organization", "user", "repository"],
});
new hosting.EnterpriseRunnerGroup("deployers", {
  enterprise: "acme", name: "deployers", visibility: "selected", selectedOrganizationIds: [100], runners: [7],
  restrictedToWorkflows: true, selectedWorkflows: ["${W1}", "${W2}"],
});
const builders = new hosting.OrgRunnerGroup("builders", {
  org: "acme-eng", name: "builders", visibility: "selected", selectedRepositoryIds: [1000],
});
new hosting.RunnerGroupRunners("builders-runners", { org: "acme-eng", runnerGroupId: builders.runnerGroupId, runners: [1, 2] });
// The default group of acme-ops, adopted to change a setting; destroy must leave it in place.
new hosting.OrgRunnerGroup("ops-default", { org: "acme-ops", name: "Default", importId: 3, allowsPublicRepositories: true });
new hosting.OrgMembership("mona", { org: "acme-eng", username: "mona" });
new hosting.OrgMembership("octocat", { org: "acme-eng", username: "octocat", role: "admin", onDestroy: "downgrade" });
new hosting.OrgMembership("hubot", { org: "acme-ops", username: "hubot", onDestroy: "retain" });
${admin}
new hosting.OrgPropertyValue("cost", { org: "acme-eng", propertyName: "cost_center", value: "cc-1234" });
new hosting.OrgPropertyValue("tier", { org: "acme-eng", propertyName: "tier", value: "gold" });
new hosting.OrgPropertyValue("regions", { org: "acme-eng", propertyName: "regions", value: ["eu", "us"] });
new hosting.RepositoryPropertyValue("api-tier", { owner: "acme-eng", repository: "api", propertyName: "tier", value: "silver" });
new hosting.RepositoryPropertyValue("api-cost", { owner: "acme-eng", repository: "api", propertyName: "cost_center", value: "cc-api" });
const gate = new hosting.DeploymentProtectionRule("release-gate", {
  owner: "acme-eng", repository: "api", environment: "release/eu", integrationId: ${options.integrationId ?? 101},
});
new hosting.Budget("actions", ${JSON.stringify(ORG_BUDGET_ARGS)});
new hosting.Budget("mona-credits", ${JSON.stringify(USER_BUDGET_ARGS)});
new hosting.PrivateRegistry("npm", {
  org: "acme-eng", registryType: "npm_registry", url: "https://npm.example.com/registry",
  visibility: "selected", selectedRepositoryIds: [1000], username: "ci-bot",
  value: secret(process.env.REGISTRY_VALUE),
});
new hosting.PrivateRegistry("maven", {
  org: "acme-eng", registryType: "maven_repository", url: "https://jfrog.example.com/maven",
  visibility: "all", authType: "oidc_jfrog", jfrogOidcProviderName: "acme",
});
${keysProgram()}
// An organisation of its own (the site administrator's), issue types and a field of acme-eng, a block.
new hosting.Organization("platform", { login: ${JSON.stringify(organization.login)}, admin: ${JSON.stringify(organization.admin)}, profileName: "ACME Platform" });
new hosting.IssueType("bug", { org: "acme-eng", name: "Bug", color: "red" });
new hosting.IssueType("task", { org: "acme-eng", name: "Task", description: "A piece of work" });
new hosting.IssueField("priority", {
  org: "acme-eng", name: "Priority", dataType: "single_select",
  options: [{ name: "High", color: "red" }, { name: "Low", color: "gray" }],
});
new hosting.OrgBlock("block-billie", { org: "acme-eng", username: "billie" });
// Actions secrets and variables of acme-eng, acme-eng/api and two of its environments; one name in
// lower case (the platform stores NPM_PUBLISH_TOKEN).
new hosting.OrgActionsSecret("publish-token", {
  org: "acme-eng", secretName: "npm_publish_token", value: "${PUBLISH_VALUE}",
  visibility: "selected", selectedRepositoryIds: [1000],
});
new hosting.OrgActionsVariable("registry-url", {
  org: "acme-eng", name: "REGISTRY_URL", value: "https://npm.example.com/registry", visibility: "all",
});
new hosting.RepositoryActionsSecret("sentry-dsn", { owner: "acme-eng", repository: "api", secretName: "SENTRY_DSN", value: "${SENTRY_VALUE}" });
new hosting.RepositoryActionsVariable("node-version", { owner: "acme-eng", repository: "api", name: "NODE_VERSION", value: "22" });
new hosting.EnvironmentActionsSecret("db-password", {
  owner: "acme-eng", repository: "api", environment: "production", secretName: "DB_PASSWORD", value: "${DB_VALUE}",
});
new hosting.EnvironmentActionsVariable("eu-region", {
  owner: "acme-eng", repository: "api", environment: "release/eu", name: "REGION", value: "eu-west-1",
});
// An organisation hook; an environment with a reviewer (olivia, an owner: octocat leaves acme-eng
// in a later step) and its patterns, gated by an app that names it through its output (created
// after it, destroyed before it).
new hosting.OrgWebhook("org-hook", {
  org: "acme-eng", url: "https://org.example.com/hook", secret: "${ORG_SECRET}", events: ["organization", "team"],
});
const canary = new hosting.RepositoryEnvironment("canary", {
  owner: "acme-eng", repository: "api", environment: "canary/eu", waitTimer: 5,
  reviewers: [{ type: "User", id: 2 }],
  deploymentBranchPolicy: { protectedBranches: false, customBranchPolicies: true },
  branchPolicies: [{ name: "main" }, { name: "v*", type: "tag" }],
});
new hosting.DeploymentProtectionRule("canary-gate", {
  owner: "acme-eng", repository: "api", environment: canary.environment, integrationId: 101,
});
${repositoriesProgram()}
// A team, a closed team nested under it, the team's whole member list (olivia, an owner, declared a
// member) and its role on acme-eng/web; olivia in the fixture's team; octocat (outside acme-ops)
// invited to acme-ops/infra; the whole direct access of acme-eng/api (mona is invited: she is not
// in acme-eng yet).
const squad = new hosting.Team("squad", { org: "acme-eng", name: "Squad", description: "The e2e team", privacy: "closed" });
new hosting.Team("squad-child", { org: "acme-eng", name: "Squad Child", privacy: "closed", parentTeamId: squad.teamId });
new hosting.TeamMembers("squad-members", {
  org: "acme-eng", teamSlug: squad.slug, members: [{ username: "octocat", role: "maintainer" }, { username: "olivia" }],
});
new hosting.TeamMembership("platform-olivia", { org: "acme-eng", teamSlug: "platform", username: "olivia" });
new hosting.TeamRepository("squad-web", { org: "acme-eng", teamSlug: squad.slug, repository: "web", permission: "push" });
new hosting.RepositoryCollaborator("infra-octocat", { owner: "acme-ops", repository: "infra", username: "octocat" });
new hosting.RepositoryCollaborators("api-access", {
  owner: "acme-eng", repository: "api", users: [{ username: "mona", permission: "triage" }],
  teams: [{ teamSlug: "platform", permission: "pull" }],
});
// A property acme-eng defines, a value of it (set once it exists), the rulesets, a protection of a
// branch whose name holds a slash, and a role of the platform team.
const level = new hosting.OrgCustomProperty("service-level", {
  org: "acme-eng", propertyName: "service_level", valueType: "single_select", allowedValues: ["critical", "standard"],
});
new hosting.RepositoryPropertyValue("web-level", { owner: "acme-eng", repository: "web", propertyName: level.propertyName, value: "critical" });
new hosting.OrgRuleset("critical", {
  org: "acme-eng", name: "critical", enforcement: "active", bypassActors: [{ actorType: "OrganizationAdmin" }],
  conditions: { refName: { include: ["~DEFAULT_BRANCH"] }, repositoryProperty: { include: [{ name: level.propertyName, propertyValues: ["critical"] }] } },
  rules: [{ type: "deletion" }, { type: "required_status_checks", parameters: { requiredStatusChecks: [{ context: "ci/build" }, { context: "ci/test" }], strictRequiredStatusChecksPolicy: true } }],
});
new hosting.RepositoryRuleset("releases", {
  owner: "acme-eng", repository: "api", name: "releases", enforcement: "evaluate",
  conditions: { refName: { include: ["refs/heads/release/*"] } }, rules: [{ type: "non_fast_forward" }],
});
new hosting.BranchProtection("release-protection", {
  owner: "acme-eng", repository: "api", branch: "release/1.0",
  requiredStatusChecks: { strict: true, contexts: ["ci/build"] }, restrictions: { users: ["octocat"], teams: ["platform"] },
});
new hosting.OrgRoleAssignment("platform-security", { org: "acme-eng", roleId: 8138, team: "platform" });
exports.hookId = ci.hookId;
exports.ruleId = gate.ruleId;
`;
}

/**
 * The signed-in user's keys (the token's user, admin): real keys made in beforeAll. The keys step
 * changes them here, and every later program keeps what it changed.
 */
const keys = {
  gpg: "",
  ssh: "",
  signing: "",
  signingTitle: "signing",
  adopt: undefined as { id: number; key: string } | undefined,
};

function keysProgram(): string {
  const adopt =
    keys.adopt === undefined
      ? ""
      : `new hosting.UserSshKey("adopted", { key: ${JSON.stringify(keys.adopt.key)}, title: "adopted", importId: ${keys.adopt.id} });`;
  return `
new hosting.UserGpgKey("gpg", { armoredPublicKey: ${JSON.stringify(keys.gpg)}, name: "e2e" });
new hosting.UserSshKey("laptop", { key: ${JSON.stringify(keys.ssh)}, title: "laptop" });
new hosting.UserSshSigningKey("signing", { key: ${JSON.stringify(keys.signing)}, title: ${JSON.stringify(keys.signingTitle)} });
${adopt}`;
}

/**
 * Repositories of acme-eng: one made by the stack (renamed by the rename step, which sets `name`),
 * with its deploy key (made in beforeAll); one adopted (web, which destroy leaves); one deleted on
 * destroy; and acme-eng's settings.
 */
const repository = { name: "svc", deployKey: "" };
/** What the rename step found, for the refresh after it to check. */
const renamedRepository: { repositoryId?: number | undefined; keyId?: number | undefined } = {};

/**
 * The organisation the stack makes: renamed by the rename step (a background job of the platform,
 * which the up waits for); its admin is used only at creation.
 */
const organization = { login: "acme-platform", admin: "olivia" };

/** How long the platform's rename job takes in the rename step: the up must wait it out. */
const JOB_DELAY_MS = 3_000;

function repositoriesProgram(): string {
  return `
const svc = new hosting.Repository("svc", {
  org: "acme-eng", name: ${JSON.stringify(repository.name)}, description: "The service", visibility: "private",
  hasWiki: false, topics: ["backend", "api"], autoInit: true,
});
new hosting.Repository("web", { org: "acme-eng", name: "web", description: "The website" });
new hosting.Repository("scratch", { org: "acme-eng", name: "scratch", onDestroy: "delete" });
new hosting.RepositoryDeployKey("svc-ci", { owner: "acme-eng", repository: svc.name, title: "ci", key: ${JSON.stringify(repository.deployKey)} });
new hosting.OrgSettings("eng-settings", {
  org: "acme-eng", company: "Acme", defaultRepositoryPermission: "read", membersCanForkPrivateRepositories: true,
});`;
}

let emulator: RunningEmulator;
let program: PulumiProgram;
/** Every CLI output of the run, searched for the secret values at the end. */
let transcript = "";

async function run(...args: string[]): Promise<RunResult> {
  const result = await program.run(...args);
  transcript += `\n${result.output}`;
  return result;
}

async function ok(...args: string[]): Promise<RunResult> {
  const result = await run(...args);
  if (result.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${result.code}:\n${result.output}`);
  return result;
}

/** Requests since the last call, as `METHOD route` -> count. */
function requestsSince(): Record<string, number> {
  const counts = emulator.controls.counts().byRoute;
  emulator.controls.clearLog();
  return counts;
}

/** The writes among requests counted by route. */
const writesOf = (requests: Record<string, number>) =>
  Object.fromEntries(Object.entries(requests).filter(([route]) => !route.startsWith("GET ")));

const writesSince = () => writesOf(requestsSince());

/**
 * `--target` for the named resources of the stack (`Kind::name`): a step about a few of them runs
 * the whole program, but the engine steps only those (about a quarter less CPU per run of this
 * program), and what the others would do is covered by the steps that run them all.
 */
const only = (...resources: string[]) =>
  resources.flatMap((r) => ["--target", `urn:pulumi:dev::all-kinds::pulumi-nodejs:dynamic/hosting:${r}`]);
const KEYS = only("UserGpgKey::gpg", "UserSshKey::laptop", "UserSshSigningKey::signing");

/** A change made outside Pulumi, as an administrator would make it. */
async function api(method: string, path: string, body?: unknown, version?: string): Promise<void> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
      ...(version ? { "x-service-api-version": version } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
}

async function control(method: string, path: string, body?: unknown): Promise<number> {
  const response = await fetch(`${emulator.origin}/_emulator${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await response.text();
  return response.status;
}

const state = () => emulator.store.state;
const repo = (name: string) => state().fixture.repos.find((r) => r.owner === "acme-eng" && r.name === name);
const groupNamed = (name: string) => state().runnerGroups.find((g) => g.name === name);
const groupOf = (runner: number) => state().runnerGroupOf[String(runner)];
const hookAt = (url: string) => state().repoHooks.find((h) => h.config.url === url);
const registry = (name: string) => state().privateRegistries.find((r) => r.name === name);
const actionsBudget = () => state().budgets.find((b) => b.scope === "organization");
/** The value the server holds for an Actions secret of a scope (`org:100`, `repo:1000`, ...). */
const actionsSecret = (scope: string, name: string) =>
  state().actionsSecrets.find((s) => s.scope === scope && s.name === name);
const actionsVariable = (scope: string, name: string) =>
  state().actionsVariables.find((v) => v.scope === scope && v.name === name);
const ACTIONS_SECRETS = {
  "org:100/NPM_PUBLISH_TOKEN": PUBLISH_VALUE,
  "repo:1000/SENTRY_DSN": SENTRY_VALUE,
  "env:1000:production/DB_PASSWORD": DB_VALUE,
};
/** The program's secrets as the server holds them: their values, by scope and name. */
const actionsSecretValues = () =>
  Object.fromEntries(
    Object.keys(ACTIONS_SECRETS).map((key) => {
      const [scope = "", name = ""] = key.split("/");
      return [key, actionsSecret(scope, name)?.value];
    }),
  );
/** The rules of release/eu (canary/eu's has its own checks). */
const protectionRules = () =>
  state()
    .protectionRules.filter((r) => r.environment === "release/eu")
    .map((r) => [r.environment, r.appId, r.id] as const);
const canaryGate = () => state().protectionRules.find((r) => r.environment === "canary/eu");
const canary = () => state().environments.find((e) => e.name === "canary/eu");
const canaryPatterns = () =>
  state()
    .branchPolicies.filter((p) => p.environment === "canary/eu")
    .map((p) => `${p.type}:${p.name}`)
    .sort();
const ENVIRONMENT = "/repos/{owner}/{repo}/environments/{environment_name}";
/** A team's direct members and the role stored for each (owners are reported as maintainers). */
function teamMembers(slug: string): Array<[string, string]> {
  const team = state().teams.find((t) => t.slug === slug);
  return state()
    .teamMembers.filter((m) => m.teamId === team?.id)
    .map((m): [string, string] => [m.login, m.role])
    .sort();
}

/** The server's view of one person in one organisation. */
function person(org: string, login: string): { member?: string; invited?: string } {
  const member = state().fixture.orgs.find((o) => o.login === org)?.members[login];
  const invitation = state().invitations.find((i) => i.org === org && i.login === login);
  return { ...(member ? { member: member.role } : {}), ...(invitation ? { invited: invitation.role } : {}) };
}

function propertyValues(): Record<string, unknown> {
  return Object.fromEntries([
    ...state().orgPropertyValues.map((v) => [`org:${v.name}`, v.value]),
    ...state().repoPropertyValues.map((v) => [`repo:${v.name}`, v.value]),
  ]);
}

const CONVERGED_VALUES = {
  "org:cost_center": "cc-1234",
  "org:tier": "gold",
  "org:regions": ["eu", "us"],
  "repo:tier": "silver",
  "repo:cost_center": "cc-api",
  "repo:service_level": "critical",
};

const ruleset = (name: string) => state().rulesets.find((r) => r.name === name);
const releaseProtection = () => state().branchProtections.find((p) => p.branch === "release/1.0");

/** The stack's resources of this library: name -> {type, id, outputs}. */
function stack(): Record<string, { kind: string; id?: string; outputs: Record<string, unknown> }> {
  const found: Record<string, { kind: string; id?: string; outputs: Record<string, unknown> }> = {};
  for (const r of program.resources()) {
    if (!r.type.startsWith("pulumi-nodejs:dynamic/hosting:")) continue;
    found[r.urn.split("::").at(-1) ?? ""] = {
      kind: r.type.replace("pulumi-nodejs:dynamic/hosting:", ""),
      ...(r.id ? { id: r.id } : {}),
      outputs: r.outputs ?? {},
    };
  }
  return found;
}

const figures: Record<string, unknown> = {};

beforeAll(async () => {
  requirePulumi();
  const fixture = defaultFixture();
  const admin = fixture.tokens[TOKEN];
  if (!admin) throw new Error(`the fixture lost ${TOKEN}`);
  fixture.tokens[OLD_TOKEN] = { ...admin };
  emulator = await startEmulator({ port: 0, fixture });
  keys.gpg = await gpgPublicKey(["admin@acme.example"]);
  keys.ssh = sshPublicKey("ssh-ed25519", "admin@laptop");
  keys.signing = sshPublicKey("ecdsa-sha2-nistp256", "admin@signing");
  repository.deployKey = sshPublicKey("ssh-ed25519", "ci@deploy");
  // The client logs every request to stderr, which the CLI shows: the log lines are searched too.
  program = new PulumiProgram("all-kinds", programOf(), {
    env: { REGISTRY_VALUE: FIRST_VALUE, HOSTING_DEBUG: "1" },
  });
  await program.initStack(emulator.origin, OLD_TOKEN);
});

afterAll(async () => {
  console.log(`all-kinds e2e, API requests per step: ${JSON.stringify(figures, null, 2)}`);
  await emulator?.close();
});

describe("a stack of every kind, end to end", () => {
  it("creates every kind, with the requests each needs", async () => {
    emulator.controls.clearLog();
    await ok("up", "--yes", "--skip-preview");
    const created = requestsSince();
    figures.create = created;
    const writes = Object.fromEntries(Object.entries(created).filter(([r]) => !r.startsWith("GET ")));
    expect(writes).toEqual({
      "POST /repos/{owner}/{repo}/hooks": 2,
      "POST /admin/hooks": 1,
      "POST /enterprises/{enterprise}/actions/runner-groups": 1,
      "POST /orgs/{org}/actions/runner-groups": 1,
      "PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/runners": 1,
      "PATCH /orgs/{org}/actions/runner-groups/{runner_group_id}": 1,
      // mona and hubot invited, octocat (a member) made an admin.
      "PUT /orgs/{org}/memberships/{username}": 3,
      "PATCH /organizations/{org}/org-properties/values": 3,
      "PATCH /repos/{owner}/{repo}/properties/values": 3,
      "POST /repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules": 2,
      "POST /enterprises/{enterprise}/settings/billing/budgets": 2,
      "POST /orgs/{org}/private-registries": 2,
      "POST /user/gpg_keys": 1,
      "POST /user/keys": 1,
      "POST /user/ssh_signing_keys": 1,
      "POST /admin/organizations": 1,
      "POST /orgs/{org}/issue-types": 2,
      "POST /orgs/{org}/issue-fields": 1,
      "PUT /orgs/{org}/blocks/{username}": 1,
      "PUT /orgs/{org}/actions/secrets/{secret_name}": 1,
      "PUT /repos/{owner}/{repo}/actions/secrets/{secret_name}": 1,
      "PUT /repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}": 1,
      "POST /orgs/{org}/actions/variables": 1,
      "POST /repos/{owner}/{repo}/actions/variables": 1,
      "POST /repos/{owner}/{repo}/environments/{environment_name}/variables": 1,
      "POST /orgs/{org}/hooks": 1,
      // The environment with one PUT and its two patterns; its gate after it.
      [`PUT ${ENVIRONMENT}`]: 1,
      [`POST ${ENVIRONMENT}/deployment-branch-policies`]: 2,
      // svc and scratch made (svc's topics after it: the POST takes none); web adopted, its
      // description written.
      "POST /orgs/{org}/repos": 2,
      "PUT /repos/{owner}/{repo}/topics": 1,
      "PATCH /repos/{owner}/{repo}": 1,
      "POST /repos/{owner}/{repo}/keys": 1,
      "PATCH /orgs/{org}": 1,
      "POST /orgs/{org}/teams": 2,
      // squad's members: octocat and olivia added, admin (who made the team) removed; olivia in platform.
      "PUT /orgs/{org}/teams/{team_slug}/memberships/{username}": 3,
      "DELETE /orgs/{org}/teams/{team_slug}/memberships/{username}": 1,
      // squad on web, platform on api.
      "PUT /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}": 2,
      // octocat invited to acme-ops/infra, mona to acme-eng/api.
      "PUT /repos/{owner}/{repo}/collaborators/{username}": 2,
      "PUT /orgs/{org}/properties/schema/{custom_property_name}": 1,
      "POST /orgs/{org}/rulesets": 1,
      "POST /repos/{owner}/{repo}/rulesets": 1,
      "PUT /repos/{owner}/{repo}/branches/{branch}/protection": 1,
      "PUT /orgs/{org}/organization-roles/teams/{team_slug}/{role_id}": 1,
    });
    // Creates of kinds keyed by names read first, and the registry's key is fetched once.
    expect(created["GET /orgs/{org}/private-registries/public-key"]).toBe(1);
    expect(
      created["GET /repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules"],
    ).toBe(2);
    expect(created[`GET ${ENVIRONMENT}`]).toBe(1);
    expect(canary()).toMatchObject({
      wait_timer: 5,
      reviewers: [{ type: "User", id: 2 }],
      deployment_branch_policy: { protected_branches: false, custom_branch_policies: true },
    });
    expect(canaryPatterns()).toEqual(["branch:main", "tag:v*"]);
    expect(canaryGate()?.appId).toBe(101);
    expect(state().orgHooks[0]).toMatchObject({ org: "acme-eng", events: ["organization", "team"] });
    expect(state().orgHooks[0]?.config.secret).toBe(ORG_SECRET);

    expect(hookAt("https://ci.example.com/hook")).toMatchObject({
      events: ["push", "pull_request"],
      active: true,
    });
    expect(hookAt("https://ci.example.com/hook")?.config).toMatchObject({
      content_type: "json",
      secret: HOOK_SECRET,
    });
    expect(state().globalHooks[0]?.config.secret).toBe(GLOBAL_SECRET);
    const deployers = groupNamed("deployers");
    const builders = groupNamed("builders");
    expect(deployers).toMatchObject({
      visibility: "selected",
      selectedOrganizationIds: [100],
      selectedWorkflows: [W1, W2],
    });
    expect(builders).toMatchObject({ visibility: "selected", selectedRepositoryIds: [1000] });
    expect(groupOf(7)).toBe(deployers?.id);
    expect([groupOf(1), groupOf(2), groupOf(3)]).toEqual([builders?.id, builders?.id, 2]);
    expect(state().runnerGroups.find((g) => g.id === 3)?.allowsPublicRepositories).toBe(true);
    expect(person("acme-eng", "mona")).toEqual({ invited: "member" });
    expect(person("acme-eng", "octocat")).toEqual({ member: "admin" });
    expect(person("acme-ops", "hubot")).toEqual({ invited: "member" });
    expect(propertyValues()).toEqual(CONVERGED_VALUES);
    const [rule] = protectionRules();
    expect(rule?.slice(0, 2)).toEqual(["release/eu", 101]);
    expect(
      state()
        .budgets.map((b) => [b.scope, b.amount])
        .sort(),
    ).toEqual([
      ["organization", 100],
      ["user", 30],
    ]);
    expect(registry("NPM_REGISTRY_SECRET")).toMatchObject({
      value: FIRST_VALUE,
      visibility: "selected",
      selectedRepositoryIds: [1000],
      username: "ci-bot",
    });
    expect(registry("MAVEN_REPOSITORY_SECRET")?.value).toBeNull();

    // Each secret sealed for its scope's key, fetched once; the server holds the value.
    expect(created["GET /orgs/{org}/actions/secrets/public-key"]).toBe(1);
    expect(created["GET /repos/{owner}/{repo}/environments/{environment_name}/secrets/public-key"]).toBe(1);
    expect(actionsSecretValues()).toEqual(ACTIONS_SECRETS);
    expect(actionsSecret("org:100", "NPM_PUBLISH_TOKEN")).toMatchObject({
      visibility: "selected",
      selectedRepositoryIds: [1000],
    });
    expect(actionsVariable("env:1000:release/eu", "REGION")?.value).toBe("eu-west-1");

    const resources = stack();
    expect(new Set(Object.values(resources).map((r) => r.kind)).size).toBe(40);
    // Ids and names as the platform stores them; the program's spelling kept as an input.
    expect(resources["publish-token"]?.id).toBe("acme-eng/NPM_PUBLISH_TOKEN");
    expect(resources["publish-token"]?.outputs.secretName).toBe("NPM_PUBLISH_TOKEN");
    expect(resources["db-password"]?.id).toBe("acme-eng/api/production/DB_PASSWORD");
    expect(resources["eu-region"]?.id).toBe("acme-eng/api/release%2Feu/REGION");
    expect(resources.canary?.id).toBe("acme-eng/api/canary%2Feu");
    expect(resources["org-hook"]?.id).toBe(`acme-eng/${state().orgHooks[0]?.id}`);
    const svc = repo("svc");
    expect(svc).toMatchObject({ private: true });
    expect(state().repositorySettings[String(svc?.id)]).toMatchObject({
      description: "The service",
      hasWiki: false,
      topics: ["backend", "api"],
    });
    expect(resources.svc?.outputs).toMatchObject({ repositoryId: svc?.id, adopted: false });
    expect(resources.web?.outputs).toMatchObject({ repositoryId: 1001, adopted: true });
    expect(resources["svc-ci"]?.id).toBe(`acme-eng/svc/${state().deployKeys[0]?.id}`);
    expect(state().orgSettings["100"]).toMatchObject({
      company: "Acme",
      membersCanForkPrivateRepositories: true,
    });
    const squad = state().teams.find((t) => t.name === "Squad");
    expect(resources.squad?.id).toBe(`acme-eng/${squad?.id}`);
    expect(resources.squad?.outputs).toMatchObject({ slug: "squad", teamId: squad?.id, privacy: "closed" });
    expect(resources["squad-child"]?.outputs).toMatchObject({ slug: "squad-child", parentTeamId: squad?.id });
    expect(teamMembers("squad")).toEqual([
      ["octocat", "maintainer"],
      ["olivia", "member"],
    ]);
    expect(resources["platform-olivia"]?.outputs).toMatchObject({ role: "member", state: "active" });
    expect(resources["infra-octocat"]?.outputs.invitationId).toBe(
      state().repoInvitations.find((i) => i.login === "octocat")?.id,
    );
    expect(
      state()
        .repoInvitations.map((i) => [i.login, i.permission])
        .sort(),
    ).toEqual([
      ["mona", "triage"],
      ["octocat", "push"],
    ]);
    expect(ruleset("critical")?.conditions?.repository_property?.include).toEqual([
      { name: "service_level", property_values: ["critical"], source: "custom" },
    ]);
    expect(ruleset("releases")).toMatchObject({
      scope: "repo",
      owner: "acme-eng/api",
      enforcement: "evaluate",
    });
    // Teams by id in the sandbox: platform's is 1.
    expect(releaseProtection()?.restrictions).toEqual({ users: ["octocat"], teamIds: [1], apps: [] });
    expect(resources["release-protection"]?.id).toBe("acme-eng/api/release%2F1.0");
    expect(resources["platform-security"]?.id).toBe("acme-eng/teams/platform/8138");
    expect(resources["platform-security"]?.outputs.roleName).toBe("security_manager");
    expect(state().orgRoleAssignments).toEqual([{ org: "acme-eng", roleId: 8138, teamId: 1 }]);
    expect(state().fixture.orgs.find((o) => o.login === "acme-platform")?.members.olivia?.role).toBe("admin");
    expect(
      state()
        .issueTypes.map((t) => [t.name, t.color])
        .sort(),
    ).toEqual([
      ["Bug", "red"],
      ["Task", null],
    ]);
    expect(state().issueFields[0]?.options.map((o) => o.name)).toEqual(["High", "Low"]);
    expect(state().orgBlocks.map((b) => `${b.org}/${b.login}`)).toEqual(["acme-eng/billie"]);
    expect(resources["block-billie"]?.id).toBe("acme-eng/billie");
    // Bug and Task are created at once, in either order.
    expect(resources.bug?.id).toBe(`acme-eng/${state().issueTypes.find((t) => t.name === "Bug")?.id}`);
    expect(resources.mona?.outputs).toMatchObject({ role: "member", state: "pending", onDestroy: "remove" });
    expect(resources["release-gate"]?.id).toBe(`acme-eng/api/release%2Feu/${rule?.[2]}`);
    expect(resources["release-gate"]?.outputs).toMatchObject({
      environment: "release/eu",
      ruleId: rule?.[2],
      enabled: true,
      app: { id: 101, slug: "deploy-gate" },
    });
    expect(resources.actions?.id).toBe(`acme/${resources.actions?.outputs.budgetId}`);
    expect(resources.cost?.id).toBe("acme-eng/cost_center");
    expect(resources["api-tier"]?.id).toBe("acme-eng/api/tier");
  });

  it("keeps secrets, the registry value (any ciphertext of it too) and the token out of the state file", () => {
    const file = program.stateFile();
    for (const secret of [
      TOKEN,
      HOOK_SECRET,
      GLOBAL_SECRET,
      FIRST_VALUE,
      PUBLISH_VALUE,
      SENTRY_VALUE,
      DB_VALUE,
      ORG_SECRET,
    ]) {
      expect(file).not.toContain(secret);
    }
    expect(file).not.toContain("encrypted_value");
    expect(file).not.toMatch(/scrypt\$/);
    const npm = program.resources().find((r) => r.id === "acme-eng/NPM_REGISTRY_SECRET") as
      | { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }
      | undefined;
    // Both are encrypted secrets (the engine's `ciphertext` form), never the digest in the clear.
    expect(JSON.stringify(npm?.inputs?.value)).toContain("ciphertext");
    expect(JSON.stringify(npm?.outputs?.value)).toContain("ciphertext");
    const sizes = Object.values(stack()).map((r) => String(r.outputs.__provider));
    for (const provider of sizes) {
      expect(provider).toContain('require("pulumi-hosting/kinds/');
      expect(provider.length).toBeLessThanOrEqual(512);
    }
  });

  it("previews no change, refreshing with one read per resource or less and no other request", async () => {
    // The requests are counted by route, exactly: a request of check or diff (which a preview
    // without refresh runs too) would be one more than the reads below, so this one preview also
    // shows that a plain preview, as a pull request runs it, sends nothing.
    emulator.controls.clearLog();
    const refresh = await run("preview", "--refresh", "--expect-no-changes");
    expect(refresh.code, refresh.output).toBe(0);
    const reads = requestsSince();
    figures.refresh = reads;
    expect(reads).toEqual({
      // Two hooks of one repository: the first read is its own GET, the second shares the list.
      "GET /repos/{owner}/{repo}/hooks/{hook_id}": 1,
      "GET /repos/{owner}/{repo}/hooks": 1,
      "GET /admin/hooks/{hook_id}": 1,
      "GET /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}": 1,
      "GET /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/organizations": 1,
      "GET /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/runners": 1,
      // builders (acme-eng) and ops-default (acme-ops): one group of each owner, read on its own.
      "GET /orgs/{org}/actions/runner-groups/{runner_group_id}": 2,
      "GET /orgs/{org}/actions/runner-groups/{runner_group_id}/repositories": 1,
      "GET /orgs/{org}/actions/runner-groups/{runner_group_id}/runners": 1,
      "GET /orgs/{org}/memberships/{username}": 3,
      "GET /organizations/{org}/org-properties/values": 1,
      // api and web.
      "GET /repos/{owner}/{repo}/properties/values": 2,
      // release/eu's rule and canary/eu's, each of its own environment.
      "GET /repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules/{protection_rule_id}": 2,
      "GET /orgs/{org}/hooks/{hook_id}": 1,
      // The environment, and its patterns (it has custom policies).
      [`GET ${ENVIRONMENT}`]: 1,
      [`GET ${ENVIRONMENT}/deployment-branch-policies`]: 1,
      "GET /enterprises/{enterprise}/settings/billing/budgets/{budget_id}": 1,
      "GET /enterprises/{enterprise}/settings/billing/budgets": 1,
      "GET /orgs/{org}/private-registries/{secret_name}": 1,
      "GET /orgs/{org}/private-registries": 1,
      "GET /user/gpg_keys/{gpg_key_id}": 1,
      "GET /user/keys/{key_id}": 1,
      "GET /user/ssh_signing_keys/{ssh_signing_key_id}": 1,
      // The organisation acme-platform, and acme-eng's settings.
      "GET /orgs/{org}": 2,
      "GET /repos/{owner}/{repo}": 3,
      "GET /repos/{owner}/{repo}/keys/{key_id}": 1,
      // Two types of one organisation: one list (the API has no GET of one type).
      "GET /orgs/{org}/issue-types": 1,
      "GET /orgs/{org}/issue-fields": 1,
      "GET /orgs/{org}/blocks/{username}": 1,
      "GET /orgs/{org}/actions/secrets/{secret_name}": 1,
      // The organisation secret is for selected repositories: its list is read too.
      "GET /orgs/{org}/actions/secrets/{secret_name}/repositories": 1,
      "GET /orgs/{org}/actions/variables/{name}": 1,
      "GET /repos/{owner}/{repo}/actions/secrets/{secret_name}": 1,
      "GET /repos/{owner}/{repo}/actions/variables/{name}": 1,
      "GET /repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}": 1,
      "GET /repos/{owner}/{repo}/environments/{environment_name}/variables/{name}": 1,
      // squad and its child, each by the slug state recorded (a team is found by its id).
      "GET /orgs/{org}/teams/{team_slug}": 2,
      "GET /orgs/{org}/teams/{team_slug}/members": 1,
      "GET /orgs/{org}/teams/{team_slug}/memberships/{username}": 1,
      // acme-eng's owners, once: olivia is declared a member of two teams, and reported a maintainer.
      "GET /orgs/{org}/members": 1,
      "GET /orgs/{org}/teams/{team_slug}/repos": 1,
      // acme-ops/infra's (octocat's invitation) and acme-eng/api's (the whole list).
      "GET /repos/{owner}/{repo}/collaborators": 2,
      "GET /repos/{owner}/{repo}/invitations": 2,
      "GET /repos/{owner}/{repo}/teams": 1,
      "GET /orgs/{org}/properties/schema/{custom_property_name}": 1,
      "GET /orgs/{org}/rulesets/{ruleset_id}": 1,
      "GET /repos/{owner}/{repo}/rulesets/{ruleset_id}": 1,
      "GET /repos/{owner}/{repo}/branches/{branch}/protection": 1,
      "GET /orgs/{org}/organization-roles/{role_id}": 1,
      "GET /orgs/{org}/organization-roles/{role_id}/teams": 1,
    });
  });

  it("names every field changed outside Pulumi, and none of the changes that are not drift", async () => {
    const ci = hookAt("https://ci.example.com/hook");
    const deployers = groupNamed("deployers");
    // Drift: a hook deactivated, organisation access changed, a runner moved back to the default
    // group, a role changed, two values changed, an amount changed, a registry's URL and another's
    // visibility changed.
    // (Its events reordered in the same change are not drift.)
    await api("PATCH", `/repos/acme-eng/api/hooks/${ci?.id}`, {
      active: false,
      events: ["pull_request", "push"],
      config: { url: "https://ci.example.com/hook", content_type: "json", secret: HOOK_SECRET },
    });
    await api("PUT", `/enterprises/acme/actions/runner-groups/${deployers?.id}/organizations`, {
      selected_organization_ids: [101],
    });
    await api("PUT", "/orgs/acme-eng/actions/runner-groups/2/runners/2");
    await api("PUT", "/orgs/acme-eng/memberships/mona", { role: "admin" });
    await api(
      "PATCH",
      "/organizations/acme-eng/org-properties/values",
      { properties: [{ property_name: "tier", value: "silver" }] },
      "2026-03-10",
    );
    await api("PATCH", "/repos/acme-eng/api/properties/values", {
      properties: [{ property_name: "tier", value: "bronze" }],
    });
    await api("PATCH", `${BUDGETS}/${actionsBudget()?.id}`, { budget_amount: 500 }, "2026-03-10");
    await api("PATCH", `${REGISTRIES}/NPM_REGISTRY_SECRET`, { url: "https://elsewhere.example.com" });
    await api("PATCH", `${REGISTRIES}/MAVEN_REPOSITORY_SECRET`, { visibility: "private" });
    // An issue type's colour changed, a field's option deleted, a block removed (gone: recreated).
    const bug = state().issueTypes.find((t) => t.name === "Bug");
    await api("PUT", `/orgs/acme-eng/issue-types/${bug?.id}`, {
      name: "Bug",
      is_enabled: true,
      color: "blue",
    });
    const priority = state().issueFields[0];
    await api("PATCH", `/orgs/acme-eng/issue-fields/${priority?.id}`, {
      options: [{ id: priority?.options[0]?.id, name: "High", color: "red", priority: 1 }],
    });
    await api("DELETE", "/orgs/acme-eng/blocks/billie");
    // A secret's value changed on the web UI (the API never shows it: seen through updated_at), a
    // variable's value changed, a repository added to an organisation secret.
    expect(
      await control("PUT", "/repos/acme-eng/api/actions/secrets/SENTRY_DSN/value", { value: "web" }),
    ).toBe(200);
    await api("PATCH", "/repos/acme-eng/api/environments/release%2Feu/variables/REGION", {
      value: "ap-south-1",
    });
    await api("PUT", "/orgs/acme-eng/actions/secrets/NPM_PUBLISH_TOKEN/repositories/1001");
    // In the web UI: the organisation hook deactivated (its secret sent again), octocat added as a
    // reviewer of canary/eu and a pattern added to it.
    await api("PATCH", `/orgs/acme-eng/hooks/${state().orgHooks[0]?.id}`, {
      active: false,
      config: { url: "https://org.example.com/hook", secret: ORG_SECRET },
    });
    await api("PUT", "/repos/acme-eng/api/environments/canary%2Feu", {
      reviewers: [
        { type: "User", id: 2 },
        { type: "User", id: 3 },
      ],
    });
    await api("POST", "/repos/acme-eng/api/environments/canary%2Feu/deployment-branch-policies", {
      name: "hotfix/*",
    });
    // A repository's description and topics, and the organisation's company, changed.
    await api("PATCH", "/repos/acme-eng/svc", { description: "changed by hand" });
    await api("PUT", "/repos/acme-eng/svc/topics", { names: ["backend", "api", "extra"] });
    await api("PATCH", "/orgs/acme-eng", { company: "Other" });
    // Not drift: settings the program does not declare (a repository's issues, an organisation's
    // location), and topics respelled in another order and case.
    await api("PATCH", "/repos/acme-eng/web", { has_issues: false });
    await api("PATCH", "/orgs/acme-eng", { location: "Lyon" });
    // The nested team's notifications turned off, admin added to squad, squad's role on web changed;
    // olivia given direct access to acme-eng/api. (squad itself is left alone: its slug is what the
    // other kinds are given, and an update would leave it unknown to their preview.)
    await api("PATCH", "/orgs/acme-eng/teams/squad-child", {
      notification_setting: "notifications_disabled",
    });
    expect(await control("PUT", "/orgs/acme-eng/teams/squad/members/admin", { role: "member" })).toBe(200);
    expect(
      await control("PUT", "/orgs/acme-eng/teams/squad/repos/acme-eng/web", { permission: "admin" }),
    ).toBe(200);
    await api("PUT", "/repos/acme-eng/api/collaborators/olivia", { permission: "pull" });
    // Not drift: octocat accepts his invitation to acme-ops/infra (invitationId goes); olivia made a
    // maintainer of platform by hand (an owner is reported as one anyway).
    const invitation = state().repoInvitations.find((i) => i.login === "octocat");
    expect(await control("POST", `/repository-invitations/${invitation?.id}/accept`)).toBe(200);
    expect(await control("PUT", "/orgs/acme-eng/teams/platform/members/olivia", { role: "maintainer" })).toBe(
      200,
    );
    // A ruleset disabled (its rules reordered in the same change are not drift), a protection no
    // longer strict (its people in another order are not drift).
    await api("PUT", `/orgs/acme-eng/rulesets/${ruleset("critical")?.id}`, {
      enforcement: "disabled",
      rules: [...(ruleset("critical")?.rules ?? [])].reverse(),
    });
    await api("PUT", "/repos/acme-eng/api/branches/release%2F1.0/protection", {
      required_status_checks: { strict: false, contexts: ["ci/build"] },
      enforce_admins: false,
      required_pull_request_reviews: null,
      restrictions: { users: ["octocat"], teams: ["platform"] },
    });
    // Not drift: workflows, a multi select and recipients reordered; an invitation accepted.
    await api("PATCH", `/enterprises/acme/actions/runner-groups/${deployers?.id}`, {
      name: "deployers",
      visibility: "selected",
      restricted_to_workflows: true,
      selected_workflows: [W2, W1],
    });
    await api(
      "PATCH",
      "/organizations/acme-eng/org-properties/values",
      { properties: [{ property_name: "regions", value: ["us", "eu"] }] },
      "2026-03-10",
    );
    await api(
      "PATCH",
      `${BUDGETS}/${actionsBudget()?.id}`,
      { budget_alerting: { alert_recipients: ["admin", "billie"] } },
      "2026-03-10",
    );
    expect(await control("POST", "/orgs/acme-ops/invitations/hubot/accept")).toBe(200);

    const drift = await run("preview", "--refresh", "--expect-no-changes", "--diff");
    expect(drift.code).not.toBe(0);
    const out = drift.output;
    // Each refresh shows the server's value; each update sets the program's back (where the program
    // leaves a field at its default, the update removes the value read back).
    expect(out).toMatch(/active\s*:\s*true\s*=>\s*false/);
    expect(out).toMatch(/-\s*active\s*:\s*false/);
    expect(out).toMatch(/selectedOrganizationIds/);
    expect(out).toMatch(/runners/);
    expect(out).toMatch(/role\s*:\s*"member"\s*=>\s*"admin"/);
    expect(out).toMatch(/-\s*role\s*:\s*"admin"/);
    expect(out).toMatch(/value\s*:\s*"silver"\s*=>\s*"gold"/);
    expect(out).toMatch(/value\s*:\s*"bronze"\s*=>\s*"silver"/);
    expect(out).toMatch(/amount\s*:\s*500\s*=>\s*100/);
    expect(out).toMatch(
      /url\s*:\s*"https:\/\/elsewhere\.example\.com"\s*=>\s*"https:\/\/npm\.example\.com\/registry"/,
    );
    expect(out).toMatch(/visibility\s*:\s*"private"\s*=>\s*"all"/);
    expect(out).toMatch(/color\s*:\s*"blue"\s*=>\s*"red"/);
    expect(out).toMatch(/~ pulumi-nodejs:dynamic\/hosting:IssueField: \(update\)/);
    expect(out).toMatch(/\+ pulumi-nodejs:dynamic\/hosting:OrgBlock: \(create\)/);
    expect(out).toMatch(/\+ 1 to create/);
    expect(out).toMatch(/~ pulumi-nodejs:dynamic\/hosting:RepositoryActionsSecret: \(update\)/);
    // The secret changed on the web UI: refresh reads a later updatedAt, and the resource is
    // updated. The CLI masks both sides of a secret, so a dynamic resource's update cannot show
    // which one changed; the plugin's detailed diff names `value` (test/e2e/plugin.test.ts).
    expect(out).toMatch(/::sentry-dsn\]\s+--outputs:--\s+~ updatedAt\s*:/);
    expect(out).toMatch(
      /~ pulumi-nodejs:dynamic\/hosting:RepositoryActionsSecret: \(update\)[^~]*::sentry-dsn\][^~]*value\s*: \[secret\]/,
    );
    expect(out).toMatch(/value\s*:\s*"ap-south-1"\s*=>\s*"eu-west-1"/);
    expect(out).toMatch(/selectedRepositoryIds/);
    expect(out).toMatch(/~ pulumi-nodejs:dynamic\/hosting:RepositoryEnvironment: \(update\)/);
    expect(out).toMatch(/"hotfix\/\*"/);
    expect(out).toMatch(/~ pulumi-nodejs:dynamic\/hosting:OrgWebhook: \(update\)/);
    expect(out).toMatch(/description\s*:\s*"changed by hand"\s*=>\s*"The service"/);
    expect(out).toMatch(/"extra"/);
    expect(out).toMatch(/company\s*:\s*"Other"\s*=>\s*"Acme"/);
    expect(out).not.toMatch(/(hasIssues|location)\s*:/);
    expect(out).not.toMatch(/~ .*::web/);
    expect(out).toMatch(/notificationSetting\s*:\s*"notifications_enabled"\s*=>\s*"notifications_disabled"/);
    expect(out).toMatch(/-\s*notificationSetting\s*:\s*"notifications_disabled"/);
    expect(out).toMatch(/~ pulumi-nodejs:dynamic\/hosting:TeamMembers: \(update\)/);
    expect(out).toMatch(/permission\s*:\s*"admin"\s*=>\s*"push"/);
    expect(out).toMatch(/~ pulumi-nodejs:dynamic\/hosting:RepositoryCollaborators: \(update\)/);
    expect(out).not.toMatch(/~ .*::infra-octocat/);
    expect(out).not.toMatch(/~ .*::platform-olivia/);
    // Not drift: no secret, workflow, property name or recipient change; the accepted invitation is
    // shown as refreshed state only, never as an update of hubot.
    expect(out).not.toMatch(/secret\s*:.*=>/);
    // (An update lists the fields it leaves alone, events among them, without an arrow.)
    expect(out).not.toMatch(/events\s*:[^\n]*=>/);
    expect(out).not.toMatch(/\[\d\]\s*:\s*"(push|pull_request)"\s*=>/);
    expect(out).not.toMatch(/selectedWorkflows\s*:\s*\[[^\]]*=>/);
    expect(out).not.toMatch(/propertyName\s*:.*=>/);
    expect(out).not.toMatch(/~ (alerting|recipients|productSku|scope|entityName)/);
    expect(out).toMatch(/state\s*:\s*"pending"\s*=>\s*"active"/);
    expect(out).not.toMatch(/~ .*::hubot/);
    expect(out).not.toMatch(/~ .*::ci-other/);
    expect(out).not.toMatch(/~ .*::regions/);
    // The secrets no one changed show no change (the same updated_at, the same digest).
    expect(out).not.toMatch(/~ .*::db-password/);
    expect(out).not.toMatch(/~ .*::node-version/);
    expect(out).toMatch(/~ 24 to update/);
    expect(out).not.toMatch(/~ .*::canary-gate/);
    expect(out).toMatch(/enforcement\s*:\s*"disabled"\s*=>\s*"active"/);
    expect(out).toMatch(/strict\s*:\s*false\s*=>\s*true/);
    expect(out).not.toMatch(/~ .*::releases/);
    expect(out).not.toMatch(/~ .*::service-level/);

    const refreshOnly = await run("refresh", "--preview-only", "--expect-no-changes");
    expect(refreshOnly.code).not.toBe(0);
  });

  it("converges on up --refresh, writing only what drifted, and replaces a rule whose app changed", async () => {
    const oldRule = protectionRules()[0]?.[2];
    program.declare(programOf({ integrationId: 102 }));
    emulator.controls.clearLog();
    const up = await ok("up", "--refresh", "--yes", "--skip-preview");
    expect(up.output).toMatch(/replaced/);
    const writes = writesSince();
    figures.converge = writes;
    expect(writes).toEqual({
      "PATCH /repos/{owner}/{repo}/hooks/{hook_id}": 1,
      "PUT /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/organizations": 1,
      "PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/runners": 1,
      "PUT /orgs/{org}/memberships/{username}": 1,
      "PATCH /organizations/{org}/org-properties/values": 1,
      "PATCH /repos/{owner}/{repo}/properties/values": 1,
      "PATCH /enterprises/{enterprise}/settings/billing/budgets/{budget_id}": 1,
      "PATCH /orgs/{org}/private-registries/{secret_name}": 2,
      // The rule's replacement: the new app enabled before the old one is disabled.
      "POST /repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules": 1,
      "DELETE /repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules/{protection_rule_id}": 1,
      "PUT /orgs/{org}/issue-types/{issue_type_id}": 1,
      "PATCH /orgs/{org}/issue-fields/{issue_field_id}": 1,
      "PUT /orgs/{org}/blocks/{username}": 1,
      // The value changed on the web UI, sent again; the organisation secret's repositories.
      "PUT /repos/{owner}/{repo}/actions/secrets/{secret_name}": 1,
      "PUT /orgs/{org}/actions/secrets/{secret_name}": 1,
      "PATCH /repos/{owner}/{repo}/environments/{environment_name}/variables/{name}": 1,
      "PATCH /orgs/{org}/hooks/{hook_id}": 1,
      // The reviewer removed with the settings' PUT, the pattern added outside deleted.
      [`PUT ${ENVIRONMENT}`]: 1,
      [`DELETE ${ENVIRONMENT}/deployment-branch-policies/{branch_policy_id}`]: 1,
      "PATCH /repos/{owner}/{repo}": 1,
      "PUT /repos/{owner}/{repo}/topics": 1,
      "PATCH /orgs/{org}": 1,
      "PATCH /orgs/{org}/teams/{team_slug}": 1,
      "DELETE /orgs/{org}/teams/{team_slug}/memberships/{username}": 1,
      "PUT /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}": 1,
      "DELETE /repos/{owner}/{repo}/collaborators/{username}": 1,
      "PUT /orgs/{org}/rulesets/{ruleset_id}": 1,
      "PUT /repos/{owner}/{repo}/branches/{branch}/protection": 1,
    });
    expect(actionsSecretValues()).toEqual(ACTIONS_SECRETS);
    expect(actionsSecret("org:100", "NPM_PUBLISH_TOKEN")?.selectedRepositoryIds).toEqual([1000]);
    expect(actionsVariable("env:1000:release/eu", "REGION")?.value).toBe("eu-west-1");
    expect(state().repositorySettings[String(repo("svc")?.id)]).toMatchObject({
      description: "The service",
      topics: ["backend", "api"],
    });
    expect(state().orgSettings["100"]).toMatchObject({ company: "Acme", location: "Lyon" });
    expect(state().teams.find((t) => t.name === "Squad Child")?.notificationSetting).toBe(
      "notifications_enabled",
    );
    expect(teamMembers("squad")).toEqual([
      ["octocat", "maintainer"],
      ["olivia", "member"],
    ]);
    expect(state().collaborators.map((c) => c.login)).toEqual(["octocat"]);
    expect(stack()["infra-octocat"]?.outputs.invitationId).toBeUndefined();
    expect(ruleset("critical")?.enforcement).toBe("active");
    expect(releaseProtection()?.requiredStatusChecks).toEqual({ strict: true, contexts: ["ci/build"] });
    expect(state().issueTypes.find((t) => t.name === "Bug")?.color).toBe("red");
    expect(canary()?.reviewers).toEqual([{ type: "User", id: 2 }]);
    expect(canaryPatterns()).toEqual(["branch:main", "tag:v*"]);
    expect(state().orgHooks[0]).toMatchObject({ active: true, config: { secret: ORG_SECRET } });
    expect(state().issueFields[0]?.options.map((o) => o.name)).toEqual(["High", "Low"]);
    expect(state().orgBlocks).toHaveLength(1);
    expect(protectionRules().map((r) => r.slice(0, 2))).toEqual([["release/eu", 102]]);
    expect(protectionRules()[0]?.[2]).not.toBe(oldRule);
    expect(stack()["release-gate"]?.outputs).toMatchObject({
      integrationId: 102,
      app: { slug: "change-window" },
    });
    expect(hookAt("https://ci.example.com/hook")).toMatchObject({
      active: true,
      config: { secret: HOOK_SECRET },
    });
    expect(groupNamed("deployers")?.selectedOrganizationIds).toEqual([100]);
    expect(groupOf(2)).toBe(groupNamed("builders")?.id);
    expect(person("acme-eng", "mona")).toEqual({ invited: "member" });
    expect(person("acme-ops", "hubot")).toEqual({ member: "member" });
    expect(propertyValues()).toEqual({ ...CONVERGED_VALUES, "org:regions": ["us", "eu"] });
    expect(actionsBudget()?.amount).toBe(100);
    expect(registry("NPM_REGISTRY_SECRET")).toMatchObject({
      url: "https://npm.example.com/registry",
      value: FIRST_VALUE,
    });
    expect(registry("MAVEN_REPOSITORY_SECRET")?.visibility).toBe("all");
    expect(stack().hubot?.outputs).toMatchObject({ state: "active" });
  });

  it("refuses a change of an organisation's admin at preview, naming it, with no request for it", async () => {
    organization.admin = "mona";
    program.declare(programOf({ integrationId: 102 }));
    organization.admin = "olivia";
    emulator.controls.clearLog();
    const preview = await run("preview", ...only("Organization::platform")).finally(() =>
      program.declare(programOf({ integrationId: 102 })),
    );
    expect(preview.code).not.toBe(0);
    expect(preview.output).toMatch(/admin is used only when the organisation is created and cannot change/);
    const routes = Object.keys(requestsSince());
    expect(routes.filter((r) => !r.startsWith("GET "))).toEqual([]);
    expect(routes.filter((r) => r.includes("/organizations") || r === "GET /orgs/{org}")).toEqual([]);
  });

  it("renames a repository and an organisation in place: the same objects on the server, the key follows, the up waits for the rename job", async () => {
    const before = repo("svc");
    const key = state().deployKeys[0]?.id;
    const org = state().fixture.orgs.find((o) => o.login === "acme-platform");
    repository.name = "service";
    organization.login = "acme-core";
    program.declare(programOf({ integrationId: 102 }));
    expect(await control("PUT", "/jobs", { delayMs: JOB_DELAY_MS })).toBe(200);
    emulator.controls.clearLog();
    const started = Date.now();
    await ok("up", "--yes", "--skip-preview").finally(() => control("PUT", "/jobs", { delayMs: 0 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(JOB_DELAY_MS);
    // The up read the organisation under its new name until the job was done: its last read came
    // the job's delay after the rename (the log's times are whole seconds, rounded down: a second
    // less at worst), where an up that did not wait would have read it at once.
    const log = emulator.controls.log;
    const renamed = log.find((r) => r.method === "PATCH" && r.route === "/admin/organizations/{org}");
    const lastRead = log.filter((r) => r.method === "GET" && r.route === "/orgs/{org}").at(-1);
    expect(Date.parse(lastRead?.at ?? "") - Date.parse(renamed?.at ?? "")).toBeGreaterThanOrEqual(
      JOB_DELAY_MS - 1_000,
    );
    const requests = requestsSince();
    const writes = writesOf(requests);
    figures.rename = writes;
    expect(writes).toEqual({
      "PATCH /repos/{owner}/{repo}": 1,
      "PATCH /admin/organizations/{org}": 1,
      // The key's repository changed, which replaces it, old one first: gone under the old name
      // (404), then found under the new one by its material and adopted (the POST's 422).
      "DELETE /repos/{owner}/{repo}/keys/{key_id}": 1,
      "POST /repos/{owner}/{repo}/keys": 1,
    });
    // The organisation's new name was polled until it answered.
    expect(requests["GET /orgs/{org}"]).toBeGreaterThan(1);
    expect(repo("service")?.id).toBe(before?.id);
    expect(repo("svc")).toBeUndefined();
    expect(state().fixture.orgs.find((o) => o.login === "acme-core")?.id).toBe(org?.id);
    expect(state().fixture.orgs.find((o) => o.login === "acme-platform")).toBeUndefined();
    expect(state().deployKeys.map((k) => k.id)).toEqual([key]);
    // An update cannot change a resource's id; the next refresh records the new name (the keys'
    // `up --refresh`, below, checks it: a refresh of its own cost a CLI run).
    expect(stack().svc?.id).toBe("acme-eng/svc");
    renamedRepository.repositoryId = before?.id;
    renamedRepository.keyId = key;
  });

  it("checks keys at preview, ignores a comment, replaces old key first, recreates a deleted one, adopts with importId; refresh moves a renamed repository's id", async () => {
    const gpgKey = () => state().gpgKeys[0];
    expect(gpgKey()).toMatchObject({ name: "e2e", user: "admin" });
    expect(stack().gpg?.outputs).toMatchObject({
      keyId: gpgKey()?.keyId,
      emails: [{ email: "admin@acme.example", verified: true }],
      canSign: true,
    });
    expect(stack().laptop?.outputs).toMatchObject({
      key: keys.ssh.split(" ").slice(0, 2).join(" "),
      verified: true,
    });

    // A bad key line fails the preview naming the field, with no request for it.
    const good = keys.ssh;
    keys.ssh = "ssh-dss AAAAB3NzaC1kc3M= old";
    program.declare(programOf({ integrationId: 102 }));
    emulator.controls.clearLog();
    const bad = await run("preview", ...KEYS);
    keys.ssh = good;
    expect(bad.code).not.toBe(0);
    // How the engine prints a check failure: the resource, the field, its value and the reason.
    expect(bad.output).toMatch(/hosting:UserSshKey \(laptop\):/);
    expect(bad.output).toMatch(
      /property key value \{ssh-dss AAAAB3NzaC1kc3M= old\} has a problem: .*key type "ssh-dss" is not accepted/,
    );
    expect(Object.keys(requestsSince()).filter((r) => r.includes("/user/"))).toEqual([]);

    // A new comment is no change; a new title replaces the signing key, deleting the old one first.
    keys.ssh = `${good.split(" ").slice(0, 2).join(" ")} admin@new-laptop`;
    keys.signingTitle = "signing-renamed";
    const oldSigning = state().sshSigningKeys[0]?.id;
    program.declare(programOf({ integrationId: 102 }));
    emulator.controls.clearLog();
    const replaced = await ok("up", "--yes", "--skip-preview", ...KEYS);
    expect(replaced.output).toMatch(/replaced/);
    const log = emulator.controls.log.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route}`);
    expect(log).toEqual([
      "DELETE /user/ssh_signing_keys/{ssh_signing_key_id}",
      "POST /user/ssh_signing_keys",
    ]);
    emulator.controls.clearLog();
    expect(state().sshSigningKeys.map((k) => k.title)).toEqual(["signing-renamed"]);
    expect(state().sshSigningKeys[0]?.id).not.toBe(oldSigning);

    // Meanwhile, outside Pulumi, a key is deleted (drift: up --refresh adds it again) and one is
    // added by hand, which the program adopts with importId: preview says what adopting it changes,
    // and up converges its title by replacing it (no route changes a title). One preview and one up
    // of the whole stack for both (a refresh cannot target a resource the stack does not have yet).
    await api("DELETE", `/user/gpg_keys/${gpgKey()?.id}`);
    const made = await fetch(`${emulator.url}/user/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ key: sshPublicKey(), title: "by hand" }),
    });
    expect(made.status).toBe(201);
    const handMade = (await made.json()) as { id: number; key: string };
    keys.adopt = { id: handMade.id, key: handMade.key };
    program.declare(programOf({ integrationId: 102 }));
    emulator.controls.clearLog();
    const drift = await run("preview", "--refresh", "--expect-no-changes");
    expect(drift.code).not.toBe(0);
    expect(drift.output).toMatch(/\+ .*UserGpgKey.*gpg.*create/);
    expect(drift.output).toContain(
      `UserSshKey ${handMade.id} (importId ${handMade.id}): adopting it will change title: "by hand" => "adopted"`,
    );
    expect(writesSince()).toEqual({});
    await ok("up", "--refresh", "--yes", "--skip-preview");
    expect(writesSince()).toEqual({
      "POST /user/gpg_keys": 1,
      "DELETE /user/keys/{key_id}": 1,
      "POST /user/keys": 1,
    });
    expect(state().gpgKeys).toHaveLength(1);
    expect(
      state()
        .sshKeys.map((k) => k.title)
        .sort(),
    ).toEqual(["adopted", "laptop"]);
    expect(stack().adopted?.outputs).toMatchObject({ key: handMade.key, title: "adopted" });
    // That refresh recorded the renamed repository's new id (the test above renamed it).
    expect(stack().svc?.id).toBe("acme-eng/service");
    expect(stack().svc?.outputs).toMatchObject({
      name: "service",
      repositoryId: renamedRepository.repositoryId,
    });
    expect(stack()["svc-ci"]?.outputs).toMatchObject({
      repository: "service",
      keyId: renamedRepository.keyId,
    });
    expect(stack().platform?.outputs).toMatchObject({ login: "acme-core" });
  });

  it("after the token is rotated, the drift check needs --run-program, and then passes", async () => {
    // The platform revokes the old token and issues a new one; the stack config follows.
    const tokens = state().fixture.tokens;
    const old = tokens[OLD_TOKEN];
    if (!old) throw new Error("the old token is missing");
    tokens[NEW_TOKEN] = old;
    delete tokens[OLD_TOKEN];
    await ok("config", "set", "--secret", "hosting:token", NEW_TOKEN);

    emulator.controls.clearLog();
    const stale = await run("preview", "--refresh", "--expect-no-changes");
    expect(stale.code).not.toBe(0);
    expect(stale.output).toMatch(/401/);
    // The token is refused once: that error says what to do, --run-program included (refresh uses
    // the configuration recorded at the last update), and every other read fails at once in one
    // line that points to it, most of them without a request.
    const diagnostics = stale.stdout.slice(stale.stdout.indexOf("Diagnostics:"));
    expect(diagnostics.match(/is unknown, expired or revoked/g)).toHaveLength(1);
    expect(diagnostics).toContain(
      "If hosting:token was changed since the last `pulumi up`: `pulumi refresh`, `pulumi preview --refresh` and `pulumi destroy` use the provider configuration recorded in the state at that update; add --run-program",
    );
    expect(diagnostics).toMatch(
      /hosting:token was refused \(401\) earlier in this run, so this request was not sent; see the first error \(GET \//,
    );
    expect(stale.output).not.toMatch(/\bat (async )?\w+ \(/);
    const statuses = emulator.controls.log.map((r) => r.status);
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect(statuses.length).toBeLessThan(Object.keys(stack()).length);

    emulator.controls.clearLog();
    // Also the clean drift check after convergence: nothing is left to change.
    const current = await run("preview", "--refresh", "--run-program", "--expect-no-changes");
    expect(current.code, current.output).toBe(0);
    const answered = emulator.controls.log.map((r) => r.status);
    expect(answered.length).toBeGreaterThan(0);
    // (A block's read answers 204: blocked.)
    expect(answered.every((s) => s === 200 || s === 204)).toBe(true);
  });

  it("drops what was deleted outside Pulumi on refresh, and up recreates it", async () => {
    const old = {
      hook: hookAt("https://ci.example.com/hook")?.id,
      group: groupNamed("builders")?.id,
      budget: actionsBudget()?.id,
      rule: protectionRules()[0]?.[2],
    };
    await api("DELETE", `/repos/acme-eng/api/hooks/${old.hook}`);
    await api("DELETE", `/orgs/acme-eng/actions/runner-groups/${old.group}`);
    expect(groupOf(1)).toBe(2);
    expect(await control("POST", "/orgs/acme-eng/members/octocat/leave")).toBe(204);
    await api("DELETE", `${BUDGETS}/${old.budget}`, undefined, "2026-03-10");
    await api("DELETE", `${REGISTRIES}/MAVEN_REPOSITORY_SECRET`);
    await api(
      "DELETE",
      `/repos/acme-eng/api/environments/release%2Feu/deployment_protection_rules/${old.rule}`,
    );
    await api("DELETE", "/orgs/acme-eng/actions/secrets/NPM_PUBLISH_TOKEN");
    await api("DELETE", "/repos/acme-eng/api/environments/release%2Feu/variables/REGION");
    // An environment deleted: its patterns and its gate go with it.
    await api("DELETE", "/repos/acme-eng/api/environments/canary%2Feu");
    expect(canaryGate()).toBeUndefined();
    await api("DELETE", `/repos/acme-eng/service/keys/${state().deployKeys[0]?.id}`);
    // A repository ruleset deleted, the team's role revoked.
    await api("DELETE", `/repos/acme-eng/api/rulesets/${ruleset("releases")?.id}`);
    await api("DELETE", "/orgs/acme-eng/organization-roles/teams/platform/8138");
    // A value removed outside Pulumi reads as null (the resource stays); a multi select changed.
    await api(
      "PATCH",
      "/organizations/acme-eng/org-properties/values",
      {
        properties: [
          { property_name: "cost_center", value: null },
          { property_name: "regions", value: ["apac"] },
        ],
      },
      "2026-03-10",
    );

    // The stack still holds the old token's configuration: the program gives the new one.
    const refreshed = await ok("refresh", "--yes", "--run-program", "--skip-preview", "--diff");
    expect(refreshed.output).toMatch(/"apac"/);
    const names = Object.keys(stack());
    for (const gone of [
      "ci",
      "builders",
      "builders-runners",
      "octocat",
      "actions",
      "maven",
      "release-gate",
      "publish-token",
      "eu-region",
      "canary",
      "canary-gate",
      "svc-ci",
      "releases",
      "platform-security",
    ]) {
      expect(names).not.toContain(gone);
    }
    expect(names).toContain("ops-default");
    expect(stack().cost?.outputs.value ?? null).toBeNull();

    // Meanwhile the registry's key was rotated and the program's value changed: the plan updates
    // npm's value only, and never shows the digest. The program also declares acme-ops's only admin,
    // as an admin with onDestroy "remove" written out: adopted with no write.
    expect(await control("POST", `${REGISTRIES}/public-key/rotate`)).toBe(200);
    program.setEnv({ REGISTRY_VALUE: SECOND_VALUE });
    program.declare(programOf({ integrationId: 102, opsAdmin: { role: "admin", onDestroy: "remove" } }));
    const plan = await run("preview", "--json");
    expect(plan.code, plan.output).toBe(0);
    const steps = (JSON.parse(plan.stdout) as { steps: PlanStep[] }).steps;
    const npm = steps.find((st) => st.urn.endsWith("::npm"));
    expect(npm?.op).toBe("update");
    expect(steps.find((st) => st.urn.endsWith("::ops-admin"))?.op).toBe("create");
    const before = npm?.oldState?.inputs ?? {};
    const after = npm?.newState?.inputs ?? {};
    // The plan shows secrets masked: npm's update differs in nothing but the (secret) value.
    expect(Object.keys(after).length).toBeGreaterThan(5);
    const differing = Object.keys(after).filter(
      (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
    );
    expect(differing.filter((k) => k !== "value")).toEqual([]);
    expect(plan.stdout).not.toMatch(/scrypt\$/);

    emulator.controls.clearLog();
    await ok("up", "--yes", "--skip-preview");
    const requests = requestsSince();
    // The new value is sealed for the rotated key, fetched again once.
    expect(requests["GET /orgs/{org}/private-registries/public-key"]).toBe(1);
    const writes = Object.fromEntries(Object.entries(requests).filter(([r]) => !r.startsWith("GET ")));
    figures.recreate = writes;
    expect(writes).toEqual({
      "POST /repos/{owner}/{repo}/hooks": 1,
      "POST /orgs/{org}/actions/runner-groups": 1,
      "PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/runners": 1,
      "PUT /orgs/{org}/memberships/{username}": 1,
      "POST /enterprises/{enterprise}/settings/billing/budgets": 1,
      "POST /orgs/{org}/private-registries": 1,
      "PATCH /orgs/{org}/private-registries/{secret_name}": 1,
      "POST /repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules": 2,
      "PATCH /organizations/{org}/org-properties/values": 2,
      "PUT /orgs/{org}/actions/secrets/{secret_name}": 1,
      "POST /repos/{owner}/{repo}/environments/{environment_name}/variables": 1,
      [`PUT ${ENVIRONMENT}`]: 1,
      [`POST ${ENVIRONMENT}/deployment-branch-policies`]: 2,
      "POST /repos/{owner}/{repo}/keys": 1,
      // octocat left acme-eng, and with it squad: the whole member list adds him again (invited).
      "PUT /orgs/{org}/teams/{team_slug}/memberships/{username}": 1,
      "POST /repos/{owner}/{repo}/rulesets": 1,
      "PUT /orgs/{org}/organization-roles/teams/{team_slug}/{role_id}": 1,
    });
    expect(actionsSecretValues()).toEqual(ACTIONS_SECRETS);
    expect(actionsVariable("env:1000:release/eu", "REGION")?.value).toBe("eu-west-1");
    expect(canaryPatterns()).toEqual(["branch:main", "tag:v*"]);
    expect(canaryGate()?.appId).toBe(101);
    expect(ruleset("releases")?.enforcement).toBe("evaluate");
    expect(state().orgRoleAssignments).toHaveLength(1);
    expect(hookAt("https://ci.example.com/hook")?.id).not.toBe(old.hook);
    expect(hookAt("https://ci.example.com/hook")?.config.secret).toBe(HOOK_SECRET);
    const builders = groupNamed("builders");
    expect(builders?.id).not.toBe(old.group);
    expect([groupOf(1), groupOf(2)]).toEqual([builders?.id, builders?.id]);
    expect(person("acme-eng", "octocat")).toEqual({ invited: "admin" });
    expect(actionsBudget()?.id).not.toBe(old.budget);
    expect(state().budgets).toHaveLength(2);
    expect(registry("NPM_REGISTRY_SECRET")?.value).toBe(SECOND_VALUE);
    expect(registry("MAVEN_REPOSITORY_SECRET")).toBeDefined();
    expect(protectionRules()).toHaveLength(1);
    expect(protectionRules()[0]?.[2]).not.toBe(old.rule);
    expect(propertyValues()).toEqual({ ...CONVERGED_VALUES, "org:regions": ["eu", "us"] });
    expect(stack()["ops-admin"]?.outputs).toMatchObject({
      role: "admin",
      state: "active",
      onDestroy: "remove",
    });
    expect(await control("POST", "/orgs/acme-eng/invitations/octocat/accept")).toBe(200);
  });

  it("with the budgets feature off, refresh fails saying so and what to do, and drops nothing", async () => {
    expect(await control("PUT", "/enterprises/acme/features/budgets", { enabled: false })).toBe(200);
    const failed = await run("refresh", "--yes", "--skip-preview");
    expect(failed.code).not.toBe(0);
    expect(failed.output).toContain(
      'budgets are not enabled for enterprise acme (the server answered 404 "Feature not enabled")',
    );
    expect(failed.output).toContain("Turn on budgets (enhanced billing) in the billing settings of acme");
    expect(Object.keys(stack())).toEqual(expect.arrayContaining(["actions", "mona-credits"]));
    expect(await control("PUT", "/enterprises/acme/features/budgets", { enabled: true })).toBe(200);
  });

  it("refuses to demote the last admin of an organisation, and keeps them when the resource goes", async () => {
    program.declare(programOf({ integrationId: 102, opsAdmin: { role: "member" } }));
    const OPS_ADMIN = only("OrgMembership::ops-admin");
    const demote = await run("up", "--yes", "--skip-preview", ...OPS_ADMIN);
    expect(demote.code).not.toBe(0);
    expect(demote.output).toContain(
      "refusing to demote admin, the last admin of acme-ops; an organisation must keep at least one admin",
    );
    expect(demote.output).toContain("Make another member of acme-ops an admin first");
    expect(person("acme-ops", "admin")).toEqual({ member: "admin" });
    expect(stack()["ops-admin"]?.outputs).toMatchObject({ role: "admin" });

    // Removed from the program, its onDestroy "remove" written out when it was adopted: the last
    // admin stays, with a warning, and the resource leaves the stack (the run does not stop
    // half-way).
    expect(stack()["ops-admin"]?.outputs).toMatchObject({ onDestroy: "remove" });
    program.declare(programOf({ integrationId: 102 }));
    const remove = await ok("up", "--yes", "--skip-preview", ...OPS_ADMIN);
    expect(remove.output).toContain(
      "kept admin as an admin of acme-ops: the last admin of an organisation is never removed",
    );
    expect(person("acme-ops", "admin")).toEqual({ member: "admin" });
    expect(stack()["ops-admin"]).toBeUndefined();

    // Declared again with onDestroy "retain": adopted with no write; destroy then leaves the admin
    // in place. (No write at all: neither the registry's new value nor anything else shows a
    // perpetual diff.)
    program.declare(programOf({ integrationId: 102, opsAdmin: { role: "admin", onDestroy: "retain" } }));
    emulator.controls.clearLog();
    await ok("up", "--yes", "--skip-preview");
    expect(writesSince()).toEqual({});
    expect(stack()["ops-admin"]?.outputs).toMatchObject({ onDestroy: "retain" });
  });

  it("destroy removes what it made, applies each onDestroy and leaves default groups", async () => {
    emulator.controls.clearLog();
    const destroy = await ok("destroy", "--yes", "--skip-preview");
    figures.destroy = writesSince();
    expect(destroy.output).toMatch(/default runner group: it cannot be deleted and was left in place/);
    expect(destroy.output).toMatch(/returned to the organisation's default runner group/);
    expect(stack()).toEqual({});
    expect(state().repoHooks).toEqual([]);
    expect(state().globalHooks).toEqual([]);
    expect(state().runnerGroups.filter((g) => !g.default)).toEqual([]);
    // Four of the fixture's organisations and acme-core's (made as acme-platform), which destroy leaves.
    expect(state().runnerGroups.filter((g) => g.default)).toHaveLength(5);
    expect([groupOf(1), groupOf(2), groupOf(7)]).toEqual([2, 2, 1]);
    // remove (mona, an invitation: cancelled), downgrade (octocat), retain (hubot, the ops admin).
    expect(person("acme-eng", "mona")).toEqual({});
    expect(person("acme-eng", "octocat")).toEqual({ member: "member" });
    expect(person("acme-ops", "hubot")).toEqual({ member: "member" });
    expect(person("acme-ops", "admin")).toEqual({ member: "admin" });
    expect(state().invitations).toEqual([]);
    expect(propertyValues()).toEqual({});
    expect(protectionRules()).toEqual([]);
    expect(state().budgets).toEqual([]);
    expect(state().privateRegistries).toEqual([]);
    expect([state().gpgKeys, state().sshKeys, state().sshSigningKeys]).toEqual([[], [], []]);
    // The organisation stays (the API cannot delete one), and the run says so.
    expect(destroy.output).toContain(
      "Organization acme-core: the API cannot delete organisations; it is left in place and no longer managed by this stack",
    );
    expect(state().fixture.orgs.map((o) => o.login)).toContain("acme-core");
    expect(state().issueTypes).toEqual([]);
    expect(state().issueFields).toEqual([]);
    expect(state().orgBlocks).toEqual([]);
    // The program's secrets and variables are gone; the fixture's stay.
    expect(
      state()
        .actionsSecrets.map((s) => s.name)
        .sort(),
    ).toEqual(["DEPLOY_KEY", "NPM_TOKEN"]);
    expect(state().actionsVariables).toEqual([]);
    // The gate went before its environment; the fixture's environments stay.
    expect(state().orgHooks).toEqual([]);
    expect(canary()).toBeUndefined();
    expect(state().protectionRules).toEqual([]);
    expect(state().environments.map((e) => e.name)).toEqual(["production", "staging", "release/eu"]);
    // The repository it made archived (onDestroy's default), the one marked delete deleted, the
    // adopted one left as it was, and the organisation's settings as they are.
    expect(repo("service")).toMatchObject({ archived: true });
    expect(repo("scratch")).toBeUndefined();
    expect(repo("web")?.archived).toBeUndefined();
    expect(destroy.output).toContain(
      "Repository acme-eng/web: left as it is: it existed before this stack (adopted)",
    );
    expect(state().deployKeys).toEqual([]);
    expect(state().orgSettings["100"]).toMatchObject({ company: "Acme" });
    expect(figures.destroy).toMatchObject({
      "PATCH /repos/{owner}/{repo}": 1,
      "DELETE /repos/{owner}/{repo}": 1,
      "DELETE /repos/{owner}/{repo}/keys/{key_id}": 1,
    });
    expect(figures.destroy).not.toHaveProperty("PATCH /orgs/{org}");
    // The teams it made are gone; the fixture's stays, without olivia or access to api, and without
    // octocat, who left it when he left acme-eng. No collaborator or invitation is left.
    expect(state().teams.map((t) => t.slug)).toEqual(["platform"]);
    expect(state().teamMembers).toEqual([]);
    expect(state().teamRepos).toEqual([]);
    expect(state().collaborators).toEqual([]);
    expect(state().repoInvitations).toEqual([]);
    // Rulesets, the protection made (main keeps the fixture's), the role and the property definition.
    expect(state().rulesets).toEqual([]);
    expect(state().branchProtections.map((p) => p.branch)).toEqual(["main"]);
    expect(state().orgRoleAssignments).toEqual([]);
    const engProperties = state().fixture.orgs.find((o) => o.login === "acme-eng")?.repositoryProperties;
    expect(engProperties?.map((d) => d.name)).toEqual(["cost_center", "tier"]);
  });

  it("never showed a secret value in any output, the client's request log included", () => {
    expect(transcript).toContain("hosting: POST /orgs/acme-eng/private-registries");
    for (const secret of [
      FIRST_VALUE,
      SECOND_VALUE,
      HOOK_SECRET,
      GLOBAL_SECRET,
      PUBLISH_VALUE,
      SENTRY_VALUE,
      DB_VALUE,
      ORG_SECRET,
    ]) {
      expect(transcript).not.toContain(secret);
    }
  });
});

interface PlanStep {
  op: string;
  urn: string;
  oldState?: { inputs?: Record<string, unknown> };
  newState?: { inputs?: Record<string, unknown> };
}
