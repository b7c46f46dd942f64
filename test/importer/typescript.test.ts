/** The program writer: files a reviewer accepts as written by hand, in the project's format. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { RETAINED } from "../../importer/discover";
import type { Inventory, InventoryItem } from "../../importer/inventory";
import { literal, writeProgram } from "../../importer/typescript";
import { libraryTypes } from "./library-types";
import { ruleset } from "./sample-inventory";

const ROOT = resolve(__dirname, "../..");

const retained = { comment: RETAINED, retainOnDelete: true };
const base = { module: { org: "acme-eng" }, secrets: {}, refs: {}, adopted: retained };
const items: InventoryItem[] = [
  // Lists of nested objects and rule parameters: a map of the program's names to any value.
  { ...base, kind: "OrgRuleset", id: ruleset.id, name: ruleset.name, args: ruleset.args },
  {
    ...base,
    kind: "OrgRunnerGroup",
    id: "acme-eng/5",
    name: "acme-eng-runners-build",
    args: { org: "acme-eng", name: "Build", importId: 5 },
  },
  {
    ...base,
    kind: "RunnerGroupRunners",
    id: "acme-eng/5",
    name: "acme-eng-runners-build-members",
    args: { org: "acme-eng", runners: [1, 2] },
    refs: { runnerGroupId: { kind: "OrgRunnerGroup", id: "acme-eng/5", output: "runnerGroupId" } },
  },
  {
    ...base,
    kind: "RepositoryWebhook",
    id: "acme-eng/api/1",
    name: "acme-eng-api-hook-a-very-long-host-name-of-a-continuous-integration-service-example-com",
    args: {
      owner: "acme-eng",
      repository: "api",
      url: "https://a-very-long-host-name-of-a-continuous-integration-service.example.com/hook",
      events: [
        "push",
        "pull_request",
        "pull_request_review",
        "pull_request_review_comment",
        "issues",
        "issue_comment",
      ],
      importId: 1,
    },
    secrets: { secret: "acmeEngApiHookSecret" },
  },
  {
    kind: "Budget",
    id: "acme/b1",
    name: "acme-budget-acme-eng-actions",
    module: { enterprise: "acme" },
    args: {
      enterprise: "acme",
      amount: 100,
      preventFurtherUsage: false,
      alerting: { willAlert: true, recipients: ["admin", "billie"] },
      scope: "organization",
      type: "ProductPricing",
      entityName: "acme-eng",
      productSku: "actions",
      importId: "b1",
    },
    secrets: {},
    refs: {},
    adopted: retained,
  },
  {
    kind: "GlobalWebhook",
    id: "4",
    name: "hook-audit-example-com",
    module: { siteAdmin: true },
    args: { url: "https://audit.example.com/", importId: 4 },
    secrets: {},
    refs: {},
    adopted: retained,
  },
];
const inventory: Inventory = {
  format: 1,
  apiRoot: "https://hosting.example.com/api/v3",
  items,
  warnings: [],
  requests: 0,
};
const options = {
  project: "acme-hosting",
  librarySpec: "0.2.0",
  pulumiVersion: "^3.270.0",
  typescriptVersion: "^6.0.3",
  nodeTypesVersion: "^24.19.2",
};

describe("writeProgram", () => {
  const files = writeProgram(inventory, options);

  it("writes one module per organisation, enterprise and site administration, and the project files", () => {
    expect([...files.keys()].sort()).toEqual([
      "Pulumi.yaml",
      "acme-eng.ts",
      "enterprise-acme.ts",
      "index.ts",
      "package.json",
      "site-admin.ts",
      "tsconfig.json",
    ]);
    expect(files.get("index.ts")).toContain(
      'import "./acme-eng";\nimport "./enterprise-acme";\nimport "./site-admin";\n',
    );
    expect(JSON.parse(files.get("package.json") ?? "").dependencies).toEqual({
      "@pulumi/pulumi": "^3.270.0",
      "pulumi-hosting": "0.2.0",
    });
  });

  it("refers to other resources' outputs by expression, and reads secrets from config", () => {
    const eng = files.get("acme-eng.ts") ?? "";
    expect(eng).toContain(
      `// ${RETAINED}\nconst acmeEngRunnersBuild = new hosting.OrgRunnerGroup(\n  "acme-eng-runners-build",\n  {\n`,
    );
    expect(eng).toContain(
      "    runnerGroupId: acmeEngRunnersBuild.runnerGroupId,\n    runners: [1, 2],\n  },\n  { retainOnDelete: true },\n);",
    );
    expect(eng).toContain('    secret: config.requireSecret("acmeEngApiHookSecret"),');
    // Only modules that read a secret import pulumi and make a config.
    expect(files.get("site-admin.ts")).not.toContain("@pulumi/pulumi");
  });

  it("is the same for the same inventory, whatever order the items came in", () => {
    const shuffled = writeProgram({ ...inventory, items: [...items].reverse() }, options);
    expect([...shuffled.entries()].sort()).toEqual([...files.entries()].sort());
  });

  it("passes the project's formatter unchanged and compiles with tsc --strict", () => {
    const dir = mkdtempSync(join(tmpdir(), "hosting-import-writer-"));
    try {
      for (const [name, text] of files) writeFileSync(join(dir, name), text);
      const biome = join(ROOT, "node_modules/.bin/biome");
      // `format` without --write fails on any file the formatter would change.
      execFileSync(biome, ["format", "--config-path", join(ROOT, "biome.json"), "--vcs-enabled=false", dir], {
        encoding: "utf8",
      });
      // The program's imports resolve to this checkout's library and SDK.
      writeFileSync(
        join(dir, "tsconfig.check.json"),
        JSON.stringify({
          extends: "./tsconfig.json",
          compilerOptions: {
            noEmit: true,
            typeRoots: [join(ROOT, "node_modules/@types")],
            paths: {
              "pulumi-hosting": [libraryTypes()],
              "@pulumi/pulumi": [join(ROOT, "node_modules/@pulumi/pulumi")],
              "@pulumi/pulumi/*": [join(ROOT, "node_modules/@pulumi/pulumi/*")],
            },
          },
        }),
      );
      execFileSync(
        process.execPath,
        [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.check.json")],
        {
          encoding: "utf8",
        },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("literal", () => {
  it("keeps a list inline where it fits and breaks it one element per line where it does not", () => {
    expect(literal(["a", "b"], 10)).toBe('["a", "b"]');
    const long = Array.from({ length: 12 }, (_, i) => `element-${i}`);
    expect(literal(long, 10).split("\n")).toHaveLength(14);
    expect(literal({ a: 1 }, 0, true)).toBe('{\n  "a": 1\n}');
  });
});

describe("the signed-in user's keys", () => {
  const user = { module: { user: true as const }, secrets: {}, refs: {}, adopted: retained };
  const keys: InventoryItem[] = [
    {
      ...user,
      kind: "UserSshKey",
      id: "7",
      name: "ssh-key-laptop",
      args: {
        key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOEX8dCRTvrdtmB0ZcCtctj/qTTjTkNtUPywTvXo3728",
        title: "laptop",
        importId: 7,
      },
    },
    {
      ...base,
      kind: "OrgMembership",
      id: "acme-eng/mona",
      name: "acme-eng-member-mona",
      args: { org: "acme-eng", username: "mona", onDestroy: "retain" },
      adopted: {
        comment: "A member before this stack: destroy leaves the membership (onDestroy).",
        retainOnDelete: false,
      },
    },
  ];
  const written = writeProgram({ ...inventory, items: keys }, options);

  it("are written to their own module, after the organisations", () => {
    expect(writeProgram(inventory, options).has("user-keys.ts")).toBe(false);
    expect(written.get("index.ts")).toContain('import "./acme-eng";\nimport "./user-keys";\n');
    const module = written.get("user-keys.ts") ?? "";
    expect(module).toContain("The keys of the signed-in user (the token's user)");
    expect(module).toContain('new hosting.UserSshKey(\n  "ssh-key-laptop",\n  {');
    expect(module).toContain("importId: 7,");
  });

  it("say above each adopted resource what destroy does to it", () => {
    const org = written.get("acme-eng.ts") ?? "";
    expect(org).toContain(
      '// A member before this stack: destroy leaves the membership (onDestroy).\nnew hosting.OrgMembership("acme-eng-member-mona", {\n',
    );
    expect(org).toContain('  onDestroy: "retain",\n});');
    expect(written.get("user-keys.ts")).toContain(`// ${RETAINED}\n`);
  });
});
