/**
 * Lifecycle of OrgRuleset and RepositoryRuleset against the sandbox server: check (every rule type
 * and parameter of the description, failures naming the rule and the field, camelCase parameters,
 * the rules a target takes, bypass actors, conditions; no request), diff by meaning (sets, the
 * platform's defaults, ids it ignores: ten diffs in a row show nothing), create, read, update,
 * delete, adoption with importId, an outside change named field by field and repaired, and
 * `evaluate` read back as written.
 */
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { UNKNOWN } from "../../../provider/internal/check";
import {
  type OrgRulesetInputs,
  type OrgRulesetOutputs,
  orgRulesetProvider as orgs,
  type RepositoryRulesetInputs,
  repositoryRulesetProvider as repos,
} from "../../../provider/resources/rulesets";
import { api, requestCounts, useSandbox, useToken } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

const PULL_REQUEST = {
  type: "pull_request",
  parameters: {
    dismissStaleReviewsOnPush: true,
    requireCodeOwnerReview: false,
    requireLastPushApproval: false,
    requiredApprovingReviewCount: 2,
    requiredReviewThreadResolution: true,
  },
};
const STATUS_CHECKS = {
  type: "required_status_checks",
  parameters: {
    requiredStatusChecks: [{ context: "ci/build" }, { context: "ci/test", integrationId: 101 }],
    strictRequiredStatusChecksPolicy: true,
  },
};

const ORG_RULESET = {
  org: "acme-eng",
  name: "main",
  enforcement: "active",
  bypassActors: [
    { actorType: "OrganizationAdmin", actorId: 1 },
    { actorType: "Team", actorId: 1, bypassMode: "pull_request" },
    { actorType: "Integration", actorId: 101 },
  ],
  conditions: {
    refName: { include: ["~DEFAULT_BRANCH", "refs/heads/release/*"] },
    repositoryName: { include: ["~ALL"], exclude: ["web"], protected: true },
  },
  rules: [{ type: "deletion" }, PULL_REQUEST, STATUS_CHECKS],
};

const REPO_RULESET = {
  owner: "acme-eng",
  repository: "api",
  name: "releases",
  enforcement: "evaluate",
  conditions: { refName: { include: ["refs/heads/release/**"], exclude: [] } },
  rules: [
    { type: "non_fast_forward" },
    { type: "commit_message_pattern", parameters: { operator: "starts_with", pattern: "release:" } },
  ],
};

async function checkedOrg(news: Record<string, unknown>): Promise<OrgRulesetInputs> {
  const result = await orgs.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return orgs.inputsOf(result.inputs as OrgRulesetInputs);
}

async function checkedRepo(news: Record<string, unknown>): Promise<RepositoryRulesetInputs> {
  const result = await repos.check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return repos.inputsOf(result.inputs as RepositoryRulesetInputs);
}

const requests = () => emulator.controls.counts().total;
const ORG_PATH = "/orgs/acme-eng/rulesets";

