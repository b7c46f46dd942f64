/**
 * Lifecycle of IssueType and IssueField against the sandbox server: check naming the field, one
 * request per create, one list per organisation for the reads of a run, drift field by field,
 * adoption through importId, no duplicate after an ambiguous failure, options kept by name.
 */
import { describe, expect, it, vi } from "vitest";
import type { RunningEmulator } from "../../../../emulator/index";
import { collectionReads } from "../../../../provider/internal/collection-reads";
import {
  type IssueFieldInputs,
  type IssueFieldOutputs,
  type IssueTypeInputs,
  issueFieldProvider,
  issueTypeProvider,
} from "../../../../provider/resources/org-config";
import { api, control, requestCounts, useSandbox } from "../helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

const TYPES = "/orgs/acme-eng/issue-types";
const FIELDS = "/orgs/acme-eng/issue-fields";
const LIST_TYPES = "GET /orgs/{org}/issue-types";
const LIST_FIELDS = "GET /orgs/{org}/issue-fields";

async function checkedType(news: Record<string, unknown>): Promise<IssueTypeInputs> {
  const result = await issueTypeProvider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return issueTypeProvider.inputsOf(result.inputs as IssueTypeInputs);
}

async function checkedField(news: Record<string, unknown>): Promise<IssueFieldInputs> {
  const result = await issueFieldProvider.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return issueFieldProvider.inputsOf(result.inputs as IssueFieldInputs);
}

const bug = { org: "acme-eng", name: "Bug", color: "red", description: "Something is broken" };
const priority = {
  org: "acme-eng",
  name: "Priority",
  dataType: "single_select",
  options: [
    { name: "High", color: "red" },
    { name: "Low", color: "gray", description: "Some day" },
  ],
};

describe("IssueType check", () => {
  it("applies the defaults", async () => {
    expect(await checkedType({ org: "acme-eng", name: "Bug" })).toEqual({
      org: "acme-eng",
      name: "Bug",
      isEnabled: true,
    });
  });

  it.each([
    [{ ...bug, color: "teal" }, "color", 'color must be one of "gray", "blue"'],
    [{ ...bug, name: " " }, "name", "name must not be empty"],
    [{ ...bug, name: undefined }, "name", "name is required"],
    [{ ...bug, description: "x".repeat(1025) }, "description", "at most 1024"],
    [{ ...bug, isEnabled: "yes" }, "isEnabled", "boolean"],
    [{ ...bug, importId: "abc" }, "importId", "positive integer id"],
  ])("refuses %j naming %s, with no request", async (news, property, reason) => {
    const result = await issueTypeProvider.check({}, news);
    expect(result.failures?.find((f) => f.property === property)?.reason).toContain(reason);
    expect(emulator.controls.log).toEqual([]);
  });

  it("updates in place, replaces only on the organisation", async () => {
    const olds = { ...bug, isEnabled: true, issueTypeId: 1 } as never;
    const renamed = await issueTypeProvider.diff("acme-eng/1", olds, { ...bug, name: "Defect" } as never);
    expect(renamed).toMatchObject({ changes: true, replaces: [] });
    const moved = await issueTypeProvider.diff("acme-eng/1", olds, { ...bug, org: "acme-ops" } as never);
    expect(moved.replaces).toEqual(["org"]);
  });
});

