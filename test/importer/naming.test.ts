import { describe, expect, it } from "vitest";
import type { InventoryItem } from "../../importer/inventory";
import { assignNames, hostAndPathSlug, hostSlug, identifier, slug } from "../../importer/naming";
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

  it("numbers what stays the same in id order (numeric), whatever order discovery found it in", () => {
    const names = (order: InventoryItem[]) => {
      assignNames(order, nameCandidates);
      return Object.fromEntries(order.map((i) => [i.id, i.name]));
    };
    const a = hook("10", "https://ci.example.com/x");
    const b = hook("9", "https://ci.example.com/x");
    const first = names([a, b]);
    expect(first).toEqual({
      "acme-eng/api/9": "acme-eng-api-hook-ci-example-com-x",
      "acme-eng/api/10": "acme-eng-api-hook-ci-example-com-x-2",
    });
    expect(names([hook("9", "https://ci.example.com/x"), hook("10", "https://ci.example.com/x")])).toEqual(
      first,
    );
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
      "ssh-key-work-laptop-2",
      "ssh-signing-key-signing",
    ]);
  });
});
