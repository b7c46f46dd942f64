/**
 * Runs one operation on the stacks of a fleet through the Automation API
 * (`@pulumi/pulumi/automation`), each stack a `LocalWorkspace` over its project folder: the same
 * CLI, backend, locks and passphrase as `pulumi` run by hand in that folder, since the Automation
 * API runs the CLI with this process's environment. A stack that fails is recorded and the others
 * go on. What changed is read from the engine's events (one `resourcePreEvent` per step), not from
 * the CLI's text, so the report names each resource and the fields that differ.
 */
import {
  type CommandError,
  type EngineEvent,
  LocalWorkspace,
  PulumiCommand,
  Stack,
  StackNotFoundError,
} from "@pulumi/pulumi/automation";
import { Cancellation } from "./cancel";
import { Changes, type Diagnostic } from "./changes";
import type { Project } from "./discover";
import { pool } from "./pool";
import { bounded, type Operation, type StackResult } from "./report";
import { TRANSPILE_ONLY, typeCheck } from "./typecheck";

export interface RunOptions {
  operation: Operation;
  stack: string;
  concurrency: number;
  /** How long one stack's operation may run before it is cancelled, milliseconds. */
  timeoutMs: number;
  /** drift only: `pulumi refresh --preview-only`, the platform against the state, no program run. */
  refreshOnly?: boolean | undefined;
  /** One line at each stack's start and end. */
  progress: (line: string) => void;
  /**
   * Aborted at the first SIGINT or SIGTERM (its reason the signal's name): no further stack starts
   * and the running ones are cancelled, each releasing its lock.
   */
  interrupt?: AbortSignal | undefined;
  /** Aborted at a second signal: the running stacks' CLIs are told to terminate at once. */
  force?: AbortSignal | undefined;
  /** The grace periods of a cancel (cancel.ts), for tests. */
  graceMs?: number | undefined;
  abandonMs?: number | undefined;
}

/** The operations of a stack the runner uses: the Automation API's `Stack`, or a test's. */
export type StackOperations = Pick<Stack, "preview" | "previewRefresh" | "up" | "destroy">;

/** Opens (selects, or creates where the operation may) the stack of a project. */
export type OpenStack = (project: Project, options: RunOptions) => Promise<StackOperations>;

export async function runFleet(
  projects: readonly Project[],
  options: RunOptions,
  open?: OpenStack,
): Promise<StackResult[]> {
  const openStack = open ?? (await automationApi(projects, options));
  const total = projects.length;
  const width = String(total).length;
  return pool(projects, options.concurrency, async (project, at) => {
    const tag = `[${String(at + 1).padStart(width)}/${total}] ${project.project}/${options.stack}`;
    if (options.interrupt?.aborted) {
      // Interrupted before this stack's turn: named in the report, not run.
      return {
        project: project.project,
        stack: options.stack,
        dir: project.rel,
        status: "error",
        changes: [],
        error: `interrupted by ${String(options.interrupt.reason)} before it started: not run`,
        seconds: 0,
      };
    }
    options.progress(`${tag}: ${options.operation} started`);
    const started = Date.now();
    const result = await runStack(project, options, openStack);
    const seconds = (Date.now() - started) / 1000;
    options.progress(`${tag}: ${summaryOf(result)} in ${seconds.toFixed(1)} s`);
    return { ...result, seconds };
  });
}

