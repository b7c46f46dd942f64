/** The YAML writer and the bulk-import writer: the same inventory as the TypeScript program. */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { writeImportFile } from "../../importer/pulumi-import";
import { run } from "../../importer/run";
import { writeProgram } from "../../importer/typescript";
import { writeYamlProgram, yamlScalar } from "../../importer/yaml";
import { inventory, items, options } from "./sample-inventory";

/** Pulumi YAML's reading of a string: `$$` is a `$` (nothing here holds an expression). */
const interpolated = (value: unknown): unknown =>
  typeof value === "string"
    ? value.replaceAll("$$", "$")
    : Array.isArray(value)
      ? value.map(interpolated)
      : typeof value === "object" && value !== null
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolated(v)]))
        : value;

// The YAML parser @pulumi/pulumi itself depends on (YAML 1.2, as the YAML language host reads it).
const yaml = createRequire(require.resolve("@pulumi/pulumi"))("js-yaml") as { load(text: string): unknown };

interface Program {
  config?: Record<string, { type: string; secret: boolean }>;
  resources: Record<
    string,
    { type: string; properties?: Record<string, unknown>; options: Record<string, unknown> }
  >;
}

describe("writeYamlProgram", () => {
  const files = writeYamlProgram(inventory, options);

  it("writes one Pulumi.yaml: the plugin from node_modules/.bin, secrets from config, each object imported", () => {
    expect([...files.keys()].sort()).toEqual(["Pulumi.yaml", "package.json"]);
    expect(
      files.get("Pulumi.yaml"),
    ).toBe(`# Hosting platform settings as code, as read from https://hosting.example.com/api/v3.
# Each resource adopts the object it names (\`import\`): the first \`pulumi up\` changes nothing on the
# server beyond the secrets set from stack config.
name: acme-hosting
description: Hosting platform settings as code
runtime: yaml
# Every up and preview reads the server first, so a plain \`pulumi up\` repairs drift.
options:
  refresh: always
# The plugin pulumi-resource-hosting, installed here by \`npm install\` (package.json).
# Its version lets one plugin process serve the schema and the resources.
plugins:
  providers:
    - name: hosting
      path: ./node_modules/.bin
      version: "0.2.0"
# Secrets the API never returns: \`pulumi config set --secret <key>\` for each.
config:
  acmeEngHookOrgExampleComSecret:
    type: string
    secret: true
  acmeEngApiHookCiExampleComSecret:
    type: string
    secret: true
resources:
  # The organisation acme-eng.

  # A member before this stack: destroy and removal from code leave the membership (onDestroy: "retain").
  acme-eng-member-mona:
    type: hosting:index:OrgMembership
    properties:
      org: acme-eng
      username: mona
      onDestroy: retain
    options:
      import: acme-eng/mona

  # Existed before this stack: destroy and removal from code leave it on the server (retainOnDelete).
  acme-eng-issue-field-priority:
    type: hosting:index:IssueField
    properties:
      org: acme-eng
      name: Priority
      dataType: single_select
      options:
        - name: High
          color: red
        - name: Low
          color: gray
          description: "Some day: maybe"
    options:
      import: acme-eng/13
      retainOnDelete: true

  # The organisation's settings as they are: destroy and removal from code leave them as they are.
  acme-eng-settings:
    type: hosting:index:OrgSettings
    properties:
      org: acme-eng
      billingEmail: billing@acme.example
      defaultRepositoryPermission: write
      membersCanCreatePublicRepositories: false
    options:
      import: acme-eng

  # A repository before this stack: destroy and removal from code leave it (onDestroy: "retain"; adopted repositories are never archived or deleted).
  acme-eng-repo-api:
    type: hosting:index:Repository
    properties:
      org: acme-eng
      name: api
      description: 'The API: "v2"'
      visibility: private
      hasWiki: false
      allowMergeCommit: true
      defaultBranch: main
      topics: [api, backend]
      onDestroy: retain
    options:
      import: acme-eng/api

  # Existed before this stack: destroy and removal from code leave it on the server (retainOnDelete).
  acme-eng-runners-build:
    type: hosting:index:OrgRunnerGroup
    properties:
      org: acme-eng
      name: Build & Test
      visibility: selected
    options:
      import: acme-eng/5
      retainOnDelete: true

  # Existed before this stack: destroy and removal from code leave it on the server (retainOnDelete).
  acme-eng-runners-build-members:
    type: hosting:index:RunnerGroupRunners
    properties:
      org: acme-eng
      runnerGroupId: \${acme-eng-runners-build.runnerGroupId}
      runners: [1, 2]
    options:
      import: acme-eng/5
      retainOnDelete: true

  # Existed before this stack: destroy and removal from code leave it on the server (retainOnDelete).
  acme-eng-hook-org-example-com:
    type: hosting:index:OrgWebhook
    properties:
      org: acme-eng
      url: https://org.example.com/hook
      events: [organization, team]
      secret: \${acmeEngHookOrgExampleComSecret}
    options:
      import: acme-eng/3
      retainOnDelete: true

  # Existed before this stack: destroy and removal from code leave it on the server (retainOnDelete).
  acme-eng-api-release-eu:
    type: hosting:index:RepositoryEnvironment
    properties:
      owner: acme-eng
      repository: api
      environment: release/eu
      waitTimer: 30
      reviewers:
        - type: User
          id: 3
        - type: Team
          id: 1
      deploymentBranchPolicy:
        protectedBranches: false
        customBranchPolicies: true
      branchPolicies:
        - name: main
          type: branch
        - name: v*
          type: tag
    options:
      import: acme-eng/api/release%2Feu
      retainOnDelete: true

  # Existed before this stack: destroy and removal from code leave it on the server (retainOnDelete).
  acme-eng-api-release-eu-gate-deploy-gate:
    type: hosting:index:DeploymentProtectionRule
    properties:
      owner: acme-eng
      repository: api
      environment: \${acme-eng-api-release-eu.environment}
      integrationId: 101
    options:
      import: acme-eng/api/release%2Feu/9
      retainOnDelete: true

  # Existed before this stack: destroy and removal from code leave it on the server (retainOnDelete).
  acme-eng-api-deploy-key-ci:
    type: hosting:index:RepositoryDeployKey
    properties:
      owner: acme-eng
      repository: api
      title: ci
      key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILFhGaEHtN6jWINaPb8n48AWaGRdyQ+ajr1vMV0mAF8c
      readOnly: false
    options:
      import: acme-eng/api/21
      retainOnDelete: true

  # Existed before this stack: destroy and removal from code leave it on the server (retainOnDelete).
  acme-eng-api-hook-ci-example-com:
    type: hosting:index:RepositoryWebhook
    properties:
      owner: acme-eng
      repository: api
      url: https://ci.example.com/hook?token=$\${literal}
      events:
        - push
        - pull_request
        - pull_request_review
        - pull_request_review_comment
        - issues
        - issue_comment
        - "yes"
      secret: \${acmeEngApiHookCiExampleComSecret}
    options:
      import: acme-eng/api/1
      retainOnDelete: true

  # The enterprise acme.

  # Existed before this stack: destroy and removal from code leave it on the server (retainOnDelete).
  acme-budget-acme-eng-actions:
    type: hosting:index:Budget
    properties:
      enterprise: acme
      amount: 100
      preventFurtherUsage: false
      alerting:
        willAlert: true
        recipients: [admin, billie]
      scope: organization
      type: ProductPricing
      entityName: acme-eng
    options:
      import: acme/b1
      retainOnDelete: true

  # Site administration.

  # Existed before this stack: destroy and removal from code leave it on the server (retainOnDelete).
  hook-audit-example-com:
    type: hosting:index:GlobalWebhook
    properties:
      url: https://audit.example.com/
    options:
      import: "4"
      retainOnDelete: true

  # The keys of the signed-in user (the token's user).

  # Existed before this stack: destroy and removal from code leave it on the server (retainOnDelete).
  gpg-key-work:
    type: hosting:index:UserGpgKey
    properties:
      name: work
      armoredPublicKey: |
        -----BEGIN PGP PUBLIC KEY BLOCK-----

        xjMEawbJsxYJKwYBBAHaRw8BAQdA
        =Srxg
        -----END PGP PUBLIC KEY BLOCK-----
    options:
      import: "8"
      retainOnDelete: true
`);
  });

  it("depends on the library (whose bin is the plugin) and @pulumi/pulumi", () => {
    expect(JSON.parse(files.get("package.json") ?? "")).toEqual({
      name: "acme-hosting",
      private: true,
      dependencies: { "@pulumi/pulumi": "^3.270.0", "pulumi-hosting": "0.2.0" },
    });
  });

  it("reads back as the inventory: arguments, secrets, references, ids and the destroy policy", () => {
    const program = yaml.load(files.get("Pulumi.yaml") ?? "") as Program;
    expect(program.config).toEqual({
      acmeEngHookOrgExampleComSecret: { type: "string", secret: true },
      acmeEngApiHookCiExampleComSecret: { type: "string", secret: true },
    });
    expect(Object.keys(program.resources).sort()).toEqual(items.map((i) => i.name).sort());
    for (const item of items) {
      const resource = program.resources[item.name];
      const { importId: _adoptedByImport, ...args } = item.args;
      const written = interpolated(resource?.properties ?? {}) as Record<string, unknown>;
      const expressions = Object.fromEntries(
        Object.entries(resource?.properties ?? {}).filter(([k]) => k in item.secrets || k in item.refs),
      );
      expect(resource?.type).toBe(`hosting:index:${item.kind}`);
      expect(Object.fromEntries(Object.entries(written).filter(([k]) => !(k in expressions)))).toEqual(args);
      expect(expressions).toEqual({
        ...Object.fromEntries(Object.entries(item.secrets).map(([k, key]) => [k, `\${${key}}`])),
        ...Object.fromEntries(
          Object.entries(item.refs).map(([k, r]) => [
            k,
            `\${${items.find((i) => i.kind === r.kind && i.id === r.id)?.name}.${r.output}}`,
          ]),
        ),
      });
      expect(resource?.options).toEqual({
        import: item.id,
        ...(item.adopted?.retainOnDelete ? { retainOnDelete: true } : {}),
      });
    }
  });

  it("names, orders and comments the resources as the TypeScript program does", () => {
    const typescript = writeProgram(inventory, {
      ...options,
      typescriptVersion: "^6.0.3",
      nodeTypesVersion: "^24.19.2",
    });
    const modules = [...(typescript.get("index.ts") ?? "").matchAll(/import "\.\/(.+)";/g)].map((m) => m[1]);
    const declared = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]);
    const ts = modules.flatMap((m) =>
      declared(typescript.get(`${m}.ts`) ?? "", /\/\/ (.+)\n.*new hosting\.\w+\(\s*"([^"]+)"/g),
    );
    const tsNames = modules.flatMap((m) =>
      declared(typescript.get(`${m}.ts`) ?? "", /new hosting\.\w+\(\s*"([^"]+)"/g),
    );
    const yamlText = files.get("Pulumi.yaml") ?? "";
    const text = yamlText.slice(yamlText.indexOf("\nresources:\n"));
    expect(tsNames).toHaveLength(items.length);
    expect(ts).toHaveLength(items.length);
    expect(declared(text, /^ {2}([a-z0-9-]+):$/gm)).toEqual(tsNames);
    expect(declared(text, /^ {2}# (.+)\n {2}[a-z0-9-]+:$/gm)).toEqual(ts);
  });

  it("is the same for the same inventory, whatever order the items came in", () => {
    const shuffled = writeYamlProgram({ ...inventory, items: [...items].reverse() }, options);
    expect([...shuffled.entries()]).toEqual([...files.entries()]);
  });

  it("writes an id's $ as $$ too: Pulumi YAML reads the import option as it reads any string", () => {
    const rule = {
      ...(items.find((i) => i.kind === "GlobalWebhook") as (typeof items)[number]),
      id: `acme-eng/api/env-$\${hookSecret}/3`,
    };
    const program = yaml.load(
      writeYamlProgram({ ...inventory, items: [rule] }, options).get("Pulumi.yaml") ?? "",
    ) as Program;
    expect(interpolated(program.resources[rule.name]?.options.import)).toBe(rule.id);
  });

  it("declares every resource before the resources that refer to its outputs", () => {
    const text = files.get("Pulumi.yaml") ?? "";
    const at = (name: string) => text.indexOf(`\n  ${name}:\n`);
    for (const item of items) {
      for (const ref of Object.values(item.refs)) {
        const target = items.find((i) => i.kind === ref.kind && i.id === ref.id);
        expect(at(target?.name ?? ""), `${target?.name} before ${item.name}`).toBeLessThan(at(item.name));
      }
    }
  });

  it("declares no config where no object needs a secret", () => {
    const plain = writeYamlProgram({ ...inventory, items: items.filter((i) => !i.secrets.secret) }, options);
    expect(plain.get("Pulumi.yaml")).not.toContain("config:");
  });
});

