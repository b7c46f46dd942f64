/**
 * The reference pages' examples and tables: every kind and function has a whole program in
 * TypeScript, YAML, Python and Go, each of which parses (TypeScript type-checks against the
 * package's declarations, Go is gofmt's layout), with the SDKs' own spellings; the argument tables
 * name the Python and Go spellings, which the generated SDKs have; an argument that takes an id
 * says where such ids come from; notes name no argument a kind does not have. (test/e2e runs the
 * YAML and Python examples of a kind through the real CLI.)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { goName, pythonName } from "../../importer/sdk-types";
import { PROVIDERS } from "../../provider/providers";
import { FUNCTIONS } from "../../provider/registry";
import { REFERENCE_DIR, referencePages, repositoryRoot } from "../../scripts/reference";
import { EXAMPLE_LANGUAGES, type ExampleLanguage } from "../../scripts/reference-examples";
import { idHints } from "../../scripts/reference-tables";

const root = repositoryRoot(__dirname);
const pages = referencePages(root);
const work = mkdtempSync(join(tmpdir(), "reference-examples-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FENCES: Record<ExampleLanguage, string> = {
  typescript: "ts",
  yaml: "yaml",
  python: "python",
  go: "go",
};
const PAGES = [...PROVIDERS.map((p) => p.kind), ...FUNCTIONS.map((f) => f.name)];

/** The example of a page in a language: the code block of that language. */
function exampleOf(page: string, language: ExampleLanguage): string {
  const text = pages.get(join(REFERENCE_DIR, `${page}.md`)) ?? "";
  const section = text.split("## Example\n")[1]?.split("\n## ")[0] ?? "";
  const block = section.split(`\`\`\`${FENCES[language]}\n`)[1]?.split("\n```")[0];
  if (block === undefined) throw new Error(`${page}.md has no ${language} example`);
  return `${block}\n`;
}

/** Writes each page's example of a language to a file of its own; the paths. */
function written(language: ExampleLanguage, extension: string): string[] {
  return PAGES.map((page) => {
    const path = join(work, `${page}-${language}.${extension}`);
    writeFileSync(path, exampleOf(page, language));
    return path;
  });
}

const onPath = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;

