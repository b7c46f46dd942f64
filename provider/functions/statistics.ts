/**
 * `getRepositoryStatistics`: one of a repository's statistics. Code frequency, commit activity and
 * contributors are compiled in the background: the API answers 202 until they are ready, so the
 * function asks again after 1 s, 2 s, 4 s, ... (each wait at most 16 s) until an answer comes or
 * `maxWaitMs` (default 60 s) has passed, and then fails saying so. A repository without commits
 * answers 204: the result is empty.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { BodyAnswer, ClientRoute } from "../../api/route";
import { STATISTICS_KINDS, type StatisticsKind, statisticsRoutes } from "../../api/statistics";
import { HostingApiError } from "../client/errors";
import type { HostingClient } from "../client/http";
import { defaultSleep } from "../client/rate-limit";
import { fields } from "../internal/check";
import { declareFunction, field, output } from "../internal/declare";
import { clientOf, type FunctionOptions, type InputArgs, outputOf, parseArgs } from "./common";

export type { StatisticsKind };

/** How long `getRepositoryStatistics` waits through 202 answers unless told otherwise. */
export const DEFAULT_STATISTICS_WAIT_MS = 60_000;
/** The longest `maxWaitMs` taken: a program should not hang for longer on one statistic. */
export const MAX_STATISTICS_WAIT_MS = 600_000;
/** The first wait after a 202; each next one doubles, up to `STATISTICS_POLL_CAP_MS`. */
export const STATISTICS_FIRST_POLL_MS = 1_000;
export const STATISTICS_POLL_CAP_MS = 16_000;

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

const weekStart = () => z.number().int().meta({ description: "Unix time (seconds) of the week's start." });

const codeFrequencyWeekSchema = z
  .object({
    week: weekStart(),
    additions: z.number().int().meta({ description: "Lines added in the week." }),
    deletions: z.number().int().meta({ description: "Lines deleted in the week (a negative number)." }),
  })
  .meta({
    id: "CodeFrequencyWeek",
    description: "One week of code frequency (`[week, additions, deletions]`; deletions are negative).",
  });

const commitActivityWeekSchema = z
  .object({
    week: weekStart(),
    total: z.number().int().meta({ description: "The week's commits." }),
    days: z.array(z.number().int()).meta({ description: "The commits of each day, Sunday to Saturday." }),
  })
  .meta({
    id: "CommitActivityWeek",
    description: "One week of commit activity: `days` are the commits of Sunday to Saturday.",
  });

const contributorWeekSchema = z
  .object({
    week: weekStart(),
    additions: z.number().int().meta({ description: "Lines the contributor added in the week (`a`)." }),
    deletions: z.number().int().meta({ description: "Lines the contributor deleted in the week (`d`)." }),
    commits: z.number().int().meta({ description: "The contributor's commits in the week (`c`)." }),
  })
  .meta({
    id: "ContributorWeek",
    description: "One week of a contributor's work (`w`, `a`, `d`, `c` spelled out).",
  });

const contributorSchema = z
  .object({
    login: z.string().nullable().meta({
      description: "The author's login; null for commits of an author the platform does not know.",
    }),
    total: z.number().int().meta({ description: "The contributor's commits in all." }),
    weeks: z.array(contributorWeekSchema).meta({ description: "The contributor's work, week by week." }),
  })
  .meta({
    id: "Contributor",
    description:
      "A contributor's commits, additions and deletions per week (`w`, `a`, `d`, `c` spelled out).",
  });

const participationSchema = z
  .object({
    all: z.array(z.number().int()).meta({ description: "Everyone's commits, week by week." }),
    owner: z.array(z.number().int()).meta({ description: "The owner's commits, week by week." }),
  })
  .meta({
    id: "Participation",
    description: "Commits per week for the last 52 weeks: everyone's and the owner's.",
  });

const punchCardHourSchema = z
  .object({
    day: z.number().int().meta({ description: "The day of the week: 0 is Sunday." }),
    hour: z.number().int().meta({ description: "The hour of the day, 0 to 23." }),
    commits: z.number().int().meta({ description: "The commits made in that hour." }),
  })
  .meta({
    id: "PunchCardHour",
    description: "Commits per hour of the week (`[day, hour, commits]`; day 0 is Sunday).",
  });

/** What each kind returns. */
const STATISTICS = {
  code_frequency: z.array(codeFrequencyWeekSchema),
  commit_activity: z.array(commitActivityWeekSchema),
  contributors: z.array(contributorSchema),
  participation: participationSchema,
  punch_card: z.array(punchCardHourSchema),
} satisfies Record<StatisticsKind, z.ZodType>;

