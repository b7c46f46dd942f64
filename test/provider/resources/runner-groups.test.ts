/**
 * Lifecycle of EnterpriseRunnerGroup, OrgRunnerGroup and RunnerGroupRunners against the sandbox
 * server, provider methods called as the engine would call them.
 */
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { UNKNOWN } from "../../../provider/internal/check";
import {
  type EnterpriseRunnerGroupInputs,
  enterpriseRunnerGroupProvider as enterprise,
  runnerGroupRunnersProvider as membership,
  type OrgRunnerGroupInputs,
  orgRunnerGroupProvider as orgGroups,
  type RunnerGroupRunnersInputs,
} from "../../../provider/resources/runner-groups";
import { api, control, useSandbox, useToken } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

const ACME_ENG = 100;
const ACME_OPS = 101;
const WORKFLOW = "acme-eng/api/.github/workflows/deploy.yml@refs/heads/main";

async function enterpriseInputs(news: Record<string, unknown>): Promise<EnterpriseRunnerGroupInputs> {
  const result = await enterprise.check({}, { enterprise: "acme", ...news });
  expect(result.failures ?? []).toEqual([]);
  return enterprise.inputsOf(result.inputs as EnterpriseRunnerGroupInputs);
}

async function orgInputs(news: Record<string, unknown>): Promise<OrgRunnerGroupInputs> {
  const result = await orgGroups.check({}, { org: "acme-eng", ...news });
  expect(result.failures ?? []).toEqual([]);
  return orgGroups.inputsOf(result.inputs as OrgRunnerGroupInputs);
}

const groupOf = (runner: number) => emulator.store.state.runnerGroupOf[String(runner)];
const requests = () => emulator.controls.counts().total;

describe("check", () => {
  it("applies defaults and fills dependent defaults", async () => {
    expect(await enterpriseInputs({ name: "builders" })).toEqual({
      enterprise: "acme",
      name: "builders",
      visibility: "all",
      allowsPublicRepositories: false,
      restrictedToWorkflows: false,
    });
    const selected = await enterpriseInputs({
      name: "b",
      visibility: "selected",
      restrictedToWorkflows: true,
    });
    expect(selected.selectedOrganizationIds).toEqual([]);
    expect(selected.selectedWorkflows).toEqual([]);
  });

  it.each([
    [{ name: "b", visibility: "private" }, "visibility", '"all", "selected"'],
    [
      { name: "b", selectedOrganizationIds: [ACME_ENG] },
      "selectedOrganizationIds",
      'only with visibility "selected"',
    ],
    [
      { name: "b", selectedWorkflows: [WORKFLOW] },
      "selectedWorkflows",
      "only with restrictedToWorkflows: true",
    ],
    [{ name: "" }, "name", "must not be empty"],
    [{ name: "b", runners: [1.5] }, "runners", "integer ids (runners[0] is 1.5)"],
    [
      { name: "b", visibility: "selected", selectedOrganizationIds: ["x"] },
      "selectedOrganizationIds",
      '(selectedOrganizationIds[0] is "x")',
    ],
  ])("refuses %j naming %s", async (news, property, reason) => {
    const result = await enterprise.check({}, { enterprise: "acme", ...news });
    const failure = result.failures?.find((f) => f.property === property);
    expect(failure?.reason).toContain(reason);
  });

  it("refuses selected repository ids with visibility all on an organisation group", async () => {
    const result = await orgGroups.check({}, { org: "acme-eng", name: "b", selectedRepositoryIds: [1000] });
    expect(result.failures?.[0]?.property).toBe("selectedRepositoryIds");
  });

  it("lets unknown values through and skips the cross-field rules that need them", async () => {
    const result = await enterprise.check(
      {},
      { enterprise: "acme", name: "b", visibility: UNKNOWN, selectedOrganizationIds: [1] },
    );
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs?.visibility).toBe(UNKNOWN);
  });
});