describe("the examples of the reference pages", () => {
  it("give every kind and function a program in TypeScript, YAML, Python and Go", () => {
    for (const page of PAGES) {
      for (const language of EXAMPLE_LANGUAGES)
        expect(exampleOf(page, language).length, page).toBeGreaterThan(40);
    }
    // Whole statements, with the SDKs' own spellings: the runnerGroupId reference, an enum constant.
    expect(exampleOf("RunnerGroupRunners", "python")).toContain(
      "    runner_group_id=builders.runner_group_id,\n",
    );
    expect(exampleOf("RunnerGroupRunners", "python")).toContain(
      "    visibility=hosting.OrgRunnerGroupVisibility.SELECTED,\n",
    );
    expect(exampleOf("RunnerGroupRunners", "go")).toContain("\t\t\tRunnerGroupId: builders.RunnerGroupId,\n");
    expect(exampleOf("RunnerGroupRunners", "yaml")).toContain(
      `      runnerGroupId: \${builders.runnerGroupId}\n`,
    );
    expect(exampleOf("OrgPropertyValue", "typescript")).toMatch(
      /^import \* as hosting from "pulumi-hosting";\n\nnew hosting\.OrgPropertyValue\("acme-eng\/cost_center", \{\n {2}org: "acme-eng",\n/,
    );
    expect(exampleOf("OrgMembership", "go")).toContain("\t\t\tRole:      hosting.OrgMembershipRoleAdmin,\n");
    // The kinds of Actions and environments too: a nested type's enum, a secret from stack config.
    expect(exampleOf("RepositoryEnvironment", "python")).toContain(
      "            type=hosting.EnvironmentReviewerType.USER,\n",
    );
    expect(exampleOf("OrgActionsSecret", "go")).toContain(
      "\t\t\tVisibility:            hosting.OrgActionsSecretVisibilitySelected,\n",
    );
    expect(exampleOf("OrgActionsSecret", "python")).toContain(
      '    value=config.require_secret("npmPublishTokenValue"),\n',
    );
    // A secret from stack config in every language.
    expect(exampleOf("RepositoryWebhook", "typescript")).toContain(
      '  secret: config.requireSecret("ciSecret"),\n',
    );
    expect(exampleOf("RepositoryWebhook", "python")).toContain(
      '    secret=config.require_secret("ciSecret"),\n',
    );
    expect(exampleOf("RepositoryWebhook", "yaml")).toContain(`      secret: \${ciSecret}\n`);
    // A function's call.
    expect(exampleOf("getBranch", "python")).toContain('branch = hosting.get_branch(owner="acme-eng"');
    expect(exampleOf("getBranch", "go")).toContain(
      "\t\tbranch, err := hosting.GetBranch(ctx, &hosting.GetBranchArgs{\n",
    );
    expect(exampleOf("getBranch", "yaml")).toContain("      function: hosting:index:getBranch\n");
  });

  it("YAML: each loads, declaring resources of the plugin's types or invoking its functions", () => {
    for (const page of PAGES) {
      const program = parse(exampleOf(page, "yaml")) as {
        runtime: string;
        resources?: Record<string, { type: string }>;
        variables?: Record<string, { "fn::invoke": { function: string } }>;
      };
      expect(program.runtime).toBe("yaml");
      const types = Object.values(program.resources ?? {}).map((r) => r.type);
      const invoked = Object.values(program.variables ?? {}).map((v) => v["fn::invoke"].function);
      expect([...types, ...invoked], page).toContain(`hosting:index:${page}`);
    }
  });

  it("Python: each parses", () => {
    const files = written("python", "py");
    const check =
      "import ast, sys\nfor f in sys.argv[1:]:\n    ast.parse(open(f, encoding='utf-8').read(), f)\n";
    const r = spawnSync("python3", ["-c", check, ...files], { encoding: "utf8" });
    expect(r.error).toBeUndefined();
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it.skipIf(!onPath("gofmt"))("Go: each parses, laid out as gofmt lays it out", () => {
    const files = written("go", "go");
    const r = spawnSync("gofmt", ["-l", "-e", ...files], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("");
    expect(r.status).toBe(0);
  });

  it("TypeScript: each type-checks against the package's declarations (strict)", () => {
    const files = written("typescript", "ts");
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      types: ["node"],
      typeRoots: [join(root, "node_modules/@types")],
      baseUrl: root,
      ignoreDeprecations: "6.0",
      // The package as a program imports it (its built declarations: npm run build), and the SDK.
      paths: {
        "pulumi-hosting": ["dist/provider/index.d.ts"],
        "@pulumi/pulumi": ["node_modules/@pulumi/pulumi/index.d.ts"],
        "@pulumi/pulumi/*": ["node_modules/@pulumi/pulumi/*"],
      },
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(problems).toEqual([]);
  }, 120_000);
});

describe("the argument tables", () => {
  /** The keyword arguments of a Python SDK class's Args and the fields of a Go SDK Args struct. */
  function sdkNames(kind: string): { python: string[]; go: string[] } {
    const py = readFileSync(resolve(root, "sdk/python/pulumi_hosting", `${pythonName(kind)}.py`), "utf8");
    const init = py.split(`class ${kind}Args:`)[1]?.split('"""')[0] ?? "";
    const go = readFileSync(
      resolve(root, "sdk/go/hosting", `${kind.charAt(0).toLowerCase()}${kind.slice(1)}.go`),
      "utf8",
    );
    const struct = go.split(`type ${kind}Args struct {`)[1]?.split("\n}")[0] ?? "";
    return {
      python: [...init.matchAll(/^\s+(\w+): (?:pulumi\.Input|Optional)/gm)].map((m) => m[1] ?? ""),
      go: [...struct.matchAll(/^\t(\w+) /gm)].map((m) => m[1] ?? ""),
    };
  }

  it("name each argument's Python and Go spelling, the generated SDKs' own", () => {
    let checked = 0;
    for (const p of PROVIDERS) {
      const page = pages.get(join(REFERENCE_DIR, `${p.kind}.md`)) ?? "";
      const sdk = sdkNames(p.kind);
      for (const name of Object.keys(p.declared.inputs.shape as Record<string, unknown>)) {
        expect(page).toContain(`| \`${pythonName(name)}\` / \`${goName(name)}\` |`);
        expect(sdk.python, `${p.kind}.${name}`).toContain(pythonName(name));
        expect(sdk.go, `${p.kind}.${name}`).toContain(goName(name));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(80);
    expect(pages.get(join(REFERENCE_DIR, "OrgRunnerGroup.md"))).toContain(
      "| `selectedRepositoryIds` | `selected_repository_ids` / `SelectedRepositoryIds` |",
    );
  });

  it("list each enum type with its constants in Python and Go, linked from the type", () => {
    const page = pages.get(join(REFERENCE_DIR, "OrgMembership.md")) ?? "";
    expect(page).toContain('"member" \\| "admin" ([OrgMembershipRole](#orgmembershiprole))');
    expect(page).toContain("### OrgMembershipRole");
    expect(page).toContain(
      '| `"admin"` | `hosting.OrgMembershipRole.ADMIN` | `hosting.OrgMembershipRoleAdmin` |',
    );
    expect(pages.get(join(REFERENCE_DIR, "getOrgMembers.md"))).toContain(
      '| `"2fa_disabled"` | `hosting.GetOrgMembersFilter.TWO_FA_DISABLED` | `hosting.GetOrgMembersFilterTwoFaDisabled` |',
    );
  });

  it("say where the ids an argument takes come from", () => {
    for (const kind of ["OrgRunnerGroup", "PrivateRegistry", "OrgActionsSecret", "OrgActionsVariable"]) {
      expect(pages.get(join(REFERENCE_DIR, `${kind}.md`))).toContain(
        "- `selectedRepositoryIds`: numeric repository ids, not names: the `id` of each repository, from `getRepository`",
      );
    }
    expect(pages.get(join(REFERENCE_DIR, "RunnerGroupRunners.md"))).toContain(
      "- `runnerGroupId`: the `runnerGroupId` output of the [OrgRunnerGroup](OrgRunnerGroup.md)",
    );
    expect(pages.get(join(REFERENCE_DIR, "RepositoryEnvironment.md"))).toContain(
      "- `reviewers`: each reviewer's `id` is a number, not a login or a team's slug: a user's is the `id` [getOrgMembers](getOrgMembers.md) gives",
    );
    // A name of no entry: the kinds with an output of that name.
    expect(idHints(["hookId", "budgetIds", "colour"])).toEqual([
      "### Finding ids",
      "",
      "- `hookId`: the `hookId` output of [OrgWebhook](OrgWebhook.md), [RepositoryWebhook](RepositoryWebhook.md) or [GlobalWebhook](GlobalWebhook.md).",
      "- `budgetIds`: the `budgetId` output of [Budget](Budget.md).",
      "",
    ]);
    expect(idHints(["colour"])).toEqual([]);
  });
});

describe("the notes written by hand", () => {
  it("name no argument of a kind that it does not have", () => {
    const dir = join(root, REFERENCE_DIR, "notes");
    const wrong: string[] = [];
    for (const file of readdirSync(dir)) {
      const kind = file.replace(/\.md$/, "");
      const provider = PROVIDERS.find((p) => p.kind === kind);
      if (provider === undefined) continue;
      const text = readFileSync(join(dir, file), "utf8").replace(/\s+/g, " ");
      const named = [
        ...text.matchAll(/drift on `(\w+)`/g),
        ...text.matchAll(/(?<!no )`(\w+)` argument/g),
        ...text.matchAll(/argument `(\w+)`/g),
      ].map((m) => m[1] ?? "");
      for (const name of named)
        if (!provider.declared.outputNames.includes(name)) wrong.push(`${kind}: ${name}`);
    }
    expect(wrong).toEqual([]);
    expect(pages.get(join(REFERENCE_DIR, "OrgRunnerGroup.md"))).toContain(
      "An OrgRunnerGroup has no `runners` argument: the runners of an organisation's group are a resource",
    );
  });
});
