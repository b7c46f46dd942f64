/**
 * Lifecycle of RepositoryEnvironment: provider methods called directly against the sandbox server,
 * as the engine would call them. The platform's limits at preview, reviewers and branch policies as
 * sets, create or adopt with one PUT (no write for an environment as the program says), a reviewer
 * or branch policy added outside Pulumi named by the drift check and removed by the update, the
 * branch policy setting absent reading back with no diff, names holding `/`, destroy, and how a
 * DeploymentProtectionRule meets an environment not made yet or deleted in the same run.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunningEmulator } from "../../../../emulator/index";
import { UNKNOWN } from "../../../../provider/internal/check";
import { PartialCreateError } from "../../../../provider/internal/creates";
import {
  deploymentProtectionRuleProvider,
  repositoryEnvironmentProvider as provider,
  type RepositoryEnvironmentInputs,
  type RepositoryEnvironmentOutputs,
} from "../../../../provider/resources/environments";
import { onFakeClock } from "../../../fake-clock";
import { api, control, useSandbox, useToken } from "../helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

afterEach(() => {
  vi.restoreAllMocks();
});

const REPO = "/repos/acme-eng/api/environments";
const path = (name: string) => `${REPO}/${encodeURIComponent(name)}`;
const base = { owner: "acme-eng", repository: "api", environment: "canary" };
const CUSTOM = { protectedBranches: false, customBranchPolicies: true };
const full = {
  ...base,
  waitTimer: 30,
  preventSelfReview: true,
  reviewers: [
    { type: "User", id: 3 },
    { type: "Team", id: 1 },
  ],
  deploymentBranchPolicy: CUSTOM,
  branchPolicies: [{ name: "main" }, { name: "v*", type: "tag" }],
};

async function checked(news: Record<string, unknown>): Promise<RepositoryEnvironmentInputs> {
  const result = await provider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return provider.inputsOf(result.inputs as RepositoryEnvironmentInputs);
}

/** What the server holds of an environment: its settings and branch patterns. */
function server(name: string) {
  const state = emulator.store.state;
  const env = state.environments.find((e) => e.repo === "acme-eng/api" && e.name === name);
  const patterns = state.branchPolicies
    .filter((p) => p.repo === "acme-eng/api" && p.environment === name)
    .map((p) => `${p.type}:${p.name}`)
    .sort();
  return env && { ...env, patterns };
}

