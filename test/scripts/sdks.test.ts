/**
 * The SDKs under sdk/ are what `npm run build:sdks` writes from schema.json: generated again into a
 * temporary folder, every file is the same and none is missing or left over. Needs
 * pulumi-hosting-codegen (built by scripts/bootstrap.sh with Go); skipped only on a machine without
 * Go, as test/scripts/codegen.test.ts is.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GO_PREPARED_ENV } from "../go-env";

const ROOT = resolve(__dirname, "../..");
const onPath = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;
const noGo = !onPath("pulumi-hosting-codegen") && !onPath("go");

/** Every file below a folder, by its path relative to it. */
function files(dir: string, below = dir): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      // What pip leaves behind when it installs from the folder is not part of the SDK.
      if (name === "build" || name.endsWith(".egg-info") || name === "__pycache__") continue;
      for (const [k, v] of files(path, below)) found.set(k, v);
    } else found.set(relative(below, path), readFileSync(path, "utf8"));
  }
  return found;
}

describe.skipIf(noGo)("sdk/ (needs Go to build the generator)", () => {
  const work = mkdtempSync(join(tmpdir(), "hosting-sdks-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("is what npm run build:sdks writes from schema.json", () => {
    const r = spawnSync("bash", [join(ROOT, "scripts/build-sdks.sh"), join(ROOT, "schema.json"), work], {
      encoding: "utf8",
    });
    expect(r.stderr + r.stdout).not.toContain("error");
    expect(r.status).toBe(0);
    const fresh = files(work);
    const committed = files(join(ROOT, "sdk"));
    const stale = [...fresh].filter(([path, text]) => committed.get(path) !== text).map(([p]) => p);
    const extra = [...committed.keys()].filter((path) => !fresh.has(path));
    expect({ stale, extra }, "run `npm run build:sdks` and commit sdk/").toEqual({ stale: [], extra: [] });
    expect([...fresh.keys()]).toEqual(
      expect.arrayContaining([
        "python/setup.py",
        "python/pulumi_hosting/repository_webhook.py",
        "go/go.mod",
        "go/hosting/repositoryWebhook.go",
        "nodejs/package.json",
        "nodejs/repositoryWebhook.ts",
      ]),
    );
  });

  it("versions every SDK as the package", () => {
    const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
    expect(readFileSync(join(ROOT, "sdk/python/setup.py"), "utf8")).toContain(`VERSION = "${version}"`);
    expect(JSON.parse(readFileSync(join(ROOT, "sdk/go/hosting/pulumi-plugin.json"), "utf8")).version).toBe(
      version,
    );
    expect(JSON.parse(readFileSync(join(ROOT, "sdk/nodejs/package.json"), "utf8")).version).toBe(version);
  });
});

/**
 * The Pulumi Go SDK the generated SDK is built against, where the module cache holds it (the
 * bootstrap's CLI build puts it there): `go vet` then type-checks a program without the network.
 */
function goSdkCached(): boolean {
  if (!onPath("go")) return false;
  const cache = spawnSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).stdout?.trim() ?? "";
  return (
    cache !== "" &&
    statSync(join(cache, "github.com/pulumi/pulumi/sdk/v3@v3.259.0"), { throwIfNoEntry: false }) !== undefined
  );
}

describe.skipIf(!goSdkCached())("the Go example against sdk/go", () => {
  it("type-checks as it is: a plain string where an argument has an enum type still compiles", () => {
    const work = mkdtempSync(join(tmpdir(), "hosting-plugin-go-"));
    try {
      cpSync(join(ROOT, "examples/plugin-go"), work, { recursive: true });
      const mod = join(work, "go.mod");
      writeFileSync(mod, readFileSync(mod, "utf8").replace("=> ../../sdk/go", `=> ${join(ROOT, "sdk/go")}`));
      // Where Visibility and Role have enum types, the example passes pulumi.String(...).
      expect(readFileSync(join(work, "main.go"), "utf8")).toContain('Role:     pulumi.String("member"),');
      const vet = spawnSync("go", ["vet", "./..."], {
        cwd: work,
        encoding: "utf8",
        env: { ...process.env, ...GO_PREPARED_ENV },
      });
      expect(vet.stderr).toBe("");
      expect(vet.status).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 300_000);
});
