/**
 * getBranchRules against the sandbox: the rules of the rulesets that apply to a branch (an
 * organisation ruleset targeting the repository by its custom property value, a repository
 * ruleset; `evaluate` left out), in camelCase with their ruleset, and the branch's protection.
 */
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { getBranchRules, getBranchRulesOutput } from "../../../provider/functions/rulesets";
import { api } from "../resources/helpers";
import { counts, settle, useEnvironmentToken, useFunctionSandbox } from "./helpers";

let emulator: RunningEmulator;
useFunctionSandbox((e) => {
  emulator = e;
});

async function rulesetOf(path: string, body: unknown): Promise<number> {
  const made = await api(emulator, "POST", path, body);
  expect(made.status).toBe(201);
  return (made.body as { id: number }).id;
}

const GOLD = {
  name: "gold",
  enforcement: "active",
  conditions: {
    ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] },
    repository_property: { include: [{ name: "tier", property_values: ["gold"] }], exclude: [] },
  },
  rules: [
    {
      type: "required_status_checks",
      parameters: {
        required_status_checks: [{ context: "ci/build" }],
        strict_required_status_checks_policy: true,
      },
    },
  ],
};

describe("getBranchRules", () => {
  it("returns the rules of a ruleset targeting the repository by its property, and the protection", async () => {
    const gold = await rulesetOf("/orgs/acme-eng/rulesets", GOLD);
    await rulesetOf("/repos/acme-eng/api/rulesets", {
      ...GOLD,
      conditions: { ref_name: GOLD.conditions.ref_name },
      name: "trial",
      enforcement: "evaluate",
      rules: [{ type: "deletion" }],
    });
    expect((await getBranchRules({ owner: "acme-eng", repository: "api", branch: "main" })).rules).toEqual(
      [],
    );
    await api(emulator, "PATCH", "/repos/acme-eng/api/properties/values", {
      properties: [{ property_name: "tier", value: "gold" }],
    });
    const result = await getBranchRules({ owner: "acme-eng", repository: "api", branch: "main" });
    expect(result).toEqual({
      owner: "acme-eng",
      repository: "api",
      branch: "main",
      rules: [
        {
          type: "required_status_checks",
          parameters: {
            requiredStatusChecks: [{ context: "ci/build" }],
            strictRequiredStatusChecksPolicy: true,
            doNotEnforceOnCreate: false,
          },
          rulesetSourceType: "Organization",
          rulesetSource: "acme-eng",
          rulesetId: gold,
        },
      ],
      protection: {
        requiredStatusChecks: { strict: false, contexts: ["ci/build"] },
        enforceAdmins: false,
        requiredLinearHistory: false,
        allowForcePushes: false,
        allowDeletions: false,
        requiredConversationResolution: false,
        lockBranch: false,
      },
    });
  });

  it("answers for a branch with a slash and without protection, with no protection", async () => {
    const result = await getBranchRules({ owner: "acme-eng", repository: "api", branch: "release/1.0" });
    expect(result.rules).toEqual([]);
    expect(result.protection).toBeUndefined();
    expect(counts(emulator)).toMatchObject({
      "GET /repos/{owner}/{repo}/rules/branches/{branch}": 1,
      "GET /repos/{owner}/{repo}/branches/{branch}/protection": 1,
    });
  });

  it("fails clearly when the branch is protected and the token cannot read its protection", async () => {
    useEnvironmentToken(emulator, "svcp_member");
    await expect(getBranchRules({ owner: "acme-eng", repository: "api", branch: "main" })).rejects.toThrow(
      "getBranchRules: main of acme-eng/api is protected, and the token cannot read its protection",
    );
    // Rules of an unprotected branch need no administrator.
    expect((await getBranchRules({ owner: "acme-eng", repository: "api", branch: "develop" })).rules).toEqual(
      [],
    );
  });

  it("refuses bad arguments before any request, and takes Inputs", async () => {
    await expect(getBranchRules({ owner: "acme-eng", repository: "api" } as never)).rejects.toThrow(
      "branch is required",
    );
    expect(counts(emulator)).toEqual({});
    const { value } = await settle(
      getBranchRulesOutput({ owner: "acme-eng", repository: "web", branch: "main" }),
    );
    expect(value.rules).toEqual([]);
  });
});
