/** Finding a fleet's projects, and merging shard reports from files through the command. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findProjects, projectName } from "../../fleet/discover";
import { toJson } from "../../fleet/report";
import { run } from "../../fleet/run";
import { writeTree } from "../file-tree";

/** Every tree of this file, removed at its end. */
const work = mkdtempSync(join(tmpdir(), "fleet-discover-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const tree = (files: Record<string, string>) => writeTree(mkdtempSync(join(work, "tree-")), files);

describe("findProjects", () => {
  it("finds each folder with a Pulumi.yaml by its project name, skipping node_modules and hidden folders", () => {
    const root = tree({
      "package.json": "{}",
      "acme-ops/Pulumi.yaml": "name: acme-ops\nruntime: nodejs\n",
      "acme-eng/Pulumi.yaml": 'description: x\nname: "acme-eng" # the org\n',
      "acme-eng/nested/Pulumi.yaml": "name: nested\n",
      "teams/site-admin/Pulumi.yml": "name: site-admin\n",
      "node_modules/pkg/Pulumi.yaml": "name: from-a-package\n",
      ".state/Pulumi.yaml": "name: hidden\n",
    });
    expect(findProjects(root).map((p) => [p.project, p.rel])).toEqual([
      ["acme-eng", "acme-eng"],
      ["acme-ops", "acme-ops"],
      ["site-admin", join("teams", "site-admin")],
    ]);
  });

  it("refuses two projects of one name, naming both folders", () => {
    const root = tree({ "a/Pulumi.yaml": "name: same\n", "b/Pulumi.yaml": "name: same\n" });
    expect(() => findProjects(root)).toThrow("two projects are named same (a and b)");
  });

  it("reads the top-level name only", () => {
    expect(projectName("runtime:\n  name: nodejs\nname: 'x.y'\n", "f")).toBe("x.y");
    expect(() => projectName("runtime:\n  name: nodejs\n", "f/Pulumi.yaml")).toThrow(
      "f/Pulumi.yaml has no top-level name:",
    );
  });
});

describe("hosting-fleet report --merge", () => {
  it("writes the merged report in the format asked and exits with its code", async () => {
    const stack = (project: string, status: "clean" | "drift") => ({
      project,
      stack: "ci",
      dir: project,
      status,
      seconds: 1,
      changes:
        status === "drift"
          ? [{ urn: `urn:pulumi:ci::${project}::t::n`, type: "t", name: "n", op: "update", fields: ["role"] }]
          : [],
    });
    const root = tree({
      "a.json": toJson({
        version: 1,
        operation: "drift",
        shards: ["1/2"],
        stacks: [stack("acme-eng", "drift")],
      }),
      "b.json": toJson({
        version: 1,
        operation: "drift",
        shards: ["2/2"],
        stacks: [stack("acme-ops", "clean")],
      }),
    });
    let out = "";
    const io = { out: (t: string) => (out += t), err: () => {} };
    const code = await run(
      ["report", "--merge", join(root, "a.json"), join(root, "b.json"), "--format", "junit"],
      io,
    );
    expect(code).toBe(1);
    expect(out).toContain('tests="2" failures="1" errors="0"');
    expect(await run(["report", "--merge", join(root, "a.json"), "--report", join(root, "m.md")], io)).toBe(
      1,
    );
    expect(await run(["report", "--merge", join(root, "missing.json")], io)).toBe(2);
  });
});
