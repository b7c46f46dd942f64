/**
 * The end-of-run check of scripts/test.sh: it names the entries left in the run's temporary folder
 * and the run's processes still running, an orphan re-parented to init included, and keeps the
 * PostgreSQL server the fleet tests reuse.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  check,
  describeLeftovers,
  leftovers,
  postgresProcesses,
  RUN_VARIABLE,
  runProcesses,
  tempEntries,
  withDescendants,
} from "../../scripts/leftovers";

const work = mkdtempSync(join(tmpdir(), "leftovers-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A `sleep` started by a shell that exits at once: an orphan carrying the run's variable. */
function orphan(run: string): number {
  const started = spawnSync("sh", ["-c", "sleep 60 >/dev/null 2>&1 & echo $!"], {
    cwd: work,
    env: { ...process.env, [RUN_VARIABLE]: run },
    encoding: "utf8",
  });
  return Number(started.stdout.trim());
}

describe("the run's processes", () => {
  it("are found by the run's variable, an orphan whose parent has exited included", () => {
    const run = `test-${process.pid}-orphan`;
    const pid = orphan(run);
    try {
      const found = runProcesses(run);
      expect(found.map((p) => p.pid)).toEqual([pid]);
      expect(found[0]?.command).toBe("sleep 60");
      // Its folder: a program's names the test that left it.
      expect(found[0]?.cwd).toBe(work);
      expect(runProcesses(`${run}-other`)).toEqual([]);
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });

  it("are named and then killed by the check, after a grace for those already ending", async () => {
    const run = `test-${process.pid}-check`;
    const pid = orphan(run);
    const ending = spawn("sh", ["-c", "sleep 0.3"], { env: { ...process.env, [RUN_VARIABLE]: run } });
    const tmp = join(work, "check");
    mkdirSync(tmp);
    const lines = await check(tmp, run, { graceMs: 1000 });
    expect(lines).toEqual([
      "still running: 1 processes",
      `  ${pid} (parent ${lines[1]?.match(/parent (\d+)/)?.[1]}): sleep 60 (in ${work})`,
    ]);
    expect(ending.exitCode).toBe(0);
    // Killed: gone, or a zombie until init reaps it (a zombie has no command line and is not listed).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runProcesses(run)).toEqual([]);
    expect(await check(tmp, run, { graceMs: 0 })).toEqual([]);
  });

  it("keep a PostgreSQL server's postmaster and its children", () => {
    const all = [
      { pid: 10, ppid: 1 },
      { pid: 11, ppid: 10 },
      { pid: 12, ppid: 11 },
      { pid: 13, ppid: 1 },
    ];
    expect([...withDescendants([10], all)].sort()).toEqual([10, 11, 12]);
    const dir = join(work, "postgres");
    expect(postgresProcesses(dir)).toEqual(new Set());
    mkdirSync(join(dir, "data"), { recursive: true });
    writeFileSync(join(dir, "data", "postmaster.pid"), `${process.pid}\n/data\n`);
    expect(postgresProcesses(dir).has(process.pid)).toBe(true);
  });
});

describe("the temporary folder", () => {
  it("names each entry left with its size, and nothing for an empty folder", () => {
    const tmp = join(work, "tmp");
    mkdirSync(join(tmp, "hosting-e2e-import-abc"), { recursive: true });
    writeFileSync(join(tmp, "hosting-e2e-import-abc", "state.json"), "x".repeat(300 * 1024));
    writeFileSync(join(tmp, "vitest.json"), "{}");
    expect(tempEntries(tmp).map((e) => e.name)).toEqual(["hosting-e2e-import-abc", "vitest.json"]);
    const left = leftovers(tmp, `test-${process.pid}-none`);
    expect(left.processes).toEqual([]);
    expect(describeLeftovers(tmp, left)).toEqual([
      expect.stringMatching(new RegExp(`^left in the temporary folder ${tmp}: 2 entries, 0\\.\\d MB$`)),
      expect.stringMatching(/^ {2}hosting-e2e-import-abc \(0\.\d MB\)$/),
      expect.stringMatching(/^ {2}vitest\.json \(0\.0 MB\)$/),
    ]);
    const empty = join(work, "empty");
    mkdirSync(empty);
    expect(describeLeftovers(empty, leftovers(empty, `test-${process.pid}-none`))).toEqual([]);
  });
});
