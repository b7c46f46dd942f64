/**
 * Lifecycle of BranchProtection against the sandbox server: check (defaults, the branch name, the
 * limits; no request), create (adopting a protection that already says the same without a write),
 * ten reads and diffs in a row showing no change although the read shape differs from the write
 * shape, an outside change named field by field and repaired, a branch name with a slash in the
 * id, and destroy removing the protection.
 */
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import {
  type BranchProtectionInputs,
  type BranchProtectionOutputs,
  branchProtectionProvider as protections,
} from "../../../provider/resources/branch-protection";
import { api, requestCounts, useSandbox, useToken } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

const FULL = {
  owner: "acme-eng",
  repository: "api",
  branch: "develop",
  requiredStatusChecks: { strict: true, contexts: ["ci/test", "ci/build"] },
  enforceAdmins: true,
  requiredPullRequestReviews: { requiredApprovingReviewCount: 2, dismissStaleReviews: true },
  restrictions: { users: ["Octocat"], teams: ["platform"], apps: ["deploy-gate"] },
  requiredLinearHistory: true,
  requiredConversationResolution: true,
};
const PATH = "/repos/acme-eng/api/branches/develop/protection";
const PUT = "PUT /repos/{owner}/{repo}/branches/{branch}/protection";
const GET = "GET /repos/{owner}/{repo}/branches/{branch}/protection";

async function checked(news: Record<string, unknown>): Promise<BranchProtectionInputs> {
  const result = await protections.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs as BranchProtectionInputs;
}

describe("branch protection check", () => {
  it("applies the defaults: every flag off, one approval, empty lists", async () => {
    const inputs = protections.inputsOf(
      await checked({ owner: "acme-eng", repository: "api", branch: "main", requiredPullRequestReviews: {} }),
    );
    expect(inputs).toEqual({
      owner: "acme-eng",
      repository: "api",
      branch: "main",
      enforceAdmins: false,
      requiredPullRequestReviews: {
        dismissStaleReviews: false,
        requireCodeOwnerReviews: false,
        requiredApprovingReviewCount: 1,
        requireLastPushApproval: false,
      },
      requiredLinearHistory: false,
      allowForcePushes: false,
      allowDeletions: false,
      requiredConversationResolution: false,
      lockBranch: false,
    });
    expect(emulator.controls.counts().total).toBe(0);
  });

  it.each([
    [{ branch: "" }, "branch", "branch must not be empty"],
    [{ branch: "a..b" }, "branch", 'branch "a..b" is not a branch name git allows'],
    [
      { requiredPullRequestReviews: { requiredApprovingReviewCount: 7 } },
      "requiredPullRequestReviews",
      "from 0 to 6",
    ],
    [{ enforceAdmins: "yes" }, "enforceAdmins", "enforceAdmins must be true or false"],
    [
      { restrictions: { users: new Array(101).fill("octocat") } },
      "restrictions",
      "at most 100 users, teams and apps together",
    ],
    [{ requiredStatusChecks: { contexts: "ci" } }, "requiredStatusChecks", "must be a list"],
  ])("refuses %j naming %s, with no request", async (change, property, reason) => {
    const result = await protections.check({}, { ...FULL, ...change });
    const failure = result.failures?.find((f) => f.property === property);
    expect(failure?.reason, JSON.stringify(result.failures)).toContain(reason);
    expect(emulator.controls.counts().total).toBe(0);
  });
});

describe("BranchProtection lifecycle", () => {
  it("creates with one PUT, then ten reads and diffs in a row show no change", async () => {
    const written = await checked(FULL);
    emulator.controls.clearLog();
    const { id, outs } = await protections.create(written);
    expect(id).toBe("acme-eng/api/develop");
    expect(requestCounts(emulator)).toEqual({ [GET]: 1, [PUT]: 1 });
    let state: BranchProtectionOutputs = outs;
    for (let i = 0; i < 10; i++) {
      const read = await protections.read(id, state);
      expect(read.inputs).toEqual(written);
      expect(await protections.diff(id, read.props as BranchProtectionOutputs, written)).toEqual({
        changes: false,
        replaces: [],
        deleteBeforeReplace: false,
      });
      state = read.props as BranchProtectionOutputs;
    }
    expect(requestCounts(emulator)).toEqual({ [GET]: 11, [PUT]: 1 });
  });

  it("adopts a protection that already says the same without a write", async () => {
    const seeded = await checked({
      owner: "acme-eng",
      repository: "api",
      branch: "main",
      requiredStatusChecks: { contexts: ["ci/build"] },
    });
    emulator.controls.clearLog();
    const { outs } = await protections.create(seeded);
    expect(requestCounts(emulator)).toEqual({ [GET]: 1 });
    expect(outs.requiredStatusChecks).toEqual({ strict: false, contexts: ["ci/build"] });
  });

  it("names the fields changed outside Pulumi, and update repairs them", async () => {
    const written = await checked(FULL);
    const { id, outs } = await protections.create(written);
    const outside = await api(emulator, "PUT", PATH, {
      required_status_checks: { strict: true, contexts: ["ci/build"] },
      enforce_admins: false,
      required_pull_request_reviews: null,
      restrictions: { users: ["octocat"], teams: ["platform"], apps: ["deploy-gate"] },
      required_linear_history: true,
      required_conversation_resolution: true,
      lock_branch: true,
    });
    expect(outside.status).toBe(200);
    const read = await protections.read(id, outs);
    expect(protections.changedFields(read.props as BranchProtectionOutputs, written)).toEqual([
      "requiredStatusChecks",
      "enforceAdmins",
      "requiredPullRequestReviews",
      "lockBranch",
    ]);
    await protections.update(id, read.props as BranchProtectionOutputs, written);
    const repaired = await protections.read(id, read.props as BranchProtectionOutputs);
    expect(protections.changedFields(repaired.props as BranchProtectionOutputs, written)).toEqual([]);
  });

  it("protects a branch whose name holds a slash, encoded in its id", async () => {
    const { id, outs } = await protections.create(
      await checked({ owner: "acme-eng", repository: "api", branch: "release/1.0", lockBranch: true }),
    );
    expect(id).toBe("acme-eng/api/release%2F1.0");
    expect((await protections.read(id)).props).toMatchObject({ branch: "release/1.0", lockBranch: true });
    await protections.delete(id, outs);
    expect(emulator.store.state.branchProtections.some((p) => p.branch === "release/1.0")).toBe(false);
  });

  it("removes the protection on destroy, and refresh drops one removed outside Pulumi", async () => {
    const { id, outs } = await protections.create(await checked(FULL));
    await protections.delete(id, outs);
    expect((await api(emulator, "GET", PATH)).status).toBe(404);
    expect(await protections.read(id, outs)).toEqual({});
    await protections.delete(id, outs);
  });

  it("fails clearly for a branch that does not exist", async () => {
    await expect(protections.create(await checked({ ...FULL, branch: "nope" }))).rejects.toThrow(
      "BranchProtection acme-eng/api/nope: not found, or not allowed to this token. Likely causes, in order: (1) there is no branch nope in acme-eng/api",
    );
  });

  it("fails clearly when the token cannot administer the repository", async () => {
    useToken(emulator, "svcp_member");
    await expect(protections.create(await checked(FULL))).rejects.toThrow(
      "the token's user does not administer the repository",
    );
  });
});