describe("ruleset check", () => {
  it("takes every rule type of the description, with camelCase parameters, and sends nothing", async () => {
    const branch = {
      ...ORG_RULESET,
      rules: [
        { type: "creation" },
        { type: "update", parameters: { updateAllowsFetchAndMerge: true } },
        { type: "deletion" },
        { type: "required_linear_history" },
        {
          type: "merge_queue",
          parameters: {
            checkResponseTimeoutMinutes: 60,
            groupingStrategy: "ALLGREEN",
            maxEntriesToBuild: 5,
            maxEntriesToMerge: 5,
            mergeMethod: "SQUASH",
            minEntriesToMerge: 1,
            minEntriesToMergeWaitMinutes: 5,
          },
        },
        { type: "required_deployments", parameters: { requiredDeploymentEnvironments: ["production"] } },
        { type: "required_signatures" },
        PULL_REQUEST,
        STATUS_CHECKS,
        { type: "non_fast_forward" },
        { type: "commit_message_pattern", parameters: { operator: "contains", pattern: "x", negate: true } },
        {
          type: "commit_author_email_pattern",
          parameters: { operator: "ends_with", pattern: "@acme.example" },
        },
        { type: "committer_email_pattern", parameters: { operator: "regex", pattern: ".*" } },
        { type: "branch_name_pattern", parameters: { operator: "starts_with", pattern: "feature/" } },
        {
          type: "workflows",
          parameters: { workflows: [{ path: ".github/workflows/ci.yml", repositoryId: 1000 }] },
        },
        {
          type: "code_scanning",
          parameters: {
            codeScanningTools: [
              { tool: "CodeQL", alertsThreshold: "errors", securityAlertsThreshold: "all" },
            ],
          },
        },
        { type: "copilot_code_review", parameters: { reviewOnPush: true } },
      ],
    };
    expect((await checkedOrg(branch)).rules).toHaveLength(17);
    const push = {
      ...ORG_RULESET,
      target: "push",
      bypassActors: [],
      conditions: { repositoryName: { include: ["~ALL"] } },
      rules: [
        { type: "file_path_restriction", parameters: { restrictedFilePaths: ["secrets/**"] } },
        { type: "max_file_path_length", parameters: { maxFilePathLength: 255 } },
        { type: "file_extension_restriction", parameters: { restrictedFileExtensions: ["*.exe"] } },
        { type: "max_file_size", parameters: { maxFileSize: 10 } },
      ],
    };
    expect((await checkedOrg(push)).rules).toHaveLength(4);
    expect(
      (
        await checkedRepo({
          ...REPO_RULESET,
          target: "tag",
          rules: [{ type: "tag_name_pattern", parameters: { operator: "starts_with", pattern: "v" } }],
        })
      ).target,
    ).toBe("tag");
    expect(requests()).toBe(0);
  });

  it.each([
    [
      { rules: [{ type: "no_such_rule" }] },
      "rules",
      'rules[0] (no_such_rule): type "no_such_rule" is not a rule type; the types are creation, update, deletion',
    ],
    [
      {
        rules: [
          { ...PULL_REQUEST, parameters: { ...PULL_REQUEST.parameters, requiredApprovingReviewCount: 11 } },
        ],
      },
      "rules",
      "rules[0] (pull_request): parameters.requiredApprovingReviewCount must be at most 10",
    ],
    [
      { rules: [{ type: "deletion" }, { type: "pull_request" }] },
      "rules",
      "rules[1] (pull_request): parameters are required by a pull_request rule",
    ],
    [
      {
        rules: [
          {
            type: "pull_request",
            parameters: { ...PULL_REQUEST.parameters, required_approving_review_count: 1 },
          },
        ],
      },
      "rules",
      "rules[0] (pull_request): parameters are written in camelCase: required_approving_review_count is requiredApprovingReviewCount",
    ],
    [
      {
        rules: [
          {
            type: "required_status_checks",
            parameters: { requiredStatusChecks: [{ context: "" }], strictRequiredStatusChecksPolicy: true },
          },
        ],
      },
      "rules",
      "rules[0] (required_status_checks): parameters.requiredStatusChecks[0].context must not be empty",
    ],
    [
      { rules: [{ type: "merge_queue", parameters: { mergeMethod: "FAST" } }] },
      "rules",
      'rules[0] (merge_queue): parameters.mergeMethod must be one of "MERGE", "SQUASH", "REBASE"',
    ],
    [
      { rules: [{ type: "deletion", parameters: { force: true } }] },
      "rules",
      "rules[0] (deletion): parameters are not taken by a deletion rule; leave them out",
    ],
    [
      { rules: [{ type: "max_file_size", parameters: { maxFileSize: 10 } }] },
      "rules",
      'rules[0] (max_file_size): max_file_size is only for push rulesets (target is "branch")',
    ],
    [
      { rules: [{ type: "deletion" }, { type: "deletion" }] },
      "rules",
      "rules[1] (deletion): a ruleset takes one deletion rule",
    ],
    [
      { bypassActors: [{ actorType: "Team" }] },
      "bypassActors",
      "bypassActors[0] (Team): actorId is required: the team's id",
    ],
    [
      { bypassActors: [{ actorType: "DeployKey", bypassMode: "pull_request" }] },
      "bypassActors",
      'bypassActors[0] (DeployKey): bypassMode "pull_request" is for branch rulesets, and not for deploy keys',
    ],
    [
      { bypassActors: [{ actorType: "RepositoryRole", actorId: 9 }] },
      "bypassActors",
      "actorId 9 is not a repository role",
    ],
    [
      { bypassActors: [{ actorType: "Robot" }] },
      "bypassActors",
      'bypassActors must be one of "Integration", "OrganizationAdmin", "RepositoryRole", "Team", "DeployKey", "EnterpriseOwner" (bypassActors[0].actorType is "Robot")',
    ],
    [
      { conditions: { refName: { include: ["~ALL"] } } },
      "conditions",
      "exactly one of repositoryName, repositoryProperty",
    ],
    [
      { conditions: { repositoryName: { include: ["~ALL"] } } },
      "conditions",
      "conditions.refName is required by a branch ruleset",
    ],
    [{ conditions: { ...ORG_RULESET.conditions, refname: {} } }, "conditions", "refname"],
    [
      { enforcement: "sometimes" },
      "enforcement",
      'enforcement must be one of "disabled", "active", "evaluate"',
    ],
  ])("refuses %j naming %s, with no request", async (change, property, reason) => {
    const result = await orgs.check({}, { ...ORG_RULESET, ...change });
    const reasons = (result.failures ?? []).filter((f) => f.property === property).map((f) => f.reason);
    expect(
      reasons.some((r) => r.includes(reason)),
      JSON.stringify(result.failures),
    ).toBe(true);
    expect(requests()).toBe(0);
  });

  it("lets values unknown during preview through untouched", async () => {
    const result = await orgs.check({}, { ...ORG_RULESET, rules: [{ type: "deletion" }, { type: UNKNOWN }] });
    expect(result.failures ?? []).toEqual([]);
  });
});

