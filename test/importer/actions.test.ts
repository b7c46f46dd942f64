/**
 * The writers and the Actions kinds: one object of each, as discovery finds them (a secret's value
 * from stack config, an organisation's repositories as a list of ids, an environment name holding
 * a slash), written in every language with the names the generated SDKs declare.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { RETAINED } from "../../importer/discover";
import { writeGoProgram } from "../../importer/go";
import type { Inventory, InventoryItem } from "../../importer/inventory";
import { writePythonProgram } from "../../importer/python";
import { pythonName } from "../../importer/sdk-types";
import { writeProgram } from "../../importer/typescript";
import { writeYamlProgram } from "../../importer/yaml";
import { options } from "./sample-inventory";

const ROOT = resolve(__dirname, "../..");
const base = {
  module: { org: "acme-eng" },
  secrets: {},
  refs: {},
  adopted: { comment: RETAINED, retainOnDelete: true },
};
const repo = { owner: "acme-eng", repository: "api" };
const items: InventoryItem[] = [
  {
    ...base,
    kind: "OrgActionsSecret",
    id: "acme-eng/NPM_TOKEN",
    name: "acme-eng-secret-npm-token",
    args: {
      org: "acme-eng",
      secretName: "NPM_TOKEN",
      visibility: "selected",
      selectedRepositoryIds: [1000, 1001],
    },
    secrets: { value: "acmeEngSecretNpmTokenValue" },
  },
  {
    ...base,
    kind: "OrgActionsVariable",
    id: "acme-eng/REGISTRY_URL",
    name: "acme-eng-variable-registry-url",
    args: { org: "acme-eng", name: "REGISTRY_URL", value: "https://npm.example.com/", visibility: "all" },
  },
  {
    ...base,
    kind: "RepositoryActionsSecret",
    id: "acme-eng/api/DEPLOY_KEY",
    name: "acme-eng-api-secret-deploy-key",
    args: { ...repo, secretName: "DEPLOY_KEY" },
    secrets: { value: "acmeEngApiSecretDeployKeyValue" },
  },
  {
    ...base,
    kind: "RepositoryActionsVariable",
    id: "acme-eng/api/NODE_VERSION",
    name: "acme-eng-api-variable-node-version",
    args: { ...repo, name: "NODE_VERSION", value: "22" },
  },
  {
    ...base,
    kind: "EnvironmentActionsSecret",
    id: "acme-eng/api/release%2Feu/DB_PASSWORD",
    name: "acme-eng-api-release-eu-secret-db-password",
    args: { ...repo, environment: "release/eu", secretName: "DB_PASSWORD" },
    secrets: { value: "acmeEngApiReleaseEuSecretDbPasswordValue" },
  },
  {
    ...base,
    kind: "EnvironmentActionsVariable",
    id: "acme-eng/api/release%2Feu/REGION",
    name: "acme-eng-api-release-eu-variable-region",
    args: { ...repo, environment: "release/eu", name: "REGION", value: "eu-west-1" },
  },
];
const inventory: Inventory = {
  format: 1,
  apiRoot: "https://hosting.example.com/api/v3",
  items,
  warnings: [],
  requests: 0,
};
const KINDS = items.map((i) => i.kind);

describe("the Actions kinds in every language", () => {
  it("TypeScript: each secret's value from stack config, the rest as read", () => {
    const eng = writeProgram(inventory, { ...options, typescriptVersion: "^5", nodeTypesVersion: "^22" }).get(
      "acme-eng.ts",
    );
    for (const kind of KINDS) expect(eng).toContain(`new hosting.${kind}(`);
    expect(eng).toContain('    value: config.requireSecret("acmeEngSecretNpmTokenValue"),\n');
    expect(eng).toContain("    selectedRepositoryIds: [1000, 1001],\n");
    expect(eng).toContain('    environment: "release/eu",\n');
  });

  it("YAML: secrets declared in config, each object imported by its id", () => {
    const text = writeYamlProgram(inventory, options).get("Pulumi.yaml") ?? "";
    for (const key of ["acmeEngSecretNpmTokenValue", "acmeEngApiSecretDeployKeyValue"]) {
      expect(text).toContain(`  ${key}:\n    type: string\n    secret: true\n`);
    }
    for (const kind of KINDS) expect(text).toContain(`type: hosting:index:${kind}\n`);
    expect(text).toContain(`      value: \${acmeEngApiSecretDeployKeyValue}\n`);
    expect(text).toContain("      selectedRepositoryIds: [1000, 1001]\n");
    expect(text).toContain("      import: acme-eng/api/release%2Feu/REGION\n");
  });

  it("Python: only keyword arguments the SDK's classes take", () => {
    const eng = writePythonProgram(inventory, options).get("installation/acme_eng.py") ?? "";
    expect(eng).toContain('    value=config.require_secret("acmeEngSecretNpmTokenValue"),\n');
    expect(eng).toContain("    selected_repository_ids=[1000, 1001],\n");
    let checked = 0;
    for (const call of eng.matchAll(/^(?:\w+ = )?hosting\.(\w+)\(\n([\s\S]*?)\n\)$/gm)) {
      const kind = call[1] ?? "";
      const source = readFileSync(join(ROOT, "sdk/python/pulumi_hosting", `${pythonName(kind)}.py`), "utf8");
      const init = source.split(`class ${kind}Args:`)[1]?.split('"""')[0] ?? "";
      const known = [...init.matchAll(/^\s+(\w+): (?:pulumi\.Input|Optional)/gm)].map((m) => m[1]);
      for (const arg of (call[2] ?? "").matchAll(/^ {4}(\w+)=/gm)) {
        if (arg[1] !== "opts") expect(known, `${kind}.${arg[1]}`).toContain(arg[1]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("Go: only fields the SDK's Args structs have, laid out as gofmt lays them out", () => {
    const files = writeGoProgram(inventory, options);
    const eng = files.get("acme-eng.go") ?? "";
    expect(eng).toMatch(/\tValue: +cfg\.RequireSecret\("acmeEngSecretNpmTokenValue"\),\n/);
    expect(eng).toContain("SelectedRepositoryIds: pulumi.ToIntArray([]int{1000, 1001}),");
    let checked = 0;
    for (const call of eng.matchAll(
      /hosting\.New(\w+)\(ctx, "[^"]+", &hosting\.\w+Args\{\n([\s\S]*?)\n\t\}/g,
    )) {
      const kind = call[1] ?? "";
      const source = readFileSync(
        join(ROOT, "sdk/go/hosting", `${kind.charAt(0).toLowerCase()}${kind.slice(1)}.go`),
        "utf8",
      );
      const struct = source.split(`type ${kind}Args struct {`)[1]?.split("\n}")[0] ?? "";
      const known = [...struct.matchAll(/^\t(\w+) /gm)].map((m) => m[1]);
      for (const field of (call[2] ?? "").matchAll(/^\t\t(\w+):/gm)) {
        expect(known, `${kind}.${field[1]}`).toContain(field[1]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    if (spawnSync("sh", ["-c", "command -v gofmt"]).status !== 0) return;
    const work = mkdtempSync(join(tmpdir(), "hosting-go-actions-"));
    try {
      writeFileSync(join(work, "acme-eng.go"), eng);
      const gofmt = spawnSync("gofmt", ["-l", "-d", work], { encoding: "utf8" });
      expect(gofmt.stdout + gofmt.stderr).toBe("");
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
