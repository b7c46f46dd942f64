/**
 * Runs the jobs of the CI examples (examples/ci/github-actions.yml, examples/ci/gitlab-ci.yml)
 * here, against the sandbox: each job's shell commands, in order, in its working directory, with
 * the file's variables, stopping at the first that fails, as the CI service would. What only the
 * service does is left to the harness, by name, so that a new command in an example cannot be
 * skipped unnoticed: `uses:` actions (checkout, Node.js and the CLI are here already; artifacts are
 * files in the one checkout all jobs share), and the lines that install the toolchain or the fleet's
 * dependencies (the CLI is on PATH; the fleet's node_modules is the suite's template).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

export interface JobRun {
  /** The exit code of the job: that of its first failing command, else 0. */
  code: number;
  /** Each command run, after substitution, with its exit code and output. */
  commands: Array<{ command: string; code: number; output: string }>;
  /** The lines the harness stood in for. */
  replaced: string[];
}

/** Install lines the harness stands in for (the toolchain and the fleet's dependencies are here). */
const INSTALLS = [/^npm ci\b/, /^curl -fsSL https:\/\/get\.pulumi\.com \| sh\b/];

interface GithubStep {
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, unknown>;
}
interface GithubJob {
  if?: string;
  strategy?: { matrix?: Record<string, unknown[]> };
  defaults?: { run?: { "working-directory"?: string } };
  steps: GithubStep[];
}
export interface GithubWorkflow {
  on: Record<string, unknown>;
  env: Record<string, string>;
  jobs: Record<string, GithubJob>;
}

interface GitlabJob {
  extends?: string;
  stage?: string;
  parallel?: number;
  rules?: Array<{ if?: string; when?: string }>;
  before_script?: string[];
  script?: string[];
  needs?: string[];
}
export type GitlabFile = Record<string, unknown> & { variables?: Record<string, string> };

export function readYaml<T>(file: string): T {
  return parse(readFileSync(file, "utf8")) as T;
}

/** Runs one line in bash in `cwd`; returns its exit code and output, and the directory it left. */
function sh(
  line: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; output: string; cwd: string }> {
  return new Promise((resolvePromise, reject) => {
    // The working directory a `cd` leaves is printed last, as GitLab keeps it for the next line.
    const child = spawn("bash", ["-eo", "pipefail", "-c", `${line}\nprintf '\\n@@cwd=%s' "$PWD"`], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const at = output.lastIndexOf("\n@@cwd=");
      const left = at >= 0 ? output.slice(at + "\n@@cwd=".length).trim() : cwd;
      resolvePromise({ code: code ?? -1, output: at >= 0 ? output.slice(0, at) : output, cwd: left || cwd });
    });
  });
}

/** `${{ matrix.x }}`, `${{ secrets.X }}`, `${{ vars.X }}`, `${{ env.X }}` from `values`; anything else fails. */
export function githubExpand(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    const value = values[expr];
    if (value === undefined) throw new Error(`the harness has no value for \${{ ${expr} }}`);
    return value;
  });
}

/**
 * Runs a GitHub Actions job: `run:` steps through bash in the job's working directory (a step
 * with `if: always()` runs after a failure too); `upload-artifact` and `download-artifact` copy
 * files within the checkout.
 */
export async function runGithubJob(
  workflow: GithubWorkflow,
  name: string,
  checkout: string,
  values: Record<string, string>,
  env: NodeJS.ProcessEnv,
  overrides: Record<string, string> = {},
): Promise<JobRun> {
  const job = workflow.jobs[name];
  if (!job) throw new Error(`no job ${name}`);
  const dir = join(checkout, job.defaults?.run?.["working-directory"] ?? ".");
  const jobEnv: NodeJS.ProcessEnv = { ...env };
  for (const [k, v] of Object.entries(workflow.env)) jobEnv[k] = githubExpand(v, values);
  Object.assign(jobEnv, overrides);
  const run: JobRun = { code: 0, commands: [], replaced: [] };
  for (const step of job.steps) {
    if (run.code !== 0 && step.if !== "always()") continue;
    if (step.uses !== undefined) {
      await artifact(step, checkout, values, jobEnv);
      run.replaced.push(`uses: ${step.uses}`);
      continue;
    }
    const line = githubExpand(step.run ?? "", values).trim();
    if (INSTALLS.some((r) => r.test(line))) {
      run.replaced.push(line);
      continue;
    }
    const result = await sh(line, dir, jobEnv);
    run.commands.push({ command: line, code: result.code, output: result.output });
    if (result.code !== 0 && run.code === 0) run.code = result.code;
  }
  return run;
}

/** The artifact actions as copies within the one checkout every job shares. */
async function artifact(
  step: GithubStep,
  checkout: string,
  values: Record<string, string>,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  if (step.uses?.startsWith("actions/download-artifact")) {
    const to = githubExpand(String(step.with?.path ?? "."), values);
    const pattern = String(step.with?.pattern ?? "*").replace(/\*$/, "");
    // Uploaded files stay where their job wrote them: the download gathers them by name.
    const result = await sh(
      `mkdir -p '${to}' && for f in $(find . -path ./node_modules -prune -o -path './${to}' -prune -o -name '${pattern}*.json' -print); do cp "$f" '${to}/'; done`,
      checkout,
      env,
    );
    if (result.code !== 0) throw new Error(`download-artifact: ${result.output}`);
  }
}

/** The job with what it `extends` merged in (GitLab's hidden `.name` templates). */
function gitlabJob(file: GitlabFile, name: string): GitlabJob {
  const job = file[name] as GitlabJob | undefined;
  if (!job) throw new Error(`no job ${name}`);
  const base = job.extends ? (file[job.extends] as GitlabJob) : {};
  return { ...base, ...job };
}

/**
 * Runs a GitLab CI job: `before_script` then `script`, line after line in one working directory
 * (a `cd` holds for the lines after it), stopping at the first failing line.
 */
export async function runGitlabJob(
  file: GitlabFile,
  name: string,
  checkout: string,
  env: NodeJS.ProcessEnv,
  overrides: Record<string, string> = {},
): Promise<JobRun> {
  const job = gitlabJob(file, name);
  const jobEnv: NodeJS.ProcessEnv = { ...env, ...(file.variables ?? {}), ...overrides };
  const run: JobRun = { code: 0, commands: [], replaced: [] };
  let cwd = checkout;
  for (const line of [...(job.before_script ?? []), ...(job.script ?? [])]) {
    if (INSTALLS.some((r) => r.test(line))) {
      run.replaced.push(line);
      continue;
    }
    const result = await sh(line, cwd, jobEnv);
    run.commands.push({ command: line, code: result.code, output: result.output });
    cwd = result.cwd;
    if (result.code !== 0) {
      run.code = result.code;
      break;
    }
  }
  return run;
}

export function gitlabJobOf(file: GitlabFile, name: string): GitlabJob {
  return gitlabJob(file, name);
}
