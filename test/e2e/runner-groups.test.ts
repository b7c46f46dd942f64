/**
 * Runner groups end to end with the real Pulumi CLI: create, no-change preview, out-of-band
 * changes (a runner moved, organisation access changed, workflows reordered: the last is not drift),
 * refresh, an out-of-band delete, destroy (default groups left in place), and bad input at preview.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { PulumiProgram, requirePulumi } from "./pulumi";

const TOKEN = "svcp_siteadmin";
const W1 = "acme-eng/api/.github/workflows/deploy.yml@refs/heads/main";
const W2 = "acme-eng/web/.github/workflows/deploy.yml@refs/heads/main";

const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const hosting = require("pulumi-hosting");
const config = new pulumi.Config();
const deployers = new hosting.EnterpriseRunnerGroup("deployers", {
  enterprise: "acme",
  name: "deployers",
  visibility: "selected",
  selectedOrganizationIds: [100],
  runners: [7],
  restrictedToWorkflows: true,
  selectedWorkflows: ["${W1}", "${W2}"],
});
const builders = new hosting.OrgRunnerGroup("builders", {
  org: "acme-eng",
  name: "builders",
  visibility: "selected",
  selectedRepositoryIds: [1000],
});
new hosting.RunnerGroupRunners("builders-runners", {
  org: "acme-eng",
  runnerGroupId: builders.runnerGroupId,
  runners: [1, 2],
});
// The default group of acme-ops, adopted to change a setting; destroy must leave it in place.
new hosting.OrgRunnerGroup("ops-default", { org: "acme-ops", name: "Default", importId: 3, allowsPublicRepositories: true });
// Bad input, one case at a time: the engine stops at the first failed check.
const bad = config.get("bad");
if (bad === "visibility") new hosting.EnterpriseRunnerGroup("bad", { enterprise: "acme", name: "x", visibility: "private" });
if (bad === "orgs") new hosting.EnterpriseRunnerGroup("bad", { enterprise: "acme", name: "y", selectedOrganizationIds: [100] });
if (bad === "workflows") new hosting.OrgRunnerGroup("bad", { org: "acme-eng", name: "z", selectedWorkflows: ["${W1}"] });
exports.deployersId = deployers.runnerGroupId;
exports.buildersId = builders.runnerGroupId;
`;

let emulator: RunningEmulator;
let program: PulumiProgram;
const figures: Record<string, Record<string, number>> = {};

function countsByResource(): Record<string, number> {
  const counts: Record<string, number> = {
    EnterpriseRunnerGroup: 0,
    OrgRunnerGroup: 0,
    RunnerGroupRunners: 0,
  };
  for (const r of emulator.controls.log) {
    if (r.path.startsWith("/enterprises/"))
      counts.EnterpriseRunnerGroup = (counts.EnterpriseRunnerGroup ?? 0) + 1;
    else if (/\/runner-groups\/\d+\/runners/.test(r.path) && r.path.startsWith("/orgs/acme-eng/")) {
      counts.RunnerGroupRunners = (counts.RunnerGroupRunners ?? 0) + 1;
    } else if (r.path.startsWith("/orgs/")) counts.OrgRunnerGroup = (counts.OrgRunnerGroup ?? 0) + 1;
  }
  emulator.controls.clearLog();
  return counts;
}

async function apiCall(method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, await response.text()).toBeLessThan(300);
}

const groups = () => emulator.store.state.runnerGroups;
const groupNamed = (name: string) => groups().find((g) => g.name === name);
const groupOf = (runner: number) => emulator.store.state.runnerGroupOf[String(runner)];

beforeAll(async () => {
  requirePulumi();
  emulator = await startEmulator({ port: 0 });
  program = new PulumiProgram("runner-groups", PROGRAM);
  await program.initStack(emulator.origin, TOKEN);
});

afterAll(async () => {
  console.log(`runner-groups e2e requests per resource: ${JSON.stringify(figures, null, 2)}`);
  await emulator?.close();
});

describe("runner groups end to end", () => {
  it.each([
    [
      "visibility",
      /property visibility value \{private\} has a problem: visibility must be one of "all", "selected"/,
    ],
    [
      "orgs",
      /property selectedOrganizationIds .* selectedOrganizationIds is allowed only with visibility "selected"/,
    ],
    [
      "workflows",
      /property selectedWorkflows .* selectedWorkflows is allowed only with restrictedToWorkflows: true/,
    ],
  ])("refuses bad %s at preview, naming the field", async (bad, message) => {
    await program.ok("config", "set", "bad", bad);
    try {
      const preview = await program.run("preview");
      expect(preview.code).not.toBe(0);
      expect(preview.output).toMatch(message);
    } finally {
      await program.ok("config", "rm", "bad");
    }
    expect(groups().filter((g) => !g.default)).toEqual([]);
    expect(emulator.controls.log.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("creates the groups and the runner set", async () => {
    emulator.controls.clearLog();
    await program.ok("up", "--yes");
    figures.create = countsByResource();
    const deployers = groupNamed("deployers");
    const builders = groupNamed("builders");
    expect(deployers).toMatchObject({
      visibility: "selected",
      selectedOrganizationIds: [100],
      selectedWorkflows: [W1, W2],
    });
    expect(builders).toMatchObject({ visibility: "selected", selectedRepositoryIds: [1000] });
    expect(groupOf(7)).toBe(deployers?.id);
    expect([groupOf(1), groupOf(2), groupOf(3)]).toEqual([builders?.id, builders?.id, 2]);
    expect(groups().find((g) => g.id === 3)?.allowsPublicRepositories).toBe(true);
  });

  it("previews no changes, with and without refresh", async () => {
    emulator.controls.clearLog();
    const preview = await program.run("preview", "--expect-no-changes");
    expect(preview.code, preview.output).toBe(0);
    figures.previewWithoutRefresh = countsByResource();
    const refreshed = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(refreshed.code, refreshed.output).toBe(0);
    figures.refresh = countsByResource();
  });

  it("does not report reordered workflows as drift", async () => {
    const deployers = groupNamed("deployers");
    await apiCall("PATCH", `/enterprises/acme/actions/runner-groups/${deployers?.id}`, {
      name: "deployers",
      visibility: "selected",
      restricted_to_workflows: true,
      selected_workflows: [W2, W1],
    });
    expect(groupNamed("deployers")?.selectedWorkflows).toEqual([W2, W1]);
    const clean = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
  });

  it("reports a moved runner and changed organisation access, and up converges", async () => {
    const deployers = groupNamed("deployers");
    await apiCall("PUT", "/orgs/acme-eng/actions/runner-groups/2/runners/2");
    await apiCall("PUT", `/enterprises/acme/actions/runner-groups/${deployers?.id}/organizations`, {
      selected_organization_ids: [101],
    });
    const drift = await program.run("preview", "--refresh", "--expect-no-changes", "--diff");
    expect(drift.code).not.toBe(0);
    expect(drift.output).toMatch(/runners/);
    expect(drift.output).toMatch(/selectedOrganizationIds/);
    expect(drift.output).not.toMatch(/selectedWorkflows\s*:\s*\[[^\]]*=>/);
    await program.ok("up", "--refresh", "--yes");
    expect(groupOf(2)).toBe(groupNamed("builders")?.id);
    expect(groupNamed("deployers")?.selectedOrganizationIds).toEqual([100]);
    const clean = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
  });

  it("drops a group deleted outside Pulumi and recreates it", async () => {
    const old = groupNamed("builders");
    await apiCall("DELETE", `/orgs/acme-eng/actions/runner-groups/${old?.id}`);
    expect(groupOf(1)).toBe(2);
    await program.ok("refresh", "--yes");
    const names = program.resources().map((r) => r.urn.split("::").at(-1));
    expect(names).not.toContain("builders");
    expect(names).not.toContain("builders-runners");
    expect(names).toContain("ops-default");
    await program.ok("up", "--yes");
    const builders = groupNamed("builders");
    expect(builders?.id).not.toBe(old?.id);
    expect([groupOf(1), groupOf(2)]).toEqual([builders?.id, builders?.id]);
  });

  it("destroy removes its groups, returns the runners and leaves default groups in place", async () => {
    const destroy = await program.ok("destroy", "--yes");
    expect(destroy.output).toMatch(/default runner group: it cannot be deleted and was left in place/);
    expect(destroy.output).toMatch(/returned to the organisation's default runner group/);
    expect(groups().filter((g) => !g.default)).toEqual([]);
    expect(groups().filter((g) => g.default)).toHaveLength(4); // acme, acme-eng, acme-ops, solo
    expect([groupOf(1), groupOf(2), groupOf(7)]).toEqual([2, 2, 1]);
  });
});
