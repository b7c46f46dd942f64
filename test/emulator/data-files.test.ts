/**
 * Data files written by earlier versions' own servers (test/emulator/data-files/, made by
 * `write.mjs` from checkouts of those versions) open with this one and keep everything they hold:
 * `0.2.0.state`, the JSON state file of release 0.2.0 (schema 2; not named `.json`, so the formatter
 * leaves it as that server wrote it), and `main-41a41d3.db`, the SQLite
 * database of the sandbox before its families had folders (schema 3, with a branch rename still
 * queued). Each test opens a copy, so the files stay as those versions wrote them.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { API_VERSION_2026 } from "../../api";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { call, control, type Json, MASK } from "./helpers";

const FILES = join(__dirname, "data-files");
const V2026 = { headers: { "x-service-api-version": API_VERSION_2026 } };

let dir: string;
const running: RunningEmulator[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "sandbox-data-files-"));
});

afterEach(async () => {
  for (const emulator of running.splice(0)) await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A server on a copy of the data file `name`, at `as` (the server tells the format by content). */
async function open(name: string, as = name): Promise<{ emulator: RunningEmulator; file: string }> {
  const file = join(dir, as);
  if (!existsSync(file)) copyFileSync(join(FILES, name), file);
  const emulator = await startEmulator({ port: 0, data: file });
  running.push(emulator);
  return { emulator, file };
}

async function restart(emulator: RunningEmulator, file: string): Promise<RunningEmulator> {
  running.splice(running.indexOf(emulator), 1);
  await emulator.close();
  const again = await startEmulator({ port: 0, data: file });
  running.push(again);
  return again;
}

async function ok(emulator: RunningEmulator, path: string, options = {}): Promise<Json> {
  const response = await call(emulator, "GET", path, options);
  expect(response.status, `GET ${path}: ${response.text}`).toBe(200);
  return response.body;
}

/** What every file holds: one object of each family 0.2.0 served, made through its API. */
async function expectRelease020Objects(emulator: RunningEmulator): Promise<void> {
  const hooks = await ok(emulator, "/repos/acme-eng/api/hooks");
  expect(hooks).toHaveLength(1);
  expect(hooks[0]).toMatchObject({
    events: ["push", "pull_request"],
    config: { url: "https://hooks.example.com/data-file", content_type: "json", secret: MASK },
  });
  const deliveries = await ok(emulator, `/repos/acme-eng/api/hooks/${hooks[0].id}/deliveries`);
  expect(deliveries.map((d: Json) => d.event)).toEqual(["ping"]);
  const globals = await ok(emulator, "/admin/hooks");
  expect(globals.map((h: Json) => h.config.url)).toEqual(["https://global.example.com/data-file"]);

  const groups = await ok(emulator, "/orgs/acme-eng/actions/runner-groups");
  expect(groups.runner_groups.map((g: Json) => g.name)).toEqual(["Default", "data-file-group"]);
  const runners = await ok(
    emulator,
    `/orgs/acme-eng/actions/runner-groups/${groups.runner_groups[0].id}/runners`,
  );
  expect(runners.runners.map((r: Json) => r.id)).toEqual([1, 2, 3, 4]);

  expect(await ok(emulator, "/orgs/acme-eng/memberships/mona")).toMatchObject({
    state: "pending",
    role: "member",
  });
  const rules = await ok(emulator, "/repos/acme-eng/api/environments/production/deployment_protection_rules");
  expect(rules.custom_deployment_protection_rules.map((r: Json) => r.app.id)).toEqual([101]);
  expect(await ok(emulator, "/repos/acme-eng/api/properties/values")).toEqual([
    { property_name: "tier", value: "gold" },
  ]);
  expect(await ok(emulator, "/organizations/acme-eng/org-properties/values", V2026)).toEqual([
    { property_name: "regions", value: ["eu", "us"] },
  ]);
  const budgets = await ok(emulator, "/enterprises/acme/settings/billing/budgets", V2026);
  expect(budgets.budgets).toHaveLength(1);
  expect(budgets.budgets[0]).toMatchObject({ budget_amount: 40, budget_entity_name: "acme-eng" });
  const registries = await ok(emulator, "/orgs/acme-eng/private-registries");
  expect(registries.configurations.map((r: Json) => r.name)).toEqual(["NPM_REGISTRY_SECRET"]);
  const value = await control(emulator, "GET", "/orgs/acme-eng/private-registries/NPM_REGISTRY_SECRET/value");
  expect(value.body).toEqual({ name: "NPM_REGISTRY_SECRET", value: "data-file-token" });
}

