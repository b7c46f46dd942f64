/**
 * The built `hosting-emulator` command as tests run it: built first when its sources are newer
 * (`useBuiltCli`), started with the current node, and every process started killed after each test.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, expect } from "vitest";

export const ROOT = resolve(__dirname, "../..");
export const CLI = join(ROOT, "dist/emulator/cli.js");
const SOURCES = [join(ROOT, "emulator"), join(ROOT, "provider/client")];

/** The newest modification time of the TypeScript sources the CLI is built from. */
function newestSource(): number {
  let newest = 0;
  for (const folder of SOURCES) {
    // Every level: the sandbox's families are folders of their own.
    for (const name of readdirSync(folder, { recursive: true, encoding: "utf8" })) {
      if (name.endsWith(".ts")) newest = Math.max(newest, statSync(join(folder, name)).mtimeMs);
    }
  }
  return newest;
}

const children: ChildProcess[] = [];

/** Builds the CLI when it is missing or older than its sources; kills what a test started. */
export function useBuiltCli(): void {
  beforeAll(() => {
    if (!existsSync(CLI) || statSync(CLI).mtimeMs < newestSource()) {
      execFileSync(
        process.execPath,
        [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"],
        { cwd: ROOT, stdio: "pipe" },
      );
    }
    expect(existsSync(CLI)).toBe(true);
  }, 120_000);
  afterEach(() => {
    for (const child of children.splice(0))
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  afterAll(() => {
    for (const child of children.splice(0)) child.kill("SIGKILL");
  });
}

/** Starts the CLI with `args`; it is killed after the test if it still runs. */
export function spawnCli(args: string[]): ChildProcess {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return child;
}

export interface Started {
  child: ChildProcess;
  firstLine: string;
}

/** Starts the CLI and resolves with its first stdout line (`listening on <apiRoot>`). */
export function startCli(args: string[]): Promise<Started> {
  const child = spawnCli(args);
  return new Promise((resolvePromise, reject) => {
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => reject(new Error(`no first line within 15 s; stderr: ${stderr}`)), 15_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf("\n");
      if (newline >= 0) {
        clearTimeout(timer);
        resolvePromise({ child, firstLine: stdout.slice(0, newline) });
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before listening; stderr: ${stderr}`));
    });
  });
}
