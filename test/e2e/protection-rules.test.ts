/**
 * DeploymentProtectionRule end to end with the real Pulumi CLI against the sandbox server: create
 * on an environment whose name holds `/`, no-change previews (none without refresh sends a
 * request), bad arguments refused at preview with no request, an unavailable app refused at up
 * naming those available, a rule deleted outside Pulumi dropped by refresh and recreated by up, a
 * replacement, and destroy. Counts the API requests of each step.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { PulumiProgram, requirePulumi } from "./pulumi";

const TOKEN = "svcp_siteadmin";
const RULES = "/repos/acme-eng/api/environments/release%2Feu/deployment_protection_rules";

/** A program enabling one app on acme-eng/api's environment `release/eu`. */
function programOf(args: Record<string, unknown>): string {
  const props = JSON.stringify({ owner: "acme-eng", repository: "api", environment: "release/eu", ...args });
  return `const hosting = require("pulumi-hosting");
const gate = new hosting.DeploymentProtectionRule("release-gate", ${props});
exports.ruleId = gate.ruleId;
exports.app = gate.app.slug;
`;
}

let emulator: RunningEmulator;
let program: PulumiProgram;

function declare(args: Record<string, unknown>): void {
  writeFileSync(join(program.dir, "index.js"), programOf(args));
}

/** API requests since the last call, as `METHOD route` -> count. */
function requestsSince(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of emulator.controls.log) {
    const key = `${r.method} ${r.route}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  emulator.controls.clearLog();
  return counts;
}

/** The server's rules on acme-eng/api: [environment, app id, rule id]. */
function serverRules(): Array<[string, number, number]> {
  return emulator.store.state.protectionRules.map((r) => [r.environment, r.appId, r.id]);
}

function stackRule(): { id?: string; outputs?: Record<string, unknown> } | undefined {
  return program.resources().find((r) => r.type.endsWith("hosting:DeploymentProtectionRule"));
}

const figures: Record<string, unknown> = {};
const C = "/repos/{owner}/{repo}/environments/{environment_name}/deployment_protection_rules";

beforeAll(async () => {
  requirePulumi();
  emulator = await startEmulator({ port: 0 });
  program = new PulumiProgram("protection-rules", programOf({ integrationId: 101 }));
  await program.initStack(emulator.origin, TOKEN);
});

afterAll(async () => {
  console.log(`e2e figures: ${JSON.stringify(figures, null, 2)}`);
  await emulator?.close();
});

describe("deployment protection rules end to end", () => {
  it("refuses bad arguments at preview, naming the field, with no request", async () => {
    for (const [args, field] of [
      [{ integrationId: "101" }, "integrationId"],
      [{ integrationId: 101, environment: "" }, "environment"],
    ] as const) {
      declare(args);
      emulator.controls.clearLog();
      const preview = await program.run("preview");
      expect(preview.code, preview.output).not.toBe(0);
      expect(preview.output).toContain(field);
      expect(emulator.controls.log).toEqual([]);
    }
    figures.badInputPreview = 0;
  });

  it("refuses an app that is not available at up, naming those that are", async () => {
    declare({ integrationId: 999 });
    emulator.controls.clearLog();
    const up = await program.run("up", "--yes");
    expect(up.code).not.toBe(0);
    expect(up.output).toMatch(
      /integrationId 999 is not available .* available: deploy-gate \(101\), change-window \(102\)/,
    );
    expect(serverRules()).toEqual([]);
    figures.unavailable = requestsSince();
  });

  it("enables the app on release/eu with one write, after looking for it", async () => {
    declare({ integrationId: 101 });
    emulator.controls.clearLog();
    await program.ok("up", "--yes");
    figures.create = requestsSince();
    // The list first: an app already enabled there is adopted without a write.
    expect(figures.create).toEqual({ [`GET ${C}`]: 1, [`POST ${C}`]: 1 });
    const [rule] = serverRules();
    expect(rule?.slice(0, 2)).toEqual(["release/eu", 101]);
    const recorded = stackRule();
    expect(recorded?.id).toBe(`acme-eng/api/release%2Feu/${rule?.[2]}`);
    expect(recorded?.outputs).toMatchObject({
      environment: "release/eu",
      integrationId: 101,
      ruleId: rule?.[2],
      enabled: true,
      app: { id: 101, slug: "deploy-gate" },
    });
    const provider = recorded?.outputs?.__provider;
    expect(typeof provider === "string" && provider.length <= 512).toBe(true);
    expect(program.stateFile()).not.toContain(TOKEN);
  });

  it("previews no changes: no request without refresh, one read with it", async () => {
    emulator.controls.clearLog();
    const preview = await program.run("preview", "--expect-no-changes");
    expect(preview.code, preview.output).toBe(0);
    figures.previewWithoutRefresh = requestsSince();
    expect(figures.previewWithoutRefresh).toEqual({});
    const refresh = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(refresh.code, refresh.output).toBe(0);
    figures.previewWithRefresh = requestsSince();
    expect(figures.previewWithRefresh).toEqual({ [`GET ${C}/{protection_rule_id}`]: 1 });
  });

  it("detects a rule deleted outside Pulumi, drops it on refresh and recreates it on up", async () => {
    const oldId = serverRules()[0]?.[2];
    const removed = await fetch(`${emulator.url}${RULES}/${oldId}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(removed.status).toBe(204);
    const drift = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(drift.code).not.toBe(0);
    expect(drift.output).toMatch(/\+\s+.*release-gate\s+create/);
    await program.ok("refresh", "--yes");
    expect(stackRule()).toBeUndefined();
    emulator.controls.clearLog();
    await program.ok("up", "--yes");
    figures.recreate = requestsSince();
    const rules = serverRules();
    expect(rules).toHaveLength(1);
    expect(rules[0]?.[2]).not.toBe(oldId);
    expect(stackRule()?.id).toBe(`acme-eng/api/release%2Feu/${rules[0]?.[2]}`);
    const clean = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
  });

  it("replaces the rule when the app changes", async () => {
    declare({ integrationId: 102 });
    emulator.controls.clearLog();
    const up = await program.ok("up", "--yes");
    expect(up.output).toMatch(/replaced/);
    figures.replace = requestsSince();
    expect(serverRules().map((r) => r.slice(0, 2))).toEqual([["release/eu", 102]]);
    expect(stackRule()?.outputs).toMatchObject({ integrationId: 102, app: { slug: "change-window" } });
  });

  it("destroy leaves no rule on the server", async () => {
    emulator.controls.clearLog();
    await program.ok("destroy", "--yes");
    figures.destroy = requestsSince();
    expect(serverRules()).toEqual([]);
  });
});