/** Ids the file has handed out are not handed out again. */
async function expectNewIds(emulator: RunningEmulator): Promise<void> {
  const before = await ok(emulator, "/repos/acme-eng/api/hooks");
  const created = await call(emulator, "POST", "/repos/acme-eng/api/hooks", {
    body: { config: { url: "https://hooks.example.com/after-upgrade" } },
  });
  expect(created.status, created.text).toBe(201);
  expect(created.body.id).toBeGreaterThan(before[0].id);
  const group = await call(emulator, "POST", "/orgs/acme-eng/actions/runner-groups", {
    body: { name: "after" },
  });
  expect(group.status, group.text).toBe(201);
  const groups = await ok(emulator, "/orgs/acme-eng/actions/runner-groups");
  expect(new Set(groups.runner_groups.map((g: Json) => g.id)).size).toBe(groups.runner_groups.length);
}

describe("a data file written by 0.2.0 (JSON, schema 2)", () => {
  it("opens with every object it holds, gains the later families' seed, and keeps the JSON beside it", async () => {
    const { emulator, file } = await open("0.2.0.state", "sandbox.json");
    expect(existsSync(`${file}.schema-2.json`)).toBe(true);
    await expectRelease020Objects(emulator);
    // The families added after 0.2.0 start from the fixture.
    const branches = await ok(emulator, "/repos/acme-eng/api/branches");
    expect(branches.map((b: Json) => b.name)).toEqual(["develop", "main", "release/1.0"]);
    const threads = await ok(emulator, "/notifications", V2026);
    expect(threads.map((t: Json) => t.id)).toEqual(["2", "1"]);
    const alerts = await ok(emulator, "/repos/acme-eng/api/depwatch/alerts", V2026);
    expect(alerts.map((a: Json) => a.number)).toEqual([3, 2, 1]);
    // The fixture's tokens are kept as 0.2.0 wrote them, so the administrator's has no key scope.
    expect(await ok(emulator, "/users/admin/keys")).toEqual([]);
    await expectNewIds(emulator);
  });

  it("reads the same after a restart on the upgraded database", async () => {
    const { emulator, file } = await open("0.2.0.state", "sandbox.json");
    const again = await restart(emulator, file);
    await expectRelease020Objects(again);
    await expectNewIds(again);
  });
});

describe("a data file written by main at 41a41d3 (SQLite, schema 3)", () => {
  it("opens with every object it holds, and finishes the branch rename it had queued", async () => {
    const { emulator } = await open("main-41a41d3.db");
    await expectRelease020Objects(emulator);
    const keys = await ok(emulator, "/user/keys");
    expect(keys.map((k: Json) => k.title)).toEqual(["data-file"]);
    expect((await ok(emulator, "/orgs/acme-eng/blocks")).map((u: Json) => u.login)).toEqual(["hubot"]);
    expect((await ok(emulator, "/orgs/acme-eng/issue-types")).map((t: Json) => t.name)).toEqual(["Incident"]);
    const alert = await ok(emulator, "/repos/acme-eng/api/depwatch/alerts/2", V2026);
    expect(alert).toMatchObject({ state: "dismissed", dismissed_reason: "tolerable_risk" });
    // Every thread was marked read before the file was closed.
    expect(await ok(emulator, "/notifications", V2026)).toEqual([]);
    expect(await ok(emulator, "/notifications?all=true", V2026)).toHaveLength(3);
    // The rename was due long ago: the first request ran it.
    expect((await control(emulator, "GET", "/jobs")).body.pending).toEqual([]);
    const branches = await ok(emulator, "/repos/acme-eng/api/branches");
    expect(branches.map((b: Json) => b.name)).toEqual(["develop", "main", "release/1.1"]);
    const moved = await call(emulator, "GET", "/repos/acme-eng/api/branches/release%2F1.0", {
      redirect: "manual",
    });
    expect(moved.status).toBe(301);
    await expectNewIds(emulator);
  });
});
