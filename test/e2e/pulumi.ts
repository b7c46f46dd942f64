/**
 * Drives the real Pulumi CLI for the end-to-end suite: a temporary program that installs the
 * library from `npm pack` output, a file backend, and no network beyond the sandbox server.
 */

import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Controls } from "../../emulator/controls";

export const ROOT = resolve(__dirname, "../..");

const COMMAND_TIMEOUT_MS = 300_000;

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  output: string;
}

/** Fails (never skips) when the CLI is missing: `scripts/test.sh` installs it. */
export function requirePulumi(): void {
  const found = spawnSync("pulumi", ["version"], { encoding: "utf8" });
  if (found.status !== 0) {
    throw new Error(
      "The Pulumi CLI is not on PATH: run the tests with `bash scripts/test.sh`, which installs it",
    );
  }
  const launcher = spawnSync("sh", ["-c", "command -v pulumi-resource-pulumi-nodejs"], { encoding: "utf8" });
  if (launcher.status !== 0) {
    throw new Error(
      "pulumi-resource-pulumi-nodejs is not on PATH: run the tests with `bash scripts/test.sh`",
    );
  }
}

let packed: string | undefined;

/** Packs the built library once per process, as a user would receive it. */
export function packLibrary(): string {
  if (packed) return packed;
  const dir = mkdtempSync(join(tmpdir(), "hosting-pack-"));
  const out = execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], {
    cwd: ROOT,
    encoding: "utf8",
  });
  const name = out.trim().split("\n").at(-1) ?? "";
  packed = join(dir, name);
  return packed;
}

/**
 * How the program gets the library: `packed` installs the `npm pack` tarball under its
 * `node_modules`, as users do; `linked` is a program inside this repository whose
 * `node_modules/pulumi-hosting` links to the checkout (as the examples and the demo), so the library
 * is loaded from outside any `node_modules`; `{ git }` installs from a git URL, as the README says.
 */
export type LibraryInstall = "packed" | "linked" | { git: string };

export interface ProgramOptions {
  library?: LibraryInstall;
  /** The program's @pulumi/pulumi version; the checkout's by default. */
  pulumiVersion?: string;
  /** Further packages the program installs (e.g. `typescript` for a TypeScript program). */
  devDependencies?: Record<string, string>;
}

/** A `take` for `noChangePreviews`: the requests by route template since the last call, then cleared. */
export function takeRequests(controls: Controls): () => Record<string, number> {
  return () => {
    const counts = controls.counts().byRoute;
    controls.clearLog();
    return counts;
  };
}

export class PulumiProgram {
  readonly dir: string;
  private readonly env: NodeJS.ProcessEnv;

  constructor(name: string, program: string, options: ProgramOptions = {}) {
    const library = options.library ?? "packed";
    if (library === "linked") {
      // Inside the repository, so @pulumi/pulumi resolves to the checkout's one copy.
      mkdirSync(join(ROOT, ".e2e"), { recursive: true });
      this.dir = mkdtempSync(join(ROOT, ".e2e", `${name}-`));
    } else {
      this.dir = mkdtempSync(join(tmpdir(), `hosting-e2e-${name}-`));
    }
    const backend = join(this.dir, ".state");
    mkdirSync(backend);
    writeFileSync(join(this.dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\nmain: index.js\n`);
    writeFileSync(join(this.dir, "index.js"), program);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PULUMI_HOME: join(this.dir, ".pulumi-home"),
      PULUMI_BACKEND_URL: `file://${backend}`,
      PULUMI_CONFIG_PASSPHRASE: "",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    };
    // Credentials come from stack config only, so the test proves they stay out of state.
    delete env.HOSTING_TOKEN;
    delete env.HOSTING_BASE_URL;
    this.env = env;
    if (library === "linked") {
      mkdirSync(join(this.dir, "node_modules"));
      symlinkSync(ROOT, join(this.dir, "node_modules", "pulumi-hosting"), "dir");
      return;
    }
    const pulumiVersion =
      options.pulumiVersion ??
      JSON.parse(readFileSync(join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version;
    const source = library === "packed" ? `file:${packLibrary()}` : library.git;
    writeFileSync(
      join(this.dir, "package.json"),
      JSON.stringify({
        name,
        private: true,
        dependencies: { "pulumi-hosting": source, "@pulumi/pulumi": pulumiVersion },
        ...(options.devDependencies ? { devDependencies: options.devDependencies } : {}),
      }),
    );
    this.npm("install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error");
  }

  /** Creates the stack `dev` with the server's address and the token (a secret) as stack config. */
  async initStack(origin: string, token: string): Promise<void> {
    await this.ok("stack", "init", "dev");
    await this.ok("config", "set", "hosting:baseUrl", origin);
    await this.ok("config", "set", "--secret", "hosting:token", token);
  }

  /** Runs npm in the program's folder (e.g. to install another version of the library). */
  npm(...args: string[]): string {
    return execFileSync("npm", args, { cwd: this.dir, env: this.env, encoding: "utf8", stdio: "pipe" });
  }

  /** Runs node in the program's folder, where the library resolves as the program sees it. */
  node(script: string): string {
    return execFileSync(process.execPath, ["-e", script], { cwd: this.dir, env: this.env, encoding: "utf8" });
  }

  /**
   * Runs the CLI without blocking: the sandbox server answers from this same process, so a
   * synchronous spawn would deadlock.
   */
  run(...args: string[]): Promise<RunResult> {
    return new Promise((resolvePromise, reject) => {
      const child = spawn("pulumi", [...args, "--non-interactive", "--color", "never"], {
        cwd: this.dir,
        env: this.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), COMMAND_TIMEOUT_MS);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolvePromise({ code: code ?? -1, stdout, stderr, output: `${stdout}\n${stderr}` });
      });
    });
  }

  /** Runs a command that must succeed, failing with its output otherwise. */
  async ok(...args: string[]): Promise<RunResult> {
    const result = await this.run(...args);
    if (result.code !== 0)
      throw new Error(`pulumi ${args.join(" ")} exited ${result.code}:\n${result.output}`);
    return result;
  }

  /**
   * The two no-change previews every end-to-end suite runs, without refresh and with it, each
   * failing unless `--expect-no-changes` holds. `take` returns (and clears) the requests the server
   * saw since it was last called, so each preview's requests can be counted.
   */
  async noChangePreviews<T>(take: () => T): Promise<{ withoutRefresh: T; withRefresh: T }> {
    take();
    await this.ok("preview", "--expect-no-changes");
    const withoutRefresh = take();
    await this.ok("preview", "--refresh", "--expect-no-changes");
    return { withoutRefresh, withRefresh: take() };
  }

  /** The raw checkpoint file of the file backend, exactly as stored on disk. */
  stateFile(): string {
    const stacks = join(this.dir, ".state/.pulumi/stacks");
    const project = readdirSync(stacks)[0] ?? "";
    return readFileSync(join(stacks, project, "dev.json"), "utf8");
  }

  resources(): Array<{ urn: string; type: string; id?: string; outputs?: Record<string, unknown> }> {
    return JSON.parse(this.stateFile()).checkpoint.latest?.resources ?? [];
  }
}
