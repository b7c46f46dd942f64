/**
 * The native plugin through the real Pulumi CLI, from YAML, with the plugin installed the way B of
 * docs/install.md (the packed package in the program's node_modules, its bin folder named in
 * Pulumi.yaml), against sandbox servers. Each step covers many things at once:
 *
 * - one program: the YAML example (examples/plugin-yaml), an object of every kind, and two explicit
 *   providers each on a server of its own with a resource and an invoke: a refused token failing
 *   once on the provider; create (writes per route, secrets kept out of state); changes made
 *   outside Pulumi in several families named field by field in one drift check; `up --refresh`
 *   writing only what drifted, then a clean drift check; destroy (memberships and repositories
 *   per onDestroy);
 * - `pulumi import --file` of one object of each kind into another stack, and the code it writes
 *   previewed: nothing to change but the secrets the API never returns, as docs/adoption.md says;
 * - a stack of every kind made with the dynamic resources moved to the plugin (the steps of
 *   docs/languages.md): no replacement and no write, then a clean drift check.
 *
 * Programs are rewritten between steps, which costs no CLI invocation.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { gpgPublicKey, sshPublicKey } from "../emulator/helpers";
import { ORG_BUDGET_ARGS } from "../provider/resources/budget-args";
import { PACKAGE_VERSION, PulumiProgram, ROOT, type RunResult, requirePulumi } from "./pulumi";

const TOKEN = "svcp_siteadmin";
/** Stack config: the secrets the programs read, and the explicit providers' tokens. */
const CONFIG = {
  hookSecret: "plugin-e2e-s3cret",
  auditSecret: "plugin-e2e-audit-7d2e",
  registryValue: "plugin-e2e-registry-51aa",
  publishToken: "plugin-e2e-publish-7c10",
  sentryDsn: "plugin-e2e-sentry-e2d4",
  dbPassword: "plugin-e2e-db-9f3a",
  orgHookSecret: "plugin-e2e-org-hook-3c8f",
  tokenA: TOKEN,
  tokenB: "svcp_owner",
};
const SECRET_VALUES = [
  CONFIG.hookSecret,
  CONFIG.auditSecret,
  CONFIG.registryValue,
  CONFIG.publishToken,
  CONFIG.sentryDsn,
  CONFIG.dbPassword,
  CONFIG.orgHookSecret,
];
const W1 = "acme-eng/api/.github/workflows/deploy.yml@refs/heads/main";
/** Where a YAML program finds the plugin, with the package's version (docs/install.md, way B). */
const PLUGIN_PATH = `plugins:\n  providers:\n    - name: hosting\n      path: ./node_modules/.bin\n      version: ${PACKAGE_VERSION}\n`;

// ---------------------------------------------------------------------------------------------
// The programs: every kind declared once, written as YAML for the plugin or as JavaScript for the
// dynamic resources
// ---------------------------------------------------------------------------------------------

/** Another resource's output. */
class Output {
  constructor(
    readonly resource: string,
    readonly name: string,
  ) {}
}

/** A secret of the stack config. */
class FromConfig {
  constructor(readonly key: keyof typeof CONFIG) {}
}

type Arg = null | boolean | number | string | Arg[] | { [key: string]: Arg } | Output | FromConfig;

interface Declared {
  name: string;
  kind: string;
  args: Record<string, Arg>;
  /** An explicit provider of the program (a resource name). */
  provider?: string;
}