/** Stacks opened through the Automation API, all with one CLI. */
async function automationApi(projects: readonly Project[], options: RunOptions): Promise<OpenStack> {
  // One CLI for every workspace: without it each workspace runs `pulumi version` first.
  const pulumi = await PulumiCommand.get({ skipVersionCheck: true });
  const first = projects[0];
  if (first !== undefined && projects.length > 1 && options.concurrency > 1) {
    // The CLI's PostgreSQL backend creates its table at the first login with CREATE TABLE IF NOT
    // EXISTS, which PostgreSQL does not make safe for two sessions at once: two stacks starting
    // together on a fresh database, one failed with "duplicate key value violates unique constraint
    // pg_type_typname_nsp_index". One command alone opens the backend first. Its failure (no
    // backend, no login) is left for each stack to report.
    await LocalWorkspace.create({ workDir: first.dir, pulumiCommand: pulumi })
      .then((ws) => ws.listStacks())
      .catch(() => undefined);
  }
  // Every operation but destroy and a refresh-only drift runs the programs: the TypeScript ones are
  // checked here, at once.
  const checked = runsPrograms(options) ? typeCheckedOnce(projects, options) : undefined;
  return async (project, { operation, stack }) => {
    const args = { stackName: stack, workDir: project.dir };
    const errors = checked?.failed.get(project.dir);
    if (errors !== undefined) throw new Error(`the program does not compile:\n${errors.trimEnd()}`);
    const opened = {
      pulumiCommand: pulumi,
      ...(checked?.passed.has(project.dir) ? { envVars: { ...TRANSPILE_ONLY } } : {}),
    };
    if (operation === "destroy") return withoutReadBack(await LocalWorkspace.selectStack(args, opened));
    // Every operation names its stack (`--stack`), so selecting it first, one more CLI run per stack
    // (about 0.2 s), is needed only to create a stack that does not exist yet: the operation is
    // tried on the stack as it is, and only a "no stack named" answer (which ran nothing) creates
    // it and runs the operation again.
    const workspace = await LocalWorkspace.create({ workDir: project.dir, ...opened });
    workspace.selectStack = async () => {};
    const existing = withoutReadBack(await Stack.select(stack, workspace));
    // Only a stack the CLI just said does not exist is created: `stack init` at once (not the
    // Automation API's createOrSelect, whose `stack select` would fail first, one more CLI run),
    // and selected if another machine's shard created it meanwhile.
    const created = async () =>
      withoutReadBack(
        await LocalWorkspace.createStack(args, opened).catch(async (e: unknown) => {
          if (!ALREADY.test(errorText(e))) throw e;
          return await LocalWorkspace.selectStack(args, opened);
        }),
      );
    const orCreated =
      <K extends keyof StackOperations>(op: K) =>
      async (...call: Parameters<StackOperations[K]>): Promise<Awaited<ReturnType<StackOperations[K]>>> => {
        const run = (on: StackOperations) =>
          (on[op] as (...a: Parameters<StackOperations[K]>) => ReturnType<StackOperations[K]>)(...call);
        try {
          return await run(existing);
        } catch (e) {
          if (!NO_STACK.test(errorText(e))) throw e;
          return await run(await created());
        }
      };
    return {
      preview: orCreated("preview"),
      // A stack that does not exist has no state to compare with: that is an error, not "clean".
      previewRefresh: async (...call) =>
        await existing.previewRefresh(...call).catch((e: unknown) => {
          if (!NO_STACK.test(errorText(e))) throw e;
          throw new Error(
            `the stack ${stack} does not exist, so there is no state to compare the platform with: \`hosting-fleet up\` creates it`,
          );
        }),
      up: orCreated("up"),
      destroy: orCreated("destroy"),
    };
  };
}

/** Whether the operation is a drift check of the refresh alone (`--refresh-only`). */
function refreshOnlyDrift(options: Pick<RunOptions, "operation" | "refreshOnly">): boolean {
  return options.operation === "drift" && options.refreshOnly === true;
}

/** Whether the operation runs the projects' programs. */
function runsPrograms(options: Pick<RunOptions, "operation" | "refreshOnly">): boolean {
  return options.operation !== "destroy" && !refreshOnlyDrift(options);
}

/** The fleet's TypeScript projects checked once (typecheck.ts), saying so in one progress line. */
function typeCheckedOnce(projects: readonly Project[], options: RunOptions): ReturnType<typeof typeCheck> {
  const started = Date.now();
  const checked = typeCheck(projects);
  const count = checked.passed.size + checked.failed.size;
  if (count > 0) {
    const failing = checked.failed.size > 0 ? `, ${checked.failed.size} with errors` : "";
    options.progress(
      `hosting-fleet: type-checked ${count} TypeScript project${count === 1 ? "" : "s"} in ${((Date.now() - started) / 1000).toFixed(1)} s${failing}; their programs run transpiled only`,
    );
  }
  return checked;
}

/**
 * The stack with the Automation API's read-back after an operation turned off. After `up` it runs
 * `pulumi stack output` twice and `pulumi stack history`, after `destroy` the history, for the
 * outputs and summary it returns: three more CLI processes per stack, each loading the stack's
 * state (together about 0.9 CPU-s for a stack of 50 resources, CLI v3.259). The fleet
 * reads what changed from the engine's events and never reads those results.
 */
