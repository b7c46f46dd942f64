/**
 * Rulesets of organisations and repositories, and the rules of a branch: create, read, update and
 * delete, every 422 naming its rule and field, bypass actors shown to writers only, the lists'
 * summaries and filters, and `rules/branches` evaluating conditions (ref names, repository names,
 * repository properties) and enforcement (`evaluate` and `disabled` left out).
 */
import { describe, expect, it } from "vitest";
import { RULE_TYPES } from "../../../../api";
import {
  call,
  expectErrorBody,
  expectValidationFailed,
  type Json,
  stateOf,
  TOKENS,
  useSandbox,
} from "../../helpers";

const sandbox = useSandbox();
const ORG = "/orgs/acme-eng/rulesets";
const REPO = "/repos/acme-eng/api/rulesets";

const PULL_REQUEST = {
  type: "pull_request",
  parameters: {
    dismiss_stale_reviews_on_push: true,
    require_code_owner_review: false,
    require_last_push_approval: false,
    required_approving_review_count: 2,
    required_review_thread_resolution: true,
  },
};

const ORG_RULESET = {
  name: "main protection",
  target: "branch",
  enforcement: "active",
  bypass_actors: [
    { actor_id: 1, actor_type: "Team", bypass_mode: "always" },
    { actor_type: "OrganizationAdmin", bypass_mode: "pull_request" },
  ],
  conditions: {
    ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] },
    repository_name: { include: ["~ALL"], exclude: ["web"], protected: true },
  },
  rules: [{ type: "deletion" }, PULL_REQUEST],
};