describe("ruleset diff", () => {
  it("compares rules, actors and lists in parameters as sets, with the platform's defaults", async () => {
    const inputs = await checkedOrg(ORG_RULESET);
    const olds = inputs as unknown as OrgRulesetOutputs;
    const reordered = await checkedOrg({
      ...ORG_RULESET,
      bypassActors: [...ORG_RULESET.bypassActors]
        .reverse()
        .map((a) => (a.actorType === "OrganizationAdmin" ? { actorType: a.actorType } : a)),
      rules: [
        {
          ...STATUS_CHECKS,
          parameters: {
            ...STATUS_CHECKS.parameters,
            requiredStatusChecks: [...STATUS_CHECKS.parameters.requiredStatusChecks].reverse(),
            doNotEnforceOnCreate: false,
          },
        },
        {
          ...PULL_REQUEST,
          parameters: { ...PULL_REQUEST.parameters, allowedMergeMethods: ["squash", "rebase", "merge"] },
        },
        { type: "deletion" },
      ],
      conditions: {
        ...ORG_RULESET.conditions,
        refName: { include: ["refs/heads/release/*", "~DEFAULT_BRANCH"], exclude: [] },
      },
    });
    expect(await orgs.diff("acme-eng/1", olds, reordered)).toMatchObject({ changes: false });
    const fewer = await checkedOrg({ ...ORG_RULESET, rules: [{ type: "deletion" }, PULL_REQUEST] });
    expect(orgs.changedFields(olds, fewer)).toEqual(["rules"]);
    const merge = await checkedOrg({
      ...ORG_RULESET,
      rules: [
        { type: "deletion" },
        STATUS_CHECKS,
        { ...PULL_REQUEST, parameters: { ...PULL_REQUEST.parameters, allowedMergeMethods: ["squash"] } },
      ],
    });
    expect(orgs.changedFields(olds, merge)).toEqual(["rules"]);
    expect((await orgs.diff("acme-eng/1", olds, { ...inputs, org: "acme-ops" })).replaces).toEqual(["org"]);
    expect(await orgs.diff("acme-eng/1", olds, { ...inputs, org: "ACME-Eng" })).toMatchObject({
      changes: false,
    });
  });
});

