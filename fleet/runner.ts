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
  type OpType,
  PulumiCommand,
  type Stack,
  StackNotFoundError,
  type StepEventMetadata,
} from "@pulumi/pulumi/automation";
import type { Project } from "./discover";
import { pool } from "./pool";
import type { Operation, ResourceChange, StackResult } from "./report";

/** Steps that change nothing: what a drift check or a report of changes leaves out. */
const UNCHANGED: ReadonlySet<OpType> = new Set<OpType>([
  "same",
  "read",
  "refresh",
  "discard",
  "discard-replaced",
]);

/** Steps on a whole resource. */
const WHOLE: ReadonlySet<OpType> = new Set<OpType>(["create", "delete", "import"]);

/** The step that stands for a replacement in a report (the engine emits three). */
const REPLACEMENT: ReadonlySet<OpType> = new Set<OpType>(["create-replacement", "delete-replaced"]);

export interface RunOptions {
  operation: Operation;
  stack: string;
  concurrency: number;
  /** One line at each stack's start and end. */
  progress: (line: string) => void;
}

export async function runFleet(projects: readonly Project[], options: RunOptions): Promise<StackResult[]> {
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
  const total = projects.length;
  const width = String(total).length;
  return pool(projects, options.concurrency, async (project, at) => {
    const tag = `[${String(at + 1).padStart(width)}/${total}] ${project.project}/${options.stack}`;
    options.progress(`${tag}: ${options.operation} started`);
    const started = Date.now();
    const result = await runStack(project, options, pulumi);
    const seconds = (Date.now() - started) / 1000;
    options.progress(`${tag}: ${summaryOf(result)} in ${seconds.toFixed(1)} s`);
    return { ...result, seconds };
  });
}

function summaryOf(r: Omit<StackResult, "seconds">): string {
  if (r.status === "error") return `error: ${(r.error ?? "").split("\n")[0]?.replace(/^error:\s*/i, "")}`;
  const n = r.changes.length;
  const what = n === 0 ? "no change" : `${n} change${n === 1 ? "" : "s"}`;
  const fields = [...new Set(r.changes.flatMap((c) => c.fields))].slice(0, 5);
  return `${r.status}, ${what}${fields.length > 0 ? ` (${fields.join(", ")})` : ""}`;
}

async function runStack(
  project: Project,
  options: RunOptions,
  pulumi: PulumiCommand,
): Promise<Omit<StackResult, "seconds">> {
  const base = { project: project.project, stack: options.stack, dir: project.rel };
  const changes = new Changes();
  const onEvent = (event: EngineEvent) => changes.add(event);
  let stack: Stack;
  try {
    const args = { stackName: options.stack, workDir: project.dir };
    stack =
      options.operation === "destroy"
        ? await LocalWorkspace.selectStack(args, { pulumiCommand: pulumi })
        : await LocalWorkspace.createOrSelectStack(args, { pulumiCommand: pulumi });
  } catch (e) {
    // Nothing to destroy where the stack was never created.
    if (options.operation === "destroy" && e instanceof StackNotFoundError) {
      return { ...base, status: "ok", changes: [] };
    }
    return { ...base, status: "error", changes: [], error: errorText(e) };
  }
  try {
    switch (options.operation) {
      case "preview":
        await stack.preview({ onEvent });
        break;
      case "up":
        await stack.up({ onEvent });
        break;
      case "destroy":
        await stack.destroy({ onEvent });
        break;
      case "drift":
        // `pulumi preview --refresh --run-program --expect-no-changes`: reads every resource, runs
        // the program with the current config, and fails when anything would change.
        await stack.preview({ onEvent, refresh: true, runProgram: true, expectNoChanges: true });
        break;
    }
  } catch (e) {
    // expect-no-changes fails the preview on drift: that is drift, unless a resource failed too.
    if (options.operation === "drift" && changes.list().length > 0 && changes.errors.length === 0) {
      return { ...base, status: "drift", changes: changes.list() };
    }
    return { ...base, status: "error", changes: changes.list(), error: errorText(e, changes.errors) };
  }
  const list = changes.list();
  if (options.operation === "drift")
    return { ...base, status: list.length > 0 ? "drift" : "clean", changes: list };
  return { ...base, status: "ok", changes: list };
}

