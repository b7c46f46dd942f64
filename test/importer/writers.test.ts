/**
 * Every writer, one program and `--split`, over values chosen to break generated code: quotes,
 * backslashes, interpolation syntax of each language, comment ends, line and paragraph separators,
 * control and format characters, the byte order mark, YAML-looking words and numbers, characters
 * beyond the BMP, a 1,200-character name. Each result is loaded by its language's own tools
 * (TypeScript's parser and tsc, the yaml package and js-yaml with Pulumi YAML's `$$` reading,
 * Python's ast, Go's parser and gofmt) and every value read back must be exactly the value read
 * from the server. test/e2e/import.test.ts previews such a program against a sandbox server.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import * as ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { RETAINED } from "../../importer/discover";
import type { Inventory, InventoryItem } from "../../importer/inventory";
import { assignNames, assignSecretKeys, MAX_NAME } from "../../importer/naming";
import { pythonEnumMember } from "../../importer/python";
import { nameCandidates } from "../../importer/run";
import { writeSplit } from "../../importer/split";
import { LANGUAGES, type Language, writeProgramIn } from "../../importer/writers";
import { GO_PREPARED_ENV } from "../go-env";
import { HOSTILE } from "./hostile-strings";
import { libraryTypes } from "./library-types";

const ROOT = resolve(__dirname, "../..");
const jsYaml = createRequire(require.resolve("@pulumi/pulumi"))("js-yaml") as { load(text: string): unknown };

const retained = { comment: RETAINED, retainOnDelete: true };
const item = (
  kind: string,
  id: string,
  args: Record<string, unknown>,
  extra: Partial<InventoryItem> = {},
) => ({
  kind,
  id,
  name: "",
  module: { org: "acme-eng" },
  args,
  secrets: {},
  refs: {},
  adopted: retained,
  ...extra,
});

/** An inventory whose every value (and hence every derived name) comes from HOSTILE. */
function hostileInventory(): Inventory {
  const items: InventoryItem[] = [];
  for (const [i, text] of HOSTILE.entries()) {
    items.push(
      item("OrgRunnerGroup", `acme-eng/${100 + i}`, { org: "acme-eng", name: text, importId: 100 + i }),
    );
    items.push(
      item("IssueType", `acme-eng/${300 + i}`, {
        org: "acme-eng",
        name: `type ${i}`,
        description: text,
        importId: 300 + i,
      }),
    );
    items.push(
      item(
        "EnterpriseRunnerGroup",
        `acme/${500 + i}`,
        { enterprise: "acme", name: text, importId: 500 + i },
        { module: { enterprise: "acme" } },
      ),
    );
  }
  items.push(
    item("IssueField", "acme-eng/13", {
      org: "acme-eng",
      name: "Priority",
      dataType: "single_select",
      options: HOSTILE.slice(0, 20).map((text, i) => ({
        name: `option ${i}`,
        color: "red",
        description: text,
      })),
      importId: 13,
    }),
    item(
      "RepositoryWebhook",
      "acme-eng/api/1",
      {
        owner: "acme-eng",
        repository: "api",
        url: `https://ci.example.com/$\${x}`,
        events: [...HOSTILE],
        importId: 1,
      },
      { secrets: { secret: "" } },
    ),
    item(
      "RunnerGroupRunners",
      "acme-eng/100",
      { org: "acme-eng", runners: [1, 2] },
      { refs: { runnerGroupId: { kind: "OrgRunnerGroup", id: "acme-eng/100", output: "runnerGroupId" } } },
    ),
    item("OrgPropertyValue", "acme/acme-eng/regions", {
      org: "acme-eng",
      propertyName: "regions",
      value: [...HOSTILE],
    }),
    item("OrgPropertyValue", "acme/acme-eng/tier", {
      org: "acme-eng",
      propertyName: "tier",
      value: HOSTILE[6],
    }),
  );
  assignNames(items, nameCandidates);
  assignSecretKeys(items);
  // The API root is the user's, not the server's; still, comments carry it safely.
  return { format: 1, apiRoot: "https://hosting.example.com/a*/b\u2028c", items, warnings: [], requests: 0 };
}

const inventory = hostileInventory();
const options = {
  project: "acme-hosting",
  librarySpec: "0.2.0",
  pulumiVersion: "^3.270.0",
  typescriptVersion: "^6.0.3",
  nodeTypesVersion: "^24.19.2",
  sdkVersion: "0.2.0",
};

/** Every string an inventory writes: names, ids, secret keys and every text of every value. */
function expectedStrings(inv: Inventory): Set<string> {
  const found = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === "string") found.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object" && v !== null) Object.values(v).forEach(walk);
  };
  for (const i of inv.items) {
    const { importId: _id, ...args } = i.args;
    walk(args);
    found.add(i.name);
  }
  return found;
}