/** An object of every kind: the arguments of test/e2e/all-kinds.test.ts, one of each family. */
function everyKind(keys: { gpg: string; ssh: string; signing: string; deploy: string }): Declared[] {
  const of = (name: string, kind: string, args: Record<string, Arg>): Declared => ({ name, kind, args });
  return [
    of("ci", "RepositoryWebhook", {
      owner: "acme-eng",
      repository: "api",
      url: "https://ci.example.com/hook",
      contentType: "json",
      secret: new FromConfig("hookSecret"),
      events: ["push", "pull_request"],
    }),
    of("audit", "GlobalWebhook", {
      url: "https://audit.example.com/hook",
      secret: new FromConfig("auditSecret"),
      events: ["organization", "user"],
    }),
    of("deployers", "EnterpriseRunnerGroup", {
      enterprise: "acme",
      name: "deployers",
      visibility: "selected",
      selectedOrganizationIds: [100],
      runners: [7],
      restrictedToWorkflows: true,
      selectedWorkflows: [W1],
    }),
    of("team", "OrgRunnerGroup", {
      org: "acme-eng",
      name: "team",
      visibility: "selected",
      selectedRepositoryIds: [1000],
    }),
    of("team-runners", "RunnerGroupRunners", {
      org: "acme-eng",
      runnerGroupId: new Output("team", "runnerGroupId"),
      runners: [1, 2],
    }),
    of("mona", "OrgMembership", { org: "acme-eng", username: "mona" }),
    of("octocat", "OrgMembership", {
      org: "acme-eng",
      username: "octocat",
      role: "admin",
      onDestroy: "downgrade",
    }),
    of("hubot", "OrgMembership", { org: "acme-ops", username: "hubot", onDestroy: "retain" }),
    of("tier", "OrgPropertyValue", { org: "acme-eng", propertyName: "tier", value: "gold" }),
    of("api-cost", "RepositoryPropertyValue", {
      owner: "acme-eng",
      repository: "api",
      propertyName: "cost_center",
      value: "cc-api",
    }),
    of("release-gate", "DeploymentProtectionRule", {
      owner: "acme-eng",
      repository: "api",
      environment: "release/eu",
      integrationId: 101,
    }),
    of("actions", "Budget", ORG_BUDGET_ARGS),
    of("npm", "PrivateRegistry", {
      org: "acme-eng",
      registryType: "npm_registry",
      url: "https://npm.example.com/registry",
      visibility: "selected",
      selectedRepositoryIds: [1000],
      username: "ci-bot",
      value: new FromConfig("registryValue"),
    }),
    of("gpg", "UserGpgKey", { armoredPublicKey: keys.gpg, name: "e2e" }),
    of("laptop", "UserSshKey", { key: keys.ssh, title: "laptop" }),
    of("signing", "UserSshSigningKey", { key: keys.signing, title: "signing" }),
    of("platform", "Organization", { login: "acme-platform", admin: "olivia", profileName: "ACME Platform" }),
    of("bug", "IssueType", { org: "acme-eng", name: "Bug", color: "red" }),
    of("priority", "IssueField", {
      org: "acme-eng",
      name: "Priority",
      dataType: "single_select",
      options: [
        { name: "High", color: "red" },
        { name: "Low", color: "gray" },
      ],
    }),
    of("block-billie", "OrgBlock", { org: "acme-eng", username: "billie" }),
    of("publish-token", "OrgActionsSecret", {
      org: "acme-eng",
      secretName: "npm_publish_token",
      value: new FromConfig("publishToken"),
      visibility: "selected",
      selectedRepositoryIds: [1000],
    }),
    of("registry-url", "OrgActionsVariable", {
      org: "acme-eng",
      name: "REGISTRY_URL",
      value: "https://npm.example.com/registry",
      visibility: "all",
    }),
    of("sentry-dsn", "RepositoryActionsSecret", {
      owner: "acme-eng",
      repository: "api",
      secretName: "SENTRY_DSN",
      value: new FromConfig("sentryDsn"),
    }),
    of("node-version", "RepositoryActionsVariable", {
      owner: "acme-eng",
      repository: "api",
      name: "NODE_VERSION",
      value: "22",
    }),
    of("db-password", "EnvironmentActionsSecret", {
      owner: "acme-eng",
      repository: "api",
      environment: "production",
      secretName: "DB_PASSWORD",
      value: new FromConfig("dbPassword"),
    }),
    of("eu-region", "EnvironmentActionsVariable", {
      owner: "acme-eng",
      repository: "api",
      environment: "release/eu",
      name: "REGION",
      value: "eu-west-1",
    }),
    of("org-hook", "OrgWebhook", {
      org: "acme-eng",
      url: "https://org.example.com/hook",
      secret: new FromConfig("orgHookSecret"),
      events: ["organization", "team"],
    }),
    of("canary", "RepositoryEnvironment", {
      owner: "acme-eng",
      repository: "api",
      environment: "canary/eu",
      waitTimer: 5,
      reviewers: [{ type: "User", id: 3 }],
      deploymentBranchPolicy: { protectedBranches: false, customBranchPolicies: true },
      branchPolicies: [{ name: "main" }, { name: "v*", type: "tag" }],
    }),
    of("squad", "Team", { org: "acme-eng", name: "Squad", privacy: "closed" }),
    of("squad-members", "TeamMembers", {
      org: "acme-eng",
      teamSlug: new Output("squad", "slug"),
      members: [{ username: "octocat", role: "maintainer" }],
    }),
    of("platform-olivia", "TeamMembership", {
      org: "acme-eng",
      teamSlug: "platform",
      username: "olivia",
      role: "maintainer",
    }),
    of("squad-web", "TeamRepository", {
      org: "acme-eng",
      teamSlug: new Output("squad", "slug"),
      repository: "web",
      permission: "push",
    }),
    of("web-hubot", "RepositoryCollaborator", {
      owner: "acme-eng",
      repository: "web",
      username: "hubot",
      permission: "triage",
    }),
    of("api-access", "RepositoryCollaborators", {
      owner: "acme-eng",
      repository: "api",
      users: [],
      teams: [{ teamSlug: "platform" }],
    }),
    of("svc", "Repository", { org: "acme-eng", name: "svc", description: "The service" }),
    of("svc-ci", "RepositoryDeployKey", {
      owner: "acme-eng",
      repository: new Output("svc", "name"),
      title: "ci",
      key: keys.deploy,
    }),
    of("eng-settings", "OrgSettings", { org: "acme-eng", company: "Acme" }),
    // A property definition, a value and an organisation ruleset that wait for it (its name's
    // output), a repository ruleset, a protection of a branch whose name holds a slash, a role.
    of("service-level", "OrgCustomProperty", {
      org: "acme-eng",
      propertyName: "service_level",
      valueType: "single_select",
      allowedValues: ["critical", "standard"],
    }),
    of("web-level", "RepositoryPropertyValue", {
      owner: "acme-eng",
      repository: "web",
      propertyName: new Output("service-level", "propertyName"),
      value: "critical",
    }),
    of("critical", "OrgRuleset", {
      org: "acme-eng",
      name: "critical",
      enforcement: "active",
      bypassActors: [{ actorType: "OrganizationAdmin" }],
      conditions: {
        refName: { include: ["~DEFAULT_BRANCH"] },
        repositoryProperty: {
          include: [{ name: new Output("service-level", "propertyName"), propertyValues: ["critical"] }],
        },
      },
      rules: [
        { type: "deletion" },
        {
          type: "pull_request",
          parameters: {
            requiredApprovingReviewCount: 1,
            dismissStaleReviewsOnPush: true,
            requireCodeOwnerReview: false,
            requireLastPushApproval: false,
            requiredReviewThreadResolution: false,
          },
        },
      ],
    }),
    of("releases", "RepositoryRuleset", {
      owner: "acme-eng",
      repository: "api",
      name: "releases",
      enforcement: "evaluate",
      conditions: { refName: { include: ["refs/heads/release/*"] } },
      rules: [{ type: "non_fast_forward" }],
    }),
    of("release-protection", "BranchProtection", {
      owner: "acme-eng",
      repository: "api",
      branch: "release/1.0",
      requiredStatusChecks: { strict: true, contexts: ["ci/build"] },
      restrictions: { users: ["octocat"], teams: ["platform"] },
    }),
    of("platform-security", "OrgRoleAssignment", { org: "acme-eng", roleId: 8138, team: "platform" }),
  ];
}