describe("OrgRuleset lifecycle", () => {
  it("creates with one POST, reads back with no change ten times, and lists as the server has it", async () => {
    const inputs = await checkedOrg(ORG_RULESET);
    emulator.controls.clearLog();
    const { id, outs } = await orgs.create(inputs);
    expect(id).toBe(`acme-eng/${outs.rulesetId}`);
    expect(outs.nodeId).not.toBe("");
    expect(requestCounts(emulator)).toEqual({ "POST /orgs/{org}/rulesets": 1 });
    let state = outs;
    for (let i = 0; i < 10; i++) {
      const read = await orgs.read(id, state);
      expect(read.inputs).toEqual(
        ORG_RULESET.rules === undefined ? undefined : expect.objectContaining({ rules: ORG_RULESET.rules }),
      );
      expect(
        await orgs.diff(id, read.props as OrgRulesetOutputs, await checkedOrg(ORG_RULESET)),
      ).toMatchObject({ changes: false });
      state = read.props as OrgRulesetOutputs;
    }
    // The server's defaults are there; the program's form is what read reports.
    const stored = emulator.store.state.rulesets[0];
    expect(stored?.rules.find((r) => r.type === "pull_request")?.parameters?.allowed_merge_methods).toEqual([
      "merge",
      "squash",
      "rebase",
    ]);
  });

  it("reads an outside change field by field, and update repairs it", async () => {
    const { id, outs } = await orgs.create(await checkedOrg(ORG_RULESET));
    const changed = await api(emulator, "PUT", `${ORG_PATH}/${outs.rulesetId}`, {
      enforcement: "disabled",
      rules: [{ type: "deletion" }],
    });
    expect(changed.status).toBe(200);
    const read = await orgs.read(id, outs);
    const program = await checkedOrg(ORG_RULESET);
    expect(orgs.changedFields(read.props as OrgRulesetOutputs, program)).toEqual(["enforcement", "rules"]);
    await orgs.update(id, read.props as OrgRulesetOutputs, program);
    const repaired = await orgs.read(id, read.props as OrgRulesetOutputs);
    expect(orgs.changedFields(repaired.props as OrgRulesetOutputs, program)).toEqual([]);
  });

  it("adopts an existing ruleset with importId, converging it, and refuses a name taken without one", async () => {
    const made = await api(emulator, "POST", ORG_PATH, {
      name: "main",
      enforcement: "disabled",
      conditions: { ref_name: { include: ["~ALL"] }, repository_name: { include: ["~ALL"] } },
      rules: [{ type: "creation" }],
    });
    const rulesetId = (made.body as { id: number }).id;
    await expect(orgs.create(await checkedOrg(ORG_RULESET))).rejects.toThrow(
      'a ruleset named "main" already exists in /orgs/acme-eng/rulesets',
    );
    const adopted = await orgs.create(await checkedOrg({ ...ORG_RULESET, importId: rulesetId }));
    expect(adopted.id).toBe(`acme-eng/${rulesetId}`);
    expect(adopted.outs).toMatchObject({ enforcement: "active", importId: String(rulesetId) });
    expect(emulator.store.state.rulesets).toHaveLength(1);
  });

  it("deletes, and a ruleset deleted outside Pulumi is dropped by refresh", async () => {
    const { id, outs } = await orgs.create(await checkedOrg(ORG_RULESET));
    await orgs.delete(id, outs);
    expect(emulator.store.state.rulesets).toEqual([]);
    expect(await orgs.read(id, outs)).toEqual({});
    await orgs.delete(id, outs);
  });

  it("targets repositories by property, read back as written", async () => {
    const byProperty = {
      ...ORG_RULESET,
      conditions: {
        refName: { include: ["~ALL"] },
        repositoryProperty: { include: [{ name: "tier", propertyValues: ["gold", "silver"] }] },
      },
    };
    // The engine hands create what check returned: the inputs as the program wrote them.
    const checked = await orgs.check({}, byProperty);
    const { id, outs } = await orgs.create(checked.inputs as OrgRulesetInputs);
    const read = await orgs.read(id, outs);
    expect(read.inputs?.conditions).toEqual(byProperty.conditions);
    expect(emulator.store.state.rulesets[0]?.conditions?.repository_property).toEqual({
      include: [{ name: "tier", property_values: ["gold", "silver"], source: "custom" }],
      exclude: [],
    });
  });
});

describe("RepositoryRuleset lifecycle", () => {
  it("creates an evaluate ruleset, reads it back as written, updates and deletes it", async () => {
    const inputs = await checkedRepo(REPO_RULESET);
    const { id, outs } = await repos.create(inputs);
    expect(id).toBe(`acme-eng/api/${outs.rulesetId}`);
    const read = await repos.read(id, outs);
    expect(read.props).toMatchObject({ enforcement: "evaluate", name: "releases" });
    expect(repos.changedFields(read.props as typeof outs, inputs)).toEqual([]);
    const { outs: updated } = await repos.update(id, outs, { ...inputs, enforcement: "active" });
    expect(updated.enforcement).toBe("active");
    await repos.delete(id, updated);
    expect(await repos.read(id, updated)).toEqual({});
  });

  it("reads only the repository's own rulesets, not the organisation's that apply to it", async () => {
    const org = await orgs.create(await checkedOrg(ORG_RULESET));
    expect(await repos.read(`acme-eng/api/${org.outs.rulesetId}`)).toEqual({});
  });

  it("fails clearly when the token cannot administer the repository", async () => {
    useToken(emulator, "svcp_member");
    await expect(repos.create(await checkedRepo(REPO_RULESET))).rejects.toThrow(
      "RepositoryRuleset: not found, or not allowed to this token",
    );
  });
});
