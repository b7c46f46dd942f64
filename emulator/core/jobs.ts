/**
 * Background jobs: what the platform finishes after it has answered (statistics computed after a
 * 202, an organisation or branch renamed after its 202 or 201, notifications marked read after a
 * 202). A job is a row of the state with the time it is due, not a timer: every API request first
 * runs the jobs that are due, inside its own transaction, so a job is all or nothing like any
 * request, survives a restart with a data file, and a test never races a timer.
 *
 * How long a job takes is a control setting (`PUT /_emulator/jobs {delayMs}`): the default is what
 * a user polling a real installation meets; tests set 0, and a job is then done by the next request,
 * or a long one and run the queued jobs when they choose (`POST /_emulator/jobs/run`).
 */
import type { Controls } from "./controls";
import type { StoredJob } from "./state";
import type { Store } from "./store";

type JobHandler = (store: Store, data: Record<string, unknown>) => void;

const HANDLERS = new Map<string, JobHandler>();

/** Names what finishing a job of `kind` does; each family registers its kinds once, at load. */
export function registerJob(kind: string, handler: JobHandler): void {
  if (HANDLERS.has(kind)) throw new Error(`job kind ${kind} is registered twice`);
  HANDLERS.set(kind, handler);
}

/** Queues a job, due after the configured delay. Returns it (its id names it in tests). */
export function scheduleJob(
  store: Store,
  controls: Controls,
  kind: string,
  data: Record<string, unknown>,
): StoredJob {
  if (!HANDLERS.has(kind)) throw new Error(`job kind ${kind} is not registered`);
  const job: StoredJob = {
    id: store.nextId(),
    kind,
    dueAt: new Date(Date.now() + controls.jobDelayMs).toISOString(),
    data,
  };
  store.state.jobs.push(job);
  return job;
}

/** The jobs of `kind` still pending whose data matches `where` (e.g. the rename of one branch). */
export function pendingJobs(store: Store, kind: string, where: Record<string, unknown> = {}): StoredJob[] {
  return store.raw.jobs.filter(
    (j) => j.kind === kind && Object.entries(where).every(([k, v]) => j.data[k] === v),
  ) as StoredJob[];
}

/**
 * Runs every job due by now, oldest first, and drops it from the queue. Called at the start of each
 * API request's transaction: what the request sees is what a real installation shows at that time.
 */
export function settleJobs(store: Store, now = Date.now()): void {
  const jobs = store.raw.jobs;
  if (jobs.length === 0) return;
  const due = jobs.filter((j) => Date.parse(j.dueAt) <= now);
  if (due.length === 0) return;
  // One at a time, each dropped from the queue as it runs: the jobs due after it are still queued
  // then, so a job can change their data (an organisation rename moves their repository).
  for (const job of due) {
    store.state.jobs = store.state.jobs.filter((j) => j.id !== job.id);
    HANDLERS.get(job.kind)?.(store, job.data as Record<string, unknown>);
  }
}