export function withoutReadBack(stack: Stack): Stack {
  stack.outputs = async () => ({});
  stack.info = async () => undefined;
  return stack;
}

/** The CLI's answer for a stack that does not exist: nothing ran. */
const NO_STACK = /no stack named '[^']*' found/;

/** The CLI's answer to `stack init` of a stack that exists. */
const ALREADY = /stack '[^']*' already exists/;

function summaryOf(r: Omit<StackResult, "seconds">): string {
  if (r.status === "error") return `error: ${(r.error ?? "").split("\n")[0]?.replace(/^error:\s*/i, "")}`;
  const n = r.changes.length;
  const what = n === 0 ? "no change" : `${n} change${n === 1 ? "" : "s"}`;
  const fields = [...new Set(r.changes.flatMap((c) => c.fields))].slice(0, 5);
  return `${r.status}, ${what}${fields.length > 0 ? ` (${fields.join(", ")})` : ""}`;
}

/** What `race` gives when the operation was stopped and did not end: it was given up. */
const GIVEN_UP: unique symbol = Symbol("given up");

async function runStack(
  project: Project,
  options: RunOptions,
  open: OpenStack,
): Promise<Omit<StackResult, "seconds">> {
  const base = { project: project.project, stack: options.stack, dir: project.rel };
  // A refresh preview names what it found changed in the outputs event of each refresh step.
  const changes = new Changes({ refreshSteps: refreshOnlyDrift(options) });
  const onEvent = (event: EngineEvent) => changes.add(event);
  const cancel = new Cancellation(options);
  try {
    let stack: StackOperations | typeof GIVEN_UP;
    try {
      // Selecting or creating a stack takes no lock and cannot be signalled: at a timeout or an
      // interrupt it is not waited for (its CLI ends with this process).
      stack = await Promise.race([
        open(project, options),
        cancel.stopped.then((): typeof GIVEN_UP => GIVEN_UP),
      ]);
    } catch (e) {
      // Nothing to destroy where the stack was never created.
      if (options.operation === "destroy" && e instanceof StackNotFoundError) {
        return { ...base, status: "ok", changes: [] };
      }
      return { ...base, status: "error", changes: [], error: errorText(e) };
    }
    if (stack === GIVEN_UP) {
      return {
        ...base,
        status: "error",
        changes: [],
        error: `${cancel.reason} while the stack was being selected`,
      };
    }
    const signal = cancel.signal;
    let operation: Promise<unknown>;
    switch (options.operation) {
      case "preview":
        operation = stack.preview({ onEvent, signal });
        break;
      case "up":
        operation = stack.up({ onEvent, signal });
        break;
      case "destroy":
        operation = stack.destroy({ onEvent, signal });
        break;
      case "drift":
        if (refreshOnlyDrift(options)) {
          // `pulumi refresh --preview-only --expect-no-changes`: reads every resource with the
          // provider configuration in the state, runs no program, fails when anything changed.
          operation = stack.previewRefresh({ onEvent, signal, expectNoChanges: true });
          break;
        }
        // `pulumi preview --refresh --run-program --expect-no-changes`: reads every resource, runs
        // the program with the current config, and fails when anything would change.
        operation = stack.preview({
          onEvent,
          signal,
          refresh: true,
          runProgram: true,
          expectNoChanges: true,
        });
        break;
    }
    let failure: { error: unknown } | undefined;
    try {
      const ended = await Promise.race([operation, cancel.abandoned.then((): typeof GIVEN_UP => GIVEN_UP)]);
      if (ended === GIVEN_UP) {
        return {
          ...base,
          status: "error",
          changes: changes.list(),
          error:
            `${cancel.reason}; the CLI did not stop after two interrupts, so the stack may still be locked: ` +
            `\`pulumi cancel --yes --stack ${options.stack}\` in ${project.rel} clears the lock`,
        };
      }
    } catch (e) {
      failure = { error: e };
    }
    if (cancel.reason !== undefined) {
      // Stopped: an error whatever the operation managed; what it changed before is kept.
      const detail = errorText(failure?.error ?? "", changes.errors, { stopped: true });
      // Told to stop at once, the CLI leaves the steps it was waiting on pending in the state.
      const pending =
        cancel.interrupts >= 2 && options.operation !== "preview" && options.operation !== "drift"
          ? "; steps still running were left pending: the next run names them, `pulumi refresh` settles them"
          : "";
      return {
        ...base,
        status: "error",
        changes: changes.list(),
        error: `${cancel.reason}${pending}${detail === "" ? "" : `\n${detail}`}`,
      };
    }
    if (failure !== undefined) {
      // expect-no-changes fails the preview on drift: that is drift, unless a resource failed too.
      const resourceFailed = changes.errors.some((d) => d.name !== undefined);
      if (options.operation === "drift" && changes.list().length > 0 && !resourceFailed) {
        return { ...base, status: "drift", changes: changes.list() };
      }
      return {
        ...base,
        status: "error",
        changes: changes.list(),
        error: errorText(failure.error, changes.errors),
      };
    }
    const list = changes.list();
    if (options.operation === "drift")
      return { ...base, status: list.length > 0 ? "drift" : "clean", changes: list };
    return { ...base, status: "ok", changes: list };
  } finally {
    cancel.dispose();
  }
}

