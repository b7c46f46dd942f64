/**
 * What Pulumi serialises into state for each resource (`__provider`), from the library as users
 * install it (the `npm pack` tarball under `node_modules`) and as programs inside this repository
 * load it (linked, outside `node_modules`). `setMocks` runs Pulumi's real closure serialiser in the
 * program's own folder.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PulumiProgram, ROOT } from "./pulumi";

/** Arguments for one resource of every kind; a kind missing here fails the first test. */
const ARGS: Record<string, unknown> = {
  RepositoryWebhook: {
    owner: "acme-eng",
    repository: "api",
    url: "https://x.example",
    secret: "hook-secret",
  },
  GlobalWebhook: { url: "https://y.example", secret: "hook-secret" },
  EnterpriseRunnerGroup: { enterprise: "acme", name: "e" },
  OrgRunnerGroup: { org: "acme-eng", name: "o" },
  RunnerGroupRunners: { org: "acme-eng", runnerGroupId: 2, runners: [1] },
  OrgMembership: { org: "acme-eng", username: "mona" },
  OrgPropertyValue: { org: "acme-eng", propertyName: "tier", value: "gold" },
  RepositoryPropertyValue: { owner: "acme-eng", repository: "api", propertyName: "tier", value: "gold" },
  DeploymentProtectionRule: {
    owner: "acme-eng",
    repository: "api",
    environment: "release/eu",
    integrationId: 101,
  },
  Budget: {
    enterprise: "acme",
    amount: 10,
    preventFurtherUsage: true,
    alerting: { willAlert: false },
    scope: "enterprise",
    type: "ProductPricing",
    productSku: "actions",
  },
  PrivateRegistry: {
    org: "acme-eng",
    registryType: "npm_registry",
    url: "https://npm.example.com",
    visibility: "all",
    value: "hook-secret",
  },
  // Mocked resources run no check: the key material need not be real here.
  UserGpgKey: { armoredPublicKey: "-----BEGIN PGP PUBLIC KEY BLOCK-----", name: "k" },
  UserSshKey: { key: "ssh-ed25519 AAAA", title: "k" },
  UserSshSigningKey: { key: "ssh-ed25519 AAAB", title: "k" },
  Organization: { login: "acme-new", admin: "admin" },
  IssueType: { org: "acme-eng", name: "Bug", isEnabled: true },
  IssueField: { org: "acme-eng", name: "Priority", dataType: "text" },
  OrgBlock: { org: "acme-eng", username: "hubot" },
  OrgActionsSecret: { org: "acme-eng", secretName: "TOKEN", value: "hook-secret" },
  OrgActionsVariable: { org: "acme-eng", name: "REGION", value: "eu" },
  RepositoryActionsSecret: {
    owner: "acme-eng",
    repository: "api",
    secretName: "TOKEN",
    value: "hook-secret",
  },
  RepositoryActionsVariable: { owner: "acme-eng", repository: "api", name: "REGION", value: "eu" },
  EnvironmentActionsSecret: {
    owner: "acme-eng",
    repository: "api",
    environment: "production",
    secretName: "TOKEN",
    value: "hook-secret",
  },
  EnvironmentActionsVariable: {
    owner: "acme-eng",
    repository: "api",
    environment: "production",
    name: "REGION",
    value: "eu",
  },
  OrgWebhook: { org: "acme-eng", url: "https://z.example", secret: "hook-secret" },
  RepositoryEnvironment: {
    owner: "acme-eng",
    repository: "api",
    environment: "canary/eu",
    reviewers: [{ type: "User", id: 3 }],
    deploymentBranchPolicy: { protectedBranches: false, customBranchPolicies: true },
    branchPolicies: [{ name: "main" }],
  },
  Repository: { org: "acme-eng", name: "svc", topics: ["api"] },
  RepositoryDeployKey: { owner: "acme-eng", repository: "api", title: "ci", key: "ssh-ed25519 AAAC" },
  OrgSettings: { org: "acme-eng", company: "Acme" },
  Team: { org: "acme-eng", name: "Web" },
  TeamMembership: { org: "acme-eng", teamSlug: "platform", username: "octocat" },
  TeamMembers: { org: "acme-eng", teamSlug: "platform", members: [{ username: "octocat" }] },
  TeamRepository: { org: "acme-eng", teamSlug: "platform", repository: "api", permission: "push" },
  RepositoryCollaborator: { owner: "acme-eng", repository: "web", username: "hubot" },
  RepositoryCollaborators: { owner: "acme-eng", repository: "web", users: [], teams: [] },
  OrgCustomProperty: {
    org: "acme-eng",
    propertyName: "level",
    valueType: "single_select",
    allowedValues: ["a", "b"],
  },
  OrgRuleset: {
    org: "acme-eng",
    name: "r",
    enforcement: "active",
    conditions: { refName: { include: ["~ALL"] }, repositoryName: { include: ["~ALL"] } },
    rules: [{ type: "pull_request", parameters: { requiredApprovingReviewCount: 1 } }],
  },
  RepositoryRuleset: {
    owner: "acme-eng",
    repository: "api",
    name: "r",
    enforcement: "evaluate",
    rules: [{ type: "deletion" }],
  },
  BranchProtection: {
    owner: "acme-eng",
    repository: "api",
    branch: "release/1.0",
    restrictions: { users: ["octocat"] },
  },
  OrgRoleAssignment: { org: "acme-eng", roleId: 8138, team: "platform" },
};

