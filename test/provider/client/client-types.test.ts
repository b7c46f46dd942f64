/**
 * The client's calls at the type level (`npm run typecheck` checks this file): the client takes
 * routes of the table only, with their typed parameters, each with the method it names, and
 * returns data typed by the route's response schema. Each `@ts-expect-error` is a call that must
 * not compile; a line that compiled would fail the typecheck.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { ApiBudget, ApiRunner, ApiWebhook } from "../../../api";
import { ROUTES, route } from "../../../api";
import type { ApiResponse, HostingClient } from "../../../provider/client/http";

// Compiled, never run: the calls only need their types.
declare const c: HostingClient;
const owner = "acme-eng";
const repo = "api";

function calls() {
  // Routes with their typed parameters; data typed by the route's schema.
  expectTypeOf(c.get(ROUTES.repoHooks.get, { owner, repo, hook_id: 1 })).toEqualTypeOf<
    Promise<ApiResponse<ApiWebhook>>
  >();
  expectTypeOf(c.paginate(ROUTES.repoHooks.list, { owner, repo })).toEqualTypeOf<Promise<ApiWebhook[]>>();
  expectTypeOf(c.paginate(ROUTES.orgRunnerGroups.runners, { org: owner, runner_group_id: 2 })).toEqualTypeOf<
    Promise<ApiRunner[]>
  >();
  expectTypeOf(c.post(ROUTES.repoHooks.create, { owner, repo }, { config: {} })).toEqualTypeOf<
    Promise<ApiResponse<ApiWebhook>>
  >();
  expectTypeOf(c.get(ROUTES.budgets.get, { enterprise: "acme", budget_id: "b" })).toEqualTypeOf<
    Promise<ApiResponse<ApiBudget>>
  >();
  // A statistic: no data while it is computed (202) or for a repository without commits (204).
  expectTypeOf(c.get(ROUTES.statistics.punchCard, { owner, repo })).toEqualTypeOf<
    Promise<ApiResponse<Array<[number, number, number]> | undefined>>
  >();
  // GET of a list route: one page of items.
  expectTypeOf(c.get(ROUTES.globalHooks.list, {}, { query: { per_page: 1 } })).toEqualTypeOf<
    Promise<ApiResponse<ApiWebhook[]>>
  >();
  c.delete(ROUTES.repoHooks.delete, { owner, repo, hook_id: "7" });
  c.patch(ROUTES.repoHooks.update, { owner, repo, hook_id: 7 }, {}, { idempotent: true });
  c.put(ROUTES.orgRunnerGroups.setRunners, { org: owner, runner_group_id: 2 }, { runners: [] });

  // A bare path is not a route.
  // @ts-expect-error
  c.get("/repos/acme-eng/api/hooks/1", {});
  // @ts-expect-error
  c.paginate("/repos/acme-eng/api/hooks", {});
  // @ts-expect-error
  c.post("/repos/acme-eng/api/hooks", {}, {});
  // @ts-expect-error
  c.delete(ROUTES.repoHooks.delete.path({ owner, repo, hook_id: 1 }), {});
  // The method must be the route's.
  // @ts-expect-error
  c.get(ROUTES.repoHooks.create, { owner, repo });
  // @ts-expect-error
  c.post(ROUTES.repoHooks.get, { owner, repo, hook_id: 1 }, {});
  // @ts-expect-error
  c.patch(ROUTES.repoHooks.delete, { owner, repo, hook_id: 1 }, {});
  // @ts-expect-error
  c.delete(ROUTES.repoHooks.update, { owner, repo, hook_id: 1 });
  // @ts-expect-error
  c.put(ROUTES.repoHooks.update, { owner, repo, hook_id: 1 }, {});
  // Only list routes paginate.
  // @ts-expect-error
  c.paginate(ROUTES.repoHooks.get, { owner, repo, hook_id: 1 });
  // @ts-expect-error
  c.paginate(ROUTES.budgets.list, { enterprise: "acme" });
  // The parameters are the route's.
  // @ts-expect-error
  c.get(ROUTES.repoHooks.get, { owner, repo });
  // @ts-expect-error
  c.get(ROUTES.repoHooks.get, { owner, repository: repo, hook_id: 1 });
  // @ts-expect-error
  c.get(ROUTES.repoHooks.get, { owner, repo, hook_id: true });
  // The version and the schema are the route's, not the call's.
  // @ts-expect-error
  c.get(ROUTES.budgets.get, { enterprise: "acme", budget_id: "b" }, { apiVersion: "2026-03-10" });
  // @ts-expect-error
  c.paginate(ROUTES.repoHooks.list, { owner, repo }, { schema: undefined });
  // A route without a response schema cannot be called.
  // @ts-expect-error
  c.get(ROUTES.notifications.list, {});
  // @ts-expect-error
  c.post(route("POST /orgs/{org}/hooks"), { org: owner }, {});
}

describe("client types", () => {
  it("compiles the calls above (npm run typecheck)", () => {
    expectTypeOf(calls).toBeFunction();
  });
});