const work = mkdtempSync(join(tmpdir(), "hosting-writers-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Writes `files` under a fresh folder; its path. */
function materialise(name: string, files: ReadonlyMap<string, string>): string {
  const dir = join(work, name);
  for (const [file, text] of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

/** The string literals of TypeScript sources, as the language reads them; a syntax error throws. */
function typescriptStrings(sources: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [name, text] of sources) {
    if (!name.endsWith(".ts")) continue;
    const { diagnostics } = ts.transpileModule(text, { reportDiagnostics: true, fileName: name });
    expect(
      diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
      name,
    ).toEqual([]);
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
      if (ts.isTemplateExpression(node)) throw new Error(`${name}: a template literal interpolates`);
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true));
  }
  return found;
}

/** Type-checks a TypeScript program (or a fleet's projects) against this checkout's library. */
function tsc(dir: string, files: string[]): void {
  writeFileSync(
    join(dir, "tsconfig.check.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2023",
        module: "node16",
        moduleResolution: "node16",
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        types: ["node"],
        typeRoots: [join(ROOT, "node_modules/@types")],
        paths: {
          "pulumi-hosting": [libraryTypes()],
          "@pulumi/pulumi": [join(ROOT, "node_modules/@pulumi/pulumi")],
          "@pulumi/pulumi/*": [join(ROOT, "node_modules/@pulumi/pulumi/*")],
        },
      },
      files,
    }),
  );
  execFileSync(
    process.execPath,
    [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.check.json")],
    {
      encoding: "utf8",
    },
  );
}

/**
 * Pulumi YAML's reading of a string (pulumi-yaml ast/interpolation.go): `$$` is `$`, `${...}` an
 * expression; each expression is recorded in `expressions`.
 */
function pulumiYamlString(value: string, expressions: string[]): string {
  let text = "";
  for (let at = 0; at < value.length; ) {
    if (value.startsWith("$$", at)) {
      text += "$";
      at += 2;
    } else if (value.startsWith("${", at)) {
      const end = value.indexOf("}", at);
      expressions.push(value.slice(at + 2, end));
      text += "\u0000expr";
      at = end + 1;
    } else {
      text += value[at];
      at++;
    }
  }
  return text;
}

/** The strings of a Pulumi YAML document as the program reads them, loaded by both YAML libraries. */
function yamlStrings(text: string, expressions: string[]): string[] {
  const documents = parseAllDocuments(text, { strict: true, uniqueKeys: true, prettyErrors: true });
  expect(documents).toHaveLength(1);
  const [doc] = documents as [ReturnType<typeof parseAllDocuments>[number] & { errors: unknown[] }];
  expect(doc.errors).toEqual([]);
  const value = doc.toJS({ maxAliasCount: 0 });
  // js-yaml, the parser @pulumi/pulumi depends on: the same document.
  expect(jsYaml.load(text)).toEqual(value);
  const found: string[] = [];
  const resources = (value as { resources: Record<string, { properties?: unknown; options?: unknown }> })
    .resources;
  for (const [name, resource] of Object.entries(resources)) {
    found.push(name);
    const walk = (v: unknown) => {
      if (typeof v === "string") found.push(pulumiYamlString(v, expressions));
      else if (Array.isArray(v)) v.forEach(walk);
      else if (typeof v === "object" && v !== null) Object.values(v).forEach(walk);
    };
    walk(resource.properties);
    walk(resource.options);
  }
  return found;
}

/** The string constants of Python sources, read by Python's own parser (which refuses bad syntax). */
function pythonStrings(dir: string, files: string[]): string[] {
  const script = [
    "import ast, json, sys",
    "found = []",
    "for name in sys.argv[1:]:",
    "    with open(name, encoding='utf-8') as f:",
    "        tree = compile(f.read(), name, 'exec', ast.PyCF_ONLY_AST)",
    "    compile(tree, name, 'exec')",
    "    found += [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]",
    // An enum's constant (`hosting.OrgMembershipRole.ADMIN`), read back as its value below.
    "    found += [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Attribute) and ast.unparse(n.value).startswith('hosting.')]",
    "print(json.dumps(found))",
  ].join("\n");
  const out = execFileSync("python3", ["-c", script, ...files.map((f) => join(dir, f))], {
    encoding: "utf8",
  });
  return (JSON.parse(out) as string[]).map((s) => ENUM_CONSTANTS.get(s) ?? s);
}

