/**
 * pulumi-hosting-codegen (scripts/codegen/), as scripts/bootstrap.sh builds it, against the sample
 * schema in scripts/codegen/testdata: check, the diagnostics of a broken schema, and the files of
 * each language's SDK. Skipped only on a machine without Go, where the bootstrap cannot build it;
 * with Go, a missing binary fails.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const TESTDATA = resolve(__dirname, "../../scripts/codegen/testdata");
const SAMPLE = join(TESTDATA, "hosting.json");
const BROKEN = join(TESTDATA, "broken.json");

function codegen(...args: string[]) {
  const r = spawnSync("pulumi-hosting-codegen", args, { encoding: "utf8" });
  if (r.error) {
    throw new Error(
      `pulumi-hosting-codegen did not run (${r.error.message}): run the tests with \`bash scripts/test.sh\`, whose bootstrap builds it`,
    );
  }
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const onPath = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;
const noGo = !onPath("pulumi-hosting-codegen") && !onPath("go");

// Each test runs the binary. Its first run on a machine (its pages not yet in memory) while the
// suite compiles Go SDKs beside it took 6.1 s to bind schema.json, over vitest's default 5 s.
describe.skipIf(noGo)("pulumi-hosting-codegen (needs Go to build it)", { timeout: 60_000 }, () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "hosting-codegen-"));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("binds the package's schema.json with no diagnostic, warnings included", () => {
    const r = codegen("check", "--strict", resolve(__dirname, "../../schema.json"));
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("package hosting: 40 resources, 11 functions, 3 config variables");
    expect(r.code).toBe(0);
  });

  it("checks the sample schema", () => {
    const r = codegen("check", "--strict", SAMPLE);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("package hosting: 1 resources, 1 functions, 2 config variables");
  });

  it("fails on an unknown type reference, with the diagnostic", () => {
    const r = codegen("check", BROKEN);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "error: #/resources/hosting:index:RepositoryWebhook/inputProperties/settings/$ref: type hosting:index:WebhookSettings not found in package hosting",
    );
    expect(r.stderr).toContain("1 error(s), 0 warning(s)");
  });

  it("warns about keys the metaschema does not define, and fails on them with --strict", () => {
    const schema = JSON.parse(readFileSync(SAMPLE, "utf8"));
    schema.resourcez = {};
    const file = join(work, "extra-key.json");
    writeFileSync(file, JSON.stringify(schema));
    const lax = codegen("check", file);
    expect(lax.code).toBe(0);
    expect(lax.stderr).toContain("warning: #: additionalProperties 'resourcez' not allowed");
    expect(codegen("check", "--strict", file).code).toBe(1);
  });

  it("refuses a reference to another package instead of loading its plugin", () => {
    const schema = JSON.parse(readFileSync(SAMPLE, "utf8"));
    schema.resources["hosting:index:RepositoryWebhook"].inputProperties.tags = {
      $ref: "/aws/v6.0.0/schema.json#/types/aws:index:Tag",
    };
    const file = join(work, "external.json");
    writeFileSync(file, JSON.stringify(schema));
    const r = codegen("check", file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "the schema refers to package aws@6.0.0; only self-contained schemas are supported",
    );
  });

  it("answers a usage error with status 2", () => {
    expect(codegen("sdk", "java", SAMPLE, join(work, "java")).code).toBe(2);
    expect(codegen("check").code).toBe(2);
  });

  const expected: Record<string, string[]> = {
    python: [
      "setup.py",
      "pulumi_hosting/__init__.py",
      "pulumi_hosting/repository_webhook.py",
      "pulumi_hosting/get_branch.py",
      "pulumi_hosting/provider.py",
      "pulumi_hosting/config/vars.py",
    ],
    go: [
      "go.mod",
      "hosting/repositoryWebhook.go",
      "hosting/getBranch.go",
      "hosting/provider.go",
      "hosting/config/config.go",
    ],
    nodejs: [
      "package.json",
      "index.ts",
      "repositoryWebhook.ts",
      "getBranch.ts",
      "provider.ts",
      "config/vars.ts",
    ],
  };

  for (const [language, files] of Object.entries(expected)) {
    it(`generates the ${language} SDK, the same twice`, () => {
      const out = join(work, language);
      const r = codegen("sdk", language, SAMPLE, out);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      for (const file of files) expect(existsSync(join(out, file)), file).toBe(true);
      const again = join(work, `${language}-again`);
      codegen("sdk", language, SAMPLE, again);
      for (const file of files) {
        expect(readFileSync(join(again, file), "utf8")).toBe(readFileSync(join(out, file), "utf8"));
      }
    });
  }

  it("keeps secret inputs, replaceOnChanges and the version in the generated code", () => {
    const python = readFileSync(join(work, "python/pulumi_hosting/repository_webhook.py"), "utf8");
    expect(python).toContain('replace_on_changes=["owner", "repository"]');
    expect(python).toMatch(/additional_secret_outputs=\["secret"\]/);
    // language.*.respectSchemaVersion: the schema's version, not a placeholder, in each package
    expect(JSON.parse(readFileSync(join(work, "nodejs/package.json"), "utf8")).version).toBe("0.1.0");
    expect(readFileSync(join(work, "python/setup.py"), "utf8")).toContain('VERSION = "0.1.0"');
    expect(readFileSync(join(work, "go/hosting/pulumi-plugin.json"), "utf8")).toContain('"version": "0.1.0"');
    const goMod = readFileSync(join(work, "go/go.mod"), "utf8");
    expect(goMod).toContain("module github.com/example/pulumi-hosting/sdk/go\n");
    expect(goMod).toContain("require github.com/pulumi/pulumi/sdk/v3 v3.259.0");
  });
});