/** The engine's summary of a failed or cancelled operation: it adds nothing to the errors beside it. */
const GENERIC = /^(update|preview|destroy|refresh|import) (failed|canceled|cancelled)\.?$/i;

/** The longest error a report keeps of a stack: the CLI's text holds values from servers. */
const MAX_ERROR_CHARS = 4_000;

/**
 * What went wrong, each error once: the CLI's own `error:` lines (a lock held, a backend refused,
 * with the indented lines under them) and the engine's error diagnostics, a resource's named by
 * the resource (`acme-eng-member-mona: 401 Bad credentials`). The CLI prints each diagnostic again
 * (beside the resource's progress line and in its Diagnostics section), so a CLI line that a
 * diagnostic says is left to the diagnostic; the engine's summary ("update failed") is left out
 * where another error says more, or when the stack was stopped (the caller says why). Without any
 * error line, the text's last lines (a process that could not start); when stopped, nothing.
 */
export function errorText(
  e: unknown,
  diagnostics: readonly Diagnostic[] = [],
  options: { stopped?: boolean } = {},
): string {
  const result = (e as Partial<CommandError> & { commandResult?: { stderr?: string; stdout?: string } })
    .commandResult;
  const text = result
    ? `${result.stderr ?? ""}\n${result.stdout ?? ""}`
    : e instanceof Error
      ? e.message
      : String(e);
  const normal = (line: string) => line.replace(/^\s*error:\s*/i, "").trim();
  const entries: Array<{ message: string; text: string }> = [];
  const said = new Set(diagnostics.map((d) => normal(d.message.split("\n")[0] ?? "")));
  // An `error:` line and the indented lines under it (a lock's holder, a resource's cause).
  let block: string[] | undefined;
  const close = () => {
    const first = block?.[0];
    if (block !== undefined && first !== undefined && !said.has(normal(first))) {
      entries.push({ message: normal(first), text: block.join("\n") });
    }
    block = undefined;
  };
  for (const line of text.split("\n")) {
    if (/^\s*error:/i.test(line)) {
      close();
      block = [line.trim()];
    } else if (block !== undefined && /^\s+\S/.test(line)) {
      block.push(`  ${line.trim()}`);
    } else {
      close();
    }
  }
  close();
  for (const d of diagnostics) {
    const [first = "", ...rest] = d.message.split("\n").filter((l) => l.trim() !== "");
    const head = d.name === undefined ? `error: ${first.trim()}` : `${d.name}: ${first.trim()}`;
    entries.push({ message: normal(first), text: [head, ...rest.map((l) => `  ${l.trim()}`)].join("\n") });
  }
  const specific = entries.filter((x) => !GENERIC.test(x.message));
  const kept = options.stopped || specific.length > 0 ? specific : entries;
  const all = [...new Set(kept.map((x) => x.text))];
  if (all.length > 0) return bounded(all.slice(0, 20).join("\n"), MAX_ERROR_CHARS);
  if (options.stopped) return "";
  const fallback = text.trim().split("\n").slice(-10).join("\n");
  return bounded(fallback || "failed", MAX_ERROR_CHARS);
}