describe("IssueType lifecycle", () => {
  it("creates with one request, reads N types of one organisation with one list, drift per field", async () => {
    const made = await issueTypeProvider.create(await checkedType(bug));
    const other = await issueTypeProvider.create(await checkedType({ org: "acme-eng", name: "Task" }));
    expect(requestCounts(emulator)).toEqual({ "POST /orgs/{org}/issue-types": 2 });
    expect(made.id).toBe(`acme-eng/${made.outs.issueTypeId}`);
    expect(made.outs).toMatchObject({ ...bug, isEnabled: true });
    emulator.controls.clearLog();
    const [a, b] = await Promise.all([
      issueTypeProvider.read(made.id, made.outs),
      issueTypeProvider.read(other.id, other.outs),
    ]);
    expect(a.props).toEqual(made.outs);
    expect(b.props).toEqual(other.outs);
    expect(requestCounts(emulator)).toEqual({ [LIST_TYPES]: 1 });

    await api(emulator, "PUT", `${TYPES}/${made.outs.issueTypeId}`, {
      name: "Bug",
      is_enabled: false,
      color: "blue",
    });
    // A new process: the list of the last read is not reused.
    collectionReads.clear();
    const drifted = await issueTypeProvider.read(made.id, made.outs);
    expect(drifted.inputs).toEqual({ ...bug, color: "blue", isEnabled: false });

    const updated = await issueTypeProvider.update(
      made.id,
      drifted.props as never,
      await checkedType({ ...bug }),
    );
    expect(updated.outs).toMatchObject({ ...bug, isEnabled: true });
    const stored = emulator.store.state.issueTypes.find((t) => t.id === made.outs.issueTypeId);
    expect(stored).toMatchObject({ color: "red", isEnabled: true, description: "Something is broken" });

    // Omitting description and colour clears them.
    await issueTypeProvider.update(
      made.id,
      updated.outs,
      await checkedType({ org: "acme-eng", name: "Bug" }),
    );
    expect(emulator.store.state.issueTypes.find((t) => t.id === made.outs.issueTypeId)).toMatchObject({
      color: null,
      description: null,
    });

    await issueTypeProvider.delete(made.id, updated.outs);
    collectionReads.clear();
    expect(await issueTypeProvider.read(made.id, made.outs)).toEqual({});
    await issueTypeProvider.delete(made.id, updated.outs);
  });

  it("adopts with importId, shows at preview what it will change, and converges", async () => {
    const existing = await api(emulator, "POST", TYPES, { name: "Bug", is_enabled: false });
    const importId = String((existing.body as { id: number }).id);
    const told = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const preview = await issueTypeProvider.check({}, { ...bug, importId });
      expect(preview.failures ?? []).toEqual([]);
      expect(told.mock.calls.map((c) => String(c[0])).join("")).toContain(
        `adopting it will change description: (none) => "Something is broken", color: (none) => "red", isEnabled: false => true`,
      );
    } finally {
      told.mockRestore();
    }
    const adopted = await issueTypeProvider.create(await checkedType({ ...bug, importId }));
    expect(adopted.id).toBe(`acme-eng/${importId}`);
    expect(emulator.store.state.issueTypes).toHaveLength(1);
    expect(emulator.store.state.issueTypes[0]).toMatchObject({ color: "red", isEnabled: true });
  });

  it("names importId when there is no such type, at preview and at create", async () => {
    const preview = await issueTypeProvider.check({}, { ...bug, importId: "999" });
    expect(preview.failures?.[0]?.property).toBe("importId");
    await expect(
      issueTypeProvider.create(issueTypeProvider.inputsOf({ ...bug, importId: "999" } as never)),
    ).rejects.toThrow(/IssueType importId 999/);
  });

  it("names the importId to set when the name is taken", async () => {
    const existing = await api(emulator, "POST", TYPES, { name: "bug", is_enabled: true });
    const id = (existing.body as { id: number }).id;
    await expect(issueTypeProvider.create(await checkedType(bug))).rejects.toThrow(
      new RegExp(`already has a IssueType named "Bug" \\(id ${id}\\).*Set importId to ${id}`),
    );
  });

  it.each([
    ["answered 502 after the write", { status: 502, when: "after" }],
    ["dropped after the write", { drop: true, when: "after" }],
    ["answered 502 before the write", { status: 502, when: "before" }],
  ])("never leaves a duplicate when the create is %s", async (_label, fault) => {
    await control(emulator, "POST", "/faults", { method: "POST", path: TYPES, count: 1, ...fault });
    const made = await issueTypeProvider.create(await checkedType(bug));
    expect(emulator.store.state.issueTypes.map((t) => t.id)).toEqual([made.outs.issueTypeId]);
  });
});

describe("IssueField check", () => {
  it("applies the defaults", async () => {
    expect(await checkedField({ org: "acme-eng", name: "Due", dataType: "date" })).toEqual({
      org: "acme-eng",
      name: "Due",
      dataType: "date",
      visibility: "organization_members_only",
    });
  });

  it.each([
    [{ ...priority, dataType: "list" }, "dataType", 'dataType must be one of "text", "date"'],
    [{ ...priority, options: undefined }, "options", "needs at least one option"],
    [{ ...priority, options: [] }, "options", "needs at least one option"],
    [{ ...priority, dataType: "text" }, "options", "only for single_select and multi_select"],
    [
      {
        ...priority,
        options: [
          { name: "A", color: "red" },
          { name: "a", color: "blue" },
        ],
      },
      "options",
      `the name "a" twice`,
    ],
    [{ ...priority, options: [{ name: "A", color: "teal" }] }, "options", 'options must be one of "gray"'],
    [{ ...priority, visibility: "public" }, "visibility", '"organization_members_only", "all"'],
  ])("refuses %j naming %s, with no request", async (news, property, reason) => {
    const result = await issueFieldProvider.check({}, news);
    expect(result.failures?.find((f) => f.property === property)?.reason).toContain(reason);
    expect(emulator.controls.log).toEqual([]);
  });

  it("replaces on the data type, updates options in place and compares them as a list", async () => {
    const olds = { ...priority, visibility: "organization_members_only", issueFieldId: 1 } as never;
    expect(
      (await issueFieldProvider.diff("acme-eng/1", olds, { ...priority, dataType: "multi_select" } as never))
        .replaces,
    ).toEqual(["dataType"]);
    const reordered = { ...priority, options: [...priority.options].reverse() };
    expect(await issueFieldProvider.diff("acme-eng/1", olds, reordered as never)).toMatchObject({
      changes: true,
      replaces: [],
    });
  });
});

