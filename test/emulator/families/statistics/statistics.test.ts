import { describe, expect, it } from "vitest";
import { commitMap, defaultHead, history } from "../../../../emulator/families/git/git";
import {
  codeFrequency,
  commitActivity,
  contributors,
  participation,
  punchCard,
  type StatCommit,
  WEEK,
  weekStart,
} from "../../../../emulator/families/statistics/compute";
import { call, control, runJobs, TOKENS, useSandbox } from "../../helpers";

/** The fixed clock: Wednesday 2026-11-25 12:00 UTC. */
const NOW = Date.UTC(2026, 10, 25, 12);
const SUN_NOV_22 = 1795305600; // the current week (Sunday 2026-11-22 00:00 UTC)
const SUN_NOV_15 = 1794700800;
const SUN_OCT_26_2025 = 1761436800;

const commit = (
  author: string,
  date: string,
  tzOffset: number,
  additions: number,
  deletions: number,
  merge = false,
): StatCommit => ({
  author,
  date,
  tzOffset,
  additions,
  deletions,
  parents: merge ? ["a", "b"] : ["a"],
});

/**
 * A: Sunday 10:30 UTC, UTC+2 (local Sunday 12:30). B: Tuesday 03:15 UTC, UTC-7 (local Monday
 * 20:15). C: a merge (counts nowhere). D: empty, Wednesday 23:30 UTC, UTC+2 (local Thursday 01:30).
 * E: today 08:00 UTC (after today's midnight: outside participation). F: a year ago, Saturday 00:00
 * UTC, UTC+5:30 (local Saturday 05:30). G: Tuesday a week ago, 12:00 UTC.
 */
const COMMITS: StatCommit[] = [
  commit("olivia", "2026-11-22T10:30:00Z", 120, 10, 2),
  commit("octocat", "2026-11-24T03:15:00Z", -420, 5, 0),
  commit("admin", "2026-11-24T09:00:00Z", 0, 100, 100, true),
  commit("olivia", "2026-11-18T23:30:00Z", 120, 0, 0),
  commit("olivia", "2026-11-25T08:00:00Z", 0, 1, 1),
  commit("mona", "2025-11-01T00:00:00Z", 330, 7, 3),
  commit("octocat", "2026-11-17T12:00:00Z", 0, 2, 0),
];

