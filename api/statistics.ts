import { z } from "zod";
import { apiUserSummarySchema } from "./meta";
import { route } from "./route";

/** The kinds of `GET /repos/{owner}/{repo}/stats/{kind}`. */
export const STATISTICS_KINDS = [
  "code_frequency",
  "commit_activity",
  "contributors",
  "participation",
  "punch_card",
] as const;
export type StatisticsKind = (typeof STATISTICS_KINDS)[number];

export const apiCodeFrequencySchema = z.array(z.tuple([z.number(), z.number(), z.number()]));
export const apiCommitActivitySchema = z.array(
  z.object({ days: z.array(z.number()), total: z.number(), week: z.number() }).loose(),
);
export const apiContributorsSchema = z.array(
  z
    .object({
      author: apiUserSummarySchema.nullable(),
      total: z.number(),
      weeks: z.array(z.object({ w: z.number(), a: z.number(), d: z.number(), c: z.number() }).loose()),
    })
    .loose(),
);
export const apiParticipationSchema = z
  .object({ all: z.array(z.number()), owner: z.array(z.number()) })
  .loose();
export const apiPunchCardSchema = z.array(z.tuple([z.number(), z.number(), z.number()]));

const STATS = "/repos/{owner}/{repo}/stats";

/** A repository statistic: 202 while it is computed, 204 for a repository without commits. */
const statistic = <S extends z.ZodType>(schema: S) => ({ body: schema, bodyless: [202, 204] }) as const;

export const statisticsRoutes = {
  statistics: {
    codeFrequency: route(`GET ${STATS}/code_frequency`, statistic(apiCodeFrequencySchema)),
    commitActivity: route(`GET ${STATS}/commit_activity`, statistic(apiCommitActivitySchema)),
    contributors: route(`GET ${STATS}/contributors`, statistic(apiContributorsSchema)),
    participation: route(`GET ${STATS}/participation`, statistic(apiParticipationSchema)),
    punchCard: route(`GET ${STATS}/punch_card`, statistic(apiPunchCardSchema)),
  },
} as const;
