/**
 * The repository statistics (spec, concepts, "Statistics payloads"), computed from a list of
 * commits and a clock: pure functions, so tests check them against hand-computed answers.
 *
 * Weeks start on Sunday at 00:00 UTC (code frequency, commit activity, contributors); participation
 * counts weeks back from today at UTC midnight; the punch card uses each commit's own time zone.
 * Merge commits (two or more parents) count nowhere; empty commits (no additions or deletions)
 * count everywhere but in the contributors.
 */

/** What the statistics read of a commit. */
export interface StatCommit {
  author: string;
  /** ISO 8601. */
  date: string;
  /** Minutes east of UTC. */
  tzOffset: number;
  additions: number;
  deletions: number;
  parents: readonly string[];
}

const DAY = 86_400;
export const WEEK = 7 * DAY;
/** Weeks of commit activity and participation. */
export const YEAR_WEEKS = 52;

/** Unix seconds of the Sunday 00:00 UTC that starts the week of `unix` (1970-01-01 was a Thursday). */
export function weekStart(unix: number): number {
  const day = Math.floor(unix / DAY);
  return (day - ((day + 4) % 7)) * DAY;
}

const seconds = (c: StatCommit) => Math.floor(Date.parse(c.date) / 1000);
const counted = (commits: readonly StatCommit[]) => commits.filter((c) => c.parents.length < 2);
/** `-n` without a negative zero, which tests would tell from 0. */
const negative = (n: number) => 0 - n;

/** The weeks from the first commit's to the last one's, oldest first (none without commits). */
function weekRange(commits: readonly StatCommit[]): number[] {
  if (commits.length === 0) return [];
  const times = commits.map(seconds);
  const first = weekStart(Math.min(...times));
  const last = weekStart(Math.max(...times));
  const weeks: number[] = [];
  for (let w = first; w <= last; w += WEEK) weeks.push(w);
  return weeks;
}

/** `[week, additions, -deletions]` for each week from the first commit's to the last one's. */
export function codeFrequency(commits: readonly StatCommit[]): Array<[number, number, number]> {
  const kept = counted(commits);
  const sums = new Map(weekRange(kept).map((w) => [w, { additions: 0, deletions: 0 }]));
  for (const c of kept) {
    const sum = sums.get(weekStart(seconds(c)));
    if (!sum) continue;
    sum.additions += c.additions;
    sum.deletions += c.deletions;
  }
  return [...sums].map(([w, sum]) => [w, sum.additions, negative(sum.deletions)]);
}

/** The last 52 weeks (the current one last): commits per day, Sunday first, in UTC. */
export function commitActivity(
  commits: readonly StatCommit[],
  now: number,
): Array<{ days: number[]; total: number; week: number }> {
  const current = weekStart(Math.floor(now / 1000));
  const first = current - (YEAR_WEEKS - 1) * WEEK;
  const weeks = Array.from({ length: YEAR_WEEKS }, (_, i) => ({
    days: [0, 0, 0, 0, 0, 0, 0],
    total: 0,
    week: first + i * WEEK,
  }));
  for (const c of counted(commits)) {
    const t = seconds(c);
    const index = (weekStart(t) - first) / WEEK;
    const week = weeks[index];
    if (!week) continue;
    const day = Math.floor((t - week.week) / DAY);
    week.days[day] = (week.days[day] ?? 0) + 1;
    week.total++;
  }
  return weeks;
}

export interface ContributorWeeks {
  author: string;
  total: number;
  weeks: Array<{ w: number; a: number; d: number; c: number }>;
}

/**
 * Per author: commits in all, and per week (over the weeks of the whole history) additions,
 * deletions and commits; fewest commits first, as the platform lists them. Empty commits left out.
 */
export function contributors(commits: readonly StatCommit[]): ContributorWeeks[] {
  const kept = counted(commits).filter((c) => c.additions > 0 || c.deletions > 0);
  const range = weekRange(kept);
  const byAuthor = new Map<string, ContributorWeeks>();
  for (const c of kept) {
    let entry = byAuthor.get(c.author);
    if (!entry) {
      entry = { author: c.author, total: 0, weeks: range.map((w) => ({ w, a: 0, d: 0, c: 0 })) };
      byAuthor.set(c.author, entry);
    }
    const week = entry.weeks[(weekStart(seconds(c)) - (range[0] ?? 0)) / WEEK];
    if (!week) continue;
    week.a += c.additions;
    week.d += c.deletions;
    week.c++;
    entry.total++;
  }
  return [...byAuthor.values()].sort((a, b) => a.total - b.total || a.author.localeCompare(b.author));
}

/**
 * Commits per week over the last 52 weeks, oldest first: the most recent week runs from seven days
 * ago at UTC midnight to today at UTC midnight. `all` counts every author, `owner` the owner's.
 */
export function participation(
  commits: readonly StatCommit[],
  now: number,
  owner: string,
): { all: number[]; owner: number[] } {
  const end = Math.floor(now / 1000 / DAY) * DAY;
  const start = end - YEAR_WEEKS * WEEK;
  const all = new Array<number>(YEAR_WEEKS).fill(0);
  const own = new Array<number>(YEAR_WEEKS).fill(0);
  const ownerKey = owner.toLowerCase();
  for (const c of counted(commits)) {
    const t = seconds(c);
    if (t < start || t >= end) continue;
    const index = Math.floor((t - start) / WEEK);
    all[index] = (all[index] ?? 0) + 1;
    if (c.author.toLowerCase() === ownerKey) own[index] = (own[index] ?? 0) + 1;
  }
  return { all, owner: own };
}

/** `[day, hour, commits]` for all 168 hours of the week (Sunday 0 first), in each commit's time zone. */
export function punchCard(commits: readonly StatCommit[]): Array<[number, number, number]> {
  const counts = new Array<number>(7 * 24).fill(0);
  for (const c of counted(commits)) {
    const local = seconds(c) + c.tzOffset * 60;
    const day = (Math.floor(local / DAY) + 4) % 7;
    const hour = Math.floor((((local % DAY) + DAY) % DAY) / 3600);
    const slot = ((day + 7) % 7) * 24 + hour;
    counts[slot] = (counts[slot] ?? 0) + 1;
  }
  return counts.map((n, i) => [Math.floor(i / 24), i % 24, n]);
}