describe("yamlScalar and the values of a program", () => {
  const tricky = [
    ...["plain", "Build Fleet", "https://ci.example.com/a?b=c", "ssh-ed25519 AAAA+/x=", `\${a.b}`],
    ...["yes", "No", "ON", "y", "null", "~", "true", "123", "0x1f", "1e3", ".inf", "-a", "- a", "a: b"],
    ...["a #b", "#x", "[a]", "{a}", "a,b", " lead", "trail ", "@x", "`x", "!x", "&x", "*x", "|x", ">x"],
    ...["%x", "'x", '"x', "a\u2028b", "tab\tx", "ü", "", "?x", "a:"],
    // What Go's yaml.v3 (Pulumi YAML's reader) takes for a number or a merge key beyond YAML 1.2.
    ...["0X1F", "0B101", "0O17", "1_000", "+1", "-.5", "<<", "=", "2001-12-14", "1:20"],
  ];
  const hook = (value: string) => ({
    ...(items.find((i) => i.kind === "RepositoryWebhook") as (typeof items)[number]),
    args: { owner: "acme-eng", repository: "api", url: value, events: [value, "x"] },
  });

  it.each(tricky)("reads %j back as a scalar and in an inline list", (text) => {
    expect(yaml.load(`k: ${yamlScalar(text)}`)).toEqual({ k: text });
    const written = writeYamlProgram({ ...inventory, items: [hook(text)] }, options).get("Pulumi.yaml") ?? "";
    expect(written).toMatch(/events: \[.*\]$/m);
    const program = yaml.load(written) as Program;
    const properties = interpolated(program.resources["acme-eng-api-hook-ci-example-com"]?.properties);
    expect(properties).toMatchObject({ url: text, events: [text, "x"] });
  });

  it("leaves words, URLs and expressions plain", () => {
    expect(yamlScalar("Build Fleet")).toBe("Build Fleet");
    expect(yamlScalar("https://ci.example.com/hook")).toBe("https://ci.example.com/hook");
    const reference = `\${acme-eng-runners.runnerGroupId}`;
    expect(yamlScalar(reference)).toBe(reference);
    expect(yamlScalar("yes")).toBe('"yes"');
    expect(yamlScalar("0X1F")).toBe('"0X1F"');
  });
});

