/**
 * `getRepositoryStatistics`: one of a repository's statistics. Code frequency, commit activity and
 * contributors are compiled in the background: the API answers 202 until they are ready, so the
 * function asks again after 1 s, 2 s, 4 s, ... (each wait at most 16 s) until an answer comes or
 * `maxWaitMs` (default 60 s) has passed, and then fails saying so. A repository without commits
 * answers 204: the result is empty.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { HostingApiError } from "../client/errors";
import type { HostingClient } from "../client/http";
import { defaultSleep } from "../client/rate-limit";
import { type BodyAnswer, type ClientRoute, ROUTES } from "../client/routes";
import { STATISTICS_KINDS, type StatisticsKind } from "../client/schemas";
import { fields } from "../internal/check";
import { clientOf, type FunctionOptions, type InputArgs, outputOf, parseArgs } from "./common";

export type { StatisticsKind };

/** How long `getRepositoryStatistics` waits through 202 answers unless told otherwise. */
export const DEFAULT_STATISTICS_WAIT_MS = 60_000;
/** The longest `maxWaitMs` taken: a program should not hang for longer on one statistic. */
export const MAX_STATISTICS_WAIT_MS = 600_000;
/** The first wait after a 202; each next one doubles, up to `STATISTICS_POLL_CAP_MS`. */
export const STATISTICS_FIRST_POLL_MS = 1_000;
export const STATISTICS_POLL_CAP_MS = 16_000;

export interface GetRepositoryStatisticsArgs<K extends StatisticsKind = StatisticsKind> {
  owner: string;
  repository: string;
  kind: K;
  /** How long to wait while the statistic is computed (202): 0 to 600000 ms, default 60000. */
  maxWaitMs?: number;
}

/** One week of code frequency (`[week, additions, deletions]`; deletions are negative). */
export interface CodeFrequencyWeek {
  /** Unix time (seconds) of the week's start. */
  week: number;
  additions: number;
  deletions: number;
}

/** One week of commit activity: `days` are the commits of Sunday to Saturday. */
export interface CommitActivityWeek {
  week: number;
  total: number;
  days: number[];
}

/** A contributor's commits, additions and deletions per week (`w`, `a`, `d`, `c` spelled out). */
export interface Contributor {
  /** The author's login; null for commits of an author the platform does not know. */
  login: string | null;
  total: number;
  weeks: Array<{ week: number; additions: number; deletions: number; commits: number }>;
}

/** Commits per week for the last 52 weeks: everyone's and the owner's. */
export interface Participation {
  all: number[];
  owner: number[];
}

/** Commits per hour of the week (`[day, hour, commits]`; day 0 is Sunday). */
export interface PunchCardHour {
  day: number;
  hour: number;
  commits: number;
}

/** What each kind returns; a repository without commits gives `[]` (participation: empty lists). */
export interface RepositoryStatistics {
  code_frequency: CodeFrequencyWeek[];
  commit_activity: CommitActivityWeek[];
  contributors: Contributor[];
  participation: Participation;
  punch_card: PunchCardHour[];
}

export interface GetRepositoryStatisticsResult<K extends StatisticsKind = StatisticsKind> {
  owner: string;
  repository: string;
  kind: K;
  /** False when the repository has no commits (the API's 204). */
  hasCommits: boolean;
  statistics: RepositoryStatistics[K];
}

const argsSchema = z.strictObject({
  owner: fields.name("owner"),
  repository: fields.name("repository"),
  kind: z.enum(STATISTICS_KINDS),
  maxWaitMs: z
    .number({ error: `maxWaitMs must be an integer from 0 to ${MAX_STATISTICS_WAIT_MS}` })
    .int(`maxWaitMs must be an integer from 0 to ${MAX_STATISTICS_WAIT_MS}`)
    .min(0, `maxWaitMs must be an integer from 0 to ${MAX_STATISTICS_WAIT_MS}`)
    .max(MAX_STATISTICS_WAIT_MS, `maxWaitMs must be an integer from 0 to ${MAX_STATISTICS_WAIT_MS}`)
    .default(DEFAULT_STATISTICS_WAIT_MS),
});

