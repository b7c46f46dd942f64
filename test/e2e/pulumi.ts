/**
 * Drives the real Pulumi CLI for the end-to-end suite: a temporary program whose `node_modules`
 * links to the template the global setup installed once (the packed library under a
 * `node_modules`, as users have it), a file backend, and no network beyond the sandbox server.
 * Every CLI invocation is counted (the global setup prints the total).
 */

import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { afterAll, inject } from "vitest";

export const ROOT = resolve(__dirname, "../..");

/** The package's version: the plugin's, which a YAML program names beside its folder. */
export const PACKAGE_VERSION: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;

const COMMAND_TIMEOUT_MS = 300_000;

/** The folders this test file made (programs, fleets, clones), removed when the file ends. */
const folders: string[] = [];

/**
 * Registered on the file that imports this module (each test file loads its own copy), after the
 * file's own hooks: a program's folder holds its state and plugins, about 15 MB, and scripts/test.sh
 * fails on anything left in the temporary folder.
 */
afterAll(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A new folder (`<prefix>XXXXXX`) removed at the end of the test file: under the system temp
 * folder, or under `parent`.
 */
export function temporaryFolder(prefix: string, parent = tmpdir()): string {
  const dir = mkdtempSync(join(parent, prefix));
  folders.push(dir);
  return dir;
}

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

/** The `npm pack` tarball of the built library, made once by the global setup. */
export function packLibrary(): string {
  return inject("e2e").tarball;
}

/**
 * How the program gets the library: `packed` links its `node_modules` to the template (the `npm
 * pack` tarball installed once, under a `node_modules`, as users have it); `linked` is a program
 * inside this repository whose `node_modules/pulumi-hosting` links to the checkout (as the examples
 * and the demo), so the library is loaded from outside any `node_modules`; `{ git }` installs from a
 * git URL, as the README says.
 */
export type LibraryInstall = "packed" | "linked" | { git: string };

export interface ProgramOptions {
  library?: LibraryInstall;
  /** The program's @pulumi/pulumi version (installed for this program); the template's by default. */
  pulumiVersion?: string;
  /** Further packages the program installs (e.g. `typescript` for a TypeScript program). */
  devDependencies?: Record<string, string>;
  /** Environment of every CLI run (and so of the program and provider processes). */
  env?: Record<string, string>;
}

export class PulumiProgram {
  readonly dir: string;
  private env: NodeJS.ProcessEnv;

  constructor(name: string, program: string, options: ProgramOptions = {}) {
    const library = options.library ?? "packed";
    if (library === "linked") {
      // Inside the repository, so @pulumi/pulumi resolves to the checkout's one copy.
      mkdirSync(join(ROOT, ".e2e"), { recursive: true });
      this.dir = temporaryFolder(`${name}-`, join(ROOT, ".e2e"));
    } else {
      this.dir = temporaryFolder(`hosting-e2e-${name}-`);
    }
    const backend = join(this.dir, ".state");
    mkdirSync(backend);
    // The temporary files of the CLI and what it starts go with the program's folder: the Node.js
    // language host leaves its `pulumi-node-pipes*` folder behind when a program fails, and
    // ts-node keeps its cache (`ts-node-<hash>`) in the temporary folder.
    const temporary = join(this.dir, ".tmp");
    mkdirSync(temporary);
    // A JavaScript program: with `typescript: false` the CLI's Node.js host does not load the
    // TypeScript compiler and ts-node for it (0.1 CPU-s of each of the suite's ~250 runs).
    writeFileSync(
      join(this.dir, "Pulumi.yaml"),
      `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n`,
    );
    writeFileSync(join(this.dir, "index.js"), program);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PULUMI_HOME: join(this.dir, ".pulumi-home"),
      PULUMI_BACKEND_URL: `file://${backend}`,
      PULUMI_CONFIG_PASSPHRASE: "",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
      TMPDIR: temporary,
      ...options.env,
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
    if (library === "packed" && !options.pulumiVersion && !options.devDependencies) {
      symlinkSync(join(inject("e2e").template, "node_modules"), join(this.dir, "node_modules"), "dir");
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

  /**
   * Creates the stack `dev` with the server's address and the token (a secret) as stack config, and
   * the program's own `secrets` with them: one `config set-all` (each CLI run costs about 0.5 CPU-s).
   */
  async initStack(origin: string, token: string, secrets: Record<string, string> = {}): Promise<void> {
    await this.ok("stack", "init", "dev");
    await this.ok(
      "config",
      "set-all",
      "--plaintext",
      `hosting:baseUrl=${origin}`,
      ...[["hosting:token", token], ...Object.entries(secrets)].flatMap(([k, v]) => [
        "--secret",
        `${k}=${v}`,
      ]),
    );
  }

  /**
   * Creates the stack `dev` with the server's address and the token in the environment
   * (`HOSTING_BASE_URL`, `HOSTING_TOKEN`), as CI jobs often give them: one invocation.
   */
  async initStackFromEnvironment(origin: string, token: string): Promise<void> {
    this.setEnv({ HOSTING_BASE_URL: origin, HOSTING_TOKEN: token });
    await this.ok("stack", "init", "dev");
  }

  /** Adds to the environment of later CLI runs. */
  setEnv(values: Record<string, string>): void {
    this.env = { ...this.env, ...values };
  }

  /** Rewrites the program (index.js): a new program costs no CLI invocation. */
  declare(program: string): void {
    writeFileSync(join(this.dir, "index.js"), program);
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
    const started = performance.now();
    // A line per run, when it ends: seconds, the program's folder, the command's first words.
    const record = () =>
      appendFileSync(
        inject("e2e").invocations,
        `${((performance.now() - started) / 1000).toFixed(1)}\t${basename(this.dir)}\tpulumi ${args.slice(0, 2).join(" ")}\n`,
      );
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
      child.on("error", (error) => {
        record();
        reject(error);
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        record();
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

  /** The checkpoint file of the file backend. */
  private statePath(): string {
    const stacks = join(this.dir, ".state/.pulumi/stacks");
    const project = readdirSync(stacks)[0] ?? "";
    return join(stacks, project, "dev.json");
  }

  /** The raw checkpoint file of the file backend, exactly as stored on disk. */
  stateFile(): string {
    return readFileSync(this.statePath(), "utf8");
  }

  /**
   * Rewrites the checkpoint in place (what `stack export`, an edit and `stack import` do, without
   * two CLI invocations): the file backend reads it again at the next command.
   */
  editState(edit: (resources: Array<Record<string, unknown>>) => void): void {
    const checkpoint = JSON.parse(this.stateFile());
    edit(checkpoint.checkpoint.latest.resources);
    writeFileSync(this.statePath(), JSON.stringify(checkpoint, null, 4));
  }

  resources(): Array<{
    urn: string;
    type: string;
    id?: string;
    outputs?: Record<string, unknown>;
    /** Its provider's reference (`<provider URN>::<provider id>`). */
    provider?: string;
    /** Where the program declared it (`project:///index.ts#line,column`). */
    sourcePosition?: string;
  }> {
    return JSON.parse(this.stateFile()).checkpoint.latest?.resources ?? [];
  }
}
