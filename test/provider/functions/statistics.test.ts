/**
 * getRepositoryStatistics against the sandbox: each kind in camelCase, the wait through 202 (the
 * sandbox's job delay is the computation's time) and its bound, 204 for a repository without
 * commits, validation before any request, Output.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import {
  getRepositoryStatistics,
  getRepositoryStatisticsOutput,
} from "../../../provider/functions/statistics";
import { onFakeClock, timedOnFakeClock } from "../../fake-clock";
import { control } from "../resources/helpers";
import { counts, settle, useFunctionSandbox } from "./helpers";

let emulator: RunningEmulator;
useFunctionSandbox((e) => {
  emulator = e;
});

const api1 = { owner: "acme-eng", repository: "api" };
const CONTRIBUTORS = "GET /repos/{owner}/{repo}/stats/contributors";

const computeIn = (delayMs: number) => control(emulator, "PUT", "/jobs", { delayMs });

describe("getRepositoryStatistics", () => {
  it("waits through 202 while the statistic is computed, backing off", async () => {
    await computeIn(1_500);
    const { result, waited } = await timedOnFakeClock(() =>
      getRepositoryStatistics({ ...api1, kind: "contributors" }),
    );
    expect(result.hasCommits).toBe(true);
    expect(result.statistics.map((c) => c.login)).toContain("admin");
    expect(result.statistics[0]?.weeks[0]).toEqual({
      week: expect.any(Number),
      additions: expect.any(Number),
      deletions: expect.any(Number),
      commits: expect.any(Number),
    });
    // 202 at once, 202 after 1 s (the job is due at 1.5 s), 200 after 2 s more: three requests.
    expect(counts(emulator)[CONTRIBUTORS]).toBe(3);
    expect(waited).toBeGreaterThanOrEqual(2_900);
  });

  it("gives up after maxWaitMs, saying the statistic is still being computed", async () => {
    await computeIn(60_000);
    const { waited } = await timedOnFakeClock(() =>
      expect(
        getRepositoryStatistics({ ...api1, kind: "code_frequency", maxWaitMs: 1_200 }),
      ).rejects.toMatchObject({
        code: "timeout",
        message: expect.stringMatching(
          /code_frequency statistics of acme-eng\/api were still being computed/,
        ),
      }),
    );
    expect(waited).toBeGreaterThanOrEqual(1_200);
    expect(waited).toBeLessThan(3_000);
  });

  it("answers at once when the statistic is ready", async () => {
    // Computed by the time of the next request: the first call waits once (202, then 200).
    await computeIn(0);
    await onFakeClock(() => getRepositoryStatistics({ ...api1, kind: "code_frequency" }));
    emulator.controls.clearLog();
    const result = await getRepositoryStatistics({ ...api1, kind: "code_frequency" });
    expect(counts(emulator)).toEqual({ "GET /repos/{owner}/{repo}/stats/code_frequency": 1 });
    expect(result.statistics.length).toBeGreaterThan(0);
    expect(Object.keys(result.statistics[0] ?? {})).toEqual(["week", "additions", "deletions"]);
  });

  it("returns the immediate kinds in camelCase", async () => {
    const punch = await getRepositoryStatistics({ ...api1, kind: "punch_card" });
    expect(punch.statistics[0]).toEqual({
      day: expect.any(Number),
      hour: expect.any(Number),
      commits: expect.any(Number),
    });
    const participation = await getRepositoryStatistics({ ...api1, kind: "participation" });
    expect(participation.statistics.all).toHaveLength(52);
  });

  it("returns [] for a repository without commits (204)", async () => {
    for (const kind of ["code_frequency", "commit_activity", "contributors", "punch_card"] as const) {
      const result = await getRepositoryStatistics({ owner: "acme-eng", repository: "empty", kind });
      expect(result).toMatchObject({ hasCommits: false, statistics: [] });
    }
  });

  it.each([
    [
      { ...api1, kind: "stars" },
      'kind must be one of "code_frequency", "commit_activity", "contributors", "participation", "punch_card" (got "stars")',
    ],
    [{ ...api1, kind: "contributors", maxWaitMs: -1 }, "maxWaitMs must be an integer from 0 to 600000"],
    [{ owner: "acme-eng", kind: "contributors" }, "repository is required"],
    [{ ...api1 }, 'kind is required: one of "code_frequency", "commit_activity"'],
  ])("refuses %j before any request", async (args, message) => {
    await expect(getRepositoryStatistics(args as never)).rejects.toThrow(message);
    expect(Object.keys(counts(emulator))).toEqual([]);
  });

  it("is secret in its Output form when an input is", async () => {
    const result = await settle(
      getRepositoryStatisticsOutput({
        owner: "acme-eng",
        repository: pulumi.secret("api"),
        kind: "punch_card",
      }),
    );
    expect(result.secret).toBe(true);
    expect(result.value.statistics.length).toBeGreaterThan(0);
  });
});