describe("writeImportFile", () => {
  it("lists every object with the plugin's type token and its id, in the programs' order", () => {
    expect(writeImportFile(inventory)).toBe(`{
  "nameTable": {},
  "resources": [
    {
      "type": "hosting:index:OrgMembership",
      "name": "acme-eng-member-mona",
      "id": "acme-eng/mona"
    },
    {
      "type": "hosting:index:IssueField",
      "name": "acme-eng-issue-field-priority",
      "id": "acme-eng/13"
    },
    {
      "type": "hosting:index:OrgSettings",
      "name": "acme-eng-settings",
      "id": "acme-eng"
    },
    {
      "type": "hosting:index:Repository",
      "name": "acme-eng-repo-api",
      "id": "acme-eng/api"
    },
    {
      "type": "hosting:index:OrgRunnerGroup",
      "name": "acme-eng-runners-build",
      "id": "acme-eng/5"
    },
    {
      "type": "hosting:index:RunnerGroupRunners",
      "name": "acme-eng-runners-build-members",
      "id": "acme-eng/5"
    },
    {
      "type": "hosting:index:OrgWebhook",
      "name": "acme-eng-hook-org-example-com",
      "id": "acme-eng/3"
    },
    {
      "type": "hosting:index:RepositoryEnvironment",
      "name": "acme-eng-api-release-eu",
      "id": "acme-eng/api/release%2Feu"
    },
    {
      "type": "hosting:index:DeploymentProtectionRule",
      "name": "acme-eng-api-release-eu-gate-deploy-gate",
      "id": "acme-eng/api/release%2Feu/9"
    },
    {
      "type": "hosting:index:RepositoryDeployKey",
      "name": "acme-eng-api-deploy-key-ci",
      "id": "acme-eng/api/21"
    },
    {
      "type": "hosting:index:RepositoryWebhook",
      "name": "acme-eng-api-hook-ci-example-com",
      "id": "acme-eng/api/1"
    },
    {
      "type": "hosting:index:Budget",
      "name": "acme-budget-acme-eng-actions",
      "id": "acme/b1"
    },
    {
      "type": "hosting:index:GlobalWebhook",
      "name": "hook-audit-example-com",
      "id": "4"
    },
    {
      "type": "hosting:index:UserGpgKey",
      "name": "gpg-key-work",
      "id": "8"
    }
  ]
}
`);
  });

  it("is what pulumi import --file reads: type, name and id of each, no parents or providers", () => {
    const file = JSON.parse(writeImportFile({ ...inventory, items: [...items].reverse() }));
    expect(file.nameTable).toEqual({});
    const program = yaml.load(writeYamlProgram(inventory, options).get("Pulumi.yaml") ?? "") as Program;
    expect(file.resources.map((r: { name: string }) => r.name)).toEqual(Object.keys(program.resources));
  });
});

describe("hosting-import --language and --format", () => {
  async function refused(...argv: string[]): Promise<string> {
    const lines: string[] = [];
    const code = await run(["--org", "acme-eng", ...argv], {
      env: {},
      out: () => {},
      err: (l) => lines.push(l),
    });
    expect(code).toBe(2);
    return lines.join("\n");
  }

  it("refuses a language or a format it does not write, and --language where no program is written", async () => {
    expect(await refused("--language", "java")).toContain(
      `--language must be typescript, yaml, python, go; got "java"`,
    );
    expect(await refused("--format", "hcl")).toContain("--format must be program, json or pulumi-import");
    expect(await refused("--format", "pulumi-import", "--language", "yaml")).toContain(
      "--language is for a program; --format pulumi-import writes none",
    );
    expect(await refused("--format", "typescript", "--language", "yaml")).toContain("leave out --format");
  });
});
