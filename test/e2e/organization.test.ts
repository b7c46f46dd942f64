/**
 * Organization through the real Pulumi CLI: a rename by `pulumi up` waits for the platform's rename
 * job (made to take a moment with the sandbox's job delay) and leaves a clean drift check; a change
 * of a create-only field fails the preview naming it, with no request; destroy leaves the
 * organisation and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { PulumiProgram, requirePulumi } from "./pulumi";

const JOB_DELAY_MS = 3_000;

let emulator: RunningEmulator;
let program: PulumiProgram;

function programOf(login: string, admin = "olivia"): string {
  return `
const hosting = require("pulumi-hosting");
const org = new hosting.Organization("platform", { login: "${login}", admin: "${admin}", profileName: "ACME Platform" });
exports.orgId = org.orgId;
`;
}

const orgWithLogin = (login: string) => emulator.store.state.fixture.orgs.find((o) => o.login === login);

beforeAll(async () => {
  requirePulumi();
  emulator = await startEmulator({ port: 0 });
  program = new PulumiProgram("organization", programOf("acme-platform"));
  await program.initStack(emulator.origin, "svcp_siteadmin");
});

afterAll(async () => {
  await emulator?.close();
});

describe("Organization end to end", () => {
  it("creates the organisation", async () => {
    await program.ok("up", "--yes", "--skip-preview");
    expect(orgWithLogin("acme-platform")?.members.olivia?.role).toBe("admin");
  });

  it("renames it in place, waiting for the rename job, and the drift check is then clean", async () => {
    const id = orgWithLogin("acme-platform")?.id;
    const put = await fetch(`${emulator.origin}/_emulator/jobs`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ delayMs: JOB_DELAY_MS }),
    });
    expect(put.status).toBe(200);
    program.declare(programOf("acme-core"));
    emulator.controls.clearLog();
    const started = Date.now();
    const up = await program.ok("up", "--yes", "--skip-preview", "--diff");
    expect(Date.now() - started).toBeGreaterThanOrEqual(JOB_DELAY_MS);
    expect(up.output).toMatch(/login\s*:\s*"acme-platform"\s*=>\s*"acme-core"/);
    expect(up.output).toMatch(/1 updated/);
    const log = emulator.controls.log.map((r) => `${r.method} ${r.route}`);
    expect(log.filter((r) => r === "PATCH /admin/organizations/{org}")).toHaveLength(1);
    // Polled until the new name answered.
    expect(log.filter((r) => r === "GET /orgs/{org}").length).toBeGreaterThan(1);
    expect(orgWithLogin("acme-core")?.id).toBe(id);
    expect(orgWithLogin("acme-platform")).toBeUndefined();
    const drift = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(drift.code, drift.output).toBe(0);
  });

  it("refuses a change of admin at preview, naming it, with no request", async () => {
    program.declare(programOf("acme-core", "mona"));
    emulator.controls.clearLog();
    const preview = await program.run("preview");
    expect(preview.code).not.toBe(0);
    expect(preview.output).toMatch(/admin is used only when the organisation is created and cannot change/);
    expect(emulator.controls.log).toEqual([]);
    program.declare(programOf("acme-core"));
  });

  it("destroy leaves the organisation and says so", async () => {
    const destroy = await program.ok("destroy", "--yes", "--skip-preview");
    expect(destroy.output).toContain(
      "Organization acme-core: the API cannot delete organisations; it is left in place and no longer managed by this stack",
    );
    expect(orgWithLogin("acme-core")).toBeDefined();
  });
});
