/**
 * Repository statistics (spec, "Repository statistics"; concepts, "Repository statistics
 * computation"): code frequency, commit activity and contributors are compiled in the background
 * (202 until done, then 200), cached by the default branch's commit and reset by a push to it;
 * participation and the punch card are answered at once. A repository without commits answers 204
 * (participation: 404).
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import type { AccessRule } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import { guard } from "../../core/guard";
import { notFound } from "../../core/http";
import { registerJob, scheduleJob } from "../../core/jobs";
import { findUser, readableRepo, repoKey } from "../../core/lookup";
import { ownValue } from "../../core/records";
import { userSummary } from "../../core/render";
import type { Store } from "../../core/store";
import { commitMap, defaultHead, history } from "../git/git";
import { codeFrequency, commitActivity, contributors, participation, punchCard } from "./compute";

/** FG Metadata read; public: a public repository is read without a token. */
const READ: AccessRule = { public: true, permission: ["metadata", "read"] };

const S = ROUTES.statistics;

/** The job kind that finishes a statistics computation. */
export const STATISTICS_JOB = "statistics:compute";

// The computation is done for the commit it started at; a push since then has reset the cache
// (and started nothing), so a stale job changes nothing.
registerJob(STATISTICS_JOB, (store, data) => {
  const key = String(data.repo);
  const entry = ownValue(store.raw.statisticsCache, key);
  if (entry && entry.sha === data.sha) store.state.statisticsCache[key] = { sha: entry.sha, ready: true };
});

export function statisticsRoutes(app: Hono<ServerEnv>): void {
  app.get(S.codeFrequency.pattern, guard(READ), (c) => compiled(c, (commits) => codeFrequency(commits)));

  app.get(S.commitActivity.pattern, guard(READ), (c) =>
    compiled(c, (commits) => commitActivity(commits, Date.now())),
  );

  app.get(S.contributors.pattern, guard(READ), (c) =>
    compiled(c, (commits) =>
      contributors(commits).map(({ author, total, weeks }) => {
        const user = findUser(c.get("store").state, author);
        return { author: user ? userSummary(c, user) : null, total, weeks };
      }),
    ),
  );

  // The spec lists 200 and 404 only: answered at once, and 404 for a repository without commits.
  app.get(S.participation.pattern, guard(READ), (c) => {
    const { commits, owner } = repositoryHistory(c);
    if (!commits) throw notFound();
    return c.json(participation(commits, Date.now(), owner));
  });

  // The spec lists 200 and 204 only: answered at once.
  app.get(S.punchCard.pattern, guard(READ), (c) => {
    const { commits } = repositoryHistory(c);
    if (!commits) return c.body(null, 204);
    return c.json(punchCard(commits));
  });
}

/** The commits of the repository's default branch; undefined for a repository without commits. */
function repositoryHistory(c: Context<ServerEnv>) {
  const store = c.get("store");
  const { repo } = readableRepo(
    store.state,
    c.get("caller"),
    c.req.param("owner") ?? "",
    c.req.param("repo") ?? "",
    READ,
  );
  const key = repoKey(repo);
  const head = defaultHead(store, key);
  return {
    store,
    key,
    head,
    owner: repo.owner,
    commits: head === undefined ? undefined : history(commitMap(store), head),
  };
}

/**
 * The state machine of a compiled statistic: 204 without commits; 200 with the body when the
 * cache holds a finished computation for the default branch's commit; otherwise 202 `{}`, starting
 * the computation unless one for this commit is under way.
 */
function compiled(
  c: Context<ServerEnv>,
  compute: (commits: ReturnType<typeof history>) => unknown,
): Response {
  const { store, key, head, commits } = repositoryHistory(c);
  if (head === undefined || !commits) return c.body(null, 204);
  const entry = ownValue(store.raw.statisticsCache, key);
  if (entry?.sha === head && entry.ready) return c.json(compute(commits) as object);
  if (entry?.sha !== head) startComputation(c, store, key, head);
  return c.json({}, 202);
}

function startComputation(c: Context<ServerEnv>, store: Store, key: string, head: string): void {
  store.state.statisticsCache[key] = { sha: head, ready: false };
  scheduleJob(store, c.get("controls"), STATISTICS_JOB, { repo: key, sha: head });
}
