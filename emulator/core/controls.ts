/**
 * What tests and demos steer the sandbox server with (all under `/_emulator/`, never part of the
 * API): the request log with counts by method and route, fault injection, and a secondary-rate-limit
 * mode, how long background jobs take, and the primary rate limit's counts.
 *
 * These are the only things a server keeps in memory outside its store (docs/ARCHITECTURE.md). An
 * API request changes them only by being metered, as the platform meters failed requests too: its
 * entry in the log, its count against a counting route's rate limit, and the use of the fault or
 * the secondary-rate-limit mode that answered it. Everything else a request changes is in the
 * store, undone with it when it fails (test/emulator/transactions.test.ts checks both).
 */

/** The default time a background job takes (jobs.ts). */
export const DEFAULT_JOB_DELAY_MS = 1_000;

/** Requests a token may make in one window. */
export const DEFAULT_RATE_LIMIT = 5_000;
export const RATE_LIMIT_WINDOW_MS = 60 * 60 * 1000;

export interface RateLimitWindow {
  used: number;
  /** When the window ends: epoch milliseconds. */
  resetAt: number;
}

/** The limit and each token's window: one per server (its Controls). */
export interface PrimaryRateLimit {
  limit: number;
  windows: Map<string, RateLimitWindow>;
}

export function freshRateLimit(): PrimaryRateLimit {
  return { limit: DEFAULT_RATE_LIMIT, windows: new Map() };
}

export interface LoggedRequest {
  seq: number;
  method: string;
  /** The path as requested, below the API root. */
  path: string;
  /** The route template that served it, e.g. `/repos/{owner}/{repo}/hooks/{hook_id}`. */
  route: string;
  /** 0 when a fault dropped the connection without an answer. */
  status: number;
  at: string;
}

export interface Fault {
  id: number;
  /** HTTP method to match; any when absent. */
  method?: string;
  /** Path below the API root to match; `*` matches any run of characters. */
  path: string;
  /** Respond with this status (and the platform's error body). */
  status?: number;
  /** Wait this long before going on. */
  latencyMs?: number;
  /** Destroy the connection without an answer. */
  drop?: boolean;
  /**
   * `before` (default): the request is not processed. `after`: it is processed, then the answer is
   * replaced: the ambiguous failure a client must not blindly repeat.
   */
  when: "before" | "after";
  /** Extra response headers (e.g. `retry-after`). */
  headers?: Record<string, string>;
  /** How many more matching requests it applies to. */
  remaining: number;
}

export interface RateLimitMode {
  method?: string;
  path?: string;
  retryAfter: number;
  remaining: number;
}

/** How many requests the log keeps by default: the newest, older ones dropping out. */
export const DEFAULT_LOG_SIZE = 10_000;

export class Controls {
  private entries: LoggedRequest[] = [];
  faults: Fault[] = [];
  rateLimit: RateLimitMode | undefined;
  /** How long a background job takes (jobs.ts). */
  jobDelayMs = DEFAULT_JOB_DELAY_MS;
  /** The primary rate limit of the counting routes and each token's count (rate-limits.ts). */
  primaryRateLimit: PrimaryRateLimit = freshRateLimit();
  private seq = 0;
  private faultId = 0;

  /** `logSize`: how many requests the log keeps (a ring: the oldest drops out). */
  constructor(readonly logSize = DEFAULT_LOG_SIZE) {
    if (!Number.isSafeInteger(logSize) || logSize < 1) {
      throw new Error(`the request log size must be a positive integer; got ${logSize}`);
    }
  }

  /** The logged requests, oldest first (at most `logSize`; `seq` keeps counting past them). */
  get log(): readonly LoggedRequest[] {
    return this.entries.length > this.logSize ? this.entries.slice(-this.logSize) : this.entries;
  }

  record(entry: Omit<LoggedRequest, "seq">): void {
    // Dropping a batch at a time keeps recording O(1) amortised and the log within 1.1 x logSize.
    if (this.entries.length >= this.logSize + Math.ceil(this.logSize / 10)) {
      this.entries = this.entries.slice(-this.logSize + 1);
    }
    this.entries.push({ seq: ++this.seq, ...entry });
  }

  clearLog(): void {
    this.entries = [];
  }

  counts(): { total: number; byMethod: Record<string, number>; byRoute: Record<string, number> } {
    const byMethod: Record<string, number> = {};
    const byRoute: Record<string, number> = {};
    for (const r of this.log) {
      byMethod[r.method] = (byMethod[r.method] ?? 0) + 1;
      const key = `${r.method} ${r.route}`;
      byRoute[key] = (byRoute[key] ?? 0) + 1;
    }
    return { total: this.log.length, byMethod, byRoute };
  }

  addFault(fault: Omit<Fault, "id">): Fault {
    const stored = { ...fault, id: ++this.faultId };
    this.faults.push(stored);
    return stored;
  }

  /** Takes one use of the first fault matching the request, if any. */
  takeFault(method: string, path: string): Fault | undefined {
    const fault = this.faults.find(
      (f) => f.remaining > 0 && (!f.method || f.method.toUpperCase() === method) && matchPath(f.path, path),
    );
    if (!fault) return undefined;
    fault.remaining--;
    this.faults = this.faults.filter((f) => f.remaining > 0);
    return fault;
  }

  /** Takes one use of the secondary-rate-limit mode when the request matches it. */
  takeRateLimit(method: string, path: string): RateLimitMode | undefined {
    const mode = this.rateLimit;
    if (!mode || mode.remaining <= 0) return undefined;
    if (mode.method && mode.method.toUpperCase() !== method) return undefined;
    if (mode.path && !matchPath(mode.path, path)) return undefined;
    mode.remaining--;
    if (mode.remaining <= 0) this.rateLimit = undefined;
    return mode;
  }

  reset(): void {
    this.clearLog();
    this.faults = [];
    this.rateLimit = undefined;
    this.jobDelayMs = DEFAULT_JOB_DELAY_MS;
    // The primary rate limit and its counts are left as they are (README, control routes).
  }
}

/**
 * Whether `path` matches `pattern`, where `*` matches any run of characters. Without a regular
 * expression: the first and last literal parts anchor the ends and each part between is taken at
 * its leftmost place, which is correct for `*` alone and never backtracks, so a pattern of many
 * stars costs no more than a scan per part.
 */
export function matchPath(pattern: string, path: string): boolean {
  const parts = pattern.split("*");
  if (parts.length === 1) return pattern === path;
  const first = parts[0] ?? "";
  const last = parts[parts.length - 1] ?? "";
  if (first.length + last.length > path.length || !path.startsWith(first) || !path.endsWith(last)) {
    return false;
  }
  let at = first.length;
  const end = path.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = path.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}
