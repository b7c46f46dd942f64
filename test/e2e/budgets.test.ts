/**
 * Budget end to end with the real Pulumi CLI against the sandbox server: create, a no-change preview
 * with no request, an amount changed outside Pulumi (drift naming `amount`, fixed by up), recipients
 * reordered outside Pulumi (no drift), a budget deleted outside Pulumi (dropped by refresh, recreated
 * by up), the budgets feature turned off (a clear error, nothing dropped), bad arguments refused at
 * preview naming the field with no request, and destroy. Logs the API requests per operation.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { ORG_BUDGET_ARGS, USER_BUDGET_ARGS } from "../provider/resources/budget-args";
import { PulumiProgram, requirePulumi } from "./pulumi";

const TOKEN = "svcp_siteadmin";
const B = "/enterprises/acme/settings/billing/budgets";

const ACTIONS = ORG_BUDGET_ARGS;
const MONA = USER_BUDGET_ARGS;

/** A program declaring these budgets by name and exporting each one's id. */
function programOf(budgets: Record<string, object>): string {
  const lines = Object.entries(budgets).map(
    ([name, args]) =>
      `exports[${JSON.stringify(name)}] = new hosting.Budget(${JSON.stringify(name)}, ${JSON.stringify(args)}).budgetId;`,
  );
  return `const hosting = require("pulumi-hosting");\n${lines.join("\n")}\n`;
}

let emulator: RunningEmulator;
let program: PulumiProgram;
const figures: Record<string, unknown> = {};

function declare(budgets: Record<string, object>): void {
  writeFileSync(join(program.dir, "index.js"), programOf(budgets));
}

/** Budget requests since the last call, as `METHOD route: count`. */
function requestsSince(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of emulator.controls.log)
    counts[`${r.method} ${r.route}`] = (counts[`${r.method} ${r.route}`] ?? 0) + 1;
  emulator.controls.clearLog();
  return counts;
}

const actionsBudget = () => emulator.store.state.budgets.find((b) => b.scope === "organization");

async function apiCall(method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      "content-type": "application/json",
      "x-service-api-version": "2026-03-10", // the one version budgets exist in
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, await response.text()).toBe(200);
}

async function feature(enabled: boolean): Promise<void> {
  const response = await fetch(`${emulator.origin}/_emulator/enterprises/acme/features/budgets`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ enabled }),
  });
  expect(response.status).toBe(200);
}

const stackBudgets = () =>
  program
    .resources()
    .filter((r) => r.type.endsWith("hosting:Budget"))
    .map((r) => r.urn.split("::").at(-1))
    .sort();

beforeAll(async () => {
  requirePulumi();
  emulator = await startEmulator({ port: 0 });
  program = new PulumiProgram("budgets", programOf({ actions: ACTIONS, mona: MONA }));
  await program.ok("stack", "init", "dev");
  await program.ok("config", "set", "hosting:baseUrl", emulator.origin);
  await program.ok("config", "set", "--secret", "hosting:token", TOKEN);
});

afterAll(async () => {
  console.log(`e2e figures (budgets): ${JSON.stringify(figures, null, 2)}`);
  await emulator?.close();
});