/** The changed resources of one run, from its engine events, one entry per resource. */
class Changes {
  private readonly byUrn = new Map<string, ResourceChange>();
  /** Error diagnostics the engine reported against a resource. */
  readonly errors: string[] = [];

  add(event: EngineEvent): void {
    const diagnostic = event.diagnosticEvent;
    if (diagnostic?.severity === "error" && diagnostic.urn) {
      this.errors.push(`${nameOf(diagnostic.urn)}: ${diagnostic.message.trim()}`);
    }
    const step = event.resourcePreEvent?.metadata;
    if (step === undefined || UNCHANGED.has(step.op) || step.type === "pulumi:pulumi:Stack") return;
    // A default provider comes and goes with the stack's resources: bookkeeping, not a change.
    if (step.type.startsWith("pulumi:providers:") && WHOLE.has(step.op)) return;
    const op = REPLACEMENT.has(step.op) ? "replace" : step.op;
    const known = this.byUrn.get(step.urn);
    // A resource created or deleted whole has no field that changed.
    const fields = WHOLE.has(step.op) ? [] : fieldsOf(step);
    if (known) {
      known.fields = sortFields([...new Set([...known.fields, ...fields])]);
      if (op === "replace") known.op = op;
      return;
    }
    this.byUrn.set(step.urn, { urn: step.urn, type: step.type, name: nameOf(step.urn), op, fields });
  }

  list(): ResourceChange[] {
    return [...this.byUrn.values()].sort((a, b) => a.urn.localeCompare(b.urn));
  }
}

/**
 * The inputs a step changes: the provider's own list where it gives one (the native plugin's
 * detailed diff), else the top-level inputs whose values differ between the recorded state and the
 * program (a dynamic provider's diff names none). Internal inputs (`__provider`) are left out.
 */
export function fieldsOf(step: Pick<StepEventMetadata, "diffs" | "detailedDiff" | "old" | "new">): string[] {
  const detailed = Object.keys(step.detailedDiff ?? {});
  const named = detailed.length > 0 ? detailed : (step.diffs ?? []);
  if (named.length > 0) return sortFields(named.filter((f) => !f.startsWith("__")));
  const before = step.old?.inputs ?? {};
  const after = step.new?.inputs ?? {};
  if (step.old === undefined || step.new === undefined) return [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return sortFields(
    [...keys].filter((k) => !k.startsWith("__") && JSON.stringify(before[k]) !== JSON.stringify(after[k])),
  );
}

/** Top-level fields first, then nested paths, each alphabetically. */
function sortFields(fields: string[]): string[] {
  const depth = (f: string) => (/[.[]/.test(f) ? 1 : 0);
  return [...new Set(fields)].sort((a, b) => depth(a) - depth(b) || a.localeCompare(b));
}

/** The resource name of a URN (`urn:pulumi:stack::project::type::name`). */
export function nameOf(urn: string): string {
  return urn.split("::").at(-1) ?? urn;
}

/**
 * What went wrong, in a few lines: the CLI's `error:` lines and the resources' errors, without the
 * progress output the Automation API puts in its message.
 */
export function errorText(e: unknown, resourceErrors: readonly string[] = []): string {
  const result = (e as Partial<CommandError> & { commandResult?: { stderr?: string; stdout?: string } })
    .commandResult;
  const text = result
    ? `${result.stderr ?? ""}\n${result.stdout ?? ""}`
    : e instanceof Error
      ? e.message
      : String(e);
  // An `error:` line and the indented lines under it (a lock's holder, a resource's cause).
  const lines: string[] = [];
  let inError = false;
  for (const line of text.split("\n")) {
    if (/^\s*error:/i.test(line)) {
      inError = true;
      lines.push(line.trim());
    } else if (inError && /^\s+\S/.test(line)) {
      lines.push(`  ${line.trim()}`);
    } else {
      inError = false;
    }
  }
  const all = [...new Set([...lines, ...resourceErrors])];
  if (all.length > 0) return all.slice(0, 20).join("\n");
  const fallback = text.trim().split("\n").slice(-10).join("\n");
  return fallback || "failed";
}
