/**
 * What one stack of a fleet pays before and around its own work, measured on one project of the
 * fleet (`npm run bench:fleet`): each part is one more step than the row before, so the difference
 * between two rows is what that step adds. Medians of three, wall seconds.
 */
import { execFile } from "node:child_process";

export interface Part {
  label: string;
  seconds: number;
}

const run = (args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    execFile(
      "pulumi",
      [...args, "--non-interactive"],
      { cwd, env, maxBuffer: 64 * 1024 * 1024 },
      (error, _o, e) => {
        if (error) reject(new Error(`pulumi ${args.join(" ")}: ${e.slice(-2000)}`));
        else resolve(Number(process.hrtime.bigint() - started) / 1e9);
      },
    );
  });

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * The parts of one stack's drift check in `dir` (its stack `stack` adopted already): the CLI
 * alone, selecting the stack (the backend opened), the state loaded, the program run by the
 * language host (its TypeScript type-checked, then only transpiled), and the refresh (the provider
 * processes started and every resource read).
 */
export async function stackParts(dir: string, stack: string, env: NodeJS.ProcessEnv): Promise<Part[]> {
  const typed = { ...env, PULUMI_NODEJS_TRANSPILE_ONLY: "false" };
  const transpiled = { ...env, PULUMI_NODEJS_TRANSPILE_ONLY: "true" };
  const steps: Array<[string, string[], NodeJS.ProcessEnv]> = [
    ["CLI start (pulumi version)", ["version"], env],
    ["+ backend, stack selected (pulumi stack select)", ["stack", "select", stack], env],
    ["+ state loaded (pulumi stack export)", ["stack", "export", "--stack", stack], env],
    ["+ program run, type-checked (pulumi preview)", ["preview", "--stack", stack], typed],
    ["+ program run, transpiled only", ["preview", "--stack", stack], transpiled],
    [
      "+ providers started, every resource read (the drift check, transpiled only)",
      ["preview", "--stack", stack, "--refresh", "--run-program", "--expect-no-changes"],
      transpiled,
    ],
  ];
  const parts: Part[] = [];
  for (const [label, args, stepEnv] of steps) {
    const samples: number[] = [];
    for (let i = 0; i < 3; i++) samples.push(await run(args, dir, stepEnv));
    parts.push({ label, seconds: median(samples) });
  }
  return parts;
}