/**
 * The result is declared with `statistics` as any kind's shape (the package schema's `oneOf`); the
 * TypeScript types below narrow it to the shape of the kind asked for.
 */
export const getRepositoryStatisticsFunction = declareFunction({
  name: "getRepositoryStatistics",
  description: `One of a repository's statistics (\`GET /repos/{owner}/{repo}/stats/{kind}\`). Code frequency, commit activity and contributors are compiled in the background: the API answers 202 until they are ready, so the function asks again after 1 s, 2 s, 4 s, ... (each wait at most ${STATISTICS_POLL_CAP_MS / 1000} s) until an answer comes or \`maxWaitMs\` has passed, and then fails saying so. A repository without commits answers 204: the result is empty. Needs the fine-grained repository permission Metadata (read); a public repository needs no token.`,
  args: z.strictObject({
    owner: field(fields.name("owner"), { description: "The organisation or user owning the repository." }),
    repository: field(fields.name("repository"), { description: "The repository name (without `.git`)." }),
    kind: field(z.enum(STATISTICS_KINDS), {
      description: `Which statistic: ${STATISTICS_KINDS.map((k) => `\`${k}\``).join(", ")}.`,
    }),
    maxWaitMs: field(
      z
        .number({ error: `maxWaitMs must be an integer from 0 to ${MAX_STATISTICS_WAIT_MS}` })
        .int(`maxWaitMs must be an integer from 0 to ${MAX_STATISTICS_WAIT_MS}`)
        .min(0, `maxWaitMs must be an integer from 0 to ${MAX_STATISTICS_WAIT_MS}`)
        .max(MAX_STATISTICS_WAIT_MS, `maxWaitMs must be an integer from 0 to ${MAX_STATISTICS_WAIT_MS}`)
        .default(DEFAULT_STATISTICS_WAIT_MS),
      {
        description: `How long to wait while the statistic is computed (202): 0 to ${MAX_STATISTICS_WAIT_MS} ms, default ${DEFAULT_STATISTICS_WAIT_MS}.`,
      },
    ),
  }),
  result: z.object({
    owner: output(z.string(), "The repository's owner, as asked for."),
    repository: output(z.string(), "The repository's name, as asked for."),
    kind: output(z.enum(STATISTICS_KINDS), "The statistic asked for."),
    hasCommits: output(z.boolean(), "False when the repository has no commits (the API's 204)."),
    statistics: output(
      z.union([
        STATISTICS.code_frequency,
        STATISTICS.commit_activity,
        STATISTICS.contributors,
        STATISTICS.participation,
        STATISTICS.punch_card,
      ]),
      "What the kind returns: a list of `CodeFrequencyWeek` (code_frequency), `CommitActivityWeek` (commit_activity), `Contributor` (contributors) or `PunchCardHour` (punch_card), or one `Participation` (participation). A repository without commits gives `[]` (participation: empty lists).",
    ),
  }),
});

export type CodeFrequencyWeek = z.infer<typeof codeFrequencyWeekSchema>;
export type CommitActivityWeek = z.infer<typeof commitActivityWeekSchema>;
export type Contributor = z.infer<typeof contributorSchema>;
export type Participation = z.infer<typeof participationSchema>;
export type PunchCardHour = z.infer<typeof punchCardHourSchema>;

/** What each kind returns; a repository without commits gives `[]` (participation: empty lists). */
export type RepositoryStatistics = { [K in StatisticsKind]: z.infer<(typeof STATISTICS)[K]> };

/** The declared args, with `kind` the one asked for. */
export type GetRepositoryStatisticsArgs<K extends StatisticsKind = StatisticsKind> = Omit<
  z.input<typeof getRepositoryStatisticsFunction.args>,
  "kind"
> & { kind: K };

/** The declared result, with `statistics` the shape of the kind asked for. */
export type GetRepositoryStatisticsResult<K extends StatisticsKind = StatisticsKind> = Omit<
  z.infer<typeof getRepositoryStatisticsFunction.result>,
  "kind" | "statistics"
> & { kind: K; statistics: RepositoryStatistics[K] };

// ---------------------------------------------------------------------------------------------
// Function
// ---------------------------------------------------------------------------------------------

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

const S = statisticsRoutes.statistics;
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
  const a = parseArgs(getRepositoryStatisticsFunction.name, getRepositoryStatisticsFunction.args, args);
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
