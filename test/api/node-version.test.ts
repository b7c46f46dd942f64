/** The commands' Node.js check: one line naming the version needed and how to get it. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isAtLeast, MINIMUM_NODE, tooOld } from "../../api/node-version";

const ROOT = join(__dirname, "../..");

describe("the Node.js version check", () => {
  it("is the package's engines field", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(pkg.engines.node).toBe(`>=${MINIMUM_NODE}`);
  });

  it("compares versions part by part", () => {
    expect(isAtLeast("20.20.2")).toBe(false);
    expect(isAtLeast("v22.18.9")).toBe(false);
    expect(isAtLeast("22.19.0")).toBe(true);
    expect(isAtLeast("24.1.0")).toBe(true);
    expect(isAtLeast("22.100.0")).toBe(true);
  });

  it("says in one line what is needed and how to get it", () => {
    const line = tooOld("hosting-emulator", "v20.20.2");
    expect(line).toContain(
      `hosting-emulator needs Node.js ${MINIMUM_NODE} or later; this is Node.js 20.20.2`,
    );
    expect(line).not.toContain("\n");
    expect(line).toContain("nvm install");
  });

  // Each command under a Node.js that reports 20.20.2: one line, exit 1, before node:sqlite or the SDK loads.
  for (const [command, script] of [
    ["hosting-emulator", "dist/emulator/cli.js"],
    ["hosting-import", "dist/importer/cli.js"],
  ] as const) {
    it(`${command} stops at once on Node.js 20`, () => {
      const dir = mkdtempSync(join(tmpdir(), "node20-"));
      const preload = join(dir, "node20.js");
      writeFileSync(preload, 'Object.defineProperty(process.versions, "node", { value: "20.20.2" });\n');
      const run = spawnSync(process.execPath, ["--require", preload, join(ROOT, script), "--help"], {
        encoding: "utf8",
      });
      rmSync(dir, { recursive: true, force: true });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n")).toEqual([tooOld(command, "20.20.2")]);
    });
  }
});
