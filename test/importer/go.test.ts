/**
 * The Go writer: the sample inventory as a Go program of the SDK's names (checked against the
 * generated sdk/go), laid out exactly as gofmt lays it out, the same resources in the same order as
 * the TypeScript program. test/e2e/languages.test.ts builds and runs what it writes.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { goIdentifier, goString, goValue, writeGoProgram } from "../../importer/go";
import { goName, inputShapes } from "../../importer/sdk-types";
import { writeProgram } from "../../importer/typescript";
import { PROVIDERS } from "../../provider/providers";
import { inventory, items, options, propertyValue, ruleset } from "./sample-inventory";

const SDK = resolve(__dirname, "../../sdk/go/hosting");
const files = writeGoProgram({ ...inventory, items: [...items, propertyValue, ruleset] }, options);
const noGofmt = spawnSync("sh", ["-c", "command -v gofmt"]).status !== 0;

/** The fields of an Args struct of the SDK. */
function sdkFields(kind: string): string[] {
  const source = readFileSync(join(SDK, `${kind.charAt(0).toLowerCase()}${kind.slice(1)}.go`), "utf8");
  const struct = source.split(`type ${kind}Args struct {`)[1]?.split("\n}")[0] ?? "";
  return [...struct.matchAll(/^\t(\w+) /gm)].map((m) => m[1] ?? "");
}