/** Writes since the log was cleared, as `METHOD route`. */
const writes = () =>
  emulator.controls.log.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route}`);

const ENV = "/repos/{owner}/{repo}/environments/{environment_name}";
const POLICIES = `${ENV}/deployment-branch-policies`;

describe("RepositoryEnvironment check", () => {
  it("applies the defaults: no wait, no reviewers, every branch", async () => {
    expect(await checked(base)).toEqual({
      ...base,
      waitTimer: 0,
      preventSelfReview: false,
      reviewers: [],
      branchPolicies: [],
    });
    expect((await checked(full)).branchPolicies).toEqual([
      { name: "main", type: "branch" },
      { name: "v*", type: "tag" },
    ]);
  });

  it.each([
    [{ ...base, waitTimer: 43_201 }, "waitTimer", "waitTimer must be between 0 and 43200 minutes (30 days)"],
    [{ ...base, waitTimer: -1 }, "waitTimer", "waitTimer must be between 0 and 43200 minutes"],
    [{ ...base, waitTimer: 1.5 }, "waitTimer", "waitTimer must be a whole number of minutes"],
    [
      { ...base, reviewers: [1, 2, 3, 4, 5, 6, 7].map((id) => ({ type: "User", id })) },
      "reviewers",
      "reviewers may list at most 6 users or teams",
    ],
    [
      { ...base, reviewers: [{ type: "Bot", id: 1 }] },
      "reviewers",
      'reviewers must be one of "User", "Team" (reviewers[0].type is "Bot")',
    ],
    [{ ...base, reviewers: [{ type: "User", id: 0 }] }, "reviewers", "id must be positive"],
    [
      { ...base, branchPolicies: [{ name: "main" }] },
      "branchPolicies",
      "branchPolicies needs deploymentBranchPolicy {protectedBranches: false, customBranchPolicies: true}",
    ],
    [
      {
        ...base,
        deploymentBranchPolicy: { protectedBranches: true, customBranchPolicies: false },
        branchPolicies: [{ name: "main" }],
      },
      "branchPolicies",
      "branchPolicies needs deploymentBranchPolicy",
    ],
    [
      { ...base, deploymentBranchPolicy: { protectedBranches: true, customBranchPolicies: true } },
      "deploymentBranchPolicy",
      "exactly one of protectedBranches and customBranchPolicies must be true",
    ],
    [
      { ...base, deploymentBranchPolicy: { protectedBranches: true } },
      "deploymentBranchPolicy",
      "customBranchPolicies must be a boolean",
    ],
    [
      { ...base, preventSelfReview: true },
      "preventSelfReview",
      "preventSelfReview needs at least one entry in reviewers",
    ],
    [
      { ...base, deploymentBranchPolicy: CUSTOM, branchPolicies: [{ name: "v1", type: "commit" }] },
      "branchPolicies",
      'branchPolicies must be one of "branch", "tag" (branchPolicies[0].type is "commit")',
    ],
    [{ ...base, environment: "" }, "environment", "environment must not be empty"],
    [{ ...base, environment: "e".repeat(256) }, "environment", "at most 255 characters"],
    [{ owner: "acme-eng", repository: "api" }, "environment", "environment is required"],
  ])("refuses %j naming %s, with no request", async (news, property, reason) => {
    emulator.controls.clearLog();
    const result = await provider.check({}, news);
    expect(result.failures?.find((f) => f.property === property)?.reason).toContain(reason);
    expect(emulator.controls.counts().total).toBe(0);
  });

  it("lets values unknown during preview through, and checks across fields only once they are known", async () => {
    const result = await provider.check(
      {},
      { ...base, deploymentBranchPolicy: UNKNOWN, branchPolicies: [{ name: "main" }] },
    );
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs?.deploymentBranchPolicy).toBe(UNKNOWN);
  });
});

describe("RepositoryEnvironment diff", () => {
  const id = "acme-eng/api/canary";
  const olds = {
    ...base,
    waitTimer: 30,
    preventSelfReview: false,
    reviewers: [
      { type: "User", id: 3 },
      { type: "Team", id: 1 },
    ],
    deploymentBranchPolicy: CUSTOM,
    branchPolicies: [
      { name: "main", type: "branch" },
      { name: "v*", type: "tag" },
    ],
    environmentId: 7,
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
  } as RepositoryEnvironmentOutputs;

  it("compares reviewers and branch policies as sets, names case-insensitively", async () => {
    const news = {
      ...olds,
      environment: "Canary",
      owner: "ACME-ENG",
      reviewers: [olds.reviewers[1], olds.reviewers[0]],
      branchPolicies: [olds.branchPolicies[1], olds.branchPolicies[0]],
    };
    expect(await provider.diff(id, olds, news as never)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("names each changed setting, and replaces only for another environment or repository", async () => {
    const news = { ...olds, waitTimer: 5, branchPolicies: [{ name: "main" }] };
    expect(provider.changedFields(olds, news as never)).toEqual(["waitTimer", "branchPolicies"]);
    expect((await provider.diff(id, olds, news as never)).replaces).toEqual([]);
    expect((await provider.diff(id, olds, { ...olds, environment: "prod" } as never)).replaces).toEqual([
      "environment",
    ]);
  });
});

describe("RepositoryEnvironment lifecycle", () => {
  it("creates with one PUT and its patterns, and reads back with no change", async () => {
    const inputs = await checked(full);
    emulator.controls.clearLog();
    const created = await provider.create(inputs);
    expect(writes()).toEqual([`PUT ${ENV}`, `POST ${POLICIES}`, `POST ${POLICIES}`]);
    expect(created.id).toBe("acme-eng/api/canary");
    expect(created.outs).toEqual({
      ...inputs,
      environmentId: expect.any(Number),
      createdAt: expect.stringMatching(/^\d{4}-/),
      updatedAt: expect.stringMatching(/^\d{4}-/),
    });
    expect(server("canary")).toMatchObject({
      wait_timer: 30,
      prevent_self_review: true,
      reviewers: [
        { type: "User", id: 3 },
        { type: "Team", id: 1 },
      ],
      patterns: ["branch:main", "tag:v*"],
    });
    const read = await provider.read(created.id, created.outs);
    expect(read.props).toEqual(created.outs);
    expect(provider.changedFields(read.props as never, inputs)).toEqual([]);
  });

  it("reads an environment without a branch policy setting back with no diff, as the program wrote it", async () => {
    const written = { ...base, reviewers: [{ type: "User", id: 2 }] };
    // The engine hands create the inputs as check recorded them: as the program wrote them.
    const created = await provider.create(written as never);
    expect(server("canary")?.deployment_branch_policy).toBeNull();
    const read = await provider.read(created.id, created.outs);
    expect(read.props).not.toHaveProperty("deploymentBranchPolicy");
    // What the drift check compares with the program's inputs as written.
    expect(read.inputs).toEqual(written);
    expect((await provider.diff(created.id, read.props as never, written as never)).changes).toBe(false);
  });

  it("round-trips a name holding '/' and ':' through the id", async () => {
    const created = await provider.create(await checked({ ...base, environment: "canary:eu/1" }));
    expect(created.id).toBe("acme-eng/api/canary%3Aeu%2F1");
    const read = await provider.read(created.id);
    expect(read.props).toMatchObject({
      environment: "canary:eu/1",
      environmentId: created.outs.environmentId,
    });
  });

  it("adopts the fixture's production as it is with no write, and says so", async () => {
    const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const inputs = await checked({
      ...base,
      environment: "production",
      reviewers: [{ type: "User", id: 3 }],
      deploymentBranchPolicy: CUSTOM,
      branchPolicies: [{ name: "main" }],
    });
    emulator.controls.clearLog();
    const created = await provider.create(inputs);
    expect(writes()).toEqual([]);
    expect(created.outs.environmentId).toBe(1_000_001);
    expect(String(told.mock.calls[0]?.[0])).toContain(
      "RepositoryEnvironment acme-eng/api/production: the environment already existed (created 2026-01-01T00:00:00Z); this resource now manages it, and destroying it deletes the environment",
    );
  });

  it("adopts an environment that differs by writing only what differs", async () => {
    await control(emulator, "POST", `${REPO}/canary/workflow-job`);
    emulator.controls.clearLog();
    await provider.create(await checked({ ...base, waitTimer: 5 }));
    expect(writes()).toEqual([`PUT ${ENV}`]);
    expect(server("canary")?.wait_timer).toBe(5);
  });

  it("names a reviewer and a branch pattern added outside Pulumi, and the update removes them", async () => {
    const inputs = await checked({
      ...base,
      reviewers: [{ type: "User", id: 3 }],
      deploymentBranchPolicy: CUSTOM,
      branchPolicies: [{ name: "main" }],
    });
    const created = await provider.create(inputs);
    // In the web UI: olivia added as a reviewer, and a pattern added.
    await api(emulator, "PUT", path("canary"), {
      reviewers: [
        { type: "User", id: 3 },
        { type: "User", id: 2 },
      ],
    });
    await api(emulator, "POST", `${path("canary")}/deployment-branch-policies`, { name: "hotfix/*" });
    const read = await provider.read(created.id, created.outs);
    expect(read.props?.reviewers).toEqual([
      { type: "User", id: 3 },
      { type: "User", id: 2 },
    ]);
    expect(read.props?.branchPolicies).toEqual([
      { name: "main", type: "branch" },
      { name: "hotfix/*", type: "branch" },
    ]);
    expect(provider.changedFields(read.props as never, inputs)).toEqual(["reviewers", "branchPolicies"]);
    emulator.controls.clearLog();
    const updated = await provider.update(created.id, read.props as never, inputs);
    expect(writes()).toEqual([`PUT ${ENV}`, `DELETE ${POLICIES}/{branch_policy_id}`]);
    expect(server("canary")).toMatchObject({
      reviewers: [{ type: "User", id: 3 }],
      patterns: ["branch:main"],
    });
    expect(provider.changedFields(updated.outs, inputs)).toEqual([]);
  });

  it("writes only the patterns when only the patterns change, and only the PUT when only settings do", async () => {
    const inputs = await checked({
      ...base,
      deploymentBranchPolicy: CUSTOM,
      branchPolicies: [{ name: "main" }],
    });
    const created = await provider.create(inputs);
    const patterns = await checked({
      ...base,
      deploymentBranchPolicy: CUSTOM,
      branchPolicies: [{ name: "release/*" }],
    });
    emulator.controls.clearLog();
    const moved = await provider.update(created.id, created.outs, patterns);
    expect(writes()).toEqual([`DELETE ${POLICIES}/{branch_policy_id}`, `POST ${POLICIES}`]);
    expect(moved.outs.branchPolicies).toEqual([{ name: "release/*", type: "branch" }]);
    const timer = await checked({
      ...base,
      waitTimer: 60,
      deploymentBranchPolicy: CUSTOM,
      branchPolicies: [{ name: "release/*" }],
    });
    emulator.controls.clearLog();
    await provider.update(created.id, moved.outs, timer);
    expect(writes()).toEqual([`PUT ${ENV}`]);
  });

  it("leaving custom policies reads the patterns as none", async () => {
    const created = await provider.create(
      await checked({ ...base, deploymentBranchPolicy: CUSTOM, branchPolicies: [{ name: "main" }] }),
    );
    const protectedOnly = await checked({
      ...base,
      deploymentBranchPolicy: { protectedBranches: true, customBranchPolicies: false },
    });
    const updated = await provider.update(created.id, created.outs, protectedOnly);
    expect(updated.outs.branchPolicies).toEqual([]);
    expect(server("canary")?.patterns).toEqual([]);
    const read = await provider.read(created.id, updated.outs);
    expect(provider.changedFields(read.props as never, protectedOnly)).toEqual([]);
  });

  it("recreates on update an environment deleted since state last saw it", async () => {
    const inputs = await checked({ ...base, waitTimer: 5 });
    const created = await provider.create(inputs);
    await api(emulator, "DELETE", path("canary"));
    const updated = await provider.update(created.id, created.outs, await checked({ ...base, waitTimer: 6 }));
    expect(updated.outs.environmentId).not.toBe(created.outs.environmentId);
    expect(server("canary")?.wait_timer).toBe(6);
  });

  it("keeps the environment in state when its patterns fail after it was made", async () => {
    await control(emulator, "POST", "/faults", {
      method: "POST",
      path: "/repos/acme-eng/api/environments/canary/deployment-branch-policies",
      status: 503,
      count: 10,
    });
    const inputs = await checked({
      ...base,
      deploymentBranchPolicy: CUSTOM,
      branchPolicies: [{ name: "main" }],
    });
    // The client's retries of the 503s back off on a fake clock.
    const failure = await onFakeClock(() => provider.create(inputs).catch((e: unknown) => e));
    expect(failure).toBeInstanceOf(PartialCreateError);
    expect((failure as PartialCreateError).id).toBe("acme-eng/api/canary");
    expect(server("canary")).toBeDefined();
  });

  it("surfaces the server's refusal of a reviewer who cannot read the repository", async () => {
    await expect(
      provider.create(await checked({ ...base, reviewers: [{ type: "User", id: 4 }] })),
    ).rejects.toThrow(/reviewer mona \(User 4\) must have read access to acme-eng\/api/);
    expect(server("canary")).toBeUndefined();
  });

  it("drops an environment deleted outside Pulumi on read; delete of a gone one succeeds", async () => {
    const created = await provider.create(await checked(base));
    await api(emulator, "DELETE", path("canary"));
    expect(await provider.read(created.id, created.outs)).toEqual({});
    await expect(provider.delete(created.id, created.outs)).resolves.toBeUndefined();
  });

  it("deletes the environment with its patterns and rules", async () => {
    const created = await provider.create(await checked(full));
    await api(emulator, "POST", `${path("canary")}/deployment_protection_rules`, { integration_id: 101 });
    await provider.delete(created.id, created.outs);
    expect(server("canary")).toBeUndefined();
    expect(emulator.store.state.branchPolicies.filter((p) => p.environment === "canary")).toEqual([]);
    expect(emulator.store.state.protectionRules).toEqual([]);
  });

  it("explains a token that may not administer the repository", async () => {
    useToken(emulator, "svcp_member");
    await expect(provider.create(await checked(base))).rejects.toThrow(
      /the token's user does not administer the repository/,
    );
    useToken(emulator, "svcs_install");
    await expect(provider.create(await checked(base))).rejects.toThrow(/administration=write/);
    expect(server("canary")).toBeUndefined();
  });

  it("refuses an id of the wrong form", async () => {
    await expect(provider.read("acme-eng/api")).rejects.toThrow(/owner\/repository\/environment/);
  });
});

describe("a DeploymentProtectionRule of a declared environment", () => {
  const rule = { owner: "acme-eng", repository: "api", environment: "canary", integrationId: 101 };
  const ruleInputs = () => deploymentProtectionRuleProvider.inputsOf(rule as never);

  it("fails clearly when created before its environment, naming the output to pass", async () => {
    await expect(deploymentProtectionRuleProvider.create(ruleInputs())).rejects.toThrow(
      /there is no environment "canary" in acme-eng\/api.*pass its `environment` output as this rule's `environment`/,
    );
    expect(emulator.store.state.protectionRules).toEqual([]);
  });

  it("is created once the environment is, and its delete after the environment's is no error", async () => {
    const environment = await provider.create(await checked(base));
    const created = await deploymentProtectionRuleProvider.create(ruleInputs());
    // Destroy in either order: the environment first takes its rules with it.
    await provider.delete(environment.id, environment.outs);
    expect(emulator.store.state.protectionRules).toEqual([]);
    await expect(deploymentProtectionRuleProvider.delete(created.id, created.outs)).resolves.toBeUndefined();
    expect(await deploymentProtectionRuleProvider.read(created.id, created.outs)).toEqual({});
  });
});
