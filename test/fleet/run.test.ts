/** The command: the report's path checked before anything runs, and a report kept when writing it fails. */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { toJson } from "../../fleet/report";
import { checkReportPath, run } from "../../fleet/run";

function capture() {
  const err: string[] = [];
  let out = "";
  return {
    io: { out: (t: string) => (out += t), err: (l: string) => err.push(l) },
    err,
    out: () => out,
  };
}

describe("--report", () => {
  // Every folder a test makes, removed when the file ends.
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  const work = () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-run-"));
    made.push(dir);
    return dir;
  };

  it("refuses a folder, a missing folder and a path under a file before any stack runs, naming the flag", async () => {
    const dir = work();
    writeFileSync(join(dir, "file.txt"), "x");
    // No project under the root: were the report checked after discovery, that would be the error.
    const root = join(dir, "empty");
    mkdirSync(root);
    for (const [report, message] of [
      [dir, `--report ${dir}: is a folder; name a file in it (e.g. report.json)`],
      [
        join(dir, "missing", "r.json"),
        `--report ${join(dir, "missing", "r.json")}: its folder ${join(dir, "missing")} does not exist`,
      ],
      [
        join(dir, "file.txt", "r.json"),
        `--report ${join(dir, "file.txt", "r.json")}: ${join(dir, "file.txt")} is not a folder`,
      ],
    ] as const) {
      const c = capture();
      expect(await run(["up", "--root", root, "--report", report], c.io)).toBe(2);
      expect(c.err).toEqual([`hosting-fleet: ${message}`]);
      const merge = capture();
      expect(await run(["report", "--merge", join(dir, "file.txt"), "--report", report], merge.io)).toBe(2);
      expect(merge.err).toEqual([`hosting-fleet: ${message}`]);
    }
  });

  it.skipIf(process.getuid?.() === 0)(
    "refuses a folder it may not write in (permissions bind only a user that is not root)",
    () => {
      const dir = work();
      const locked = join(dir, "locked");
      mkdirSync(locked);
      chmodSync(locked, 0o500);
      expect(() => checkReportPath(join(locked, "r.json"))).toThrow(
        /^--report .*r\.json: cannot be written \(EACCES\)$/,
      );
    },
  );

  it("leaves no file behind where there was none, and an existing file as it was", () => {
    const dir = work();
    checkReportPath(join(dir, "new.json"));
    expect(existsSync(join(dir, "new.json"))).toBe(false);
    writeFileSync(join(dir, "old.json"), "kept");
    checkReportPath(join(dir, "old.json"));
    expect(readFileSync(join(dir, "old.json"), "utf8")).toBe("kept");
  });

  it.skipIf(!existsSync("/dev/full"))(
    "writes the report to stdout when writing the file fails after all",
    async () => {
      const dir = work();
      const file = join(dir, "a.json");
      writeFileSync(file, toJson({ version: 1, operation: "drift", shards: [], stacks: [] }));
      const c = capture();
      // /dev/full opens for writing and refuses every write (ENOSPC), like a full disk.
      expect(await run(["report", "--merge", file, "--report", "/dev/full"], c.io)).toBe(2);
      expect(c.err[0]).toMatch(
        /^hosting-fleet: --report \/dev\/full: ENOSPC.*; the report follows on stdout$/,
      );
      expect(JSON.parse(c.out())).toMatchObject({ version: 1, operation: "drift", stacks: [] });
    },
  );
});

describe("--shard", () => {
  it("refuses numbers beyond the maximum before anything runs", async () => {
    const c = capture();
    expect(
      await run(["drift", "--root", "x", "--shard", "99999999999999999999/99999999999999999999"], c.io),
    ).toBe(2);
    expect(c.err[0]).toMatch(
      /^hosting-fleet: --shard must be I\/N with I and N whole numbers, 1 <= I <= N <= 1000/,
    );
  });
});