/** A value as YAML (JSON is YAML; outputs and config as `${...}`) or as JavaScript. */
function render(value: Arg, style: "yaml" | "js"): string {
  if (value instanceof Output) {
    return style === "yaml"
      ? JSON.stringify(`\${${value.resource}.${value.name}}`)
      : `r[${JSON.stringify(value.resource)}].${value.name}`;
  }
  if (value instanceof FromConfig) {
    return style === "yaml"
      ? JSON.stringify(`\${${value.key}}`)
      : `config.requireSecret(${JSON.stringify(value.key)})`;
  }
  if (Array.isArray(value)) return `[${value.map((v) => render(v, style)).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${render(v, style)}`);
    return `{${members.join(", ")}}`;
  }
  return JSON.stringify(value);
}

/** Entries of a YAML program's `resources:` section. */
function yamlResources(resources: readonly Declared[]): string {
  return resources
    .map(
      (r) =>
        `  ${r.name}:\n    type: hosting:index:${r.kind}\n    properties: ${render(r.args, "yaml")}\n` +
        (r.provider ? `    options:\n      provider: \${${r.provider}}\n` : ""),
    )
    .join("");
}

/** The same resources as a JavaScript program of the dynamic resources. */
function jsProgram(resources: readonly Declared[]): string {
  const lines = resources.map(
    (r) =>
      `r[${JSON.stringify(r.name)}] = new hosting.${r.kind}(${JSON.stringify(r.name)}, ${render(r.args, "js")});`,
  );
  return [
    'const pulumi = require("@pulumi/pulumi");',
    'const hosting = require("pulumi-hosting");',
    "const config = new pulumi.Config();",
    "const r = {};",
    ...lines,
    "",
  ].join("\n");
}

// ---------------------------------------------------------------------------------------------
// Servers, requests, state
// ---------------------------------------------------------------------------------------------

/** The default provider's server; A and B, one per explicit provider; the migration's own. */
let main: RunningEmulator;
let serverA: RunningEmulator;
let serverB: RunningEmulator;
let migration: RunningEmulator;
let kinds: Declared[];

/** Every CLI output of the file, searched for the secret values at the end. */
let transcript = "";

async function run(program: PulumiProgram, ...args: string[]): Promise<RunResult> {
  const result = await program.run(...args);
  transcript += `\n${result.output}`;
  return result;
}