const TOKEN = "svcp_must_not_leak";

const SCRIPT = `
process.env.HOSTING_TOKEN = ${JSON.stringify(TOKEN)};
const pulumi = require("@pulumi/pulumi");
const captured = [];
(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (a) => {
        captured.push({ type: a.type, provider: a.inputs.__provider });
        return { id: a.name + "-id", state: a.inputs };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    true,
  );
  const hosting = require("pulumi-hosting");
  const args = ${JSON.stringify(ARGS)};
  const made = Object.entries(args).map(([kind, a]) => new hosting[kind](kind.toLowerCase(), a));
  await new Promise((resolve) => pulumi.all(made.map((r) => r.urn)).apply(() => resolve()));
  // What Pulumi's closure serialiser makes of each kind's provider, as dynamic.Resource would ask.
  const isDynamic = made.every((r) => r instanceof pulumi.dynamic.Resource);
  // Installed only: for a linked library the serialiser would inline it by value.
  const installed = require.resolve("pulumi-hosting").includes("/node_modules/");
  for (const c of installed ? captured : []) {
    const kind = c.type.replace("pulumi-nodejs:dynamic/hosting:", "");
    const provider = require("pulumi-hosting/kinds/" + kind.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase());
    c.serialiser = (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
    c.isDynamic = isDynamic;
  }
  console.log(JSON.stringify(captured));
})().catch((e) => { console.error(e); process.exit(1); });
`;

interface Captured {
  type: string;
  provider: string;
  /** What Pulumi's closure serialiser gives for the kind's module export. */
  serialiser: string;
  /** Whether the resources are `pulumi.dynamic.Resource`s. */
  isDynamic: boolean;
}

function capture(program: PulumiProgram): Captured[] {
  return JSON.parse(program.node(SCRIPT)) as Captured[];
}

const byKind = (captured: Captured[]) =>
  new Map(captured.map((c) => [c.type.replace("pulumi-nodejs:dynamic/hosting:", ""), c.provider]));

let kinds: string[];
beforeAll(() => {
  const { PROVIDERS } = require(join(ROOT, "dist/provider/providers.js")) as {
    PROVIDERS: Array<{ kind: string }>;
  };
  kinds = PROVIDERS.map((p) => p.kind).sort();
});

describe("serialised provider", () => {
  it("is a require of pulumi-hosting/kinds/<kind> of at most 512 bytes from a packed install", () => {
    expect(Object.keys(ARGS).sort()).toEqual(kinds);
    const captured = capture(new PulumiProgram("serialise-packed", ""));
    const providers = byKind(captured);
    expect([...providers.keys()].sort()).toEqual(kinds);
    // Written by the library, not the serialiser (which costs a program 0.3 s): byte for byte what
    // the serialiser makes, so state recorded before reads as no change.
    for (const c of captured) expect(c.provider, c.type).toBe(c.serialiser);
    expect(captured.every((c) => c.isDynamic)).toBe(true);
    const sizes: Record<string, number> = {};
    for (const [kind, text] of providers) {
      sizes[kind] = text.length;
      expect(text.length, kind).toBeLessThanOrEqual(512);
      const module = kind.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
      expect(text).toContain(`require("pulumi-hosting/kinds/${module}")`);
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain("hook-secret");
    }
    console.log(`__provider bytes (packed install): ${JSON.stringify(sizes)}`);
  });

  it("is the thin runtime shim when the library is linked from outside node_modules", () => {
    const providers = byKind(capture(new PulumiProgram("serialise-linked", "", { library: "linked" })));
    expect([...providers.keys()].sort()).toEqual(kinds);
    for (const [kind, text] of providers) {
      expect(text.length, kind).toBeLessThanOrEqual(4096);
      expect(text).toContain('require("pulumi-hosting/runtime")');
      expect(text).not.toContain(TOKEN);
      expect(text).not.toMatch(/undici|zod|HostingClient/);
    }
  });
});