describe("IssueField lifecycle", () => {
  async function created(news: Record<string, unknown>) {
    const made = await issueFieldProvider.create(await checkedField(news));
    emulator.controls.clearLog();
    return made;
  }

  it("creates with one request and reads the fields of one organisation with one list", async () => {
    const made = await issueFieldProvider.create(await checkedField(priority));
    const due = await issueFieldProvider.create(
      await checkedField({ org: "acme-eng", name: "Due", dataType: "date" }),
    );
    expect(requestCounts(emulator)).toEqual({ "POST /orgs/{org}/issue-fields": 2 });
    expect(made.outs).toMatchObject({ ...priority, visibility: "organization_members_only" });
    expect(due.outs.options).toBeUndefined();
    emulator.controls.clearLog();
    const reads = await Promise.all([
      issueFieldProvider.read(made.id, made.outs),
      issueFieldProvider.read(due.id, due.outs),
    ]);
    expect(reads.map((r) => r.props)).toEqual([made.outs, due.outs]);
    expect(requestCounts(emulator)).toEqual({ [LIST_FIELDS]: 1 });
  });

  it("keeps an option's id while its name stays, adds new names and deletes the rest", async () => {
    const made = await created(priority);
    const before = emulator.store.state.issueFields[0]?.options ?? [];
    const high = before.find((o) => o.name === "High");
    const wanted = {
      ...priority,
      options: [
        { name: "Urgent", color: "purple" },
        { name: "high", color: "orange" },
      ],
    };
    const updated = await issueFieldProvider.update(made.id, made.outs, await checkedField(wanted));
    const after = emulator.store.state.issueFields[0]?.options ?? [];
    expect(after.map((o) => [o.name, o.priority])).toEqual([
      ["Urgent", 1],
      ["high", 2],
    ]);
    expect(after.find((o) => o.name === "high")?.id).toBe(high?.id);
    expect(updated.outs.options).toEqual(wanted.options);
  });

  it("shows options changed outside Pulumi as drift of the options field", async () => {
    const made = await created(priority);
    const field = emulator.store.state.issueFields[0];
    await api(emulator, "PATCH", `${FIELDS}/${field?.id}`, {
      options: [{ id: field?.options[0]?.id, name: "High", color: "red", priority: 1 }],
    });
    const read = await issueFieldProvider.read(made.id, made.outs);
    expect((read.inputs as IssueFieldOutputs).options).toEqual([{ name: "High", color: "red" }]);
    expect((read.inputs as IssueFieldOutputs).name).toBe("Priority");
  });

  it("adopts with importId and refuses a different data type, keeping the field in state", async () => {
    const existing = await api(emulator, "POST", FIELDS, {
      name: "Priority",
      data_type: "single_select",
      options: [{ name: "High", color: "blue", priority: 1 }],
    });
    const importId = String((existing.body as { id: number }).id);
    const adopted = await issueFieldProvider.create(await checkedField({ ...priority, importId }));
    expect(adopted.outs.options).toEqual(priority.options);
    expect(emulator.store.state.issueFields).toHaveLength(1);
    await expect(
      issueFieldProvider.create(
        await checkedField({ org: "acme-eng", name: "Priority", dataType: "text", importId }),
      ),
    ).rejects.toThrow(/single_select field and dataType is text/);
  });

  it("never leaves a duplicate after an ambiguous failure", async () => {
    await control(emulator, "POST", "/faults", {
      method: "POST",
      path: FIELDS,
      count: 1,
      status: 502,
      when: "after",
    });
    await issueFieldProvider.create(await checkedField(priority));
    expect(emulator.store.state.issueFields).toHaveLength(1);
  });

  it("deletes, and reads a deleted field as gone", async () => {
    const made = await created(priority);
    await issueFieldProvider.delete(made.id, made.outs);
    expect(emulator.store.state.issueFields).toHaveLength(0);
    expect(await issueFieldProvider.read(made.id, made.outs)).toEqual({});
  });
});