describe("the Go writer", () => {
  it("writes a file with a function per organisation, enterprise and place, called in order", () => {
    expect([...files.keys()].sort()).toEqual([
      "Pulumi.yaml",
      "acme-eng.go",
      "enterprise-acme.go",
      "go.mod",
      "main.go",
      "package.json",
      "site-admin.go",
      "user-keys.go",
    ]);
    expect(files.get("main.go")).toContain(
      "\t\t\tacmeEng,\n\t\t\tenterpriseAcme,\n\t\t\tsiteAdmin,\n\t\t\tuserKeys,\n",
    );
    expect(files.get("go.mod")).toContain(
      "replace github.com/pulumi-hosting/pulumi-hosting/sdk/go => ./node_modules/pulumi-hosting/sdk/go\n",
    );
    expect(files.get("go.mod")).toContain("\tgithub.com/pulumi-hosting/pulumi-hosting/sdk/go v0.2.0\n");
  });

  it("declares the TypeScript program's resources, in its order, adopting each with pulumi.Import", () => {
    const typescript = writeProgram(
      { ...inventory, items: [...items, propertyValue, ruleset] },
      {
        ...options,
        typescriptVersion: "^5",
        nodeTypesVersion: "^22",
      },
    );
    const names = (text: string, call: RegExp) => [...text.matchAll(call)].map((m) => m[1]);
    expect(names(files.get("acme-eng.go") ?? "", /hosting\.New\w+\(ctx, "([^"]+)"/g)).toEqual(
      names(typescript.get("acme-eng.ts") ?? "", /new hosting\.\w+\(\s*"([^"]+)"/g),
    );
    const eng = files.get("acme-eng.go") ?? "";
    expect(eng).toContain(
      [
        '\tacmeEngRunnersBuild, err := hosting.NewOrgRunnerGroup(ctx, "acme-eng-runners-build", &hosting.OrgRunnerGroupArgs{',
        '\t\tOrg:        pulumi.String("acme-eng"),',
        '\t\tName:       pulumi.String("Build & Test"),',
        "\t\tVisibility: hosting.OrgRunnerGroupVisibilitySelected,",
        '\t}, pulumi.Import(pulumi.ID("acme-eng/5")), pulumi.RetainOnDelete(true))',
        "\tif err != nil {",
      ].join("\n"),
    );
    expect(eng).toMatch(/RunnerGroupId: acmeEngRunnersBuild\.RunnerGroupId,/);
    expect(eng).toMatch(/Secret: +cfg\.RequireSecret\("acmeEngApiHookCiExampleComSecret"\),/);
    expect(eng).toContain(
      "\t\tOptions: hosting.IssueFieldOptionArray{\n\t\t\t&hosting.IssueFieldOptionArgs{\n",
    );
    expect(eng).not.toContain("ImportId");
    const enterprise = files.get("enterprise-acme.go") ?? "";
    expect(enterprise).toContain(
      '\t\tAlerting: &hosting.BudgetAlertingArgs{\n\t\t\tWillAlert:  pulumi.Bool(true),\n\t\t\tRecipients: pulumi.ToStringArray([]string{"admin", "billie"}),\n\t\t},\n',
    );
    expect(enterprise).toMatch(/Value: +pulumi\.ToStringArray\(\[\]string\{"eu", "us"\}\),/);
  });

  it("writes a ruleset's rules with their parameters as a map of the program's names", () => {
    const eng = files.get("acme-eng.go") ?? "";
    expect(eng).toContain(
      [
        "\t\tRules: hosting.RulesetRuleArray{",
        "\t\t\t&hosting.RulesetRuleArgs{",
        '\t\t\t\tType: pulumi.String("deletion"),',
        "\t\t\t},",
        "\t\t\t&hosting.RulesetRuleArgs{",
        '\t\t\t\tType: pulumi.String("required_status_checks"),',
        "\t\t\t\tParameters: pulumi.Map{",
        '\t\t\t\t\t"requiredStatusChecks": pulumi.Array{',
        "\t\t\t\t\t\tpulumi.Map{",
        '\t\t\t\t\t\t\t"context":       pulumi.String("ci/build"),',
        '\t\t\t\t\t\t\t"integrationId": pulumi.Int(101),',
        "\t\t\t\t\t\t},",
        "\t\t\t\t\t},",
        '\t\t\t\t\t"strictRequiredStatusChecksPolicy": pulumi.Bool(true),',
        '\t\t\t\t\t"doNotEnforceOnCreate":             pulumi.Bool(false),',
        "\t\t\t\t},",
        "\t\t\t},",
        "\t\t},",
      ].join("\n"),
    );
    expect(eng).toContain("\t\tBypassActors: hosting.RulesetBypassActorArray{\n");
    expect(eng).toContain("\t\t\tRepositoryProperty: &hosting.RulesetRepositoryPropertyConditionArgs{\n");
  });

  it("uses only fields the SDK's Args structs have", () => {
    let checked = 0;
    for (const [file, text] of files) {
      if (!file.endsWith(".go") || file === "main.go") continue;
      for (const call of text.matchAll(
        /hosting\.New(\w+)\(ctx, "[^"]+", &hosting\.\w+Args\{\n([\s\S]*?)\n\t\}, /g,
      )) {
        const known = sdkFields(call[1] ?? "");
        expect(known.length, call[1]).toBeGreaterThan(0);
        for (const field of (call[2] ?? "").matchAll(/^\t\t(\w+):/gm)) {
          expect(known, `${call[1]}.${field[1]}`).toContain(field[1]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it("writes a value of an enum as the SDK's typed constant, every constant one the SDK declares", () => {
    const enums = readFileSync(join(SDK, "pulumiEnums.go"), "utf8");
    let checked = 0;
    for (const [kind, shapes] of PROVIDERS.map((p) => [p.kind, inputShapes(p.kind)] as const)) {
      for (const [key, shape] of Object.entries(shapes)) {
        const s = "list" in shape ? shape.list : shape;
        if (!("scalar" in s) || s.scalar !== "string" || s.enum === undefined) continue;
        for (const value of Object.keys(s.enum.names)) {
          const written = goValue(value, s, `${kind}.${key}`);
          const constant = written.match(/^hosting\.(\w+)$/)?.[1] ?? written;
          expect(enums, written).toMatch(
            new RegExp(`^\\t${constant} += ${s.enum.type}\\(${JSON.stringify(value)}\\)$`, "m"),
          );
          checked++;
        }
        // A value the enum does not have (a newer server's) is written as it is: the SDK takes any string.
        expect(goValue("not-a-value", s, "x")).toBe('pulumi.String("not-a-value")');
      }
    }
    expect(checked).toBeGreaterThan(40);
    const events = inputShapes("GlobalWebhook").events ?? { any: true };
    expect(goValue(["user", "future"], events, "x")).toBe(
      'pulumi.StringArray{hosting.GlobalWebhookEventUser, pulumi.String("future")}',
    );
  });

  it.skipIf(noGofmt)("writes every file exactly as gofmt lays it out", () => {
    const work = mkdtempSync(join(tmpdir(), "hosting-go-writer-"));
    try {
      for (const [name, text] of files) if (name.endsWith(".go")) writeFileSync(join(work, name), text);
      const gofmt = spawnSync("gofmt", ["-l", "-d", work], { encoding: "utf8" });
      expect(gofmt.stderr).toBe("");
      expect(gofmt.stdout).toBe("");
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it("names functions and variables as Go allows, and writes text as a Go literal reads it", () => {
    expect(goIdentifier("acme-eng")).toBe("acmeEng");
    expect(goIdentifier("range")).toBe("_range");
    expect(goIdentifier("1st-org")).toBe("_1stOrg");
    expect(goName("runnerGroupId")).toBe("RunnerGroupId");
    expect(goString('tab\there \u2028 \ufeff \u{e0001} "q"')).toBe(
      '"tab\\there \\u2028 \\ufeff \\U000e0001 \\"q\\""',
    );
    expect(() => goString("lone\ud800")).toThrow("lone UTF-16 surrogate");
    expect(goValue(7, { scalar: "integer" }, "x")).toBe("pulumi.Int(7)");
    expect(goValue([1.5], { list: { scalar: "number" } }, "x")).toBe("pulumi.ToFloat64Array([]float64{1.5})");
  });

  it("writes an empty list of objects on one line, as gofmt does (a repository without collaborators)", () => {
    const user = {
      object: "RepositoryCollaboratorUser",
      fields: { username: { scalar: "string" as const } },
    };
    expect(goValue([], { list: user }, "users")).toBe("hosting.RepositoryCollaboratorUserArray{}");
  });
});