describe("EnterpriseRunnerGroup", () => {
  it("creates with one request, including organisations, runners and workflows", async () => {
    const inputs = await enterpriseInputs({
      name: "deployers",
      visibility: "selected",
      selectedOrganizationIds: [ACME_ENG],
      runners: [7],
      restrictedToWorkflows: true,
      selectedWorkflows: [WORKFLOW],
    });
    const created = await enterprise.create(inputs);
    expect(requests()).toBe(1);
    expect(created.id).toBe(`acme/${created.outs.runnerGroupId}`);
    expect(created.outs).toMatchObject({ ...inputs, isDefault: false });
    expect(groupOf(7)).toBe(created.outs.runnerGroupId);

    emulator.controls.clearLog();
    const read = await enterprise.read(created.id, created.outs);
    expect(requests()).toBe(3); // the group, its organisations, its runners
    expect(read.props).toMatchObject({
      selectedOrganizationIds: [ACME_ENG],
      runners: [7],
      selectedWorkflows: [WORKFLOW],
    });
    expect((await enterprise.diff(created.id, read.props as never, inputs)).changes).toBe(false);
  });

  it("does not report reordered workflows or organisations as drift", async () => {
    const inputs = await enterpriseInputs({
      name: "g",
      visibility: "selected",
      selectedOrganizationIds: [ACME_ENG, ACME_OPS],
      restrictedToWorkflows: true,
      selectedWorkflows: ["a/b/.github/workflows/x.yml@main", "a/b/.github/workflows/y.yml@main"],
    });
    const created = await enterprise.create(inputs);
    const path = `/enterprises/acme/actions/runner-groups/${created.outs.runnerGroupId}`;
    await api(emulator, "PATCH", path, {
      name: "g",
      visibility: "selected",
      restricted_to_workflows: true,
      selected_workflows: ["a/b/.github/workflows/y.yml@main", "a/b/.github/workflows/x.yml@main"],
    });
    await api(emulator, "PUT", `${path}/organizations`, { selected_organization_ids: [ACME_OPS, ACME_ENG] });
    const read = await enterprise.read(created.id, created.outs);
    expect((await enterprise.diff(created.id, read.props as never, inputs)).changes).toBe(false);
  });

  it("shows changed organisation access as drift and writes only the access list to fix it", async () => {
    const inputs = await enterpriseInputs({
      name: "g",
      visibility: "selected",
      selectedOrganizationIds: [ACME_ENG],
    });
    const created = await enterprise.create(inputs);
    const path = `/enterprises/acme/actions/runner-groups/${created.outs.runnerGroupId}`;
    await api(emulator, "PUT", `${path}/organizations`, { selected_organization_ids: [ACME_OPS] });
    const read = await enterprise.read(created.id, created.outs);
    expect(read.props?.selectedOrganizationIds).toEqual([ACME_OPS]);
    const diff = await enterprise.diff(created.id, read.props as never, inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    emulator.controls.clearLog();
    await enterprise.update(created.id, read.props as never, inputs);
    expect(emulator.controls.counts().byRoute).toEqual({
      "PUT /enterprises/{enterprise}/actions/runner-groups/{runner_group_id}/organizations": 1,
    });
    const group = emulator.store.state.runnerGroups.find((g) => g.id === created.outs.runnerGroupId);
    expect(group?.selectedOrganizationIds).toEqual([ACME_ENG]);
  });

  it("renames in place and clears organisation access when visibility goes back to all", async () => {
    const created = await enterprise.create(
      await enterpriseInputs({ name: "old", visibility: "selected", selectedOrganizationIds: [ACME_ENG] }),
    );
    const next = await enterpriseInputs({ name: "new" });
    const diff = await enterprise.diff(created.id, created.outs, next);
    expect(diff.replaces).toEqual([]);
    const updated = await enterprise.update(created.id, created.outs, next);
    expect(updated.outs).toMatchObject({ name: "new", visibility: "all" });
    expect(updated.outs.selectedOrganizationIds).toBeUndefined();
    const group = emulator.store.state.runnerGroups.find((g) => g.id === created.outs.runnerGroupId);
    expect(group).toMatchObject({ name: "new", visibility: "all", selectedOrganizationIds: [] });
  });

  it("replaces when the enterprise changes", async () => {
    const created = await enterprise.create(await enterpriseInputs({ name: "g" }));
    const diff = await enterprise.diff(created.id, created.outs, { ...created.outs, enterprise: "other" });
    expect(diff.replaces).toEqual(["enterprise"]);
  });

  it("sets the group's runners and returns left-out runners to the default group", async () => {
    const created = await enterprise.create(await enterpriseInputs({ name: "g", runners: [7, 8] }));
    const updated = await enterprise.update(
      created.id,
      created.outs,
      await enterpriseInputs({ name: "g", runners: [8] }),
    );
    expect(updated.outs.runners).toEqual([8]);
    expect(groupOf(7)).toBe(1); // the enterprise default group
    expect(groupOf(8)).toBe(created.outs.runnerGroupId);
  });

  it("adopts the default group with importId and leaves it in place on destroy", async () => {
    const created = await enterprise.create(
      await enterpriseInputs({ name: "Default", importId: "1", allowsPublicRepositories: true }),
    );
    expect(created.outs).toMatchObject({ runnerGroupId: 1, isDefault: true, allowsPublicRepositories: true });
    await enterprise.delete(created.id, created.outs);
    expect(emulator.store.state.runnerGroups.some((g) => g.id === 1)).toBe(true);
  });

  it("drops a group deleted outside Pulumi and deletes its own", async () => {
    const created = await enterprise.create(await enterpriseInputs({ name: "g" }));
    await api(emulator, "DELETE", `/enterprises/acme/actions/runner-groups/${created.outs.runnerGroupId}`);
    expect(await enterprise.read(created.id, created.outs)).toEqual({});
    await expect(enterprise.delete(created.id, created.outs)).resolves.toBeUndefined();
    const again = await enterprise.create(await enterpriseInputs({ name: "g2" }));
    await enterprise.delete(again.id, again.outs);
    expect(emulator.store.state.runnerGroups.some((g) => g.id === again.outs.runnerGroupId)).toBe(false);
  });

  it("never duplicates a group when the create fails ambiguously", async () => {
    await control(emulator, "POST", "/faults", {
      method: "POST",
      path: "/enterprises/acme/actions/runner-groups",
      status: 502,
      when: "after",
    });
    const created = await enterprise.create(await enterpriseInputs({ name: "g", runners: [7] }));
    expect(emulator.store.state.runnerGroups.filter((g) => g.name === "g")).toHaveLength(1);
    expect(groupOf(7)).toBe(created.outs.runnerGroupId);
  });

  it("suggests importId when the name is taken", async () => {
    await enterprise.create(await enterpriseInputs({ name: "g" }));
    await expect(enterprise.create(await enterpriseInputs({ name: "G" }))).rejects.toThrow(
      /already exists.*importId/,
    );
  });

  it("explains that app and fine-grained tokens are refused", async () => {
    useToken(emulator, "svc_pat_admin");
    await expect(enterprise.create(await enterpriseInputs({ name: "g" }))).rejects.toThrow(
      /403.*fine-grained/,
    );
  });
});

describe("OrgRunnerGroup", () => {
  it("creates with selected repositories and reads them back", async () => {
    const inputs = await orgInputs({
      name: "private",
      visibility: "selected",
      selectedRepositoryIds: [1000],
    });
    const created = await orgGroups.create(inputs);
    expect(created.id).toBe(`acme-eng/${created.outs.runnerGroupId}`);
    const read = await orgGroups.read(created.id, created.outs);
    expect(read.props).toMatchObject({ selectedRepositoryIds: [1000], isDefault: false });
    expect((await orgGroups.diff(created.id, read.props as never, inputs)).changes).toBe(false);
  });

  it("updates repository access only when it changed", async () => {
    const created = await orgGroups.create(
      await orgInputs({ name: "g", visibility: "selected", selectedRepositoryIds: [1000] }),
    );
    emulator.controls.clearLog();
    const next = await orgInputs({ name: "g", visibility: "selected", selectedRepositoryIds: [1000, 1001] });
    await orgGroups.update(created.id, created.outs, next);
    expect(emulator.controls.counts().byRoute).toEqual({
      "PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/repositories": 1,
    });
  });

  it("accepts private visibility", async () => {
    const created = await orgGroups.create(await orgInputs({ name: "g", visibility: "private" }));
    expect(created.outs.visibility).toBe("private");
  });
});

describe("RunnerGroupRunners", () => {
  async function runnersInputs(news: Record<string, unknown>): Promise<RunnerGroupRunnersInputs> {
    const result = await membership.check({}, { org: "acme-eng", ...news });
    expect(result.failures ?? []).toEqual([]);
    return result.inputs as RunnerGroupRunnersInputs;
  }

  it("is the authoritative set, shows a runner moved outside Pulumi, and returns runners on destroy", async () => {
    const group = await orgGroups.create(await orgInputs({ name: "builders" }));
    const groupId = group.outs.runnerGroupId;
    const inputs = await runnersInputs({ runnerGroupId: groupId, runners: [1, 2] });
    const created = await membership.create(inputs);
    expect(created.id).toBe(`acme-eng/${groupId}`);
    expect([groupOf(1), groupOf(2), groupOf(3)]).toEqual([groupId, groupId, 2]);

    // Someone moves runner 2 back to the default group in the web UI.
    await api(emulator, "PUT", `/orgs/acme-eng/actions/runner-groups/2/runners/2`);
    const read = await membership.read(created.id, created.outs);
    expect(read.props?.runners).toEqual([1]);
    expect((await membership.diff(created.id, read.props as never, inputs)).changes).toBe(true);
    await membership.update(created.id, read.props as never, inputs);
    expect(groupOf(2)).toBe(groupId);

    // Order never matters.
    const reordered = await runnersInputs({ runnerGroupId: groupId, runners: [2, 1] });
    expect((await membership.diff(created.id, created.outs, reordered)).changes).toBe(false);

    await membership.delete(created.id, created.outs);
    expect([groupOf(1), groupOf(2)]).toEqual([2, 2]);
  });

  it("replaces on a group change and drops itself when the group is gone", async () => {
    const group = await orgGroups.create(await orgInputs({ name: "g" }));
    const created = await membership.create(
      await runnersInputs({ runnerGroupId: group.outs.runnerGroupId, runners: [3] }),
    );
    const diff = await membership.diff(created.id, created.outs, { ...created.outs, runnerGroupId: 2 });
    expect(diff.replaces).toEqual(["runnerGroupId"]);
    await api(emulator, "DELETE", `/orgs/acme-eng/actions/runner-groups/${group.outs.runnerGroupId}`);
    expect(await membership.read(created.id, created.outs)).toEqual({});
    expect(groupOf(3)).toBe(2);
  });

  it("names the group when it does not exist", async () => {
    await expect(
      membership.create(await runnersInputs({ runnerGroupId: 999, runners: [1] })),
    ).rejects.toThrow(
      /runner group 999 of acme-eng: not found, or not allowed to this token\. Likely causes, in order: \(1\) runnerGroupId is wrong/,
    );
  });

  it("refuses runners of another organisation with the server's reason", async () => {
    const group = await orgGroups.create(await orgInputs({ name: "g" }));
    const inputs = await runnersInputs({ runnerGroupId: group.outs.runnerGroupId, runners: [5] });
    await expect(membership.create(inputs)).rejects.toThrow(/not runners of acme-eng: 5/);
  });

  it("refuses a default group at preview, reading the group only when it is new to the resource", async () => {
    // Group 2 is acme-eng's default group: a runner left out of it returns to it, so it would drift for ever.
    const refused = await membership.check({}, { org: "acme-eng", runnerGroupId: 2, runners: [1] });
    expect(refused.failures).toEqual([
      {
        property: "runnerGroupId",
        reason: expect.stringMatching(
          /^runner group 2 is the default group of acme-eng: runners cannot be removed from it/,
        ),
      },
    ]);
    const group = await orgGroups.create(await orgInputs({ name: "g" }));
    const news = { org: "acme-eng", runnerGroupId: group.outs.runnerGroupId, runners: [1] };
    emulator.controls.clearLog();
    expect((await membership.check({}, news)).failures).toBeUndefined();
    expect(emulator.controls.counts().byRoute).toEqual({
      "GET /orgs/{org}/actions/runner-groups/{runner_group_id}": 1,
    });
    // An unchanged group (a plain preview of a deployed stack) sends nothing.
    emulator.controls.clearLog();
    expect((await membership.check(news, { ...news, runners: [1, 2] })).failures).toBeUndefined();
    expect(emulator.controls.counts().total).toBe(0);
  });
});
