import { describe, expect, it } from "vitest";
import type { InventoryItem } from "../../importer/inventory";
import {
  assignNames,
  assignSecretKeys,
  hostAndPathSlug,
  hostSlug,
  identifier,
  MAX_NAME,
  shorten,
  slug,
} from "../../importer/naming";
import { nameCandidates } from "../../importer/run";

const item = (kind: string, id: string, args: Record<string, unknown>, label?: string): InventoryItem => ({
  kind,
  id,
  name: "",
  module: { org: "acme-eng" },
  args,
  secrets: {},
  refs: {},
  adopted: { comment: "", retainOnDelete: true },
  ...(label === undefined ? {} : { label }),
});

describe("slugs and identifiers", () => {
  it("makes lower-case words joined by dashes, accents dropped", () => {
    expect(slug("Build & Test")).toBe("build-test");
    expect(slug("Déploiement_Prod")).toBe("deploiement-prod");
    expect(slug("***")).toBe("x");
    expect(hostSlug("https://www.ci.example.com:8443/hook")).toBe("ci-example-com");
    expect(hostAndPathSlug("https://ci.example.com/hooks/a")).toBe("ci-example-com-hooks-a");
  });

  it("makes camelCase identifiers that are never keywords or digits first", () => {
    expect(identifier("acme-eng-runners-build")).toBe("acmeEngRunnersBuild");
    expect(identifier("class")).toBe("_class");
    expect(identifier("9-lives")).toBe("_9Lives");
  });
});

