/**
 * The Python writer: the sample inventory as a Python program of the SDK's names (checked against
 * the generated sdk/python), valid Python, the same resources in the same order as the TypeScript
 * program. test/e2e/languages.test.ts runs what it writes.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { pythonIdentifier, pythonValue, writePythonProgram } from "../../importer/python";
import { inputShapes, pythonName } from "../../importer/sdk-types";
import { writeProgram } from "../../importer/typescript";
import { PROVIDERS } from "../../provider/providers";
import { inventory, items, options, propertyValue, ruleset } from "./sample-inventory";

const SDK = resolve(__dirname, "../../sdk/python/pulumi_hosting");
const files = writePythonProgram({ ...inventory, items: [...items, propertyValue, ruleset] }, options);

/** The keyword arguments a resource class of the SDK takes (its Args class's `__init__`). */
function sdkArguments(kind: string): string[] {
  const source = readFileSync(join(SDK, `${pythonName(kind)}.py`), "utf8");
  const init = source.split(`class ${kind}Args:`)[1]?.split('"""')[0] ?? "";
  return [...init.matchAll(/^\s+(\w+): (?:pulumi\.Input|Optional)/gm)].map((m) => m[1] ?? "");
}

describe("the Python writer", () => {
  it("writes a package of one module per organisation, enterprise and place, imported in order", () => {
    expect([...files.keys()].sort()).toEqual([
      "Pulumi.yaml",
      "__main__.py",
      "installation/__init__.py",
      "installation/acme_eng.py",
      "installation/enterprise_acme.py",
      "installation/site_admin.py",
      "installation/user_keys.py",
      "package.json",
      "requirements.txt",
    ]);
    expect(files.get("__main__.py")).toContain(
      [
        "import installation.acme_eng  # noqa: F401",
        "import installation.enterprise_acme  # noqa: F401",
        "import installation.site_admin  # noqa: F401",
        "import installation.user_keys  # noqa: F401",
      ].join("\n"),
    );
    expect(files.get("requirements.txt")).toContain("./node_modules/pulumi-hosting/sdk/python\n");
    expect(files.get("Pulumi.yaml")).toContain("      path: ./node_modules/.bin\n");
  });

  it("declares the TypeScript program's resources, in its order, adopting each with import_", () => {
    const typescript = writeProgram(
      { ...inventory, items: [...items, propertyValue, ruleset] },
      {
        ...options,
        typescriptVersion: "^5",
        nodeTypesVersion: "^22",
      },
    );
    const names = (text: string, call: RegExp) => [...text.matchAll(call)].map((m) => m[1]);
    for (const [file, module] of [
      ["acme-eng.ts", "installation/acme_eng.py"],
      ["site-admin.ts", "installation/site_admin.py"],
    ] as const) {
      expect(names(files.get(module) ?? "", /hosting\.\w+\(\n {4}"([^"]+)"/g)).toEqual(
        names(typescript.get(file) ?? "", /new hosting\.\w+\(\s*"([^"]+)"/g),
      );
    }
    const eng = files.get("installation/acme_eng.py") ?? "";
    expect(eng).toContain(
      [
        "acme_eng_runners_build = hosting.OrgRunnerGroup(",
        '    "acme-eng-runners-build",',
        '    org="acme-eng",',
        '    name="Build & Test",',
        "    visibility=hosting.OrgRunnerGroupVisibility.SELECTED,",
        '    opts=pulumi.ResourceOptions(import_="acme-eng/5", retain_on_delete=True),',
        ")",
      ].join("\n"),
    );
    expect(eng).toContain("    runner_group_id=acme_eng_runners_build.runner_group_id,\n");
    expect(eng).toContain('    secret=config.require_secret("acmeEngApiHookCiExampleComSecret"),\n');
    // A member's own policy decides, not retain_on_delete.
    expect(eng).toContain(
      '    on_destroy=hosting.OrgMembershipOnDestroy.RETAIN,\n    opts=pulumi.ResourceOptions(import_="acme-eng/mona"),\n',
    );
    expect(eng).not.toContain("import_id");
    expect(files.get("installation/enterprise_acme.py")).toContain(
      [
        "    alerting=hosting.BudgetAlertingArgs(",
        "        will_alert=True,",
        '        recipients=["admin", "billie"],',
        "    ),",
      ].join("\n"),
    );
    expect(files.get("installation/enterprise_acme.py")).toContain('    value=["eu", "us"],\n');
  });

  it("writes a ruleset's rules with their parameters as a dict of the program's names", () => {
    const eng = files.get("installation/acme_eng.py") ?? "";
    expect(eng).toContain('        hosting.RulesetRuleArgs(\n            type="deletion",\n        ),\n');
    expect(eng).toContain(
      [
        "        hosting.RulesetRuleArgs(",
        '            type="required_status_checks",',
        "            parameters={",
        '                "requiredStatusChecks": [',
        "                    {",
        '                        "context": "ci/build",',
        '                        "integrationId": 101,',
        "                    },",
        "                ],",
        '                "strictRequiredStatusChecksPolicy": True,',
        '                "doNotEnforceOnCreate": False,',
        "            },",
        "        ),",
      ].join("\n"),
    );
    expect(eng).toContain("    bypass_actors=[\n        hosting.RulesetBypassActorArgs(\n");
  });

  it("uses only arguments the SDK's classes take", () => {
    const written = [...files.entries()].filter(([f]) => f.startsWith("installation/"));
    let checked = 0;
    for (const [, text] of written) {
      for (const call of text.matchAll(/^(?:\w+ = )?hosting\.(\w+)\(\n([\s\S]*?)\n\)$/gm)) {
        const kind = call[1] ?? "";
        const known = sdkArguments(kind);
        expect(known.length, kind).toBeGreaterThan(0);
        for (const arg of (call[2] ?? "").matchAll(/^ {4}(\w+)=/gm)) {
          if (arg[1] !== "opts") expect(known, `${kind}.${arg[1]}`).toContain(arg[1]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it("writes a value of an enum as the SDK's constant, every constant one the SDK's enum classes have", () => {
    const enums = readFileSync(join(SDK, "_enums.py"), "utf8");
    let checked = 0;
    for (const [kind, shapes] of PROVIDERS.map((p) => [p.kind, inputShapes(p.kind)] as const)) {
      for (const [key, shape] of Object.entries(shapes)) {
        const s = "list" in shape ? shape.list : shape;
        if (!("scalar" in s) || s.scalar !== "string" || s.enum === undefined) continue;
        for (const value of Object.keys(s.enum.names)) {
          const written = pythonValue(value, s, 0, `${kind}.${key}`);
          const [, type, member] = written.match(/^hosting\.(\w+)\.(\w+)$/) ?? [];
          const body = enums.split(`class ${type}(_builtins.str, Enum):`)[1]?.split("\nclass ")[0] ?? "";
          expect(body, written).toContain(`    ${member} = ${JSON.stringify(value)}\n`);
          checked++;
        }
        // A value the enum does not have (a newer server's) is written as it is: the SDK takes any string.
        expect(pythonValue("not-a-value", s, 0, "x")).toBe('"not-a-value"');
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("writes Python that compiles", () => {
    const work = mkdtempSync(join(tmpdir(), "hosting-python-writer-"));
    try {
      for (const [name, text] of files) {
        mkdirSync(dirname(join(work, name)), { recursive: true });
        writeFileSync(join(work, name), text);
      }
      const python = spawnSync("python3", ["-m", "compileall", "-q", work], { encoding: "utf8" });
      expect(python.error).toBeUndefined();
      expect(python.stdout + python.stderr).toBe("");
      expect(python.status).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it("names modules and variables as Python allows, and escapes text as a Python literal reads it", () => {
    expect(pythonIdentifier("acme-eng")).toBe("acme_eng");
    expect(pythonIdentifier("1st-org")).toBe("_1st_org");
    expect(pythonIdentifier("import")).toBe("_import");
    expect(pythonIdentifier("json")).toBe("json"); // inside the installation package: shadows nothing
    expect(pythonValue('a "quoted" \\ line\nand $more', { scalar: "string" }, 0, "x")).toBe(
      '"a \\"quoted\\" \\\\ line\\nand $more"',
    );
    expect(pythonValue(null, inputShapes("OrgPropertyValue").value ?? { any: true }, 0, "x")).toBe("None");
  });
});
