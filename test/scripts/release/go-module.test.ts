/**
 * The Go SDK's module zip (scripts/release/go-module.ts): Go's layout (every file under
 * `<module>@<version>/`), the module's own files only, the same bytes every time, and a zip other
 * readers check (Python's zipfile verifies each entry's CRC). test/e2e/release.test.ts has
 * `go mod download` take the release's zip from a module proxy folder.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { moduleFiles, modulePath, moduleZip } from "../../../scripts/release/go-module";
import { writeTree } from "../../file-tree";

const work = mkdtempSync(join(tmpdir(), "go-module-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A module folder with the given files. */
const folder = (name: string, files: Record<string, string>) => writeTree(join(work, name), files);

const GO_MOD = "module example.com/acme/sdk/go\n\ngo 1.25\n";

describe("moduleZip", () => {
  it("puts every file of the module under <module>@<version>/, sorted, and nothing of a nested module or VCS folder", () => {
    const dir = folder("plain", {
      "go.mod": GO_MOD,
      "hosting/b.go": "package hosting\n",
      "hosting/a.go": "package hosting\n",
      "hosting/config/config.go": "package config\n",
      "nested/go.mod": "module example.com/acme/sdk/go/nested\n",
      "nested/x.go": "package nested\n",
      ".git/HEAD": "ref\n",
      "vendor/modules.txt": "\n",
    });
    symlinkSync(join(dir, "go.mod"), join(dir, "link.go"));
    expect(moduleFiles(dir)).toEqual(["go.mod", "hosting/a.go", "hosting/b.go", "hosting/config/config.go"]);
    const { module, zip } = moduleZip(dir, "v0.3.0");
    expect(module).toBe("example.com/acme/sdk/go");
    const file = join(work, "plain.zip");
    writeFileSync(file, zip);
    const listed = execFileSync(
      "python3",
      [
        "-c",
        "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.testzip()); print('\\n'.join(z.namelist())); print(z.read(z.namelist()[0]).decode())",
        file,
      ],
      { encoding: "utf8" },
    );
    expect(listed).toBe(
      [
        "None",
        "example.com/acme/sdk/go@v0.3.0/go.mod",
        "example.com/acme/sdk/go@v0.3.0/hosting/a.go",
        "example.com/acme/sdk/go@v0.3.0/hosting/b.go",
        "example.com/acme/sdk/go@v0.3.0/hosting/config/config.go",
        `${GO_MOD}\n`,
      ].join("\n"),
    );
    expect(moduleZip(dir, "v0.3.0").zip.equals(zip)).toBe(true);
  });

  it("refuses what Go would refuse, saying what", () => {
    const dir = folder("checked", { "go.mod": GO_MOD, "a.go": "package a\n" });
    expect(() => moduleZip(dir, "0.3.0")).toThrow('"0.3.0" is not a Go module version (v0.3.0)');
    expect(() => moduleZip(dir, "v2.0.0")).toThrow("example.com/acme/sdk/go cannot have version v2.0.0");
    expect(() => moduleZip(folder("none", { "a.go": "package a\n" }), "v0.3.0")).toThrow("has no go.mod");
    expect(() =>
      moduleZip(folder("spaces", { "go.mod": GO_MOD, "a b.go": "package a\n" }), "v0.3.0"),
    ).toThrow('"a b.go" is not a file path Go accepts');
    expect(() => moduleZip(folder("case", { "go.mod": GO_MOD, "A.go": "", "a.go": "" }), "v0.3.0")).toThrow(
      "two files differ only in case",
    );
  });

  it("reads the module path from go.mod", () => {
    expect(modulePath('module "example.com/q"\n')).toBe("example.com/q");
    expect(() => modulePath("go 1.25\n")).toThrow("go.mod declares no module path");
  });
});