describe("Budget end to end", () => {
  it("creates both budgets with one request each", async () => {
    emulator.controls.clearLog();
    await program.ok("up", "--yes");
    figures.create = requestsSince();
    expect(figures.create).toEqual({ [`POST ${B.replace("acme", "{enterprise}")}`]: 2 });
    expect(emulator.store.state.budgets.map((b) => [b.scope, b.amount]).sort()).toEqual([
      ["organization", 100],
      ["user", 30],
    ]);
    const file = program.stateFile();
    expect(file).not.toContain(TOKEN);
    for (const r of program.resources().filter((x) => x.type.endsWith("hosting:Budget"))) {
      expect(String(r.outputs?.__provider).length).toBeLessThanOrEqual(512);
      expect(r.id).toBe(`acme/${r.outputs?.budgetId}`);
    }
  });

  it("previews no change with no request, and refreshes with one read each", async () => {
    const previews = await program.noChangePreviews(requestsSince);
    figures.previewWithoutRefresh = previews.withoutRefresh;
    figures.previewWithRefresh = previews.withRefresh;
    expect(previews.withoutRefresh).toEqual({});
    expect(previews.withRefresh).toEqual({
      "GET /enterprises/{enterprise}/settings/billing/budgets/{budget_id}": 2,
    });
  });

  it("an amount changed outside Pulumi is drift naming amount; reordered recipients are not", async () => {
    await apiCall("PATCH", `${B}/${actionsBudget()?.id}`, {
      budget_alerting: { alert_recipients: ["admin", "billie"] },
    });
    const clean = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
    await apiCall("PATCH", `${B}/${actionsBudget()?.id}`, { budget_amount: 500 });
    const drift = await program.run("preview", "--refresh", "--expect-no-changes", "--diff");
    expect(drift.code).not.toBe(0);
    expect(drift.output).toMatch(/amount\s*:\s*500\s*=>\s*100/);
    // Only amount is marked as changed (`~`); the recipients' new order is not even shown as one.
    expect(drift.output).not.toMatch(/~ (alerting|recipients|\[0\]|productSku|scope|entityName)/);
    const refreshOnly = await program.run("refresh", "--preview-only", "--expect-no-changes");
    expect(refreshOnly.code).not.toBe(0);
  });

  it("up converges the amount in place and previews clean again", async () => {
    const id = actionsBudget()?.id;
    emulator.controls.clearLog();
    await program.ok("up", "--refresh", "--yes");
    figures.converge = requestsSince();
    expect(actionsBudget()).toMatchObject({ id, amount: 100 });
    const clean = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
  });

  it("a budget deleted outside Pulumi is dropped by refresh and recreated by up", async () => {
    const oldId = actionsBudget()?.id;
    await apiCall("DELETE", `${B}/${oldId}`);
    emulator.controls.clearLog();
    await program.ok("refresh", "--yes");
    figures.refreshAfterDelete = requestsSince();
    expect(stackBudgets()).toEqual(["mona"]);
    await program.ok("up", "--yes");
    expect(actionsBudget()?.id).not.toBe(oldId);
    expect(emulator.store.state.budgets).toHaveLength(2);
    expect(stackBudgets()).toEqual(["actions", "mona"]);
  });

  it("with the budgets feature off, refresh fails saying so and what to do, and drops nothing", async () => {
    await feature(false);
    const failed = await program.run("refresh", "--yes");
    expect(failed.code).not.toBe(0);
    expect(failed.output).toContain(
      'budgets are not enabled for enterprise acme (the server answered 404 "Feature not enabled")',
    );
    expect(failed.output).toContain("Turn on budgets (enhanced billing) in the billing settings of acme");
    expect(stackBudgets()).toEqual(["actions", "mona"]);
    await feature(true);
    const clean = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
  });

  it.each([
    [
      "amount",
      { actions: { ...ACTIONS, amount: 12.5 } },
      /amount must be a whole number of dollars \(or licenses\)/,
    ],
    [
      "preventFurtherUsage",
      { mona: { ...MONA, preventFurtherUsage: false } },
      /preventFurtherUsage must be true with scope \\?"user\\?"/,
    ],
    [
      "productSku",
      { linux: { ...ACTIONS, type: "SkuPricing", productSku: "actions" } },
      /productSku of a \\?"SkuPricing\\?" budget must be one of/,
    ],
  ])("a bad %s fails at preview naming the field, with no request", async (field, change, reason) => {
    declare({ actions: ACTIONS, mona: MONA, ...change });
    emulator.controls.clearLog();
    const preview = await program.run("preview");
    expect(preview.code).not.toBe(0);
    expect(preview.output).toContain(`property ${field} value`);
    expect(preview.output).toMatch(reason);
    expect(requestsSince()).toEqual({});
    declare({ actions: ACTIONS, mona: MONA });
  });

  it("destroy leaves no budget on the server", async () => {
    emulator.controls.clearLog();
    await program.ok("destroy", "--yes");
    figures.destroy = requestsSince();
    expect(figures.destroy).toEqual({
      "DELETE /enterprises/{enterprise}/settings/billing/budgets/{budget_id}": 2,
    });
    expect(emulator.store.state.budgets).toEqual([]);
    expect(stackBudgets()).toEqual([]);
  });
});