async function ok(program: PulumiProgram, ...args: string[]): Promise<RunResult> {
  const result = await run(program, ...args);
  if (result.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${result.code}:\n${result.output}`);
  return result;
}

/** Creates the stack `dev` with its config: the server's address, the token and `secrets` (all secret). */
async function initStack(program: PulumiProgram, server: RunningEmulator, secrets: Record<string, string>) {
  await ok(program, "stack", "init", "dev");
  const pairs = Object.entries(secrets).flatMap(([k, v]) => ["--secret", `${k}=${v}`]);
  await ok(program, "config", "set-all", "--plaintext", `hosting:baseUrl=${server.origin}`, ...pairs);
}

function clearLogs(): void {
  for (const e of [main, serverA, serverB, migration]) e.controls.clearLog();
}

/** Requests to a server since its log was last cleared, as `METHOD route` -> count. */
const requests = (e: RunningEmulator): Record<string, number> => e.controls.counts().byRoute;

/** The writes among them. */
const writes = (e: RunningEmulator): Record<string, number> =>
  Object.fromEntries(Object.entries(requests(e)).filter(([route]) => !route.startsWith("GET ")));

/** A change made outside Pulumi, as an administrator would make it. */
async function api(method: string, path: string, body?: unknown, version?: string): Promise<unknown> {
  const response = await fetch(`${main.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
      ...(version ? { "x-service-api-version": version } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return text ? JSON.parse(text) : undefined;
}

const state = () => main.store.state;

/** The values the server holds for the program's three Actions secrets. */
const actionsSecretValues = () =>
  ["NPM_PUBLISH_TOKEN", "SENTRY_DSN", "DB_PASSWORD"].map(
    (name) => state().actionsSecrets.find((s) => s.name === name)?.value,
  );

/** The server's view of one person in one organisation. */
function person(org: string, login: string): { member?: string; invited?: string } {
  const member = state().fixture.orgs.find((o) => o.login === org)?.members[login];
  const invitation = state().invitations.find((i) => i.org === org && i.login === login);
  return { ...(member ? { member: member.role } : {}), ...(invitation ? { invited: invitation.role } : {}) };
}

interface StackResource {
  type: string;
  id?: string;
  /** Its provider's reference (`<provider URN>::<provider id>`). */
  provider?: string;
  outputs: Record<string, unknown>;
}

/** A program's resources of this package (the plugin's or the dynamic ones), by name. */
function stackOf(program: PulumiProgram): Record<string, StackResource> {
  const found: Record<string, StackResource> = {};
  for (const r of program.resources()) {
    if (!/^(hosting:index:|pulumi-nodejs:dynamic\/hosting:)/.test(r.type)) continue;
    found[r.urn.split("::").at(-1) ?? ""] = {
      type: r.type,
      ...(r.id ? { id: r.id } : {}),
      ...(r.provider ? { provider: r.provider } : {}),
      outputs: r.outputs ?? {},
    };
  }
  return found;
}

beforeAll(async () => {
  requirePulumi();
  const yaml = spawnSync("sh", ["-c", "command -v pulumi-language-yaml"], { encoding: "utf8" });
  if (yaml.status !== 0) {
    throw new Error("pulumi-language-yaml is not on PATH: run the tests with `bash scripts/test.sh`");
  }
  [main, serverA, serverB, migration] = await Promise.all([
    startEmulator({ port: 0 }),
    startEmulator({ port: 0 }),
    startEmulator({ port: 0 }),
    startEmulator({ port: 0 }),
  ]);
  kinds = everyKind({
    gpg: await gpgPublicKey(["admin@acme.example"]),
    ssh: sshPublicKey("ssh-ed25519", "admin@laptop"),
    signing: sshPublicKey("ecdsa-sha2-nistp256", "admin@signing"),
    deploy: sshPublicKey("ssh-ed25519", "ci@deploy"),
  });
});

afterAll(async () => {
  await Promise.all([main, serverA, serverB, migration].map((e) => e?.close()));
});

// ---------------------------------------------------------------------------------------------
// One YAML program of every kind, with two explicit providers
// ---------------------------------------------------------------------------------------------

/**
 * The example, with the kinds and the explicit providers added to its resources and an invoke on
 * provider B to its variables, and the plugin found in the program's node_modules/.bin (way B).
 */
function pluginProgram(): string {
  const example = readFileSync(join(ROOT, "examples/plugin-yaml/Pulumi.yaml"), "utf8");
  const at = example.indexOf("\nvariables:\n");
  expect(at).toBeGreaterThan(0);
  // Its last section is outputs:, which the invoke's output joins.
  expect(example.slice(at)).toMatch(/\noutputs:\n( {2}\S.*\n)+$/);
  const explicit: Declared[] = [
    { name: "epic-a", kind: "IssueType", args: { org: "acme-eng", name: "Epic" }, provider: "serverA" },
    {
      name: "epic-b",
      kind: "IssueType",
      args: { org: "acme-eng", name: "Epic", color: "blue" },
      provider: "serverB",
    },
  ];
  const providers = [
    { name: "serverA", server: serverA, token: new FromConfig("tokenA") },
    { name: "serverB", server: serverB, token: new FromConfig("tokenB") },
  ].map(
    ({ name, server, token }) =>
      `  ${name}:\n    type: pulumi:providers:hosting\n    properties: ${render({ baseUrl: server.origin, token }, "yaml")}\n`,
  );
  const invoke =
    "  ownersOnB:\n    fn::invoke:\n      function: hosting:index:getOrgMembers\n" +
    '      arguments: {"org": "acme-eng", "role": "admin"}\n' +
    `      options:\n        provider: \${serverB}\n      return: members\n`;
  return (
    `${example.slice(0, at + 1)}${yamlResources(kinds)}${providers.join("")}${yamlResources(explicit)}` +
    `variables:\n${invoke}${example.slice(at + "\nvariables:\n".length)}` +
    `  ownersOnB: \${ownersOnB}\n` +
    PLUGIN_PATH
  );
}

/** The program of every kind, whose emptied stack the pending-create test reuses. */
let program: PulumiProgram;

describe("every kind from YAML through the plugin, with two explicit providers", () => {
  it("a refused token fails once, on the default provider, before any resource", async () => {
    program = new PulumiProgram("plugin-yaml", "");
    writeFileSync(join(program.dir, "Pulumi.yaml"), pluginProgram());
    await initStack(program, main, { "hosting:token": "svcp_wrong", ...CONFIG });
    clearLogs();
    const refused = await run(program, "preview");
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(
      /pulumi:providers:hosting resource 'default' has a problem: cannot use the API/,
    );
    const diagnostics = refused.stdout.slice(refused.stdout.lastIndexOf("Diagnostics:"));
    expect(diagnostics.match(/has a problem/g)).toHaveLength(1);
    expect(refused.output).not.toMatch(/hosting:index:\w+ [\w-]+\s+error/);
    expect(refused.output).not.toContain("svcp_wrong");
    expect(writes(main)).toEqual({});
    expect(requests(main)).toEqual({ "GET /user": 1 });
  });

  it("creates every kind on the default provider's server, and each explicit provider's on its own", async () => {
    await ok(program, "config", "set", "--secret", "hosting:token", TOKEN);
    clearLogs();
    const up = await ok(program, "up", "--yes", "--skip-preview");
    expect(writes(main)).toEqual({
      "POST /repos/{owner}/{repo}/hooks": 2,
      "POST /admin/hooks": 1,
      "POST /enterprises/{enterprise}/actions/runner-groups": 1,
      "POST /orgs/{org}/actions/runner-groups": 2,
      "PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/runners": 1,
      // mona and hubot invited, octocat (a member) made an admin.
      "PUT /orgs/{org}/memberships/{username}": 3,
      "PATCH /organizations/{org}/org-properties/values": 1,
      "PATCH /repos/{owner}/{repo}/properties/values": 2,
      "POST /repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules": 1,
      "POST /enterprises/{enterprise}/settings/billing/budgets": 1,
      "POST /orgs/{org}/private-registries": 1,
      "POST /user/gpg_keys": 1,
      "POST /user/keys": 1,
      "POST /user/ssh_signing_keys": 1,
      "POST /admin/organizations": 1,
      "POST /orgs/{org}/issue-types": 1,
      "POST /orgs/{org}/issue-fields": 1,
      "PUT /orgs/{org}/blocks/{username}": 1,
      "PUT /orgs/{org}/actions/secrets/{secret_name}": 1,
      "PUT /repos/{owner}/{repo}/actions/secrets/{secret_name}": 1,
      "PUT /repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}": 1,
      "POST /orgs/{org}/actions/variables": 1,
      "POST /repos/{owner}/{repo}/actions/variables": 1,
      "POST /repos/{owner}/{repo}/environments/{environment_name}/variables": 1,
      "POST /orgs/{org}/hooks": 1,
      "PUT /repos/{owner}/{repo}/environments/{environment_name}": 1,
      "POST /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies": 2,
      "POST /orgs/{org}/teams": 1,
      // octocat into squad (admin, who made it, out), olivia into platform.
      "PUT /orgs/{org}/teams/{team_slug}/memberships/{username}": 2,
      "DELETE /orgs/{org}/teams/{team_slug}/memberships/{username}": 1,
      // squad on web, platform on api.
      "PUT /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}": 2,
      // hubot, outside acme-eng, invited.
      "PUT /repos/{owner}/{repo}/collaborators/{username}": 1,
      "POST /orgs/{org}/repos": 1,
      "POST /repos/{owner}/{repo}/keys": 1,
      "PATCH /orgs/{org}": 1,
      "PUT /orgs/{org}/properties/schema/{custom_property_name}": 1,
      "POST /orgs/{org}/rulesets": 1,
      "POST /repos/{owner}/{repo}/rulesets": 1,
      "PUT /repos/{owner}/{repo}/branches/{branch}/protection": 1,
      "PUT /orgs/{org}/organization-roles/teams/{team_slug}/{role_id}": 1,
    });
    // Each explicit provider checked its own server once, and its resource (and the invoke on B)
    // went there and nowhere else.
    expect(requests(serverA)).toEqual({ "GET /user": 1, "POST /orgs/{org}/issue-types": 1 });
    expect(requests(serverB)).toEqual({
      "GET /user": 1,
      "POST /orgs/{org}/issue-types": 1,
      "GET /orgs/{org}/members": 1,
    });
    expect(state().issueTypes.map((t) => t.name)).toEqual(["Bug"]);
    expect(serverA.store.state.issueTypes.map((t) => [t.name, t.color])).toEqual([["Epic", null]]);
    expect(serverB.store.state.issueTypes.map((t) => [t.name, t.color])).toEqual([["Epic", "blue"]]);

    const resources = stackOf(program);
    expect(new Set(Object.values(resources).map((r) => r.type)).size).toBe(40);
    // A secret's name as the platform stores it, in the id and the output.
    expect(resources["publish-token"]?.id).toBe("acme-eng/NPM_PUBLISH_TOKEN");
    expect(resources["publish-token"]?.outputs.secretName).toBe("NPM_PUBLISH_TOKEN");
    expect(resources["squad-members"]?.id).toBe("acme-eng/squad");
    expect(resources["web-hubot"]?.outputs.invitationId).toBe(state().repoInvitations[0]?.id);
    const svc = state().fixture.repos.find((r) => r.owner === "acme-eng" && r.name === "svc");
    expect(resources.svc?.outputs).toMatchObject({ repositoryId: svc?.id, adopted: false });
    expect(resources["svc-ci"]?.id).toBe(`acme-eng/svc/${state().deployKeys[0]?.id}`);
    expect(state().orgSettings["100"]).toMatchObject({ company: "Acme" });
    expect(resources["epic-a"]?.provider).toMatch(/::pulumi:providers:hosting::serverA::/);
    expect(resources["epic-b"]?.provider).toMatch(/::pulumi:providers:hosting::serverB::/);
    expect(resources.ci?.provider).toMatch(/::pulumi:providers:hosting::default/);
    const hook = resources.hook;
    expect(hook?.id).toMatch(/^acme-eng\/api\/\d+$/);
    expect(resources.builders?.id).toMatch(/^acme-eng\/\d+$/);
    expect(resources.platform?.id).toMatch(/^\d+$/);
    const outputs = program.resources().find((r) => r.type === "pulumi:pulumi:Stack")?.outputs;
    expect(outputs).toMatchObject({
      hookId: hook?.outputs.hookId,
      runnerGroupId: resources.builders?.outputs.runnerGroupId,
      branches: expect.arrayContaining([expect.objectContaining({ name: "main", protected: true })]),
      ownersOnB: [expect.objectContaining({ login: "admin" }), expect.objectContaining({ login: "olivia" })],
    });
    expect(state().repoHooks.find((h) => h.id === hook?.outputs.hookId)?.config.url).toBe(
      "https://ci.example.com/yaml",
    );
    expect(state().repoHooks.find((h) => h.config.url === "https://ci.example.com/hook")?.config.secret).toBe(
      CONFIG.hookSecret,
    );
    expect(state().privateRegistries[0]?.value).toBe(CONFIG.registryValue);
    expect(actionsSecretValues()).toEqual([CONFIG.publishToken, CONFIG.sentryDsn, CONFIG.dbPassword]);
    expect(state().orgHooks[0]?.config.secret).toBe(CONFIG.orgHookSecret);
    expect(
      state()
        .branchPolicies.filter((p) => p.environment === "canary/eu")
        .map((p) => `${p.type}:${p.name}`),
    ).toEqual(["branch:main", "tag:v*"]);
    expect(person("acme-eng", "octocat")).toEqual({ member: "admin" });
    expect(up.output).not.toMatch(/warning/);

    // Secrets and tokens stay out of the state file (the registry's value is a digest, encrypted).
    const file = program.stateFile();
    for (const secret of [...SECRET_VALUES, TOKEN, CONFIG.tokenB]) expect(file).not.toContain(secret);
    expect(file).not.toMatch(/scrypt\$/);
  });

  it("names every field changed outside Pulumi in one drift check, and up --refresh writes only those", async () => {
    const hooks = state().repoHooks;
    const hookId = hooks.find((h) => h.config.url === "https://ci.example.com/yaml")?.id;
    const ciId = hooks.find((h) => h.config.url === "https://ci.example.com/hook")?.id;
    const budget = state().budgets[0]?.id;
    const bug = state().issueTypes[0]?.id;
    await api("PATCH", `/repos/acme-eng/api/hooks/${hookId}`, {
      config: { url: "https://elsewhere.example.com" },
    });
    await api("PATCH", `/repos/acme-eng/api/hooks/${ciId}`, { active: false });
    await api("PUT", "/orgs/acme-eng/memberships/mona", { role: "admin" });
    await api(
      "PATCH",
      "/organizations/acme-eng/org-properties/values",
      { properties: [{ property_name: "tier", value: "silver" }] },
      "2026-03-10",
    );
    await api("PUT", "/orgs/acme-eng/actions/runner-groups/2/runners/2");
    await api(
      "PATCH",
      `/enterprises/acme/settings/billing/budgets/${budget}`,
      { budget_amount: 500 },
      "2026-03-10",
    );
    await api("PUT", `/orgs/acme-eng/issue-types/${bug}`, { name: "Bug", is_enabled: true, color: "blue" });
    await api("DELETE", "/orgs/acme-eng/blocks/billie");
    // A secret's value changed on the web UI: the API never shows it, its updated_at moves.
    const web = await fetch(`${main.origin}/_emulator/repos/acme-eng/api/actions/secrets/SENTRY_DSN/value`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ value: "set on the web" }),
    });
    expect(web.status).toBe(200);
    const critical = state().rulesets.find((r) => r.name === "critical");
    await api("PUT", `/orgs/acme-eng/rulesets/${critical?.id}`, { enforcement: "disabled" });
    await api("PUT", "/repos/acme-eng/api/branches/release%2F1.0/protection", {
      required_status_checks: { strict: false, contexts: ["ci/build"] },
      enforce_admins: null,
      required_pull_request_reviews: null,
      restrictions: { users: ["octocat"], teams: ["platform"] },
    });

    clearLogs();
    const drift = await run(program, "preview", "--refresh", "--expect-no-changes", "--diff");
    expect(drift.code).not.toBe(0);
    const out = drift.output;
    expect(out).toMatch(
      /url\s*:\s*"https:\/\/elsewhere\.example\.com"\s*=>\s*"https:\/\/ci\.example\.com\/yaml"/,
    );
    // That PATCH replaced the hook's config, its secret with it: seen, and given back.
    expect(out).toMatch(/\+\s*secret\s*:\s*\[secret\]/);
    // Where the program leaves a field at its default, the update removes the value read back.
    expect(out).toMatch(/-\s*active\s*:\s*false/);
    expect(out).toMatch(/-\s*role\s*:\s*"admin"/);
    expect(out).toMatch(/value\s*:\s*"silver"\s*=>\s*"gold"/);
    expect(out).toMatch(/\+\s*\[1\]\s*:\s*2/);
    expect(out).toMatch(/amount\s*:\s*500\s*=>\s*100/);
    expect(out).toMatch(/color\s*:\s*"blue"\s*=>\s*"red"/);
    expect(out).toMatch(/\+ hosting:index:OrgBlock: \(create\)/);
    // The plugin's detailed diff names the secret's value (both sides masked).
    expect(out).toMatch(
      /~ hosting:index:RepositoryActionsSecret: \(update\)[^+]*~ value\s*: \[secret\] => \[secret\]/,
    );
    expect(out).toMatch(/~ 10 to update/);
    expect(out).toMatch(/enforcement\s*:\s*"disabled"\s*=>\s*"active"/);
    expect(out).toMatch(/strict\s*:\s*false\s*=>\s*true/);
    expect(out).toMatch(/\+ 1 to create/);
    expect(out).not.toMatch(/secret\s*:.*=>/);
    expect(writes(main)).toEqual({});

    clearLogs();
    const repaired = await ok(program, "up", "--refresh", "--yes", "--skip-preview");
    expect(repaired.output).toMatch(/RepositoryWebhook hook updated .*\[diff: [^\]]*url/);
    expect(writes(main)).toEqual({
      "PATCH /repos/{owner}/{repo}/hooks/{hook_id}": 2,
      "PUT /orgs/{org}/memberships/{username}": 1,
      "PATCH /organizations/{org}/org-properties/values": 1,
      "PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/runners": 1,
      "PATCH /enterprises/{enterprise}/settings/billing/budgets/{budget_id}": 1,
      "PUT /orgs/{org}/issue-types/{issue_type_id}": 1,
      "PUT /orgs/{org}/blocks/{username}": 1,
      "PUT /repos/{owner}/{repo}/actions/secrets/{secret_name}": 1,
      "PUT /orgs/{org}/rulesets/{ruleset_id}": 1,
      "PUT /repos/{owner}/{repo}/branches/{branch}/protection": 1,
    });
    expect(actionsSecretValues()).toEqual([CONFIG.publishToken, CONFIG.sentryDsn, CONFIG.dbPassword]);
    expect(writes(serverA)).toEqual({});
    expect(writes(serverB)).toEqual({});
    expect(state().repoHooks.find((h) => h.id === hookId)?.config).toMatchObject({
      url: "https://ci.example.com/yaml",
      secret: CONFIG.hookSecret,
    });
    expect(state().repoHooks.find((h) => h.id === ciId)).toMatchObject({
      active: true,
      config: { secret: CONFIG.hookSecret },
    });
    expect(person("acme-eng", "mona")).toEqual({ invited: "member" });
    expect(state().budgets[0]?.amount).toBe(100);
    expect(state().orgBlocks).toHaveLength(1);

    clearLogs();
    const clean = await run(program, "preview", "--refresh", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
    for (const e of [main, serverA, serverB]) expect(writes(e)).toEqual({});
  });

  it("pulumi import of one object of each kind writes code that previews with only the secrets to give", async () => {
    // Ids as each kind's reference gives them; an Organization by its login.
    const ids = stackOf(program);
    const first = new Map<string, Declared>();
    for (const d of kinds) if (!first.has(d.kind)) first.set(d.kind, d);
    const resources = [...first.values()].map((d) => ({
      type: `hosting:index:${d.kind}`,
      name: d.name,
      id: d.kind === "Organization" ? String(d.args.login) : (ids[d.name]?.id ?? ""),
    }));
    expect(resources).toHaveLength(40);
    const imported = new PulumiProgram("plugin-import", "");
    const header = `name: plugin-import\nruntime: yaml\n${PLUGIN_PATH}`;
    writeFileSync(join(imported.dir, "Pulumi.yaml"), header);
    writeFileSync(join(imported.dir, "import.json"), JSON.stringify({ resources }));
    const { auditSecret, registryValue } = CONFIG;
    await initStack(imported, main, { "hosting:token": TOKEN, auditSecret, registryValue });

    clearLogs();
    const result = await ok(imported, "import", "--file", "import.json", "--yes", "--out", "imported.yaml");
    expect(writes(main)).toEqual({});
    expect(result.output).toMatch(/=\s*40 imported/);
    // The one object whose inputs fail check: a registry's value, which the API never returns.
    const diagnostics = result.stdout.slice(result.stdout.lastIndexOf("Diagnostics:"));
    expect(diagnostics.match(/One or more imported inputs failed to validate/g)).toHaveLength(1);
    expect(diagnostics).toContain(
      // A secret field is named in the reason, not as a property whose value the engine prints.
      `hosting:index:PrivateRegistry resource 'npm' has a problem: value is required with authType "token"`,
    );

    // The code: every kind, a webhook's secret as the placeholder, the registry without its value,
    // the organisation adopted by login.
    const code = readFileSync(join(imported.dir, "imported.yaml"), "utf8");
    for (const { type } of resources) expect(code).toContain(`type: ${type.replace(":index:", ":")}`);
    expect(code.match(/secret: \(set outside Pulumi\)/g)).toHaveLength(3);
    expect(blockOf(code, "npm")).not.toMatch(/value:/);
    expect(blockOf(code, "platform")).toMatch(/importId: acme-platform/);
    // The Actions secrets' values as the placeholder, which is kept and never sent.
    expect(code.match(/value: \(set outside Pulumi\)/g)).toHaveLength(3);

    // docs/adoption.md's treatment: a webhook's placeholder kept (the server's secret stays, unmanaged),
    // or given from a secret config value; the registry's value given from one.
    let program2 = withBlock(code, "audit", (b) =>
      b.replace("secret: (set outside Pulumi)", `secret: \${auditSecret}`),
    );
    program2 = withBlock(program2, "npm", (b) =>
      b.replace("authType: token\n", `authType: token\n      value: \${registryValue}\n`),
    );
    writeFileSync(join(imported.dir, "Pulumi.yaml"), header + program2);
    clearLogs();
    const preview = await run(imported, "preview", "--expect-no-changes", "--diff");
    expect(preview.code).not.toBe(0);
    const steps = [...preview.output.matchAll(/^\s*([-+~]+) hosting:index:(\w+): \(([\w-]+)\)/gm)].map(
      (m) => [m[2], m[3]],
    );
    expect(steps).toEqual([
      ["GlobalWebhook", "update"],
      ["PrivateRegistry", "update"],
    ]);
    expect(preview.output).toMatch(/~ secret\s*: \[secret\] => \[secret\]/);
    expect(preview.output).toMatch(/\+ value\s*: \[secret\]/);
    expect(preview.output.match(/^\s+[-+~] \w+\s*: /gm)).toHaveLength(2);
    expect(preview.output).toMatch(/~ 2 to update/);
    expect(preview.output).toMatch(/39 unchanged/);
    expect(requests(main)).toEqual({ "GET /user": 1 });
  });

  it("destroy removes what it made on every server, and applies each membership's onDestroy", async () => {
    clearLogs();
    const destroy = await ok(program, "destroy", "--yes", "--skip-preview");
    expect(writes(main)).toEqual({
      "DELETE /repos/{owner}/{repo}/hooks/{hook_id}": 2,
      "DELETE /admin/hooks/{hook_id}": 1,
      "DELETE /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}": 1,
      "DELETE /orgs/{org}/actions/runner-groups/{runner_group_id}": 2,
      "PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/runners": 1,
      // mona's invitation cancelled, octocat downgraded, hubot retained.
      "DELETE /orgs/{org}/memberships/{username}": 1,
      "PUT /orgs/{org}/memberships/{username}": 1,
      "PATCH /organizations/{org}/org-properties/values": 1,
      "PATCH /repos/{owner}/{repo}/properties/values": 2,
      "DELETE /repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules/{protection_rule_id}": 1,
      "DELETE /enterprises/{enterprise}/settings/billing/budgets/{budget_id}": 1,
      "DELETE /orgs/{org}/private-registries/{secret_name}": 1,
      "DELETE /user/gpg_keys/{gpg_key_id}": 1,
      "DELETE /user/keys/{key_id}": 1,
      "DELETE /user/ssh_signing_keys/{ssh_signing_key_id}": 1,
      "DELETE /orgs/{org}/issue-types/{issue_type_id}": 1,
      "DELETE /orgs/{org}/issue-fields/{issue_field_id}": 1,
      "DELETE /orgs/{org}/blocks/{username}": 1,
      "DELETE /orgs/{org}/actions/secrets/{secret_name}": 1,
      "DELETE /repos/{owner}/{repo}/actions/secrets/{secret_name}": 1,
      "DELETE /repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}": 1,
      "DELETE /orgs/{org}/actions/variables/{name}": 1,
      "DELETE /repos/{owner}/{repo}/actions/variables/{name}": 1,
      "DELETE /repos/{owner}/{repo}/environments/{environment_name}/variables/{name}": 1,
      "DELETE /orgs/{org}/hooks/{hook_id}": 1,
      "DELETE /repos/{owner}/{repo}/environments/{environment_name}": 1,
      "DELETE /orgs/{org}/teams/{team_slug}": 1,
      "DELETE /orgs/{org}/teams/{team_slug}/memberships/{username}": 2,
      "DELETE /orgs/{org}/teams/{team_slug}/repos/{owner}/{repo}": 2,
      "DELETE /repos/{owner}/{repo}/invitations/{invitation_id}": 1,
      // The repository the stack made archived (onDestroy's default), its deploy key deleted; the
      // organisation's settings left as they are.
      "PATCH /repos/{owner}/{repo}": 1,
      "DELETE /repos/{owner}/{repo}/keys/{key_id}": 1,
      "DELETE /orgs/{org}/properties/schema/{custom_property_name}": 1,
      "DELETE /orgs/{org}/rulesets/{ruleset_id}": 1,
      "DELETE /repos/{owner}/{repo}/rulesets/{ruleset_id}": 1,
      "DELETE /repos/{owner}/{repo}/branches/{branch}/protection": 1,
      "DELETE /orgs/{org}/organization-roles/teams/{team_slug}/{role_id}": 1,
    });
    for (const e of [serverA, serverB]) {
      expect(writes(e)).toEqual({ "DELETE /orgs/{org}/issue-types/{issue_type_id}": 1 });
      expect(e.store.state.issueTypes).toEqual([]);
    }
    expect(stackOf(program)).toEqual({});
    expect(person("acme-eng", "mona")).toEqual({});
    expect(person("acme-eng", "octocat")).toEqual({ member: "member" });
    expect(person("acme-ops", "hubot")).toEqual({ invited: "member" });
    expect(state().repoHooks).toEqual([]);
    expect(state().runnerGroups.filter((g) => !g.default)).toEqual([]);
    expect(state().privateRegistries).toEqual([]);
    expect(
      state()
        .actionsSecrets.map((x) => x.name)
        .sort(),
    ).toEqual(["DEPLOY_KEY", "NPM_TOKEN"]);
    expect(state().actionsVariables).toEqual([]);
    expect([state().gpgKeys, state().sshKeys, state().sshSigningKeys]).toEqual([[], [], []]);
    expect(state().fixture.repos.find((r) => r.name === "svc")?.archived).toBe(true);
    expect(state().deployKeys).toEqual([]);
    expect(state().orgSettings["100"]).toMatchObject({ company: "Acme" });
    expect(destroy.output).toMatch(/returned to the organisation's default runner group/);
    expect(destroy.output).toMatch(
      /Organization acme-platform: the API cannot delete organisations; it is left in place/,
    );
  });
});

describe("a create whose answer and look-ups were lost, through the engine", () => {
  it("is kept in state as pending, and the next up adopts what it made: no importId asked, no duplicate", async () => {
    // The stack is empty again: its program becomes one webhook.
    const url = "https://pending.example.com/hook";
    const header = readFileSync(join(program.dir, "Pulumi.yaml"), "utf8").match(/^name: .*\n/m)?.[0];
    const hook = { owner: "acme-eng", repository: "api", url, events: ["push"] };
    writeFileSync(
      join(program.dir, "Pulumi.yaml"),
      `${header}runtime: yaml\nresources:\n  pendingHook:\n    type: hosting:index:RepositoryWebhook\n` +
        `    properties: ${JSON.stringify(hook)}\n${PLUGIN_PATH}`,
    );
    // The POST acts but its answer is dropped; the look-up for what it made is refused.
    const fault = (body: object) =>
      fetch(`${main.origin}/_emulator/faults`, {
        method: "POST",
        body: JSON.stringify({ path: "/repos/acme-eng/api/hooks", ...body }),
        headers: { "content-type": "application/json" },
      });
    await fault({ method: "POST", drop: true, when: "after" });
    await fault({ method: "GET", status: 403, count: 100 });
    clearLogs();
    const failed = await run(program, "up", "--yes", "--skip-preview");
    expect(failed.code).not.toBe(0);
    expect(failed.output).toMatch(
      /kept in state as pending, and the next `pulumi up` adopts it if it was made/,
    );
    expect(stackOf(program).pendingHook?.id).toMatch(/^pending-create:\d+$/);
    const made = state().repoHooks.filter((h) => h.config.url === url);
    expect(made).toHaveLength(1);

    await fetch(`${main.origin}/_emulator/faults`, { method: "DELETE" });
    clearLogs();
    await ok(program, "up", "--yes", "--skip-preview");
    expect(writes(main)).toEqual({});
    expect(state().repoHooks.filter((h) => h.config.url === url)).toHaveLength(1);
    expect(stackOf(program).pendingHook?.id).toBe(`acme-eng/api/${made[0]?.id}`);
    await ok(program, "destroy", "--yes", "--skip-preview");
    expect(state().repoHooks).toEqual([]);
  });
});

/** One resource's block of generated YAML (its two-space key line to the next one). */
function blockOf(code: string, name: string): string {
  const start = code.indexOf(`\n  ${name}:\n`);
  expect(start, `no resource ${name} in:\n${code}`).toBeGreaterThan(-1);
  const next = code.slice(start + 1).search(/\n {2}\S[^\n]*:\n/);
  return code.slice(start, next === -1 ? code.length : start + 1 + next);
}

/** The code with one resource's block edited. */
function withBlock(code: string, name: string, edit: (block: string) => string): string {
  const block = blockOf(code, name);
  const edited = edit(block);
  expect(edited).not.toBe(block);
  return code.replace(block, edited);
}

// ---------------------------------------------------------------------------------------------
// A stack of the dynamic resources moved to the plugin
// ---------------------------------------------------------------------------------------------

describe("a stack of the dynamic resources moved to the plugin", () => {
  it("keeps every object: no replacement, no write, and a clean drift check (docs/languages.md's steps)", async () => {
    const moving = new PulumiProgram("plugin-migration", jsProgram(kinds));
    const { hookSecret, auditSecret, registryValue, publishToken, sentryDsn, dbPassword, orgHookSecret } =
      CONFIG;
    await initStack(moving, migration, {
      "hosting:token": TOKEN,
      ...{ hookSecret, auditSecret, registryValue, publishToken, sentryDsn, dbPassword, orgHookSecret },
    });
    await ok(moving, "up", "--yes", "--skip-preview");
    const before = stackOf(moving);
    expect(Object.keys(before)).toHaveLength(kinds.length);
    expect(new Set(Object.values(before).map((r) => r.type)).size).toBe(40);
    for (const r of Object.values(before)) expect(r.type).toMatch(/^pulumi-nodejs:dynamic\/hosting:/);

    // 1. The program rewritten for the plugin: same project, stack, names and arguments.
    writeFileSync(
      join(moving.dir, "Pulumi.yaml"),
      `name: plugin-migration\nruntime: yaml\n${PLUGIN_PATH}resources:\n${yamlResources(kinds)}`,
    );
    // 2. pulumi up: its preview lists every resource as unchanged; the update moves the state.
    clearLogs();
    const up = await ok(moving, "up", "--yes");
    expect(up.output).toMatch(new RegExp(`${kinds.length + 1} unchanged`));
    expect(up.output).not.toMatch(/to create|to delete|to replace|created|deleted|replaced/);
    // The provider's check, once for the preview and once for the update: nothing else.
    expect(requests(migration)).toEqual({ "GET /user": 2 });
    const after = stackOf(moving);
    for (const [name, r] of Object.entries(before)) {
      expect(after[name]).toMatchObject({
        type: r.type.replace("pulumi-nodejs:dynamic/hosting:", "hosting:index:"),
        id: r.id,
        provider: expect.stringMatching(/::pulumi:providers:hosting::default/),
      });
    }
    expect(
      moving
        .resources()
        .filter((r) => r.type.startsWith("pulumi:providers:"))
        .map((r) => r.type),
    ).toEqual(["pulumi:providers:hosting"]);

    // 3. The drift check: clean, with reads only.
    clearLogs();
    const check = await run(moving, "preview", "--refresh", "--run-program", "--expect-no-changes");
    expect(check.code, check.output).toBe(0);
    expect(writes(migration)).toEqual({});
    expect(Object.keys(requests(migration)).length).toBeGreaterThan(10);
  });
});

describe("what every run printed", () => {
  it("never showed a secret value", () => {
    expect(transcript.length).toBeGreaterThan(0);
    for (const secret of SECRET_VALUES) expect(transcript).not.toContain(secret);
  });
});
