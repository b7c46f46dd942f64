import { describe, expect, it } from "vitest";
import { API_VERSION_2026, API_VERSION_DEFAULT, allRoutes, InvalidRouteParameter, ROUTES } from "../../api";
import { servedRoutes } from "../emulator/helpers";

describe("route table", () => {
  it("builds paths with every parameter encoded", () => {
    expect(ROUTES.repoHooks.get.path({ owner: "acme-eng", repo: "api", hook_id: 12 })).toBe(
      "/repos/acme-eng/api/hooks/12",
    );
    expect(
      ROUTES.protectionRules.list.path({ owner: "acme-eng", repo: "api", environment_name: "release/eu:1" }),
    ).toBe("/repos/acme-eng/api/environments/release%2Feu%3A1/deployment_protection_rules");
    expect(ROUTES.budgets.get.path({ enterprise: "acme", budget_id: "9f2c-1" })).toBe(
      "/enterprises/acme/settings/billing/budgets/9f2c-1",
    );
    expect(ROUTES.globalHooks.list.path({})).toBe("/admin/hooks");
  });

  it("takes integer ids as numbers or decimal strings, and nothing else", () => {
    const get = (hook_id: number | string) => ROUTES.globalHooks.get.path({ hook_id });
    expect(get("7")).toBe("/admin/hooks/7");
    for (const bad of ["..%2F..%2Fx", "07", "1e3", "-1", "0", " 1", "", 1.5, 0, -3, 2 ** 60]) {
      expect(() => get(bad)).toThrow(InvalidRouteParameter);
    }
    expect(() => get("..%2F..%2Fx")).toThrow(
      'hook_id must be a positive decimal integer, got "..%2F..%2Fx" (for GET /admin/hooks/{hook_id})',
    );
  });

  it("never lets a name step out of its segment", () => {
    const hooks = (owner: string) => ROUTES.repoHooks.list.path({ owner, repo: "api" });
    expect(hooks("../../admin")).toBe("/repos/..%2F..%2Fadmin/api/hooks");
    for (const bad of ["", ".", ".."]) {
      expect(() => hooks(bad)).toThrow(/owner must be a non-empty name other than "\." and "\.\."/);
    }
  });

  it("gives the router's pattern and the spec's name of each route", () => {
    const route = ROUTES.orgRunnerGroups.removeRunner;
    expect(route.name).toBe("DELETE /orgs/{org}/actions/runner-groups/{runner_group_id}/runners/{runner_id}");
    expect(route.pattern).toBe("/orgs/:org/actions/runner-groups/:runner_group_id/runners/:runner_id");
    expect(route.params).toEqual(["org", "runner_group_id", "runner_id"]);
  });

  it("declares API version 2026-03-10 where the spec documents it, and the default elsewhere", () => {
    // spec, concepts: budgets, notifications, enterprise dependency alerts, organisation custom
    // property values and the alert update.
    const versioned = allRoutes()
      .filter((r) => r.apiVersion !== API_VERSION_DEFAULT)
      .map((r) => `${r.apiVersion} ${r.name}`);
    expect(versioned.sort()).toEqual(
      [
        ...["GET", "POST"].map((m) => `${m} /enterprises/{enterprise}/settings/billing/budgets`),
        ...["GET", "PATCH", "DELETE"].map(
          (m) => `${m} /enterprises/{enterprise}/settings/billing/budgets/{budget_id}`,
        ),
        "GET /notifications",
        "PUT /notifications",
        "GET /notifications/threads/{thread_id}",
        "GET /organizations/{org}/org-properties/values",
        "PATCH /organizations/{org}/org-properties/values",
        "GET /enterprises/{enterprise}/depwatch/alerts",
        "PATCH /repos/{owner}/{repo}/depwatch/alerts/{alert_number}",
      ]
        .map((name) => `${API_VERSION_2026} ${name}`)
        .sort(),
    );
  });

  it("declares how each answer is read: a body, or a list and where its items are", () => {
    expect(ROUTES.repoHooks.get.answer).toMatchObject({ kind: "body", bodyless: [] });
    expect(ROUTES.repoHooks.list.answer).toMatchObject({ kind: "list", select: undefined });
    const runners = ROUTES.orgRunnerGroups.runners.answer;
    expect(runners.select?.({ total_count: 1, runners: [{ id: 1 }] })).toEqual([{ id: 1 }]);
    const apps = ROUTES.protectionRules.apps.answer;
    const app = { id: 101, slug: "deploy-gate" };
    expect(
      apps.select?.([
        { total_count: 1 },
        { available_custom_deployment_protection_rule_integrations: [app] },
      ]),
    ).toEqual([app]);
    expect(apps.select?.({ total_count: 1 })).toBeUndefined();
    expect(ROUTES.statistics.contributors.answer.bodyless).toEqual([202, 204]);
    // Routes the client never calls may declare no answer (the client refuses them at compile time).
    expect(ROUTES.notifications.list.answer).toBeUndefined();
  });

  it("is exactly what the sandbox server serves", () => {
    const table = allRoutes().map((r) => `${r.method} ${r.pattern}`);
    expect(new Set(table).size).toBe(table.length);
    expect([...table].sort()).toEqual(servedRoutes());
  });
});
