/**
 * What hosting-import finds of the property definitions, rulesets, branch protections and role
 * assignments of an installation, and the first `up` of what it writes, in process: each object
 * found is created from the arguments written for it (check, then create, as the engine does) and
 * none of them writes, since each adopts what is there; an ordered list (a property's allowed
 * values) keeps the server's order.
 */
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { discover } from "../../../importer/discover";
import { providerOf } from "../../../importer/inventory";
import { client } from "../../../provider/internal/context";
import { api, useSandbox } from "./helpers";

let emulator: RunningEmulator;
useSandbox((e) => {
  emulator = e;
});

const KINDS = [
  "OrgCustomProperty",
  "OrgRuleset",
  "RepositoryRuleset",
  "BranchProtection",
  "OrgRoleAssignment",
];

async function fillFamily(): Promise<void> {
  const made = [
    await api(emulator, "PUT", "/orgs/acme-eng/properties/schema/environment", {
      value_type: "single_select",
      required: true,
      default_value: "prod",
      allowed_values: ["prod", "dev"],
    }),
    await api(emulator, "POST", "/orgs/acme-eng/rulesets", {
      name: "gold",
      enforcement: "evaluate",
      bypass_actors: [{ actor_type: "OrganizationAdmin" }, { actor_id: 101, actor_type: "Integration" }],
      conditions: {
        ref_name: { include: ["~DEFAULT_BRANCH"] },
        repository_property: { include: [{ name: "environment", property_values: ["prod"] }] },
      },
      rules: [
        {
          type: "pull_request",
          parameters: {
            dismiss_stale_reviews_on_push: true,
            require_code_owner_review: false,
            require_last_push_approval: false,
            required_approving_review_count: 1,
            required_review_thread_resolution: false,
          },
        },
      ],
    }),
    await api(emulator, "POST", "/repos/acme-eng/api/rulesets", {
      name: "releases",
      enforcement: "active",
      conditions: { ref_name: { include: ["refs/heads/release/*"] } },
      rules: [
        { type: "commit_message_pattern", parameters: { operator: "starts_with", pattern: "release:" } },
      ],
    }),
    await api(emulator, "PUT", "/repos/acme-eng/api/branches/release%2F1.0/protection", {
      required_status_checks: { strict: true, contexts: ["b", "a"] },
      enforce_admins: true,
      required_pull_request_reviews: null,
      restrictions: { users: ["octocat"], teams: ["platform"] },
    }),
    await api(emulator, "PUT", "/orgs/acme-eng/organization-roles/teams/platform/8138"),
    await api(emulator, "PUT", "/orgs/acme-eng/organization-roles/users/octocat/8132"),
  ];
  for (const response of made) expect(response.status).toBeLessThan(300);
}

describe("hosting-import of the family", () => {
  it("finds every object, and the first up of what it writes adopts each without a write", async () => {
    await fillFamily();
    const found = await discover(
      client(),
      { orgs: ["acme-eng"], siteAdmin: false, repos: new Set(), kinds: new Set(KINDS) },
      () => {},
    );
    expect(found.failures).toEqual([]);
    expect(found.items.map((i) => `${i.kind} ${i.id}`).sort()).toEqual([
      "BranchProtection acme-eng/api/main",
      "BranchProtection acme-eng/api/release%2F1.0",
      "OrgCustomProperty acme-eng/cost_center",
      "OrgCustomProperty acme-eng/environment",
      "OrgCustomProperty acme-eng/tier",
      "OrgRoleAssignment acme-eng/teams/platform/8138",
      "OrgRoleAssignment acme-eng/users/octocat/8132",
      expect.stringMatching(/^OrgRuleset acme-eng\/\d+$/),
      expect.stringMatching(/^RepositoryRuleset acme-eng\/api\/\d+$/),
    ]);
    const environment = found.items.find((i) => i.id === "acme-eng/environment");
    expect(environment?.args.allowedValues).toEqual(["prod", "dev"]);

    emulator.controls.clearLog();
    for (const item of found.items) {
      const provider = providerOf(item.kind);
      if (!provider) throw new Error(`no provider of ${item.kind}`);
      const checked = await provider.check({}, item.args);
      expect(checked.failures ?? [], item.id).toEqual([]);
      const { id } = await provider.create(checked.inputs);
      expect(id).toBe(item.id);
    }
    expect(
      emulator.controls.log.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route}`),
    ).toEqual([]);
  });
});