async function create(path: string, body: unknown): Promise<Json> {
  const response = await call(sandbox.emulator, "POST", path, { body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function branchRules(
  repo: string,
  branch: string,
  token: string | null = TOKENS.siteAdmin,
): Promise<Json[]> {
  const response = await call(sandbox.emulator, "GET", `/repos/${repo}/rules/branches/${branch}`, { token });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe("organisation rulesets", () => {
  it("are created (201), read back as written with the platform's defaults, and listed as summaries", async () => {
    const made = await create(ORG, ORG_RULESET);
    expect(made).toMatchObject({
      id: expect.any(Number),
      name: "main protection",
      target: "branch",
      source_type: "Organization",
      source: "acme-eng",
      enforcement: "active",
      bypass_actors: [
        { actor_id: 1, actor_type: "Team", bypass_mode: "always" },
        { actor_id: null, actor_type: "OrganizationAdmin", bypass_mode: "pull_request" },
      ],
      conditions: ORG_RULESET.conditions,
      rules: [
        { type: "deletion" },
        {
          type: "pull_request",
          parameters: { ...PULL_REQUEST.parameters, allowed_merge_methods: ["merge", "squash", "rebase"] },
        },
      ],
    });
    const read = await call(sandbox.emulator, "GET", `${ORG}/${made.id}`);
    expect(read.body).toEqual(made);
    const list = await call(sandbox.emulator, "GET", ORG);
    expect(list.body).toHaveLength(1);
    expect(list.body[0].rules).toBeUndefined();
    expect(list.body[0]).toMatchObject({ id: made.id, name: "main protection" });
  });

  it("take a Team bypass actor of the teams family, a team made through the API included", async () => {
    const team = await call(sandbox.emulator, "POST", "/orgs/acme-eng/teams", {
      body: { name: "Release Crew" },
    });
    expect(team.status).toBe(201);
    const actors = [{ actor_id: team.body.id, actor_type: "Team", bypass_mode: "always" }];
    const made = await create(ORG, { ...ORG_RULESET, bypass_actors: actors });
    expect(made.bypass_actors).toEqual(actors);
    // A team of another organisation is not one of acme-eng's.
    const other = await call(sandbox.emulator, "POST", "/orgs/acme-ops/teams", { body: { name: "Ops" } });
    const refused = await call(sandbox.emulator, "POST", ORG, {
      body: {
        ...ORG_RULESET,
        name: "other",
        bypass_actors: [{ actor_id: other.body.id, actor_type: "Team" }],
      },
    });
    expectValidationFailed(refused, "bypass_actors[0].actor_id", "invalid", "Ruleset");
  });

  it("show bypass actors to the organisation's owners only", async () => {
    const made = await create(ORG, ORG_RULESET);
    const member = await call(sandbox.emulator, "GET", `${ORG}/${made.id}`, { token: TOKENS.member });
    expect(member.status).toBe(200);
    expect(member.body.bypass_actors).toBeUndefined();
    const owner = await call(sandbox.emulator, "GET", `${ORG}/${made.id}`, { token: TOKENS.owner });
    expect(owner.body.bypass_actors).toHaveLength(2);
  });

  it("update what the PUT body names, keep the rest, and keep `evaluate` as written", async () => {
    const made = await create(ORG, ORG_RULESET);
    const updated = await call(sandbox.emulator, "PUT", `${ORG}/${made.id}`, {
      body: { enforcement: "evaluate" },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({
      enforcement: "evaluate",
      name: "main protection",
      rules: made.rules,
    });
    expect((await call(sandbox.emulator, "GET", `${ORG}/${made.id}`)).body.enforcement).toBe("evaluate");
    expect((await call(sandbox.emulator, "DELETE", `${ORG}/${made.id}`)).status).toBe(204);
    expect((await call(sandbox.emulator, "GET", `${ORG}/${made.id}`)).status).toBe(404);
  });

  it("refuse a name already taken, ignoring case", async () => {
    await create(ORG, ORG_RULESET);
    const again = await call(sandbox.emulator, "POST", ORG, {
      body: { ...ORG_RULESET, name: "MAIN protection" },
    });
    expectValidationFailed(again, "name", "already_exists", "Ruleset");
  });

  it.each([
    [
      { ...ORG_RULESET, rules: [{ type: "no_such_rule" }] },
      "rules[0].type",
      /"no_such_rule" is not a rule type; the types are creation, update/,
    ],
    [
      {
        ...ORG_RULESET,
        rules: [
          {
            type: "pull_request",
            parameters: { ...PULL_REQUEST.parameters, required_approving_review_count: 11 },
          },
        ],
      },
      "rules[0].parameters.required_approving_review_count",
      /must be at most 10/,
    ],
    [
      { ...ORG_RULESET, rules: [{ type: "max_file_size", parameters: { max_file_size: 5 } }] },
      "rules[0].type",
      /max_file_size is only for push rulesets/,
    ],
    [
      { ...ORG_RULESET, rules: [{ type: "deletion", parameters: { x: 1 } }] },
      "rules[0].parameters",
      /are not taken by a deletion rule/,
    ],
    [
      { ...ORG_RULESET, rules: [{ type: "pull_request" }] },
      "rules[0].parameters",
      /are required by a pull_request rule/,
    ],
    [
      {
        ...ORG_RULESET,
        rules: [
          { type: "commit_message_pattern", parameters: { operator: "contains", pattern: "x", colour: 1 } },
        ],
      },
      "rules[0].parameters.colour",
      /is not a parameter of a commit_message_pattern rule \(its parameters: name, negate, operator, pattern\)/,
    ],
    [
      { ...ORG_RULESET, bypass_actors: [{ actor_id: 999, actor_type: "Team" }] },
      "bypass_actors[0].actor_id",
      /999 is not a team of acme-eng/,
    ],
    [
      { ...ORG_RULESET, bypass_actors: [{ actor_id: 9, actor_type: "RepositoryRole" }] },
      "bypass_actors[0].actor_id",
      /is not a repository role/,
    ],
    [
      { ...ORG_RULESET, bypass_actors: [{ actor_type: "DeployKey", bypass_mode: "pull_request" }] },
      "bypass_actors[0].bypass_mode",
      /not for deploy keys/,
    ],
    [
      { ...ORG_RULESET, conditions: { ref_name: { include: ["~ALL"] } } },
      "conditions",
      /exactly one of repository_name, repository_property/,
    ],
    [
      {
        ...ORG_RULESET,
        conditions: {
          ref_name: { include: ["~ALL"] },
          repository_property: { include: [{ name: "nope", property_values: ["x"] }] },
        },
      },
      "conditions.repository_property.include[0].name",
      /nope is not a custom property of acme-eng/,
    ],
    [
      { ...ORG_RULESET, enforcement: "sometimes" },
      "enforcement",
      /enforcement must be one of disabled, active, evaluate/,
    ],
  ])("refuse %#: a 422 naming %s, and nothing is made", async (body, field, message) => {
    const response = await call(sandbox.emulator, "POST", ORG, { body });
    expectValidationFailed(response, field, undefined, "Ruleset");
    const item = response.body.errors.find((e: Json) => e.field === field);
    expect(item.message).toMatch(message);
    expect((await call(sandbox.emulator, "GET", ORG)).body).toEqual([]);
  });

  it("take every rule type of the description with valid parameters", async () => {
    const parameters: Record<string, unknown> = {
      update: { update_allows_fetch_and_merge: true },
      merge_queue: {
        check_response_timeout_minutes: 60,
        grouping_strategy: "ALLGREEN",
        max_entries_to_build: 5,
        max_entries_to_merge: 5,
        merge_method: "SQUASH",
        min_entries_to_merge: 1,
        min_entries_to_merge_wait_minutes: 5,
      },
      required_deployments: { required_deployment_environments: ["production"] },
      pull_request: PULL_REQUEST.parameters,
      required_status_checks: {
        required_status_checks: [{ context: "ci/build", integration_id: 101 }],
        strict_required_status_checks_policy: true,
      },
      commit_message_pattern: { operator: "starts_with", pattern: "feat" },
      commit_author_email_pattern: { operator: "ends_with", pattern: "@acme.example" },
      committer_email_pattern: { operator: "contains", pattern: "acme" },
      branch_name_pattern: { operator: "regex", pattern: "^[a-z/]+$", negate: false },
      tag_name_pattern: { operator: "starts_with", pattern: "v" },
      workflows: {
        workflows: [{ path: ".github/workflows/ci.yml", repository_id: 1000, ref: "refs/heads/main" }],
      },
      code_scanning: {
        code_scanning_tools: [
          { tool: "CodeQL", alerts_threshold: "errors", security_alerts_threshold: "high_or_higher" },
        ],
      },
      copilot_code_review: { review_on_push: true },
      file_path_restriction: { restricted_file_paths: ["secrets/**"] },
      max_file_path_length: { max_file_path_length: 255 },
      file_extension_restriction: { restricted_file_extensions: ["*.exe"] },
      max_file_size: { max_file_size: 10 },
    };
    const push = [
      "file_path_restriction",
      "max_file_path_length",
      "file_extension_restriction",
      "max_file_size",
    ];
    const rule = (type: string) => (parameters[type] ? { type, parameters: parameters[type] } : { type });
    const branch = RULE_TYPES.filter((t) => !push.includes(t) && t !== "tag_name_pattern").map(rule);
    const conditions = { ref_name: { include: ["~ALL"], exclude: [] } };
    expect(
      (
        await call(sandbox.emulator, "POST", REPO, {
          body: { name: "b", enforcement: "active", conditions, rules: branch },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call(sandbox.emulator, "POST", REPO, {
          body: {
            name: "t",
            target: "tag",
            enforcement: "active",
            conditions,
            rules: [rule("tag_name_pattern")],
          },
        })
      ).status,
    ).toBe(201);
    const pushed = await call(sandbox.emulator, "POST", REPO, {
      body: { name: "p", target: "push", enforcement: "active", rules: push.map(rule) },
    });
    expect(pushed.status, pushed.text).toBe(201);
  });
});

describe("repository rulesets", () => {
  const RULESET = {
    name: "release",
    enforcement: "active",
    conditions: { ref_name: { include: ["refs/heads/release/*"], exclude: [] } },
    rules: [{ type: "non_fast_forward" }],
  };

  it("are read by whoever reads the repository and written by its administrators", async () => {
    const made = await create(REPO, RULESET);
    expect(made).toMatchObject({ source_type: "Repository", source: "acme-eng/api" });
    const member = await call(sandbox.emulator, "GET", `${REPO}/${made.id}`, { token: TOKENS.member });
    expect(member.status).toBe(200);
    expect(member.body.bypass_actors).toBeUndefined();
    const write = await call(sandbox.emulator, "POST", REPO, {
      token: TOKENS.member,
      body: { ...RULESET, name: "x" },
    });
    expect(write.status).toBe(404);
    expectErrorBody(write.body, "Not Found");
  });

  it("go with their repository; the organisation's stay", async () => {
    const made = await call(sandbox.emulator, "POST", "/orgs/acme-eng/repos", { body: { name: "svc" } });
    expect(made.status, made.text).toBe(201);
    const org = await create(ORG, ORG_RULESET);
    await create("/repos/acme-eng/svc/rulesets", RULESET);
    await create(REPO, RULESET);
    expect((await call(sandbox.emulator, "DELETE", "/repos/acme-eng/svc")).status).toBe(204);
    const left = (await stateOf(sandbox.emulator)).rulesets.map((r: Json) => [r.scope, r.owner]);
    expect(left).toEqual([
      ["org", "acme-eng"],
      ["repo", "acme-eng/api"],
    ]);
    await call(sandbox.emulator, "POST", "/orgs/acme-eng/repos", { body: { name: "svc" } });
    const again = await call(sandbox.emulator, "GET", "/repos/acme-eng/svc/rulesets");
    expect(again.body.map((r: Json) => r.id)).toEqual([org.id]);
  });

  it("take ref name conditions only", async () => {
    const response = await call(sandbox.emulator, "POST", REPO, {
      body: { ...RULESET, conditions: { ...RULESET.conditions, repository_name: { include: ["~ALL"] } } },
    });
    expectValidationFailed(response, "conditions.repository_name", "invalid", "Ruleset");
  });

  it("list the organisation rulesets that apply unless includes_parents=false, filtered by targets", async () => {
    const org = await create(ORG, ORG_RULESET);
    const own = await create(REPO, RULESET);
    const all = (await call(sandbox.emulator, "GET", REPO)).body.map((r: Json) => r.id);
    expect(all.sort()).toEqual([org.id, own.id].sort());
    expect(
      (await call(sandbox.emulator, "GET", `${REPO}?includes_parents=false`)).body.map((r: Json) => r.id),
    ).toEqual([own.id]);
    expect((await call(sandbox.emulator, "GET", `${REPO}?targets=tag`)).body).toEqual([]);
    // web is excluded by name: the organisation ruleset does not apply there.
    expect((await call(sandbox.emulator, "GET", "/repos/acme-eng/web/rulesets")).body).toEqual([]);
  });
});

describe("the rules of a branch", () => {
  it("gather the active branch rulesets of the repository and its organisation whose conditions hold", async () => {
    const org = await create(ORG, ORG_RULESET);
    const release = await create(REPO, {
      name: "release",
      enforcement: "active",
      conditions: { ref_name: { include: ["release/*"], exclude: [] } },
      rules: [{ type: "non_fast_forward" }],
    });
    const main = await branchRules("acme-eng/api", "main");
    expect(main).toEqual([
      {
        type: "deletion",
        ruleset_source_type: "Organization",
        ruleset_source: "acme-eng",
        ruleset_id: org.id,
      },
      expect.objectContaining({ type: "pull_request", ruleset_id: org.id }),
    ]);
    expect(await branchRules("acme-eng/api", "release%2F1.0")).toEqual([
      {
        type: "non_fast_forward",
        ruleset_source_type: "Repository",
        ruleset_source: "acme-eng/api",
        ruleset_id: release.id,
      },
    ]);
    // A branch that does not exist gets the rules it would have; web is excluded from the organisation's.
    expect(await branchRules("acme-eng/api", "release/2.0")).toHaveLength(1);
    expect(await branchRules("acme-eng/web", "main", null)).toEqual([]);
  });

  it("leave out evaluate and disabled rulesets, and rulesets of other targets", async () => {
    const made = await create(ORG, { ...ORG_RULESET, enforcement: "evaluate" });
    expect(await branchRules("acme-eng/api", "main")).toEqual([]);
    await call(sandbox.emulator, "PUT", `${ORG}/${made.id}`, { body: { enforcement: "disabled" } });
    expect(await branchRules("acme-eng/api", "main")).toEqual([]);
    await call(sandbox.emulator, "PUT", `${ORG}/${made.id}`, { body: { enforcement: "active" } });
    expect(await branchRules("acme-eng/api", "main")).toHaveLength(2);
    await create(REPO, {
      name: "tags",
      target: "tag",
      enforcement: "active",
      conditions: { ref_name: { include: ["~ALL"] } },
      rules: [{ type: "creation" }],
    });
    expect(await branchRules("acme-eng/api", "main")).toHaveLength(2);
  });

  it("target repositories by their custom property values", async () => {
    const byTier = await create(ORG, {
      name: "gold",
      enforcement: "active",
      conditions: {
        ref_name: { include: ["~ALL"], exclude: [] },
        repository_property: { include: [{ name: "tier", property_values: ["gold"] }], exclude: [] },
      },
      rules: [{ type: "required_linear_history" }],
    });
    expect(await branchRules("acme-eng/api", "develop")).toEqual([]);
    const set = await call(sandbox.emulator, "PATCH", "/repos/acme-eng/api/properties/values", {
      body: { properties: [{ property_name: "tier", value: "gold" }] },
    });
    expect(set.status).toBe(204);
    expect(await branchRules("acme-eng/api", "develop")).toEqual([
      {
        type: "required_linear_history",
        ruleset_source_type: "Organization",
        ruleset_source: "acme-eng",
        ruleset_id: byTier.id,
      },
    ]);
    expect(await branchRules("acme-eng/web", "main")).toEqual([]);
  });

  it("hide a private repository from those who may not read it", async () => {
    const response = await call(sandbox.emulator, "GET", "/repos/acme-eng/api/rules/branches/main", {
      token: null,
    });
    expect(response.status).toBe(404);
  });
});
