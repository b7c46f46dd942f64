/** What a stack's operation changed, read from the engine's events: fields, their values, errors. */
import { DiffKind, type EngineEvent, type OpType } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { Changes, diffsOf, displayValue, fieldsOf, nameOf, pathParts } from "../../fleet/changes";

const state = (inputs: Record<string, unknown>, outputs: Record<string, unknown> = {}) => ({
  type: "t",
  urn: "u",
  custom: true,
  delete: false,
  id: "i",
  parent: "",
  protect: false,
  inputs,
  outputs,
  provider: "",
  initErrors: [],
});

/** How the CLI writes a secret in its events (blinded). */
const SECRET = {
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  ciphertext: "[secret]",
};
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

describe("fieldsOf", () => {
  it("takes the provider's detailed diff, else its list, top-level fields first", () => {
    expect(
      fieldsOf({
        detailedDiff: {
          "alerting.recipients": { diffKind: DiffKind.update, inputDiff: true },
          amount: { diffKind: DiffKind.update, inputDiff: true },
        },
      }),
    ).toEqual(["amount", "alerting.recipients"]);
    expect(fieldsOf({ diffs: ["role", "__provider"] })).toEqual(["role"]);
  });

  it("compares the recorded inputs with the program's where the provider names no field", () => {
    const step = {
      old: state({ role: "admin", org: "acme-eng", __provider: "a", events: ["push"] }),
      new: state({ role: "member", org: "acme-eng", __provider: "b", events: ["push"], active: true }),
    };
    expect(fieldsOf(step)).toEqual(["active", "role"]);
    expect(fieldsOf({ new: step.new })).toEqual([]);
  });
});

describe("nameOf", () => {
  it("names a resource by its URN's last part", () => {
    expect(
      nameOf("urn:pulumi:ci::acme-eng::pulumi-nodejs:dynamic/hosting:OrgMembership::acme-eng-member-mona"),
    ).toBe("acme-eng-member-mona");
  });
});

describe("diffsOf", () => {
  const type = "pulumi-nodejs:dynamic/hosting:OrgMembership";

  it("gives each field's recorded and new value, from the inputs the dynamic provider compares", () => {
    const step = {
      type,
      old: state({ role: "admin", org: "acme-eng", events: ["push"], active: true }),
      new: state({ role: "member", org: "acme-eng", events: ["push", "pull_request"] }),
    };
    expect(diffsOf(step, fieldsOf(step))).toEqual([
      { field: "active", old: "true" },
      { field: "events", old: '["push"]', new: '["push","pull_request"]' },
      { field: "role", old: "admin", new: "member" },
    ]);
  });

  it("shows the kind's default where a side leaves the input out (hosting-import writes no default)", () => {
    // Seen end to end: the membership's code leaves `role` out (member is the default); the server
    // made it admin.
    const step = {
      type,
      old: state({ role: "admin", org: "acme-eng", username: "mona" }),
      new: state({ org: "acme-eng", username: "mona" }),
    };
    expect(diffsOf(step, fieldsOf(step))).toEqual([{ field: "role", old: "admin", new: "member" }]);
    // A default on the other side too; an input the kind does not declare stays without a value.
    const dropped = { type, old: state({ onDestroy: "retain" }), new: state({}) };
    expect(diffsOf(dropped, ["onDestroy", "unknownField"])).toEqual([
      { field: "onDestroy", old: "retain", new: "remove" },
      { field: "unknownField" },
    ]);
  });

  it("follows a detailed diff's paths, and takes the recorded outputs where it compared those", () => {
    const step = {
      type: "hosting:index:Budget",
      old: state(
        { alerting: { recipients: ["a"] }, amount: 5, config: { "x.y": "1" } },
        { amount: 7, alerting: { recipients: ["a"] } },
      ),
      new: state({ alerting: { recipients: ["a", "b"] }, amount: 5, config: { "x.y": "2" } }),
      detailedDiff: {
        "alerting.recipients[1]": { diffKind: DiffKind.add, inputDiff: true },
        amount: { diffKind: DiffKind.update, inputDiff: false },
        'config["x.y"]': { diffKind: DiffKind.update, inputDiff: true },
      },
    };
    expect(diffsOf(step, fieldsOf(step))).toEqual([
      { field: "amount", old: "7", new: "5" },
      { field: "alerting.recipients[1]", new: "b" },
      { field: 'config["x.y"]', old: "1", new: "2" },
    ]);
    expect(pathParts('a.b[0]["c.d"].e')).toEqual(["a", "b", 0, "c.d", "e"]);
    expect(pathParts("not a [path")).toEqual(["not a [path"]);
  });

  it("shows as [secret] what the engine marks secret, what the kind declares secret, and credentials", () => {
    const marked = {
      type,
      old: state({ role: SECRET }),
      new: state({ role: SECRET, note: { inner: SECRET, n: 1 } }),
    };
    expect(diffsOf(marked, ["role", "note"])).toEqual([
      { field: "role", old: "[secret]", new: "[secret]" },
      { field: "note", new: '{"inner":"[secret]","n":1}' },
    ]);
    // A webhook's `secret` and a private registry's `value` are declared secret; in clear in the
    // events when the program did not mark them.
    const hook = {
      type: "hosting:index:RepositoryWebhook",
      old: state({ secret: "old-hmac-key", url: "https://user:pa55@ci.example.com/h" }),
      new: state({ secret: "new-hmac-key", url: "https://user:w0rd@ci.example.com/h" }),
    };
    expect(diffsOf(hook, ["secret", "url"])).toEqual([
      { field: "secret", old: "[secret]", new: "[secret]" },
      {
        field: "url",
        old: "https://user:[secret]@ci.example.com/h",
        new: "https://user:[secret]@ci.example.com/h",
      },
    ]);
    const registry = {
      type: "pulumi-nodejs:dynamic/hosting:PrivateRegistry",
      old: state({ value: "tok-1" }),
      new: state({ value: "tok-2" }),
    };
    expect(diffsOf(registry, ["value"])).toEqual([{ field: "value", old: "[secret]", new: "[secret]" }]);
    const provider = {
      type: "pulumi:providers:hosting",
      old: state({ token: "svcp_old" }),
      new: state({ token: "svcp_new", baseUrl: "https://h.example" }),
    };
    expect(diffsOf(provider, ["token", "baseUrl"])).toEqual([
      { field: "token", old: "[secret]", new: "[secret]" },
      { field: "baseUrl", new: "https://h.example" },
    ]);
    // An OrgPropertyValue's `value` is not secret.
    const property = {
      type: "hosting:index:OrgPropertyValue",
      old: state({ value: "a" }),
      new: state({ value: "b" }),
    };
    expect(diffsOf(property, ["value"])).toEqual([{ field: "value", old: "a", new: "b" }]);
  });

  it("shows unknowns, empty strings and long values as a reader can tell them", () => {
    expect(displayValue(UNKNOWN)).toBe("[unknown]");
    expect(displayValue([UNKNOWN])).toBe('["[unknown]"]');
    expect(displayValue("")).toBe('""');
    expect(displayValue(null)).toBeUndefined();
    expect(displayValue("y".repeat(1_000))).toBe(`${"y".repeat(200)}… (800 more characters)`);
  });
});

