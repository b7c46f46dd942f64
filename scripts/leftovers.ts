/**
 * What a test run left behind: entries of its temporary folder, and processes it started that are
 * still running. scripts/test.sh runs the suite with `TMPDIR` set to a fresh folder of its own and
 * `HOSTING_TEST_RUN` set to an id of the run, which every process it starts inherits (a Pulumi
 * CLI, its plugins, a program's dynamic provider, a sandbox server); a process whose parent died is
 * re-parented to init and leaves the run's process tree, but keeps that variable, so it is found
 * by it. After the suite, `node dist/scripts/leftovers.js TMPDIR RUN_ID [--keep-postgres DIR]`
 * names what is left and fails, then stops those processes (they are the run's own).
 *
 * The PostgreSQL server scripts/postgres.sh starts is kept: later runs reuse it (its folder is
 * outside the run's TMPDIR, its processes are the postmaster of DIR and their children).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

export const RUN_VARIABLE = "HOSTING_TEST_RUN";

export interface RunProcess {
  pid: number;
  ppid: number;
  command: string;
  /** Its working folder (a program's folder names the test that ran it), when readable. */
  cwd?: string;
}

/** The processes whose environment holds `HOSTING_TEST_RUN=<run>` (those this uid may read). */
export function runProcesses(run: string, proc = "/proc"): RunProcess[] {
  return processesWith(RUN_VARIABLE, run, proc);
}

/**
 * The processes whose environment holds `<variable>=<value>`: a process and whatever it started,
 * whichever process group or parent they have now.
 */
export function processesWith(variable: string, value: string, proc = "/proc"): RunProcess[] {
  const wanted = `${variable}=${value}`;
  const found: RunProcess[] = [];
  for (const entry of readdirSync(proc)) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environment = readFileSync(join(proc, entry, "environ"), "latin1").split("\0");
      if (!environment.includes(wanted)) continue;
      // stat: "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
      const stat = readFileSync(join(proc, entry, "stat"), "latin1");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const command = readFileSync(join(proc, entry, "cmdline"), "latin1")
        .split("\0")
        .filter(Boolean)
        .join(" ");
      if (command === "") continue; // a zombie: it has exited, only its parent's wait is missing
      let cwd: string | undefined;
      try {
        cwd = readlinkSync(join(proc, entry, "cwd"));
      } catch {
        // Not ours to read: the command still names it.
      }
      found.push({ pid: Number(entry), ppid, command, ...(cwd === undefined ? {} : { cwd }) });
    } catch {
      // Gone since the listing, or not ours to read.
    }
  }
  return found.sort((a, b) => a.pid - b.pid);
}

/** `roots` and every process below them, among `all` (pid → ppid). */
export function withDescendants(roots: number[], all: Array<{ pid: number; ppid: number }>): Set<number> {
  const out = new Set(roots);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (out.has(p.ppid) && !out.has(p.pid)) {
        out.add(p.pid);
        grew = true;
      }
    }
  }
  return out;
}

/** Every process of the machine (pid → ppid), for finding a kept server's children. */
function allProcesses(proc = "/proc"): Array<{ pid: number; ppid: number }> {
  const out: Array<{ pid: number; ppid: number }> = [];
  for (const entry of readdirSync(proc)) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(join(proc, entry, "stat"), "latin1");
      out.push({ pid: Number(entry), ppid: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) });
    } catch {
      // Gone since the listing.
    }
  }
  return out;
}

/** The postmaster of a scripts/postgres.sh folder and its children: kept for the next run. */
export function postgresProcesses(dir: string | undefined, proc = "/proc"): Set<number> {
  const pidFile = dir === undefined ? undefined : join(dir, "data", "postmaster.pid");
  if (pidFile === undefined || !existsSync(pidFile)) return new Set();
  const postmaster = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  return Number.isInteger(postmaster) && postmaster > 0
    ? withDescendants([postmaster], allProcesses(proc))
    : new Set();
}

/** The entries of a temporary folder, each with its size (`du -sk`), largest first. */
export function tempEntries(dir: string): Array<{ name: string; kilobytes: number }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => {
      let kilobytes = 0;
      try {
        kilobytes = Number(execFileSync("du", ["-sk", join(dir, name)], { encoding: "utf8" }).split("\t")[0]);
      } catch {
        // Unreadable in part: its size is unknown, its name is still reported.
      }
      return { name, kilobytes };
    })
    .sort((a, b) => b.kilobytes - a.kilobytes || a.name.localeCompare(b.name));
}

export interface Leftovers {
  entries: Array<{ name: string; kilobytes: number }>;
  processes: RunProcess[];
}

/** What the run left: `tmp`'s entries, and its processes but this one and those kept. */
export function leftovers(tmp: string, run: string, keep: Set<number> = new Set()): Leftovers {
  return {
    entries: tempEntries(tmp),
    processes: runProcesses(run).filter((p) => p.pid !== process.pid && !keep.has(p.pid)),
  };
}

/** The report's lines: one per entry and per process; none when the run left nothing. */
export function describeLeftovers(tmp: string, left: Leftovers): string[] {
  const lines: string[] = [];
  if (left.entries.length > 0) {
    const total = left.entries.reduce((sum, e) => sum + e.kilobytes, 0);
    lines.push(
      `left in the temporary folder ${tmp}: ${left.entries.length} entries, ${(total / 1024).toFixed(1)} MB`,
      ...left.entries.map((e) => `  ${e.name} (${(e.kilobytes / 1024).toFixed(1)} MB)`),
    );
  }
  if (left.processes.length > 0) {
    lines.push(
      `still running: ${left.processes.length} processes`,
      ...left.processes.map(
        (p) => `  ${p.pid} (parent ${p.ppid}): ${p.command.slice(0, 200)}${p.cwd ? ` (in ${p.cwd})` : ""}`,
      ),
    );
  }
  return lines;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits up to `graceMs` for the run's processes to end (a provider the CLI has just told to stop
 * may take a moment), then gives the report's lines (none when nothing is left) and kills the
 * processes it names, so one failed run does not slow the next.
 */
export async function check(
  tmp: string,
  run: string,
  options: { keepPostgres?: string; graceMs?: number } = {},
): Promise<string[]> {
  const kept = () => postgresProcesses(options.keepPostgres);
  let left = leftovers(tmp, run, kept());
  for (
    const start = Date.now();
    left.processes.length > 0 && Date.now() - start < (options.graceMs ?? 5000);
  ) {
    await sleep(250);
    left = leftovers(tmp, run, kept());
  }
  for (const p of left.processes) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // Ended meanwhile.
    }
  }
  return describeLeftovers(tmp, left);
}

/** Exit status 1 when the run left anything, 2 for bad usage. */
async function main(args: string[]): Promise<number> {
  const [tmp, run, ...rest] = args;
  const option = (name: string) => {
    const i = rest.indexOf(name);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const keepPostgres = option("--keep-postgres");
  const graceMs = Number(option("--grace-ms") ?? 5000);
  if (!tmp || !run || !Number.isFinite(graceMs)) {
    console.error("usage: leftovers.js TMPDIR RUN_ID [--keep-postgres DIR] [--grace-ms N]");
    return 2;
  }
  const lines = await check(tmp, run, { ...(keepPostgres ? { keepPostgres } : {}), graceMs });
  if (lines.length === 0) return 0;
  console.error(
    ["test.sh: the tests left these behind (each test removes what it makes):", ...lines].join("\n"),
  );
  return 1;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e);
      process.exit(2);
    },
  );
}
