/** `--split`: one project per module under a root package.json whose workspaces are the projects. */
import { describe, expect, it } from "vitest";
import { RETAINED } from "../../importer/discover";
import type { Inventory, InventoryItem } from "../../importer/inventory";
import { run } from "../../importer/run";
import { writeSplit } from "../../importer/split";
import { writeProgram } from "../../importer/typescript";

const adopted = { comment: RETAINED, retainOnDelete: true };
const item = (
  over: Partial<InventoryItem> & Pick<InventoryItem, "kind" | "id" | "name" | "module">,
): InventoryItem => ({
  args: {},
  secrets: {},
  refs: {},
  adopted,
  ...over,
});
const items: InventoryItem[] = [
  item({
    kind: "OrgRunnerGroup",
    id: "acme-eng/5",
    name: "acme-eng-runners-build",
    module: { org: "acme-eng" },
    args: { org: "acme-eng", name: "Build", importId: 5 },
  }),
  item({
    kind: "RunnerGroupRunners",
    id: "acme-eng/5",
    name: "acme-eng-runners-build-members",
    module: { org: "acme-eng" },
    args: { org: "acme-eng", runners: [1] },
    refs: { runnerGroupId: { kind: "OrgRunnerGroup", id: "acme-eng/5", output: "runnerGroupId" } },
  }),
  item({
    kind: "RepositoryWebhook",
    id: "acme-ops/infra/3",
    name: "acme-ops-infra-hook",
    module: { org: "acme-ops" },
    args: { owner: "acme-ops", repository: "infra", url: "https://x.example.com/", importId: 3 },
    secrets: { secret: "acmeOpsInfraHookSecret" },
  }),
  item({
    kind: "EnterpriseRunnerGroup",
    id: "acme/9",
    name: "acme-shared",
    module: { enterprise: "acme" },
    args: { enterprise: "acme", name: "Shared", importId: 9 },
  }),
  item({
    kind: "GlobalWebhook",
    id: "4",
    name: "hook-audit",
    module: { siteAdmin: true },
    args: { url: "https://a.example.com/", importId: 4 },
  }),
];
const inventory: Inventory = {
  format: 1,
  apiRoot: "http://127.0.0.1:1/api/v3",
  items,
  warnings: [],
  requests: 0,
};
const options = {
  project: "acme-hosting",
  librarySpec: "file:/tmp/pulumi-hosting.tgz",
  pulumiVersion: "^3.270.0",
  typescriptVersion: "^6.0.3",
  nodeTypesVersion: "^24",
  sdkVersion: "0.2.0",
};

describe("writeSplit", () => {
  it("writes one TypeScript project per module, each the program of that module alone", () => {
    const files = writeSplit(inventory, { ...options, language: "typescript" });
    const projects = [...files.keys()].filter((f) => f.endsWith("/Pulumi.yaml")).map((f) => f.split("/")[0]);
    expect(projects).toEqual(["acme-eng", "acme-ops", "enterprise-acme", "site-admin"]);
    expect(JSON.parse(files.get("package.json") ?? "")).toEqual({
      name: "acme-hosting",
      private: true,
      description: expect.stringContaining("hosting-fleet"),
      workspaces: ["acme-eng", "acme-ops", "enterprise-acme", "site-admin"],
    });
    // The same bytes as the single-program writer gives for that module's objects, named after it.
    const alone = writeProgram(
      { ...inventory, items: items.filter((i) => "org" in i.module && i.module.org === "acme-eng") },
      { ...options, project: "acme-eng" },
    );
    for (const [name, text] of alone) expect(files.get(`acme-eng/${name}`), name).toBe(text);
    expect(files.get("acme-eng/Pulumi.yaml")).toMatch(/^name: acme-eng\n/);
    expect(JSON.parse(files.get("acme-eng/package.json") ?? "").name).toBe("acme-eng");
    expect(files.get("acme-ops/acme-ops.ts")).toContain('config.requireSecret("acmeOpsInfraHookSecret")');
    expect(files.get("acme-eng/acme-eng.ts")).not.toContain("acme-ops");
  });

  it("writes YAML projects whose plugin is the shared node_modules' one", () => {
    const files = writeSplit(inventory, { ...options, language: "yaml" });
    expect(files.get("acme-eng/Pulumi.yaml")).toContain("      path: ../node_modules/.bin");
    expect(files.get("acme-eng/Pulumi.yaml")).toMatch(/^name: acme-eng$/m);
    expect(files.has("acme-eng/index.ts")).toBe(false);
  });

  it("refuses a reference from one project to another", () => {
    const crossing = [...items];
    crossing[1] = { ...(crossing[1] as InventoryItem), module: { org: "acme-ops" } };
    expect(() =>
      writeSplit({ ...inventory, items: crossing }, { ...options, language: "typescript" }),
    ).toThrow(
      "acme-eng-runners-build-members refers to OrgRunnerGroup acme-eng/5 of acme-eng: --split cannot write it",
    );
  });

  it("writes Python projects sharing the root's node_modules and virtualenv", () => {
    const files = writeSplit(inventory, { ...options, language: "python" });
    expect(files.get("acme-eng/Pulumi.yaml")).toMatch(/^name: acme-eng$/m);
    expect(files.get("acme-eng/Pulumi.yaml")).toContain("    virtualenv: ../venv\n");
    expect(files.get("acme-eng/Pulumi.yaml")).toContain("      path: ../node_modules/.bin");
    expect(files.get("acme-eng/requirements.txt")).toContain("../node_modules/pulumi-hosting/sdk/python\n");
    expect(files.get("acme-eng/installation/acme_eng.py")).toContain("hosting.OrgRunnerGroup(");
    expect(files.get("acme-ops/installation/acme_ops.py")).toContain(
      'config.require_secret("acmeOpsInfraHookSecret")',
    );
    expect(JSON.parse(files.get("package.json") ?? "").workspaces).toEqual([
      "acme-eng",
      "acme-ops",
      "enterprise-acme",
      "site-admin",
    ]);
  });

  it("writes Go projects whose go.mod replaces the SDK with the root's copy", () => {
    const files = writeSplit(inventory, { ...options, language: "go" });
    expect(files.get("acme-eng/go.mod")).toMatch(/^module acme-eng$/m);
    expect(files.get("acme-eng/go.mod")).toContain(
      "replace github.com/pulumi-hosting/pulumi-hosting/sdk/go => ../node_modules/pulumi-hosting/sdk/go\n",
    );
    expect(files.get("acme-eng/Pulumi.yaml")).toContain("      path: ../node_modules/.bin");
    expect(files.get("site-admin/site-admin.go")).toContain("hosting.NewGlobalWebhook(ctx,");
  });

  it("writes programs only", async () => {
    const err: string[] = [];
    const code = await run(["--org", "acme-eng", "--split", "--format", "json"], {
      env: {},
      out: () => {},
      err: (l) => err.push(l),
    });
    expect(code).toBe(2);
    expect(err.join("\n")).toContain(
      "--split writes one program per organisation; --format json writes none",
    );
  });
});
