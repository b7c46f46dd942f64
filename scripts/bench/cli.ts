/**
 * The Pulumi CLI as the bench drives it: temporary program folders installing the library from
 * `npm pack` output, a file backend per program, and every command spawned asynchronously (the
 * sandbox server answers from this process) and timed, with the CPU time of the CLI's process tree
 * when GNU time is available.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const COMMAND_TIMEOUT_MS = 60 * 60_000;
const GNU_TIME = "/usr/bin/time";

export interface Timed {
  seconds: number;
  /** User plus system CPU seconds of the CLI and the processes it waited for; absent without GNU time. */
  cpuSeconds?: number;
  output: string;
}

/** The CLI's version, or a clear error when it or the dynamic-provider plugin is missing. */
export function requirePulumi(): string {
  const found = spawnSync("pulumi", ["version"], { encoding: "utf8" });
  if (found.error || found.status !== 0) {
    throw new Error(
      "The Pulumi CLI is not on PATH: the bench drives the real CLI. Install it " +
        "(https://www.pulumi.com/docs/install/) or run `source scripts/env.sh` after `bash scripts/test.sh` " +
        "has built it, then run `npm run bench` again.",
    );
  }
  const plugin = spawnSync("sh", ["-c", "command -v pulumi-resource-pulumi-nodejs"], { encoding: "utf8" });
  if (plugin.status !== 0) {
    throw new Error(
      "pulumi-resource-pulumi-nodejs (the dynamic-provider plugin shipped beside the Pulumi CLI) is not on PATH",
    );
  }
  return found.stdout.trim();
}

export function gnuTimeAvailable(): boolean {
  return spawnSync(GNU_TIME, ["-f", "%U", "true"], { encoding: "utf8" }).status === 0;
}

/** Packs the built library into `dir`, as a user would receive it; returns the tarball's path. */
export function packLibrary(root: string, dir: string): string {
  const out = execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], {
    cwd: root,
    encoding: "utf8",
  });
  return join(dir, out.trim().split("\n").at(-1) ?? "");
}

/** What a program needs beyond its files and dependencies. */
export interface ProgramOptions {
  /**
   * Provider plugins found through `plugins.providers` in Pulumi.yaml: the package name and the
   * folder (relative to the program) holding its `pulumi-resource-<name>` executable.
   */
  pluginPaths?: Record<string, string>;
  /** Files written with mode 755 (a plugin's executable), by path relative to the program. */
  executables?: Record<string, string>;
}

export class BenchProgram {
  readonly dir: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly timeCpu: boolean;
  private timeFile = 0;

  constructor(
    parent: string,
    readonly project: string,
    files: Record<string, string>,
    dependencies: Record<string, string>,
    pulumiHome: string,
    options: ProgramOptions = {},
  ) {
    this.dir = join(parent, project);
    mkdirSync(join(this.dir, ".state"), { recursive: true });
    const plugins = Object.entries(options.pluginPaths ?? {});
    writeFileSync(
      join(this.dir, "Pulumi.yaml"),
      `name: ${project}\nruntime: nodejs\nmain: index.js\n` +
        (plugins.length
          ? `plugins:\n  providers:\n${plugins.map(([name, path]) => `    - name: ${name}\n      path: ${path}\n`).join("")}`
          : ""),
    );
    writeFileSync(
      join(this.dir, "package.json"),
      JSON.stringify({ name: project, private: true, dependencies }, null, 2),
    );
    for (const [name, text] of Object.entries(files)) writeFileSync(join(this.dir, name), text);
    for (const [name, text] of Object.entries(options.executables ?? {})) {
      const path = join(this.dir, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      chmodSync(path, 0o755);
    }
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PULUMI_HOME: pulumiHome,
      PULUMI_BACKEND_URL: `file://${join(this.dir, ".state")}`,
      PULUMI_CONFIG_PASSPHRASE: "",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    };
    // Credentials come from stack config, as in a user's program.
    delete env.HOSTING_TOKEN;
    delete env.HOSTING_BASE_URL;
    delete env.HOSTING_DEBUG;
    this.env = env;
    this.timeCpu = gnuTimeAvailable();
  }

