/**
 * Rotating `hosting:token`: plain `preview --refresh` runs with the provider configuration recorded
 * in state (the old token); `--run-program` registers the provider from the program, so the
 * current config reaches `configure` and the drift check works with the new token at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultFixture, type RunningEmulator, startEmulator } from "../../emulator/index";
import { PulumiProgram, requirePulumi } from "./pulumi";

const OLD_TOKEN = "svcp_rotation_old";
const NEW_TOKEN = "svcp_rotation_new";

const PROGRAM = `
const hosting = require("pulumi-hosting");
new hosting.RepositoryWebhook("ci", { owner: "acme-eng", repository: "api", url: "https://ci.example.com/rotate" });
`;

let emulator: RunningEmulator;
let program: PulumiProgram;

beforeAll(async () => {
  requirePulumi();
  const fixture = defaultFixture();
  const admin = fixture.tokens.svcp_siteadmin;
  if (!admin) throw new Error("the fixture lost svcp_siteadmin");
  fixture.tokens[OLD_TOKEN] = { ...admin };
  emulator = await startEmulator({ port: 0, fixture });
  program = new PulumiProgram("rotation", PROGRAM);
  await program.initStack(emulator.origin, OLD_TOKEN);
  await program.ok("up", "--yes");
});

afterAll(async () => {
  await emulator?.close();
});

describe("token rotation", () => {
  it("the drift check uses the rotated token with --run-program", async () => {
    // The platform revokes the old token and issues a new one; the stack config follows.
    const tokens = emulator.store.state.fixture.tokens;
    const old = tokens[OLD_TOKEN];
    if (!old) throw new Error("the old token is missing");
    tokens[NEW_TOKEN] = old;
    delete tokens[OLD_TOKEN];
    await program.ok("config", "set", "--secret", "hosting:token", NEW_TOKEN);

    emulator.controls.clearLog();
    const stale = await program.run("preview", "--refresh", "--expect-no-changes");
    expect(stale.code).not.toBe(0);
    expect(stale.output).toMatch(/401/);
    expect(emulator.controls.log.map((r) => r.status)).toContain(401);

    emulator.controls.clearLog();
    const current = await program.run("preview", "--refresh", "--run-program", "--expect-no-changes");
    expect(current.code, current.output).toBe(0);
    const statuses = emulator.controls.log.map((r) => r.status);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });
});
