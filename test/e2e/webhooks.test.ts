/**
 * End to end with the real Pulumi CLI: up, no-change preview, drift after an out-of-band change,
 * convergence, an out-of-band delete, recreation and destroy, against the sandbox server. Also
 * checks what the state file holds and counts the API requests per resource.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { PulumiProgram, requirePulumi } from "./pulumi";

const HOOK_SECRET = "e2e-hook-secret-4f1c";
const GLOBAL_SECRET = "e2e-global-secret-9a2b";
const TOKEN = "svcp_siteadmin";

const PROGRAM = `
const hosting = require("pulumi-hosting");
const ci = new hosting.RepositoryWebhook("ci", {
  owner: "acme-eng",
  repository: "api",
  url: "https://ci.example.com/hook",
  contentType: "json",
  secret: "${HOOK_SECRET}",
  events: ["push", "pull_request"],
});
const audit = new hosting.GlobalWebhook("audit", {
  url: "https://audit.example.com/hook",
  secret: "${GLOBAL_SECRET}",
  events: ["organization", "user", "repository"],
});
exports.hookId = ci.hookId;
exports.globalHookId = audit.hookId;
`;

let emulator: RunningEmulator;
let program: PulumiProgram;

/** Requests since the last call, split by resource family (repository vs global webhooks). */
function requestsSince(): { repository: number; global: number; other: number } {
  const counts = { repository: 0, global: 0, other: 0 };
  for (const r of emulator.controls.log) {
    if (r.path.startsWith("/repos/")) counts.repository++;
    else if (r.path.startsWith("/admin/hooks")) counts.global++;
    else counts.other++;
  }
  emulator.controls.clearLog();
  return counts;
}

async function apiCall(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status).toBeLessThan(300);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

const figures: Record<string, unknown> = {};

beforeAll(async () => {
  requirePulumi();
  emulator = await startEmulator({ port: 0 });
  program = new PulumiProgram("webhooks", PROGRAM);
  await program.initStack(emulator.origin, TOKEN);
});

afterAll(async () => {
  console.log(`e2e figures: ${JSON.stringify(figures, null, 2)}`);
  await emulator?.close();
});

describe("webhooks end to end", () => {
  it("creates both webhooks", async () => {
    emulator.controls.clearLog();
    await program.ok("up", "--yes");
    figures.create = requestsSince();
    const state = emulator.store.state;
    expect(state.repoHooks).toHaveLength(1);
    expect(state.repoHooks[0]).toMatchObject({ events: ["push", "pull_request"], active: true });
    expect(state.repoHooks[0]?.config).toMatchObject({ content_type: "json", secret: HOOK_SECRET });
    expect(state.globalHooks[0]?.config.secret).toBe(GLOBAL_SECRET);
  });

  it("keeps secrets and the token out of the state file, and __provider small", () => {
    const file = program.stateFile();
    expect(file).not.toContain(TOKEN);
    expect(file).not.toContain(HOOK_SECRET);
    expect(file).not.toContain(GLOBAL_SECRET);
    const sizes: Record<string, number> = {};
    for (const r of program.resources()) {
      const provider = r.outputs?.__provider;
      if (typeof provider !== "string") continue;
      sizes[r.type] = provider.length;
      expect(provider.length).toBeLessThanOrEqual(512);
    }
    expect(Object.keys(sizes)).toHaveLength(2);
    figures.providerBytes = sizes;
  });

  it("previews no changes right after up", async () => {
    emulator.controls.clearLog();
    const preview = await program.run("preview", "--expect-no-changes");
    expect(preview.code, preview.output).toBe(0);
    figures.previewWithoutRefresh = requestsSince();
    const refresh = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(refresh.code, refresh.output).toBe(0);
    figures.refresh = requestsSince();
  });

  it("reports a change made outside Pulumi, naming the field", async () => {
    const hookId = emulator.store.state.repoHooks[0]?.id;
    await apiCall("PATCH", `/repos/acme-eng/api/hooks/${hookId}`, {
      active: false,
      config: { url: "https://ci.example.com/hook", content_type: "json", secret: HOOK_SECRET },
    });
    const drift = await program.run("preview", "--refresh", "--expect-no-changes", "--diff");
    expect(drift.code).not.toBe(0);
    // The refresh shows the server's change; the update sets the program's value back (the
    // program leaves `active` at its default, so the update removes the `false` read back).
    expect(drift.output).toMatch(/active\s*:\s*true\s*=>\s*false/);
    expect(drift.output).toMatch(/-\s*active\s*:\s*false/);
    expect(drift.output).not.toMatch(/secret\s*:.*=>/);
    const refreshOnly = await program.run("refresh", "--preview-only", "--expect-no-changes");
    expect(refreshOnly.code).not.toBe(0);
  });

  it("converges on up and previews clean again", async () => {
    await program.ok("up", "--refresh", "--yes");
    expect(emulator.store.state.repoHooks[0]?.active).toBe(true);
    expect(emulator.store.state.repoHooks[0]?.config.secret).toBe(HOOK_SECRET);
    const clean = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
  });

  it("does not report reordered events as drift", async () => {
    const hookId = emulator.store.state.repoHooks[0]?.id;
    await apiCall("PATCH", `/repos/acme-eng/api/hooks/${hookId}`, {
      events: ["pull_request", "push"],
      config: { url: "https://ci.example.com/hook", content_type: "json", secret: HOOK_SECRET },
    });
    const clean = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
  });

  it("drops a webhook deleted outside Pulumi on refresh and recreates it on up", async () => {
    const oldId = emulator.store.state.repoHooks[0]?.id;
    await apiCall("DELETE", `/repos/acme-eng/api/hooks/${oldId}`);
    await program.ok("refresh", "--yes");
    expect(program.resources().some((r) => r.type.endsWith("hosting:RepositoryWebhook"))).toBe(false);
    await program.ok("up", "--yes");
    const hooks = emulator.store.state.repoHooks;
    expect(hooks).toHaveLength(1);
    expect(hooks[0]?.id).not.toBe(oldId);
    expect(hooks[0]?.config.secret).toBe(HOOK_SECRET);
  });

  it("destroy leaves no webhook on the server", async () => {
    await program.ok("destroy", "--yes");
    expect(emulator.store.state.repoHooks).toEqual([]);
    expect(emulator.store.state.globalHooks).toEqual([]);
  });
});