describe("assignNames", () => {
  const hook = (id: string, url: string) =>
    item("RepositoryWebhook", `acme-eng/api/${id}`, { owner: "acme-eng", repository: "api", url });

  it("names by what a person reads: the hook's host, then host and path where two share a host", () => {
    const items = [
      hook("10", "https://ci.example.com/a"),
      hook("9", "https://ci.example.com/b"),
      hook("11", "https://audit.example.com/"),
    ];
    assignNames(items, nameCandidates);
    expect(items.map((i) => i.name)).toEqual([
      "acme-eng-api-hook-ci-example-com-a",
      "acme-eng-api-hook-ci-example-com-b",
      "acme-eng-api-hook-audit-example-com",
    ]);
  });

  it("keeps a contested name for the smallest id (numeric) and gives the others a suffix of their own id", () => {
    const names = (order: InventoryItem[]) => {
      assignNames(order, nameCandidates);
      return Object.fromEntries(order.map((i) => [i.id, i.name]));
    };
    const a = hook("10", "https://ci.example.com/x");
    const b = hook("9", "https://ci.example.com/x");
    const first = names([a, b]);
    expect(first["acme-eng/api/9"]).toBe("acme-eng-api-hook-ci-example-com-x");
    expect(first["acme-eng/api/10"]).toMatch(/^acme-eng-api-hook-ci-example-com-x-[0-9a-f]{6}$/);
    // The same whatever order discovery found them in, and a third object with the same name
    // changes neither of theirs: a suffix comes from the object's own kind and id.
    expect(names([hook("9", "https://ci.example.com/x"), hook("10", "https://ci.example.com/x")])).toEqual(
      first,
    );
    const three = names([hook("11", "https://ci.example.com/x"), hook("10", "https://ci.example.com/x"), b]);
    expect(three).toMatchObject(first);
    expect(new Set(Object.values(three)).size).toBe(3);
  });

  it("gives two objects whose names differ only where the identifier drops a dash two identifiers", () => {
    // Runner groups `a 1` and `a1` (acme-ops-runners-a-1, acme-ops-runners-a1): acmeOpsRunnersA1 twice before.
    const groups = [
      item("OrgRunnerGroup", "acme-ops/8", { org: "acme-ops", name: "a1" }),
      item("OrgRunnerGroup", "acme-ops/7", { org: "acme-ops", name: "a 1" }),
      item("RunnerGroupRunners", "acme-ops/7", { org: "acme-ops", runners: [1] }, "a 1"),
      item("RunnerGroupRunners", "acme-ops/8", { org: "acme-ops", runners: [2] }, "a1"),
    ];
    assignNames(groups, nameCandidates);
    expect(groups.map((g) => g.name)).toEqual([
      expect.stringMatching(/^acme-ops-runners-a1-[0-9a-f]{6}$/),
      "acme-ops-runners-a-1",
      "acme-ops-runners-a-1-members",
      expect.stringMatching(/^acme-ops-runners-a1-members-[0-9a-f]{6}$/),
    ]);
    expect(new Set(groups.map((g) => identifier(g.name))).size).toBe(4);
  });

  it("gives hooks of ci1 and ci-1 two secret keys (acmeEngWebHookCi1ExampleComSecret once)", () => {
    const hooks = [
      { ...hook("2", "https://ci-1.example.com/h"), secrets: { secret: "" } },
      { ...hook("1", "https://ci1.example.com/h"), secrets: { secret: "" } },
    ];
    assignNames(hooks, nameCandidates);
    assignSecretKeys(hooks);
    const keys = hooks.map((h) => h.secrets.secret);
    expect(keys[1]).toBe("acmeEngApiHookCi1ExampleComHSecret");
    expect(keys[0]).toMatch(/^acmeEngApiHookCi1ExampleComH[0-9a-f]{6}Secret$/);
  });

  it("makes secret keys unique even where two names' identifiers and arguments join alike", () => {
    const a = { ...item("X", "1", {}), name: "hook", secrets: { secretToken: "" } };
    const b = { ...item("X", "2", {}), name: "hook-secret", secrets: { token: "" } };
    assignSecretKeys([b, a]);
    expect(a.secrets.secretToken).toBe("hookSecretToken");
    expect(b.secrets.token).toMatch(/^hookSecretToken[0-9a-f]{6}$/);
  });

  it("cuts a long name and ends it with a hash of the whole: stable, and distinct from its neighbours", () => {
    const long = (name: string, id: string) =>
      item("OrgRunnerGroup", `acme-eng/${id}`, { org: "acme-eng", name });
    const groups = [long("Build ".repeat(200), "1"), long(`${"Build ".repeat(199)}Test`, "2")];
    assignNames(groups, nameCandidates);
    for (const g of groups) {
      expect(g.name.length).toBeLessThanOrEqual(MAX_NAME);
      expect(g.name).toMatch(/^acme-eng-runners-build-build-[a-z-]*-[0-9a-f]{8}$/);
    }
    expect(groups[0]?.name).not.toBe(groups[1]?.name);
    expect(shorten("a-".repeat(100))).toBe(shorten("a-".repeat(100)));
    expect(shorten("short-name")).toBe("short-name");
  });

  it("names every kind from its identity", () => {
    const items = [
      item("OrgMembership", "acme-eng/mona", { org: "acme-eng", username: "mona" }),
      item("RunnerGroupRunners", "acme-eng/5", { org: "acme-eng", runners: [1] }, "Build Fleet"),
      // Its environment is a reference to the adopted environment: the label names it.
      item(
        "DeploymentProtectionRule",
        "acme-eng/api/release%2Feu/3",
        { owner: "acme-eng", repository: "api", integrationId: 101 },
        "release/eu gate deploy-gate",
      ),
      item("RepositoryEnvironment", "acme-eng/api/release%2Feu", {
        owner: "acme-eng",
        repository: "api",
        environment: "release/eu",
      }),
      item("OrgWebhook", "acme-eng/4", { org: "acme-eng", url: "https://org.example.com/hook" }),
      item("Budget", "acme/b", {
        enterprise: "acme",
        scope: "organization",
        entityName: "acme-eng",
        productSku: "actions",
      }),
    ];
    assignNames(items, nameCandidates);
    expect(items.map((i) => i.name)).toEqual([
      "acme-eng-member-mona",
      "acme-eng-runners-build-fleet-members",
      "acme-eng-api-release-eu-gate-deploy-gate",
      "acme-eng-api-release-eu",
      "acme-eng-hook-org-example-com",
      "acme-budget-acme-eng-actions",
    ]);
  });
});

describe("the signed-in user's keys", () => {
  it("are named by their title, name or first address", () => {
    const items = [
      item("UserGpgKey", "3", { armoredPublicKey: "..." }, "admin@acme.example"),
      item("UserSshKey", "4", { key: "ssh-ed25519 AAAA" }, "Work Laptop"),
      item("UserSshKey", "5", { key: "ssh-ed25519 AAAB" }, "Work Laptop"),
      item("UserSshSigningKey", "6", { key: "ssh-ed25519 AAAC" }, "signing"),
    ];
    assignNames(items, nameCandidates);
    expect(items.map((i) => i.name)).toEqual([
      "gpg-key-admin-acme-example",
      "ssh-key-work-laptop",
      expect.stringMatching(/^ssh-key-work-laptop-[0-9a-f]{6}$/),
      "ssh-signing-key-signing",
    ]);
  });
});
