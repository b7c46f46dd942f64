/**
 * One stack declaring every kind, through the real Pulumi CLI against the sandbox server: what only
 * the engine shows. Create; a plain preview with no request; a refresh preview with its requests
 * per route; one batch of changes made outside Pulumi, then one `preview --refresh --diff` that
 * names every drifted field (and none of the changes that are not drift); convergence; token
 * rotation and `--run-program`; one batch of deletions made outside Pulumi, refresh and recreation
 * (with a registry value changed in code and sealed for a rotated key); budgets turned off; the
 * last-admin guard; and destroy applying each membership's onDestroy. Bad input is checked in
 * process (test/provider/resources/*); one preview here shows how the engine prints a check failure.
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
const FIRST_VALUE = "e2e-registry-token-31c9";
const SECOND_VALUE = "e2e-registry-token-rotated-8e04";
const W1 = "acme-eng/api/.github/workflows/deploy.yml@refs/heads/main";
const W2 = "acme-eng/web/.github/workflows/deploy.yml@refs/heads/main";
const BUDGETS = "/enterprises/acme/settings/billing/budgets";
const REGISTRIES = "/orgs/acme-eng/private-registries";

interface Options {
  /** A bad argument, to show how the engine prints a check failure. */
  bad?: boolean;
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
  const bad = options.bad
    ? `new hosting.EnterpriseRunnerGroup("bad", { enterprise: "acme", name: "x", visibility: "private" });`
    : "";
  return `
const pulumi = require("@pulumi/pulumi");
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
  value: pulumi.secret(process.env.REGISTRY_VALUE),
});
new hosting.PrivateRegistry("maven", {
  org: "acme-eng", registryType: "maven_repository", url: "https://jfrog.example.com/maven",
  visibility: "all", authType: "oidc_jfrog", jfrogOidcProviderName: "acme",
});
${keysProgram()}
// An organisation of its own (the site administrator's), issue types and a field of acme-eng, a block.
new hosting.Organization("platform", { login: "acme-platform", admin: "olivia", profileName: "ACME Platform" });
new hosting.IssueType("bug", { org: "acme-eng", name: "Bug", color: "red" });
new hosting.IssueType("task", { org: "acme-eng", name: "Task", description: "A piece of work" });
new hosting.IssueField("priority", {
  org: "acme-eng", name: "Priority", dataType: "single_select",
  options: [{ name: "High", color: "red" }, { name: "Low", color: "gray" }],
});
new hosting.OrgBlock("block-billie", { org: "acme-eng", username: "billie" });
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
${bad}
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

const writesSince = () =>
  Object.fromEntries(Object.entries(requestsSince()).filter(([route]) => !route.startsWith("GET ")));

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
const groupNamed = (name: string) => state().runnerGroups.find((g) => g.name === name);
const groupOf = (runner: number) => state().runnerGroupOf[String(runner)];
const hookAt = (url: string) => state().repoHooks.find((h) => h.config.url === url);
const registry = (name: string) => state().privateRegistries.find((r) => r.name === name);
const actionsBudget = () => state().budgets.find((b) => b.scope === "organization");
const protectionRules = () => state().protectionRules.map((r) => [r.environment, r.appId, r.id] as const);

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
  it("prints a check failure naming the resource and the field, with no request for it", async () => {
    program.declare(programOf({ bad: true }));
    emulator.controls.clearLog();
    const preview = await run("preview").finally(() => program.declare(programOf()));
    expect(preview.code).not.toBe(0);
    expect(preview.output).toMatch(/hosting:EnterpriseRunnerGroup \(bad\):/);
    expect(preview.output).toMatch(
      /property visibility value \{private\} has a problem: visibility must be one of "all", "selected"/,
    );
    // The bad group costs nothing. The only read allowed is RunnerGroupRunners checking that the
    // group it is new to is not a default group (docs/DECISIONS.md); whether the engine gets to that
    // check before it stops on the failure varies from run to run.
    const preflight = "GET /orgs/{org}/actions/runner-groups/{runner_group_id}";
    expect(Object.keys(requestsSince()).filter((route) => route !== preflight)).toEqual([]);
  });

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
      "POST /repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules": 1,
      "POST /enterprises/{enterprise}/settings/billing/budgets": 2,
      "POST /orgs/{org}/private-registries": 2,
      "POST /user/gpg_keys": 1,
      "POST /user/keys": 1,
      "POST /user/ssh_signing_keys": 1,
      "POST /admin/organizations": 1,
      "POST /orgs/{org}/issue-types": 2,
      "POST /orgs/{org}/issue-fields": 1,
      "PUT /orgs/{org}/blocks/{username}": 1,
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
    ).toBe(1);

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

    const resources = stack();
    expect(new Set(Object.values(resources).map((r) => r.kind)).size).toBe(23);
    expect(ruleset("critical")?.conditions?.repository_property?.include).toEqual([
      { name: "service_level", property_values: ["critical"], source: "custom" },
    ]);
    expect(ruleset("releases")).toMatchObject({
      scope: "repo",
      owner: "acme-eng/api",
      enforcement: "evaluate",
    });
    expect(releaseProtection()?.restrictions).toEqual({ users: ["octocat"], teams: ["platform"], apps: [] });
    expect(resources["release-protection"]?.id).toBe("acme-eng/api/release%2F1.0");
    expect(resources["platform-security"]?.id).toBe("acme-eng/teams/platform/8138");
    expect(resources["platform-security"]?.outputs.roleName).toBe("security_manager");
    expect(state().orgRoleAssignments).toEqual([{ org: "acme-eng", roleId: 8138, team: "platform" }]);
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
    for (const secret of [TOKEN, HOOK_SECRET, GLOBAL_SECRET, FIRST_VALUE]) expect(file).not.toContain(secret);
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

  it("previews no change with no request, and refreshes with one read per resource or less", async () => {
    emulator.controls.clearLog();
    const plain = await run("preview", "--expect-no-changes");
    expect(plain.code, plain.output).toBe(0);
    expect(requestsSince()).toEqual({});
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
      "GET /repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules/{protection_rule_id}": 1,
      "GET /enterprises/{enterprise}/settings/billing/budgets/{budget_id}": 1,
      "GET /enterprises/{enterprise}/settings/billing/budgets": 1,
      "GET /orgs/{org}/private-registries/{secret_name}": 1,
      "GET /orgs/{org}/private-registries": 1,
      "GET /user/gpg_keys/{gpg_key_id}": 1,
      "GET /user/keys/{key_id}": 1,
      "GET /user/ssh_signing_keys/{ssh_signing_key_id}": 1,
      "GET /orgs/{org}": 1,
      // Two types of one organisation: one list (the API has no GET of one type).
      "GET /orgs/{org}/issue-types": 1,
      "GET /orgs/{org}/issue-fields": 1,
      "GET /orgs/{org}/blocks/{username}": 1,
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
    expect(out).toMatch(/enforcement\s*:\s*"disabled"\s*=>\s*"active"/);
    expect(out).toMatch(/strict\s*:\s*false\s*=>\s*true/);
    expect(out).not.toMatch(/~ .*::releases/);
    expect(out).not.toMatch(/~ .*::service-level/);
    expect(out).toMatch(/~ 13 to update/);

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
      "PUT /orgs/{org}/rulesets/{ruleset_id}": 1,
      "PUT /repos/{owner}/{repo}/branches/{branch}/protection": 1,
    });
    expect(ruleset("critical")?.enforcement).toBe("active");
    expect(releaseProtection()?.requiredStatusChecks).toEqual({ strict: true, contexts: ["ci/build"] });
    expect(state().issueTypes.find((t) => t.name === "Bug")?.color).toBe("red");
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

  it("checks keys at preview, ignores a comment, replaces old key first, recreates a deleted one, adopts with importId", async () => {
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
    const bad = await run("preview");
    keys.ssh = good;
    expect(bad.code).not.toBe(0);
    expect(bad.output).toMatch(/hosting:UserSshKey \(laptop\):/);
    expect(bad.output).toMatch(/key type "ssh-dss" is not accepted/);
    expect(Object.keys(requestsSince()).filter((r) => r.includes("/user/"))).toEqual([]);

    // A new comment is no change; a new title replaces the signing key, deleting the old one first.
    keys.ssh = `${good.split(" ").slice(0, 2).join(" ")} admin@new-laptop`;
    keys.signingTitle = "signing-renamed";
    const oldSigning = state().sshSigningKeys[0]?.id;
    program.declare(programOf({ integrationId: 102 }));
    emulator.controls.clearLog();
    const replaced = await ok("up", "--yes", "--skip-preview");
    expect(replaced.output).toMatch(/replaced/);
    const log = emulator.controls.log.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route}`);
    expect(log).toEqual([
      "DELETE /user/ssh_signing_keys/{ssh_signing_key_id}",
      "POST /user/ssh_signing_keys",
    ]);
    emulator.controls.clearLog();
    expect(state().sshSigningKeys.map((k) => k.title)).toEqual(["signing-renamed"]);
    expect(state().sshSigningKeys[0]?.id).not.toBe(oldSigning);

    // A key deleted outside Pulumi is drift; up --refresh adds it again.
    await api("DELETE", `/user/gpg_keys/${gpgKey()?.id}`);
    const drift = await run("preview", "--refresh", "--expect-no-changes");
    expect(drift.code).not.toBe(0);
    expect(drift.output).toMatch(/\+ .*UserGpgKey.*gpg.*create/);
    emulator.controls.clearLog();
    await ok("up", "--refresh", "--yes", "--skip-preview");
    expect(writesSince()).toEqual({ "POST /user/gpg_keys": 1 });
    expect(state().gpgKeys).toHaveLength(1);

    // A key added by hand is adopted with importId: preview says what adopting it changes, and
    // up converges the title by replacing the key (no route changes it).
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
    const preview = await ok("preview");
    expect(preview.output).toContain(
      `UserSshKey ${handMade.id} (importId ${handMade.id}): adopting it will change title: "by hand" => "adopted"`,
    );
    expect(writesSince()).toEqual({});
    await ok("up", "--yes", "--skip-preview");
    expect(writesSince()).toEqual({ "DELETE /user/keys/{key_id}": 1, "POST /user/keys": 1 });
    expect(
      state()
        .sshKeys.map((k) => k.title)
        .sort(),
    ).toEqual(["adopted", "laptop"]);
    expect(stack().adopted?.outputs).toMatchObject({ key: handMade.key, title: "adopted" });
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
      "releases",
      "platform-security",
    ]) {
      expect(names).not.toContain(gone);
    }
    expect(names).toContain("ops-default");
    expect(stack().cost?.outputs.value ?? null).toBeNull();

    // Meanwhile the registry's key was rotated and the program's value changed: the plan updates
    // npm's value only, and never shows the digest. The program also declares acme-ops's only admin,
    // as an admin: adopted with no write.
    expect(await control("POST", `${REGISTRIES}/public-key/rotate`)).toBe(200);
    program.setEnv({ REGISTRY_VALUE: SECOND_VALUE });
    program.declare(programOf({ integrationId: 102, opsAdmin: { role: "admin" } }));
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
      "POST /repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules": 1,
      "PATCH /organizations/{org}/org-properties/values": 2,
      "POST /repos/{owner}/{repo}/rulesets": 1,
      "PUT /orgs/{org}/organization-roles/teams/{team_slug}/{role_id}": 1,
    });
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
    const demote = await run("up", "--yes", "--skip-preview");
    expect(demote.code).not.toBe(0);
    expect(demote.output).toContain(
      "refusing to demote admin, the last admin of acme-ops; an organisation must keep at least one admin",
    );
    expect(demote.output).toContain("Make another member of acme-ops an admin first");
    expect(person("acme-ops", "admin")).toEqual({ member: "admin" });
    expect(stack()["ops-admin"]?.outputs).toMatchObject({ role: "admin" });

    // Removed from the program with onDestroy "remove" written out: the last admin stays, with a
    // warning, and the resource leaves the stack (the run does not stop half-way).
    program.declare(programOf({ integrationId: 102, opsAdmin: { role: "admin", onDestroy: "remove" } }));
    await ok("up", "--yes", "--skip-preview");
    program.declare(programOf({ integrationId: 102 }));
    const remove = await ok("up", "--yes", "--skip-preview");
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
    // Four of the fixture's organisations and acme-platform's, which destroy leaves.
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
    expect(destroy.output).toMatch(
      /Organization acme-platform: the API cannot delete organisations; it is left in place/,
    );
    expect(state().fixture.orgs.map((o) => o.login)).toContain("acme-platform");
    expect(state().issueTypes).toEqual([]);
    expect(state().issueFields).toEqual([]);
    expect(state().orgBlocks).toEqual([]);
    // Rulesets, the protection made (main keeps the fixture's), the role and the property definition.
    expect(state().rulesets).toEqual([]);
    expect(state().branchProtections.map((p) => p.branch)).toEqual(["main"]);
    expect(state().orgRoleAssignments).toEqual([]);
    const engProperties = state().fixture.orgs.find((o) => o.login === "acme-eng")?.repositoryProperties;
    expect(engProperties?.map((d) => d.name)).toEqual(["cost_center", "tier"]);
  });

  it("never showed a secret value in any output, the client's request log included", () => {
    expect(transcript).toContain("hosting: POST /orgs/acme-eng/private-registries");
    for (const secret of [FIRST_VALUE, SECOND_VALUE, HOOK_SECRET, GLOBAL_SECRET]) {
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
