/**
 * Upgrading from 0.1.0: a stack whose state holds the 0.1.0 serialised provider (the runtime shim,
 * recorded from a real 0.1.0 run in fixtures/provider-0.1.0.json, written into the file backend's
 * checkpoint) refreshes, previews and destroys with this version, and one `pulumi up` rewrites every
 * resource's recorded provider to the small form with no replacement and no API request.
 */
import { readFileSync } from "node:fs";
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
// A group made outside this stack (its id given as a number): an id from another resource's outputs
// would be unknown while that resource's update is previewed, and the preview would show a
// possible replacement.
new hosting.RunnerGroupRunners("ops-runners", { org: "acme-ops", runnerGroupId: Number(process.env.OPS_GROUP), runners: [5, 6] });
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
function writeAs010(): void {
  program.editState((resources) => {
    for (const r of resources as unknown as StateResource[]) {
      const kind = r.type.replace("pulumi-nodejs:dynamic/hosting:", "");
      if (kind === r.type) continue;
      const shim = PROVIDER_0_1_0[kind];
      if (!shim) throw new Error(`no 0.1.0 provider recorded for ${kind}`);
      if (r.inputs) r.inputs.__provider = shim;
      if (r.outputs) r.outputs.__provider = shim;
    }
  });
}

function hostingResources(): StateResource[] {
  return program.resources().filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/hosting:"));
}

beforeAll(async () => {
  requirePulumi();
  emulator = await startEmulator({ port: 0 });
  const made = await fetch(`${emulator.url}/orgs/acme-ops/actions/runner-groups`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "upgrade-ops" }),
  });
  const group = (await made.json()) as { id: number };
  program = new PulumiProgram("upgrade", PROGRAM, { env: { OPS_GROUP: String(group.id) } });
  await program.initStackFromEnvironment(emulator.origin, TOKEN);
  await program.ok("up", "--yes", "--skip-preview");
  writeAs010();
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

  it("refreshes with no drift and previews an update of the recorded provider only: no replacement", async () => {
    emulator.controls.clearLog();
    // The refresh runs the 0.1.0 shim's read (the code stored in state); the update is the provider's.
    const preview = await program.ok("preview", "--refresh", "--diff");
    expect(preview.output).not.toMatch(/replace/i);
    expect(preview.output).toMatch(/~ 6 to update/);
    // No field of any resource drifted: only the recorded provider differs.
    expect(preview.output).not.toMatch(/(url|events|active|name|runners|role|visibility)\s*:.*=>/);
    expect(emulator.controls.log.every((r) => r.method === "GET")).toBe(true);
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
    writeAs010();
    await program.ok("destroy", "--yes", "--skip-preview");
    const state = emulator.store.state;
    expect(state.repoHooks).toEqual([]);
    expect(state.globalHooks).toEqual([]);
    expect(state.runnerGroups.filter((g) => !g.default).map((g) => g.name)).toEqual(["upgrade-ops"]);
    expect(state.invitations).toEqual([]);
  });
});