  install(): void {
    execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: this.dir,
      env: this.env,
      stdio: "pipe",
    });
  }

  /** Creates a stack with the bench's config: the sandbox origin, the site-admin token, the count. */
  async initStack(stack: string, origin: string, n: number): Promise<void> {
    await this.run("stack", "init", stack);
    await this.run("config", "set", "--stack", stack, "hosting:baseUrl", origin);
    await this.run("config", "set", "--stack", stack, "--secret", "hosting:token", "svcp_siteadmin");
    await this.run("config", "set", "--stack", stack, "bench:n", String(n));
  }

  /** Runs `pulumi <args>`, which must succeed, and times it. */
  run(...args: string[]): Promise<Timed> {
    const full = [...args, "--non-interactive", "--color", "never"];
    const timeOut = join(this.dir, `.time-${++this.timeFile}`);
    const [command, argv] = this.timeCpu
      ? [GNU_TIME, ["-f", "%e %U %S", "-o", timeOut, "pulumi", ...full]]
      : ["pulumi", full];
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const child = spawn(command, argv, { cwd: this.dir, env: this.env, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.stderr.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), COMMAND_TIMEOUT_MS);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        const seconds = (performance.now() - started) / 1000;
        if (code !== 0) {
          reject(
            new Error(`pulumi ${args.join(" ")} exited ${code} in ${this.project}:\n${output.slice(-4000)}`),
          );
          return;
        }
        const timed: Timed = { seconds, output };
        const cpu = this.timeCpu ? readCpu(timeOut) : undefined;
        if (cpu !== undefined) timed.cpuSeconds = cpu;
        resolve(timed);
      });
    });
  }

  /** The stack's checkpoint file in the file backend. */
  statePath(stack: string): string {
    return join(this.dir, ".state/.pulumi/stacks", this.project, `${stack}.json`);
  }

  /**
   * The checkpoint's size, how many of the program's resources it holds (every type outside
   * `pulumi:`, so neither the stack nor providers), and the `__provider` bytes of the first
   * resource whose type ends with `typeSuffix` (stored twice: in inputs and in outputs; none for
   * a native provider's resources).
   */
  state(stack: string, typeSuffix: string): StateFigures {
    const path = this.statePath(stack);
    const checkpoint = JSON.parse(readFileSync(path, "utf8"));
    const resources: Array<{ type: string; outputs?: { __provider?: string } }> =
      checkpoint.checkpoint?.latest?.resources ?? [];
    const found = resources.find((r) => r.type.endsWith(typeSuffix));
    return {
      bytes: statSync(path).size,
      resources: resources.filter((r) => !r.type.startsWith("pulumi:")).length,
      providerBytes: Buffer.byteLength(found?.outputs?.__provider ?? ""),
    };
  }
}

export interface StateFigures {
  bytes: number;
  /** The program's resources in state (the stack and providers left out). */
  resources: number;
  providerBytes: number;
}

function readCpu(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const last = readFileSync(file, "utf8").trim().split("\n").at(-1) ?? "";
  rmSync(file, { force: true });
  const [, user, system] = last.split(" ").map(Number);
  return user !== undefined && system !== undefined && Number.isFinite(user + system)
    ? user + system
    : undefined;
}

/** Whether a preview's summary plans any change (a no-change preview is what both programs expect). */
export function plansChanges(output: string): boolean {
  return /\b\d+ to (create|update|delete|replace)\b/.test(output);
}

/**
 * Whether the CLI ran a provider plugin it found on PATH (it warns "using pulumi-resource-X from
 * $PATH"): the bench's plugins must come from `plugins.providers`, as the README installs them.
 */
export function usedAmbientPlugin(output: string): boolean {
  return /using pulumi-resource-\S+ from \$PATH/.test(output);
}
