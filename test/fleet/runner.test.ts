/** What the runner reads from the engine's events and the CLI's errors. */
import { DiffKind } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { errorText, fieldsOf, nameOf } from "../../fleet/runner";

const state = (inputs: Record<string, unknown>) => ({
  type: "t",
  urn: "u",
  custom: true,
  delete: false,
  id: "i",
  parent: "",
  protect: false,
  inputs,
  outputs: {},
  provider: "",
  initErrors: [],
});

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

describe("nameOf and errorText", () => {
  it("names a resource by its URN's last part", () => {
    expect(
      nameOf("urn:pulumi:ci::acme-eng::pulumi-nodejs:dynamic/hosting:OrgMembership::acme-eng-member-mona"),
    ).toBe("acme-eng-member-mona");
  });

  it("keeps the CLI's error lines and what is indented under them, not the progress", () => {
    const e = Object.assign(new Error("long"), {
      commandResult: {
        stdout: "Previewing update (ci):\n  pulumi:pulumi:Stack acme-eng-ci running\n",
        stderr:
          "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n  postgres://****:****@127.0.0.1:55432/pulumi/.pulumi/locks/x.json: created by root@vm (pid 1)\n\nother noise\n",
      },
    });
    expect(errorText(e, ["acme-eng-member-mona: 401 Bad credentials"])).toBe(
      "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n" +
        "  postgres://****:****@127.0.0.1:55432/pulumi/.pulumi/locks/x.json: created by root@vm (pid 1)\n" +
        "acme-eng-member-mona: 401 Bad credentials",
    );
    expect(errorText(new Error("spawn pulumi ENOENT"))).toBe("spawn pulumi ENOENT");
  });
});
