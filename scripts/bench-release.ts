/**
 * `npm run bench:release -- [RELEASE_DIR]`: how fast the plugin executable of a release starts
 * against the plugin as the npm package runs it (`node dist/provider/plugin/cli.js`, with the
 * `node` on PATH): the time from starting the process to its first stdout line, the port the
 * engine waits for. Both are started BENCH_RUNS times (default 20), one after the other in turn, so
 * the machine's load falls on both alike; prints the median, the 90th percentile and the fastest,
 * and the sizes of the executable and its archive. RELEASE_DIR defaults to release/v<version>/
 * (`npm run release` writes it); the archive of this machine's platform is used.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { repositoryRoot } from "./reference";
import { archiveName } from "./release";
import { executableName, hostPlatform } from "./sea/executable";

/** Milliseconds from spawning the command to its first stdout line; the process is then ended. */
function startUp(command: string, args: string[]): Promise<number> {
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolvePromise, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", (line) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      lines.close();
      if (!/^\d+$/.test(line)) reject(new Error(`${command} printed ${JSON.stringify(line)}, not a port`));
      child.once("exit", () => resolvePromise(ms));
      child.kill();
    });
    child.once("error", reject);
  });
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const MIB = 1024 * 1024;

async function main(): Promise<void> {
  const root = repositoryRoot();
  const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string })
    .version;
  const release = resolve(process.argv[2] ?? join(root, "release", `v${version}`));
  const archive = readdirArchive(release);
  const runs = Number(process.env.BENCH_RUNS ?? "20");
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`BENCH_RUNS: ${process.env.BENCH_RUNS} is not a count`);
  const work = mkdtempSync(join(tmpdir(), "bench-release-"));
  try {
    execFileSync("tar", ["-xzf", archive, "-C", work]);
    const executable = join(work, executableName(hostPlatform()));
    const node = execFileSync("sh", ["-c", "command -v node"], { encoding: "utf8" }).trim();
    const nodeVersion = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
    const cases: Array<{ name: string; command: string; args: string[]; times: number[] }> = [
      { name: "release executable", command: executable, args: [], times: [] },
      {
        name: `node ${nodeVersion} dist/provider/plugin/cli.js`,
        command: node,
        args: [join(root, "dist/provider/plugin/cli.js")],
        times: [],
      },
    ];
    // One of each first, not counted: the files' first read from disk.
    for (const c of cases) await startUp(c.command, c.args);
    for (let i = 0; i < runs; i++) for (const c of cases) c.times.push(await startUp(c.command, c.args));
    console.log(`Start-up to the port line, ${runs} runs each, interleaved (${hostPlatform()}):`);
    for (const c of cases) {
      const sorted = [...c.times].sort((a, b) => a - b);
      console.log(
        `  ${c.name.padEnd(48)} median ${quantile(sorted, 0.5).toFixed(0)} ms, p90 ${quantile(sorted, 0.9).toFixed(0)} ms, fastest ${(sorted[0] ?? 0).toFixed(0)} ms`,
      );
    }
    console.log(
      `Executable ${(statSync(executable).size / MIB).toFixed(1)} MiB; archive ${(statSync(archive).size / MIB).toFixed(1)} MiB (${archive})`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The archive of this machine's platform in a release folder, whatever its version. */
function readdirArchive(release: string): string {
  const sums = (() => {
    try {
      return readFileSync(join(release, "SHA256SUMS"), "utf8");
    } catch {
      throw new Error(`${release} is not a release folder (no SHA256SUMS): run npm run release first`);
    }
  })();
  const platform = hostPlatform();
  const name = sums
    .split("\n")
    .map((line) => line.slice(66))
    .find((file) => file.startsWith("pulumi-resource-hosting-v") && file.endsWith(`-${platform}.tar.gz`));
  if (name === undefined) {
    throw new Error(
      `${release} has no plugin archive for ${platform} (such as ${archiveName("<version>", platform)}): build it with --platforms ${platform}`,
    );
  }
  return join(release, name);
}

main().catch((error: unknown) => {
  console.error(`bench-release: ${(error as Error).message}`);
  process.exit(1);
});
