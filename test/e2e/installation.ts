/**
 * An installation as an administrator configured it by hand, for the end-to-end tests of what
 * adopts one (hosting-import in every language): objects of every importable kind in two
 * organisations, the enterprise, the site administration and the signed-in user's keys, made
 * through the sandbox server's API; and hosting-import run over it.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { expect } from "vitest";
import type { RunningEmulator } from "../../emulator/index";
import { gpgPublicKey, sshPublicKey } from "../emulator/helpers";
import { packLibrary, ROOT } from "./pulumi";

const V2026 = { "x-service-api-version": "2026-03-10" };

/** A request to the server's API that must succeed (a status below 300). */
export type Api = (
  method: string,
  path: string,
  body: unknown,
  headers?: Record<string, string>,
) => Promise<void>;

export function apiOf(emulator: RunningEmulator, token: string): Api {
  return async (method, path, body, headers = {}) => {
    const response = await fetch(`${emulator.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
  };
}

/**
 * The installation as an administrator configured it by hand: every kind, both organisations (the
 * Actions secrets are the fixture's: `NPM_TOKEN` of acme-eng and `DEPLOY_KEY` of acme-eng/api).
 */
export async function fill(api: Api): Promise<void> {
  await api("POST", "/repos/acme-eng/api/hooks", {
    config: { url: "https://ci.example.com/hook", secret: "hook-secret", content_type: "json" },
    events: ["push", "pull_request"],
  });
  await api("POST", "/repos/acme-eng/api/hooks", {
    config: { url: "https://ci.example.com/other", insecure_ssl: "1" },
    active: false,
  });
  await api("POST", "/repos/acme-ops/infra/hooks", { config: { url: "https://deploy.example.com/x" } });
  await api("POST", "/admin/hooks", {
    name: "web",
    config: { url: "https://audit.example.com/x", secret: "audit-secret" },
    events: ["user", "organization"],
  });
  await api("POST", "/orgs/acme-eng/actions/runner-groups", {
    name: "Build Fleet",
    visibility: "private",
    runners: [1, 2],
  });
  await api("POST", "/orgs/acme-ops/actions/runner-groups", { name: "Deployers", runners: [5] });
  await api("POST", "/enterprises/acme/actions/runner-groups", { name: "Shared", visibility: "all" });
  await api("PUT", "/orgs/acme-eng/memberships/mona", { role: "member" });
  await api("PUT", "/orgs/acme-ops/memberships/hubot", { role: "admin" });
  await api(
    "PATCH",
    "/organizations/acme-eng/org-properties/values",
    { properties: [{ property_name: "regions", value: ["us", "eu"] }] },
    V2026,
  );
  await api("PATCH", "/repos/acme-eng/api/properties/values", {
    properties: [{ property_name: "tier", value: "gold" }],
  });
  await api("POST", "/repos/acme-eng/api/environments/release%2Feu/deployment_protection_rules", {
    integration_id: 101,
  });
  await api("POST", "/orgs/acme-ops/private-registries", {
    registry_type: "npm_registry",
    url: "https://npm.example.com/",
    visibility: "all",
    auth_type: "oidc_azure",
    tenant_id: "tenant",
    client_id: "client",
  });
  await api(
    "POST",
    "/enterprises/acme/settings/billing/budgets",
    {
      budget_type: "ProductPricing",
      budget_product_sku: "actions",
      budget_scope: "organization",
      budget_entity_name: "acme-eng",
      budget_amount: 100,
      prevent_further_usage: false,
      budget_alerting: { will_alert: true, alert_recipients: ["admin"] },
    },
    V2026,
  );
  // The signed-in user's keys (the token's user, admin).
  await api("POST", "/user/gpg_keys", { name: "work", armored_public_key: await gpgPublicKey() });
  await api("POST", "/user/keys", { title: "laptop", key: sshPublicKey("ssh-ed25519", "admin@laptop") });
  await api("POST", "/user/ssh_signing_keys", { title: "signing", key: sshPublicKey("ecdsa-sha2-nistp256") });
  await api("POST", "/orgs/acme-eng/issue-types", { name: "Bug", is_enabled: true, color: "red" });
  await api("POST", "/orgs/acme-eng/issue-fields", {
    name: "Priority",
    data_type: "single_select",
    options: [
      { name: "High", color: "red", priority: 1 },
      { name: "Low", color: "gray", description: "Some day", priority: 2 },
    ],
  });
  await api("PUT", "/orgs/acme-ops/blocks/mona", undefined);
  // Actions variables of every scope (the fixture holds an organisation and a repository secret).
  await api("POST", "/orgs/acme-eng/actions/variables", {
    name: "REGISTRY_URL",
    value: "https://npm.example.com/",
    visibility: "selected",
    selected_repository_ids: [1001, 1000],
  });
  await api("POST", "/repos/acme-eng/api/actions/variables", { name: "NODE_VERSION", value: "lts/jod" });
  await api("POST", "/repos/acme-eng/api/environments/release%2Feu/variables", {
    name: "REGION",
    value: "eu-west-1",
  });
  await api("POST", "/orgs/acme-eng/hooks", {
    name: "web",
    config: { url: "https://org.example.com/hook", secret: "org-secret", content_type: "json" },
    events: ["organization", "team"],
  });
  // Beside the fixture's environments (production requires octocat's review and lets main deploy):
  // one the platform team made, reviewed by the team platform, deploying v* tags after 5 minutes.
  await api("PUT", "/repos/acme-eng/api/environments/canary%2Feu", {
    wait_timer: 5,
    reviewers: [{ type: "Team", id: 1 }],
    deployment_branch_policy: { protected_branches: false, custom_branch_policies: true },
  });
  await api("POST", "/repos/acme-eng/api/environments/canary%2Feu/deployment-branch-policies", {
    name: "v*",
    type: "tag",
  });
  // Repositories as people left them: a description, topics, a deploy key; an organisation's policies.
  await api("PATCH", "/repos/acme-eng/web", { description: "The website", has_wiki: false });
  await api("PUT", "/repos/acme-eng/web/topics", { names: ["frontend", "web"] });
  await api("POST", "/repos/acme-eng/web/keys", {
    title: "deploy",
    key: sshPublicKey("ssh-ed25519", "ci@web"),
  });
  await api("PATCH", "/orgs/acme-eng", { company: "Acme", default_repository_permission: "write" });
  // Teams and access: a team nested under the fixture's `platform` (admin made it: its maintainer)
  // with octocat, platform's role on acme-eng/web, a collaborator and an invitation on acme-eng/api.
  await api("POST", "/orgs/acme-eng/teams", { name: "Platform Infra", parent_team_id: 1, privacy: "closed" });
  await api("PUT", "/orgs/acme-eng/teams/platform-infra/memberships/octocat", { role: "maintainer" });
  await api("PUT", "/orgs/acme-eng/teams/platform/repos/acme-eng/web", { permission: "push" });
  await api("PUT", "/repos/acme-eng/api/collaborators/octocat", { permission: "triage" });
  await api("PUT", "/repos/acme-eng/api/collaborators/hubot", { permission: "pull" });
  // A property definition (besides the fixture's two), rulesets of acme-eng and acme-eng/api, a
  // protection of a branch whose name holds a slash (besides main's), roles of a team and a member.
  await api("PUT", "/orgs/acme-eng/properties/schema/environment", {
    value_type: "single_select",
    required: true,
    default_value: "dev",
    description: "Where it runs",
    allowed_values: ["prod", "dev"],
  });
  await api("POST", "/orgs/acme-eng/rulesets", {
    name: "gold",
    enforcement: "active",
    bypass_actors: [
      { actor_type: "OrganizationAdmin", bypass_mode: "always" },
      { actor_id: 1, actor_type: "Team", bypass_mode: "pull_request" },
    ],
    conditions: {
      ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] },
      repository_property: { include: [{ name: "tier", property_values: ["gold"] }], exclude: [] },
    },
    rules: [
      { type: "deletion" },
      {
        type: "required_status_checks",
        parameters: {
          required_status_checks: [{ context: "ci/build" }],
          strict_required_status_checks_policy: true,
        },
      },
    ],
  });
  await api("POST", "/repos/acme-eng/api/rulesets", {
    name: "releases",
    enforcement: "evaluate",
    conditions: { ref_name: { include: ["refs/heads/release/*"], exclude: [] } },
    rules: [{ type: "non_fast_forward" }],
  });
  await api("PUT", "/repos/acme-eng/api/branches/release%2F1.0/protection", {
    required_status_checks: null,
    enforce_admins: true,
    required_pull_request_reviews: { required_approving_review_count: 2 },
    restrictions: { users: ["octocat"], teams: ["platform"], apps: [] },
    lock_branch: true,
  });
  await api("PUT", "/orgs/acme-eng/organization-roles/teams/platform/8138", undefined);
  await api("PUT", "/orgs/acme-eng/organization-roles/users/octocat/8132", undefined);
}

/** Every place `fill` writes to, as hosting-import's flags. */
export const EVERY_PLACE = [
  "--org",
  "acme-eng",
  "--org",
  "acme-ops",
  "--enterprise",
  "acme",
  "--site-admin",
  "--user",
];

/**
 * Runs the built hosting-import as `npx hosting-import` does, with the server's address and the
 * token in the environment, writing into `out` (`--force`) a program that depends on the packed
 * library; resolves with what it prints. Asynchronously: the sandbox server answers from this
 * same process.
 */
export function hostingImport(
  emulator: RunningEmulator,
  token: string,
  out: string,
  args: string[],
): Promise<string> {
  const argv = [
    join(ROOT, "dist/importer/cli.js"),
    ...args,
    ...["--out", out, "--force", "--library", `file:${packLibrary()}`],
  ];
  const env = { ...process.env, HOSTING_BASE_URL: emulator.origin, HOSTING_TOKEN: token };
  return new Promise((resolvePromise, reject) => {
    execFile(process.execPath, argv, { env, encoding: "utf8" }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolvePromise(stdout),
    );
  });
}