describe("statistics computations (fixed clock)", () => {
  it("starts weeks on Sunday 00:00 UTC", () => {
    expect(weekStart(NOW / 1000)).toBe(SUN_NOV_22);
    expect(weekStart(SUN_NOV_22)).toBe(SUN_NOV_22);
    expect(weekStart(SUN_NOV_22 - 1)).toBe(SUN_NOV_15);
  });

  it("code frequency: every week from the first commit's to the last one's, deletions negative, merges left out", () => {
    const rows = codeFrequency(COMMITS);
    expect(rows).toHaveLength(57); // 26 Oct 2025 to 22 Nov 2026
    expect(rows[0]).toEqual([SUN_OCT_26_2025, 7, -3]);
    expect(rows[55]).toEqual([SUN_NOV_15, 2, 0]);
    expect(rows[56]).toEqual([SUN_NOV_22, 16, -3]);
    expect(rows.slice(1, 55).every(([, a, d]) => a === 0 && d === 0)).toBe(true);
    expect(rows.map(([w]) => w)).toEqual(rows.map((_, i) => SUN_OCT_26_2025 + i * WEEK));
    expect(codeFrequency([])).toEqual([]);
  });

  it("commit activity: 52 weeks up to the current one, days Sunday first in UTC", () => {
    const weeks = commitActivity(COMMITS, NOW);
    expect(weeks).toHaveLength(52);
    expect(weeks[0]?.week).toBe(SUN_NOV_22 - 51 * WEEK);
    expect(weeks[51]).toEqual({ days: [1, 0, 1, 1, 0, 0, 0], total: 3, week: SUN_NOV_22 });
    expect(weeks[50]).toEqual({ days: [0, 0, 1, 1, 0, 0, 0], total: 2, week: SUN_NOV_15 });
    // F is older than 52 weeks; C is a merge.
    expect(weeks.reduce((sum, w) => sum + w.total, 0)).toBe(5);
  });

  it("contributors: per author and week, without merges and empty commits, fewest commits first", () => {
    const result = contributors(COMMITS);
    expect(result.map((c) => [c.author, c.total])).toEqual([
      ["mona", 1],
      ["octocat", 2],
      ["olivia", 2],
    ]);
    for (const c of result) {
      expect(c.weeks).toHaveLength(57);
      expect(c.weeks[0]?.w).toBe(SUN_OCT_26_2025);
    }
    const [mona, octocat, olivia] = result;
    expect(mona?.weeks[0]).toEqual({ w: SUN_OCT_26_2025, a: 7, d: 3, c: 1 });
    expect(octocat?.weeks[55]).toEqual({ w: SUN_NOV_15, a: 2, d: 0, c: 1 });
    expect(octocat?.weeks[56]).toEqual({ w: SUN_NOV_22, a: 5, d: 0, c: 1 });
    // D (empty) is not counted in olivia's week of 15 November.
    expect(olivia?.weeks[55]).toEqual({ w: SUN_NOV_15, a: 0, d: 0, c: 0 });
    expect(olivia?.weeks[56]).toEqual({ w: SUN_NOV_22, a: 11, d: 3, c: 2 });
  });

  it("participation: 52 weeks ending today at UTC midnight, oldest first; owner within all", () => {
    const { all, owner } = participation(COMMITS, NOW, "olivia");
    expect(all).toHaveLength(52);
    expect(owner).toHaveLength(52);
    // The last week runs from 18 November 00:00 to 25 November 00:00: A, B and D (E is today).
    expect(all[51]).toBe(3);
    expect(owner[51]).toBe(2);
    expect(all[50]).toBe(1); // G
    expect(owner[50]).toBe(0);
    expect(all.reduce((a, b) => a + b, 0)).toBe(4);
    expect(owner.reduce((a, b) => a + b, 0)).toBe(2);
    expect(participation(COMMITS, NOW, "nobody").owner.every((n) => n === 0)).toBe(true);
  });

  it("punch card: 168 hours in each commit's own time zone", () => {
    const card = punchCard(COMMITS);
    expect(card).toHaveLength(168);
    expect(card[0]).toEqual([0, 0, 0]);
    expect(card[167]).toEqual([6, 23, 0]);
    const nonZero = card.filter(([, , n]) => n > 0);
    expect(nonZero).toEqual([
      [0, 12, 1], // A: Sunday 12:30 at UTC+2
      [1, 20, 1], // B: Monday 20:15 at UTC-7
      [2, 12, 1], // G
      [3, 8, 1], // E
      [4, 1, 1], // D: Thursday 01:30 at UTC+2
      [6, 5, 1], // F: Saturday 05:30 at UTC+5:30
    ]);
  });
});

const sandbox = useSandbox();
const STATS = "/repos/acme-eng/api/stats";
const COMPILED = ["code_frequency", "commit_activity", "contributors"] as const;

async function setDelay(delayMs: number): Promise<void> {
  expect((await control(sandbox.emulator, "PUT", "/jobs", { delayMs })).status).toBe(200);
}

/** The commits of acme-eng/api's main as the server holds them. */
function mainHistory() {
  const store = sandbox.emulator.store;
  return history(commitMap(store), defaultHead(store, "acme-eng/api") as string);
}