const EMPTY: { [K in StatisticsKind]: () => RepositoryStatistics[K] } = {
  code_frequency: () => [],
  commit_activity: () => [],
  contributors: () => [],
  participation: () => ({ all: [], owner: [] }),
  punch_card: () => [],
};

/** The parameters of a statistics route. */
type Repository = { owner: string; repo: string };

/** One statistic: its route (which validates the answer) and the answer in the result's terms. */
interface Statistic<T> {
  /** One GET: the value, or undefined while it is computed (202) or without commits (204). */
  read(c: HostingClient, repository: Repository): Promise<{ status: number; value: T | undefined }>;
  path(repository: Repository): string;
}

function statistic<S extends z.ZodType, T>(
  route: ClientRoute<"GET", Repository, BodyAnswer<S, readonly [202, 204]>>,
  map: (data: z.output<S>) => T,
): Statistic<T> {
  return {
    async read(c, repository) {
      const { status, data } = await c.get(route, repository);
      return { status, value: data === undefined ? undefined : map(data) };
    },
    path: (repository) => route.path(repository),
  };
}

const S = ROUTES.statistics;
const STATISTIC: { [K in StatisticsKind]: Statistic<RepositoryStatistics[K]> } = {
  code_frequency: statistic(S.codeFrequency, (weeks) =>
    weeks.map(([week, additions, deletions]) => ({ week, additions, deletions })),
  ),
  commit_activity: statistic(S.commitActivity, (weeks) =>
    weeks.map((w) => ({ week: w.week, total: w.total, days: w.days })),
  ),
  contributors: statistic(S.contributors, (contributors) =>
    contributors.map((c) => ({
      login: c.author?.login ?? null,
      total: c.total,
      weeks: c.weeks.map((w) => ({ week: w.w, additions: w.a, deletions: w.d, commits: w.c })),
    })),
  ),
  participation: statistic(S.participation, (p) => ({ all: p.all, owner: p.owner })),
  punch_card: statistic(S.punchCard, (hours) =>
    hours.map(([day, hour, commits]) => ({ day, hour, commits })),
  ),
};

/** One statistic of a repository, waiting while it is computed. */
export async function getRepositoryStatistics<K extends StatisticsKind>(
  args: GetRepositoryStatisticsArgs<K>,
  opts?: FunctionOptions,
): Promise<GetRepositoryStatisticsResult<K>> {
  const a = parseArgs("getRepositoryStatistics", argsSchema, args);
  const kind = a.kind as K;
  const client = clientOf(opts);
  const repository = { owner: a.owner, repo: a.repository };
  const path = STATISTIC[kind].path(repository);
  const started = Date.now();
  let pause = STATISTICS_FIRST_POLL_MS;
  let asked = 0;
  for (;;) {
    const { status, value } = await STATISTIC[kind].read(client, repository);
    asked++;
    const base = { owner: a.owner, repository: a.repository, kind };
    if (status === 204) return { ...base, hasCommits: false, statistics: EMPTY[kind]() };
    if (value !== undefined) return { ...base, hasCommits: true, statistics: value };
    const left = a.maxWaitMs - (Date.now() - started);
    if (left <= 0) {
      throw new HostingApiError({
        code: "timeout",
        status: 202,
        method: "GET",
        path,
        apiMessage: `the ${kind} statistics of ${a.owner}/${a.repository} were still being computed after ${Math.round((Date.now() - started) / 1000)}s (${asked} requests)`,
        hint: `Try again later, or give a larger maxWaitMs (now ${a.maxWaitMs}, at most ${MAX_STATISTICS_WAIT_MS})`,
      });
    }
    await defaultSleep(Math.min(pause, left));
    pause = Math.min(pause * 2, STATISTICS_POLL_CAP_MS);
  }
}

/** `getRepositoryStatistics` taking Inputs; secret when an input is. */
export function getRepositoryStatisticsOutput<K extends StatisticsKind>(
  args: InputArgs<GetRepositoryStatisticsArgs<K>>,
  opts?: FunctionOptions,
): pulumi.Output<GetRepositoryStatisticsResult<K>> {
  return outputOf(args, (a: GetRepositoryStatisticsArgs<K>) => getRepositoryStatistics(a, opts));
}