/** An engine event of one step: announced (`resourcePreEvent`), or done (`resOutputsEvent`). */
function stepEvent(
  op: OpType,
  name: string,
  oldInputs?: Record<string, unknown>,
  newInputs?: Record<string, unknown>,
  at: "resourcePreEvent" | "resOutputsEvent" = "resourcePreEvent",
): EngineEvent {
  return {
    sequence: 1,
    timestamp: 1,
    [at]: {
      metadata: {
        op,
        urn: `urn:pulumi:ci::acme-eng::pulumi-nodejs:dynamic/hosting:OrgMembership::${name}`,
        type: "pulumi-nodejs:dynamic/hosting:OrgMembership",
        provider: "",
        ...(oldInputs ? { old: state(oldInputs) } : {}),
        ...(newInputs ? { new: state(newInputs) } : {}),
      },
    },
  };
}

describe("Changes", () => {
  it("lists each changed resource once with its fields and values, a replacement as one", () => {
    const changes = new Changes();
    changes.add(stepEvent("refresh", "mona", { role: "member" }, { role: "admin" }));
    changes.add(stepEvent("update", "mona", { role: "admin" }, { role: "member" }));
    changes.add(stepEvent("same", "hubot", { role: "member" }, { role: "member" }));
    changes.add(stepEvent("create-replacement", "octocat", { username: "octo" }, { username: "octocat" }));
    changes.add(stepEvent("delete-replaced", "octocat", { username: "octo" }, { username: "octocat" }));
    changes.add(stepEvent("create", "new", undefined, { username: "new" }));
    expect(changes.list().map(({ name, op, fields, diffs }) => ({ name, op, fields, diffs }))).toEqual([
      {
        name: "mona",
        op: "update",
        fields: ["role"],
        diffs: [{ field: "role", old: "admin", new: "member" }],
      },
      { name: "new", op: "create", fields: [], diffs: [] },
      {
        name: "octocat",
        op: "replace",
        fields: ["username"],
        diffs: [{ field: "username", old: "octo", new: "octocat" }],
      },
    ]);
  });

  it("of a refresh, lists what each read found changed: from the state to the platform", () => {
    const changes = new Changes({ refreshSteps: true });
    // A refresh announces every step as `refresh`; its outputs event says what the read found.
    changes.add(stepEvent("refresh", "mona", { role: "member" }, undefined));
    changes.add(stepEvent("update", "mona", { role: "member" }, { role: "admin" }, "resOutputsEvent"));
    changes.add(stepEvent("same", "hubot", { role: "member" }, { role: "member" }, "resOutputsEvent"));
    changes.add(stepEvent("delete", "gone", { role: "member" }, undefined, "resOutputsEvent"));
    expect(changes.list().map(({ name, op, fields, diffs }) => ({ name, op, fields, diffs }))).toEqual([
      { name: "gone", op: "delete", fields: [], diffs: [] },
      {
        name: "mona",
        op: "update",
        fields: ["role"],
        diffs: [{ field: "role", old: "member", new: "admin" }],
      },
    ]);
    // Other runs read the announced steps only: their outputs events repeat them.
    const preview = new Changes();
    preview.add(stepEvent("update", "mona", { role: "member" }, { role: "admin" }, "resOutputsEvent"));
    expect(preview.list()).toEqual([]);
  });

  it("keeps each error diagnostic once, named by its resource where it has one", () => {
    const changes = new Changes();
    const diagnostic = (message: string, urn?: string): EngineEvent => ({
      sequence: 1,
      timestamp: 1,
      diagnosticEvent: { message, color: "never", severity: "error", ...(urn ? { urn } : {}) },
    });
    const mona = "urn:pulumi:ci::acme-eng::pulumi-nodejs:dynamic/hosting:OrgMembership::mona";
    changes.add(diagnostic("401 Bad credentials\n", mona));
    changes.add(diagnostic("401 Bad credentials\n", mona));
    changes.add(diagnostic("401 Bad credentials\n", mona.replace("::mona", "::hubot")));
    changes.add(diagnostic("update failed\n"));
    expect(changes.errors).toEqual([
      { name: "mona", message: "401 Bad credentials" },
      { name: "hubot", message: "401 Bad credentials" },
      { message: "update failed" },
    ]);
  });
});