describe("the statistics state machine", () => {
  it.each(COMPILED)("%s: 202 {} first, then 200 once the job is done (delay 0)", async (stat) => {
    await setDelay(0);
    const first = await call(sandbox.emulator, "GET", `${STATS}/${stat}`, { token: TOKENS.member });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({});
    const second = await call(sandbox.emulator, "GET", `${STATS}/${stat}`, { token: TOKENS.member });
    expect(second.status).toBe(200);
    expect(Array.isArray(second.body)).toBe(true);
  });

  it("keeps answering 202 with one job while it computes, then 200 for every compiled statistic", async () => {
    await setDelay(60_000);
    expect((await call(sandbox.emulator, "GET", `${STATS}/contributors`)).status).toBe(202);
    expect((await call(sandbox.emulator, "GET", `${STATS}/code_frequency`)).status).toBe(202);
    const jobs = (await control(sandbox.emulator, "GET", "/jobs")).body.pending;
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ kind: "statistics:compute", data: { repo: "acme-eng/api" } });
    await runJobs(sandbox.emulator);
    for (const stat of COMPILED) {
      expect((await call(sandbox.emulator, "GET", `${STATS}/${stat}`)).status).toBe(200);
    }
  });

  it("a push to the default branch resets the cache; a push to another branch does not", async () => {
    await setDelay(0);
    await call(sandbox.emulator, "GET", `${STATS}/code_frequency`);
    const before = await call(sandbox.emulator, "GET", `${STATS}/code_frequency`);
    expect(before.status).toBe(200);

    const other = await control(sandbox.emulator, "POST", "/repos/acme-eng/api/branches/develop/push", {});
    expect(other.status).toBe(201);
    expect(other.body.statistics_reset).toBe(false);
    expect((await call(sandbox.emulator, "GET", `${STATS}/code_frequency`)).status).toBe(200);

    const push = await control(sandbox.emulator, "POST", "/repos/acme-eng/api/branches/main/push", {
      author: "octocat",
      additions: 1000,
      deletions: 400,
    });
    expect(push.status).toBe(201);
    expect(push.body).toMatchObject({ repository: "acme-eng/api", branch: "main", statistics_reset: true });
    expect(push.body.sha).toMatch(/^[0-9a-f]{40}$/);
    const reset = await call(sandbox.emulator, "GET", `${STATS}/code_frequency`);
    expect(reset.status).toBe(202);
    const after = await call(sandbox.emulator, "GET", `${STATS}/code_frequency`);
    expect(after.status).toBe(200);
    const last = (rows: number[][]) => rows[rows.length - 1] as number[];
    expect(last(after.body)[1]).toBe((last(before.body)[1] as number) + 1000);
    expect(last(after.body)[2]).toBe((last(before.body)[2] as number) - 400);
  });

  it("computes from the default branch's history: merges left out, empty commits out of contributors", async () => {
    await setDelay(0);
    const commits = mainHistory();
    const plain = commits.filter((c) => c.parents.length < 2);
    for (const stat of COMPILED) await call(sandbox.emulator, "GET", `${STATS}/${stat}`);
    const [frequency, activity, people, punch, part] = await Promise.all(
      [...COMPILED, "punch_card", "participation"].map((s) => call(sandbox.emulator, "GET", `${STATS}/${s}`)),
    );
    expect(frequency?.body.reduce((sum: number, r: number[]) => sum + (r[1] as number), 0)).toBe(
      plain.reduce((sum, c) => sum + c.additions, 0),
    );
    expect(frequency?.body.reduce((sum: number, r: number[]) => sum + (r[2] as number), 0)).toBe(
      -plain.reduce((sum, c) => sum + c.deletions, 0),
    );
    expect(activity?.body).toHaveLength(52);
    expect(activity?.body[51].week).toBe(weekStart(Math.floor(Date.now() / 1000)));
    expect(activity?.body.reduce((sum: number, w: { total: number }) => sum + w.total, 0)).toBe(plain.length);
    const nonEmpty = plain.filter((c) => c.additions > 0 || c.deletions > 0);
    expect(people?.body.reduce((sum: number, p: { total: number }) => sum + p.total, 0)).toBe(
      nonEmpty.length,
    );
    expect(nonEmpty.length).toBe(plain.length - 1); // the fixture's one empty commit
    expect(people?.body.map((p: { author: { login: string } }) => p.author.login).sort()).toEqual([
      "admin",
      "hubot",
      "mona",
      "octocat",
      "olivia",
    ]);
    expect(people?.body[0].author).toMatchObject({ type: "User", site_admin: expect.any(Boolean) });
    expect(people?.body[0].weeks[0]).toEqual({
      w: expect.any(Number),
      a: expect.any(Number),
      d: expect.any(Number),
      c: expect.any(Number),
    });
    expect(punch?.status).toBe(200);
    expect(punch?.body).toHaveLength(168);
    expect(punch?.body.reduce((sum: number, r: number[]) => sum + (r[2] as number), 0)).toBe(plain.length);
    expect(part?.status).toBe(200);
    expect(part?.body.all).toHaveLength(52);
    expect(part?.body.owner).toEqual(new Array(52).fill(0)); // the owner is acme-eng, which makes no commits
    expect(part?.body.all.reduce((a: number, b: number) => a + b, 0)).toBeGreaterThan(40);
  });

  it("participation and the punch card answer at once", async () => {
    await setDelay(60_000);
    expect((await call(sandbox.emulator, "GET", `${STATS}/participation`)).status).toBe(200);
    expect((await call(sandbox.emulator, "GET", `${STATS}/punch_card`)).status).toBe(200);
    expect((await control(sandbox.emulator, "GET", "/jobs")).body.pending).toEqual([]);
  });

  it("a repository without commits: 204 (participation 404) until its first push", async () => {
    await setDelay(0);
    for (const stat of [...COMPILED, "punch_card"]) {
      const response = await call(sandbox.emulator, "GET", `/repos/acme-eng/empty/stats/${stat}`);
      expect(response.status, stat).toBe(204);
      expect(response.text).toBe("");
    }
    const participationEmpty = await call(
      sandbox.emulator,
      "GET",
      "/repos/acme-eng/empty/stats/participation",
    );
    expect(participationEmpty.status).toBe(404);
    expect(participationEmpty.body).toEqual({ message: "Not Found", documentation_url: expect.any(String) });

    const push = await control(sandbox.emulator, "POST", "/repos/acme-eng/empty/branches/main/push", {
      author: "mona",
    });
    expect(push.status).toBe(201);
    expect(push.body.parents).toEqual([]);
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/empty/stats/punch_card")).status).toBe(200);
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/empty/stats/contributors")).status).toBe(
      202,
    );
    const people = await call(sandbox.emulator, "GET", "/repos/acme-eng/empty/stats/contributors");
    expect(people.status).toBe(200);
    expect(
      people.body.map((p: { author: { login: string }; total: number }) => [p.author.login, p.total]),
    ).toEqual([["mona", 1]]);
  });

  it("is public for public repositories, 404 for private ones to outsiders and for unknown ones", async () => {
    await setDelay(0);
    expect(
      (await call(sandbox.emulator, "GET", "/repos/acme-eng/web/stats/code_frequency", { token: null }))
        .status,
    ).toBe(202);
    const web = await call(sandbox.emulator, "GET", "/repos/acme-eng/web/stats/code_frequency", {
      token: null,
    });
    expect(web.status).toBe(200);
    expect(web.body).toHaveLength(1);
    expect(web.body[0].slice(1)).toEqual([120, 0]);
    expect(web.headers.get("x-accepted-service-permissions")).toBe("metadata=read");
    for (const token of [null, TOKENS.noScopes]) {
      expect((await call(sandbox.emulator, "GET", `${STATS}/code_frequency`, { token })).status).toBe(404);
    }
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/nope/stats/punch_card")).status).toBe(404);
    expect((await control(sandbox.emulator, "GET", "/jobs")).body.pending).toHaveLength(0);
  });
});