/**
 * Each enum constant of the SDKs (`hosting.OrgMembershipRole.ADMIN` in Python,
 * `hosting.OrgMembershipRoleAdmin` in Go) with the value it stands for, from schema.json's enum
 * types: the writers write a value of an argument's enum so.
 */
const ENUM_CONSTANTS = new Map<string, string>(
  Object.entries(
    (
      JSON.parse(readFileSync(resolve(__dirname, "../../schema.json"), "utf8")) as {
        types: Record<string, { enum?: Array<{ value: string; name: string }> }>;
      }
    ).types,
  ).flatMap(([token, type]) => {
    const name = token.replace("hosting:index:", "");
    return (type.enum ?? []).flatMap(
      (e): Array<[string, string]> => [
        [`hosting.${name}.${pythonEnumMember(e.name)}`, e.value],
        [`hosting.${name}${e.name}`, e.value],
      ],
    );
  }),
);

/** A Go program that prints the string literals of Go sources, read by Go's own parser. */
const GO_STRINGS = `package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
)

func main() {
	found := []string{}
	fset := token.NewFileSet()
	for _, name := range os.Args[1:] {
		file, err := parser.ParseFile(fset, name, nil, parser.AllErrors)
		if err != nil {
			panic(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			// An enum's constant (hosting.OrgMembershipRoleAdmin), read back as its value.
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "hosting" {
					found = append(found, "hosting."+sel.Sel.Name)
				}
			}
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					panic(err)
				}
				found = append(found, s)
			}
			return true
		})
	}
	json.NewEncoder(os.Stdout).Encode(found)
}
`;

const noGo = spawnSync("sh", ["-c", "command -v go && command -v gofmt"]).status !== 0;

/** The string literals of Go sources; gofmt must find them laid out as it lays them out. */
function goStrings(dir: string, files: string[]): string[] {
  const helper = join(work, "go-strings", "main.go");
  mkdirSync(dirname(helper), { recursive: true });
  writeFileSync(helper, GO_STRINGS);
  const paths = files.map((f) => join(dir, f));
  const gofmt = spawnSync("gofmt", ["-l", ...paths], { encoding: "utf8" });
  expect(gofmt.stderr).toBe("");
  expect(gofmt.stdout).toBe("");
  const binary = join(dirname(helper), "go-strings");
  const env = { ...process.env, GOFLAGS: "", GO111MODULE: "off", GOTOOLCHAIN: "local" };
  execFileSync("go", ["build", "-o", binary, helper], { encoding: "utf8", env, cwd: dirname(helper) });
  const out = execFileSync(binary, paths, { encoding: "utf8" });
  return (JSON.parse(out) as string[]).map((s) => ENUM_CONSTANTS.get(s) ?? s);
}

/**
 * The Pulumi Go SDK the generated SDK is built against, where the module cache holds it (the
 * bootstrap's CLI build puts it there, with what it requires): `go vet` then type-checks a program
 * without the network.
 */
function goSdkCached(): boolean {
  const cache = spawnSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).stdout?.trim() ?? "";
  return cache !== "" && existsSync(join(cache, "github.com/pulumi/pulumi/sdk/v3@v3.259.0"));
}

/** `go vet` of a written Go program, its SDK replaced by this checkout's, offline. */
function goVet(dir: string): void {
  const mod = join(dir, "go.mod");
  writeFileSync(
    mod,
    readFileSync(mod, "utf8").replace(
      /=> \S*node_modules\/pulumi-hosting\/sdk\/go/,
      `=> ${join(ROOT, "sdk/go")}`,
    ),
  );
  const env = { ...process.env, ...GO_PREPARED_ENV };
  const vet = spawnSync("go", ["vet", "./..."], { cwd: dir, env, encoding: "utf8" });
  expect(vet.stdout + vet.stderr).toBe("");
  expect(vet.status).toBe(0);
}

/** Every expected string is among those read back (the writers add their own; none is lost). */
function expectCarried(read: readonly string[], inv: Inventory, where: string): void {
  const got = new Set(read);
  const missing = [...expectedStrings(inv)].filter((s) => !got.has(s));
  expect(
    missing.map((s) => JSON.stringify(s)),
    where,
  ).toEqual([]);
}

describe("the hostile inventory", () => {
  it("has unique, short names, identifiers and keys", () => {
    const names = inventory.items.map((i) => i.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name.length, name).toBeLessThanOrEqual(MAX_NAME + 7);
    expect(inventory.items.find((i) => i.kind === "RepositoryWebhook")?.secrets.secret).toMatch(
      /^acmeEngApiHook/,
    );
  });
});

let typeChecked = false;

/**
 * The TypeScript of both shapes, a program and a split, type-checked in one tsc run: each run
 * type-checks the library's sources too (about 8 s of CPU), so the first shape's test checks both.
 */
