/**
 * Upgrading from 0.1.0: a stack whose state holds the 0.1.0 serialised provider (the runtime shim,
 * recorded from a real 0.1.0 run in fixtures/provider-0.1.0.json) refreshes, previews and destroys
 * with this version, and one `pulumi up` rewrites every resource's recorded provider to the small
 * form with no replacement and no API request.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { PulumiProgram, requirePulumi } from "./pulumi";

const TOKEN = "svcp_siteadmin";

const PROGRAM = `
const hosting = require("pulumi-hosting");
new hosting.RepositoryWebhook("ci", {
  owner: "acme-eng", repository: "api", url: "https://ci.example.com/upgrade", secret: "upgrade-secret",
});
new hosting.GlobalWebhook("audit", { url: "https://audit.example.com/upgrade" });
new hosting.OrgRunnerGroup("build", { org: "acme-eng", name: "upgrade-build" });
// The default group of acme-ops (3) with both its runners: an id from another resource's outputs
// would be unknown while that resource's update is previewed, and the preview would show a
// possible replacement.
new hosting.RunnerGroupRunners("ops-runners", { org: "acme-ops", runnerGroupId: 3, runners: [5, 6] });
new hosting.EnterpriseRunnerGroup("deploy", { enterprise: "acme", name: "upgrade-deploy", runners: [7] });
new hosting.OrgMembership("mona", { org: "acme-eng", username: "mona" });
`;

/** The `__provider` each kind had in state under 0.1.0. */
const PROVIDER_0_1_0 = JSON.parse(
  readFileSync(join(__dirname, "fixtures/provider-0.1.0.json"), "utf8"),
) as Record<string, string>;

let emulator: RunningEmulator;
let program: PulumiProgram;

interface StateResource {
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** Rewrites the stack's state as 0.1.0 left it: the runtime shim in inputs and outputs. */
async function writeAs010(): Promise<void> {
  const exported = JSON.parse((await program.ok("stack", "export")).stdout);
  for (const r of exported.deployment.resources as StateResource[]) {
    const kind = r.type.replace("pulumi-nodejs:dynamic/hosting:", "");
    if (kind === r.type) continue;
    const shim = PROVIDER_0_1_0[kind];
    if (!shim) throw new Error(`no 0.1.0 provider recorded for ${kind}`);
    if (r.inputs) r.inputs.__provider = shim;
    if (r.outputs) r.outputs.__provider = shim;
  }
  const file = join(program.dir, "state-0.1.0.json");
  writeFileSync(file, JSON.stringify(exported));
  await program.ok("stack", "import", "--file", file);
}

function hostingResources(): StateResource[] {
  return program.resources().filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/hosting:"));
}

beforeAll(async () => {
  requirePulumi();
  emulator = await startEmulator({ port: 0 });
  program = new PulumiProgram("upgrade", PROGRAM);
  await program.initStack(emulator.origin, TOKEN);
  await program.ok("up", "--yes");
  await writeAs010();
});

afterAll(async () => {
  await emulator?.close();
});

describe("a stack written by 0.1.0", () => {
  it("holds the 0.1.0 shim", () => {
    const resources = hostingResources();
    expect(resources).toHaveLength(Object.keys(PROVIDER_0_1_0).length);
    for (const r of resources) expect(r.outputs?.__provider).toContain('require("pulumi-hosting/runtime")');
  });

  it("refreshes with no change", async () => {
    emulator.controls.clearLog();
    const refresh = await program.run("refresh", "--preview-only", "--expect-no-changes");
    expect(refresh.code, refresh.output).toBe(0);
    await program.ok("refresh", "--yes");
    expect(emulator.controls.log.every((r) => r.method === "GET")).toBe(true);
  });

  it("previews an update of the recorded provider only: no replacement, no request", async () => {
    emulator.controls.clearLog();
    const preview = await program.ok("preview", "--diff");
    expect(preview.output).not.toMatch(/replace/i);
    expect(preview.output).toMatch(/~ 6 to update/);
    expect(emulator.controls.log).toEqual([]);
  });

  it("converges with one up that sends nothing to the server", async () => {
    const before = Object.fromEntries(hostingResources().map((r) => [r.type, r.id]));
    emulator.controls.clearLog();
    const up = await program.ok("up", "--yes", "--skip-preview");
    expect(up.output).not.toMatch(/replace/i);
    expect(up.output).toMatch(/~ 6 updated/);
    expect(emulator.controls.log).toEqual([]);
    const after = hostingResources();
    expect(Object.fromEntries(after.map((r) => [r.type, r.id]))).toEqual(before);
    for (const r of after) {
      const provider = String(r.outputs?.__provider);
      expect(provider).toContain('require("pulumi-hosting/kinds/');
      expect(provider.length).toBeLessThanOrEqual(512);
      expect(String(r.inputs?.__provider)).toBe(provider);
    }
    const clean = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
  });

  it("destroys with the 0.1.0 shim", async () => {
    await writeAs010();
    await program.ok("destroy", "--yes");
    const state = emulator.store.state;
    expect(state.repoHooks).toEqual([]);
    expect(state.globalHooks).toEqual([]);
    expect(state.runnerGroups.filter((g) => !g.default)).toEqual([]);
    expect(state.invitations).toEqual([]);
  });
});