function typeCheckEveryShape(): void {
  if (typeChecked) return;
  const files = [
    materialise("program-typescript", writeProgramIn("typescript", inventory, options)),
    materialise("split-typescript", writeSplit(inventory, { ...options, language: "typescript" })),
  ].flatMap((dir) => sourcesUnder(dir));
  tsc(work, files);
  typeChecked = true;
}

/** The TypeScript sources under a folder, as absolute paths. */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(dir, f));
}

describe.each(["program", "split"] as const)("every writer, as %s", (shape) => {
  const write = (language: Language) =>
    shape === "program"
      ? writeProgramIn(language, inventory, options)
      : writeSplit(inventory, { ...options, language });
  /** The inventory of each project of a split, or the whole for a program. */
  const parts = (): Array<[string, Inventory]> =>
    shape === "program"
      ? [["", inventory]]
      : [
          ["acme-eng/", { ...inventory, items: inventory.items.filter((i) => "org" in i.module) }],
          [
            "enterprise-acme/",
            { ...inventory, items: inventory.items.filter((i) => "enterprise" in i.module) },
          ],
        ];
  const filesOf = (files: ReadonlyMap<string, string>, prefix: string) =>
    new Map([...files].filter(([f]) => f.startsWith(prefix)).map(([f, t]) => [f.slice(prefix.length), t]));

  it("TypeScript: parses, type-checks and reads back every value", () => {
    const files = write("typescript");
    for (const [prefix, part] of parts())
      expectCarried(typescriptStrings(filesOf(files, prefix)), part, prefix);
    typeCheckEveryShape();
  }, 120_000);

  it("YAML: loads with two YAML parsers and reads back every value, no expression but its own", () => {
    const files = write("yaml");
    for (const [prefix, part] of parts()) {
      const text = files.get(`${prefix}Pulumi.yaml`) ?? "";
      const expressions: string[] = [];
      expectCarried(yamlStrings(text, expressions), part, prefix);
      const own = part.items.flatMap((i) => [
        ...Object.values(i.secrets),
        ...Object.values(i.refs).map(
          (r) => `${part.items.find((t) => t.kind === r.kind && t.id === r.id)?.name}.${r.output}`,
        ),
      ]);
      expect(expressions.sort()).toEqual(own.sort());
    }
  });

  it("Python: compiles and reads back every value", () => {
    const files = write("python");
    const dir = materialise(`${shape}-python`, files);
    for (const [prefix, part] of parts()) {
      const py = [...files.keys()].filter((f) => f.startsWith(prefix) && f.endsWith(".py"));
      expectCarried(pythonStrings(dir, py), part, prefix);
    }
  }, 60_000);

  it.skipIf(noGo)(
    "Go: parses, is gofmt's layout and reads back every value",
    () => {
      const files = write("go");
      const dir = materialise(`${shape}-go`, files);
      for (const [prefix, part] of parts()) {
        const go = [...files.keys()].filter((f) => f.startsWith(prefix) && f.endsWith(".go"));
        expectCarried(goStrings(dir, go), part, prefix);
      }
    },
    120_000,
  );

  it.skipIf(noGo || shape === "split" || !goSdkCached())(
    "Go: go vet type-checks it against the SDK",
    () => goVet(materialise(`${shape}-go-vet`, write("go"))),
    300_000,
  );

  it("Pulumi.yaml of every language loads, its project name a string", () => {
    for (const language of LANGUAGES) {
      const files = write(language);
      for (const [prefix] of parts()) {
        const project = jsYaml.load(files.get(`${prefix}Pulumi.yaml`) ?? "") as { name: unknown };
        expect(typeof project.name).toBe("string");
      }
    }
  });
});

describe("a value no program can carry", () => {
  it.each(LANGUAGES)("%s: the writer refuses a lone surrogate, naming it", (language) => {
    const lone = {
      ...inventory,
      items: [item("IssueType", "acme-eng/9", { org: "acme-eng", name: "x", description: "lone\ud800sur" })],
    };
    assignNames(lone.items, nameCandidates);
    expect(() => writeProgramIn(language, lone, options)).toThrow("lone UTF-16 surrogate");
  });
});

describe("project names that YAML reads as something else", () => {
  it.each(LANGUAGES)(
    "%s: an organisation called yes, 123 or null is a project name all the same",
    (language) => {
      for (const project of ["yes", "123", "null", "0X1F"]) {
        const files = writeProgramIn(language, { ...inventory, items: [] }, { ...options, project });
        expect((jsYaml.load(files.get("Pulumi.yaml") ?? "") as { name: unknown }).name).toBe(project);
      }
    },
  );
});
