/**
 * PrivateRegistry end to end with the real Pulumi CLI against the sandbox server: create, a
 * no-change preview with no request, the key rotated between two ups with the value changed in
 * code, url and visibility changed outside Pulumi (drift naming the field), an out-of-band delete,
 * bad inputs refused at preview naming the field, and destroy. The values must appear in no state
 * file, log line, error or `__provider`: every CLI output is kept and searched, with the client's
 * request log switched on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { api } from "../provider/resources/helpers";
import { PulumiProgram, type RunResult, requirePulumi, takeRequests } from "./pulumi";

const TOKEN = "svcp_siteadmin";
const FIRST = "e2e-registry-token-31c9";
const SECOND = "e2e-registry-token-rotated-8e04";
const R = "/orgs/acme-eng/private-registries";

const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const hosting = require("pulumi-hosting");
const config = new pulumi.Config();
const npm = new hosting.PrivateRegistry("npm", {
  org: "acme-eng",
  registryType: "npm_registry",
  url: "https://npm.example.com/registry",
  visibility: "selected",
  selectedRepositoryIds: [1000],
  username: "ci-bot",
  value: config.requireSecret("registryValue"),
});
const maven = new hosting.PrivateRegistry("maven", {
  org: "acme-eng",
  registryType: "maven_repository",
  url: "https://jfrog.example.com/maven",
  visibility: "all",
  authType: "oidc_jfrog",
  jfrogOidcProviderName: "acme",
});
if (config.getBoolean("bad")) {
  new hosting.PrivateRegistry("bad", {
    org: "acme-eng",
    registryType: "docker_registry",
    url: "https://docker.example.com",
    visibility: "all",
    authType: "oidc_azure",
    value: config.requireSecret("registryValue"),
  });
}
exports.npmName = npm.name;
exports.mavenName = maven.name;
`;

interface PlanStep {
  op: string;
  urn: string;
  oldState?: { inputs?: Record<string, unknown> };
  newState?: { inputs?: Record<string, unknown> };
}

let emulator: RunningEmulator;
let program: PulumiProgram;
/** Every CLI output of the run, searched for the values at the end. */
let transcript = "";
const figures: Record<string, unknown> = {};

async function run(...args: string[]): Promise<RunResult> {
  const result = await program.run(...args);
  // Only what the CLI printed: the arguments of `config set` hold the value.
  transcript += `\n${result.output}`;
  return result;
}

async function ok(...args: string[]): Promise<RunResult> {
  const result = await run(...args);
  if (result.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${result.code}:\n${result.output}`);
  return result;
}

/** Registry requests since the last call, as `METHOD route: count`; other requests fail the test. */
function requests(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of emulator.controls.log) {
    expect(r.path.startsWith(R), r.path).toBe(true);
    const key = `${r.method} ${r.route.replace("/orgs/{org}/private-registries", "")}`.trim();
    counts[key] = (counts[key] ?? 0) + 1;
  }
  emulator.controls.clearLog();
  return counts;
}

function held(name: string): string | null | undefined {
  return emulator.store.state.privateRegistries.find((r) => r.name === name)?.value;
}

/** A change made outside Pulumi, as an administrator would make it. */
async function apiCall(method: string, path: string, body?: unknown): Promise<void> {
  expect((await api(emulator, method, path, body, TOKEN)).status).toBeLessThan(300);
}

beforeAll(async () => {
  requirePulumi();
  emulator = await startEmulator({ port: 0 });
  // The client logs every request to stderr, which the CLI shows: the log lines are searched too.
  const debug = process.env.HOSTING_DEBUG;
  process.env.HOSTING_DEBUG = "1";
  try {
    program = new PulumiProgram("registries", PROGRAM);
  } finally {
    if (debug === undefined) delete process.env.HOSTING_DEBUG;
    else process.env.HOSTING_DEBUG = debug;
  }
  await ok("stack", "init", "dev");
  await ok("config", "set", "hosting:baseUrl", emulator.origin);
  await ok("config", "set", "--secret", "hosting:token", TOKEN);
  await ok("config", "set", "--secret", "registryValue", FIRST);
});

afterAll(async () => {
  console.log(`e2e figures: ${JSON.stringify(figures, null, 2)}`);
  await emulator?.close();
});

describe("private registries end to end", () => {
  it("creates both; the server holds exactly the value", async () => {
    emulator.controls.clearLog();
    await ok("up", "--yes");
    figures.create = requests();
    expect(figures.create).toEqual({ "GET /public-key": 1, POST: 2 });
    expect(held("NPM_REGISTRY_SECRET")).toBe(FIRST);
    expect(held("MAVEN_REPOSITORY_SECRET")).toBeNull();
    const npm = emulator.store.state.privateRegistries.find((r) => r.name === "NPM_REGISTRY_SECRET");
    expect(npm).toMatchObject({ visibility: "selected", selectedRepositoryIds: [1000], username: "ci-bot" });
  });

  it("keeps the value, any ciphertext of it and the token out of the state file; the digest is a secret", () => {
    const file = program.stateFile();
    expect(file).not.toContain(FIRST);
    expect(file).not.toContain(TOKEN);
    expect(file).not.toContain("encrypted_value");
    const npm = program
      .resources()
      .find((r) => r.type.endsWith("hosting:PrivateRegistry") && r.id?.endsWith("NPM_REGISTRY_SECRET"));
    const raw = npm as { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> } | undefined;
    // Both are encrypted secrets (the engine's `ciphertext` form), never the digest in the clear.
    expect(JSON.stringify(raw?.inputs?.value)).toContain("ciphertext");
    expect(JSON.stringify(raw?.outputs?.value)).toContain("ciphertext");
    expect(file).not.toMatch(/scrypt\$/);
    for (const r of program.resources()) {
      const provider = r.outputs?.__provider;
      if (typeof provider === "string") expect(provider.length).toBeLessThanOrEqual(512);
    }
  });

  it("previews no change with no request, and refreshes clean", async () => {
    const { withoutRefresh: plain, withRefresh: refresh } = await program.noChangePreviews(
      takeRequests(emulator.controls),
    );
    figures.previewWithoutRefresh = plain;
    figures.refresh = refresh;
    expect(plain).toEqual({});
    expect(refresh).toEqual({ "GET /orgs/{org}/private-registries/{secret_name}": 2 });
  });

  it("sends a value changed in code, sealed for a key rotated since the last up", async () => {
    await fetch(`${emulator.origin}/_emulator${R}/public-key/rotate`, { method: "POST" });
    await ok("config", "set", "--secret", "registryValue", SECOND);
    // Dynamic providers report no per-field diff, and the plan shows secrets masked: the update of
    // npm differs from its recorded inputs in nothing but the (secret) value.
    const preview = await run("preview", "--json");
    expect(preview.code, preview.output).toBe(0);
    const steps = (JSON.parse(preview.stdout) as { steps: PlanStep[] }).steps.filter((s) => s.op !== "same");
    expect(steps.map((s) => [s.op, s.urn.split("::").at(-1)])).toEqual([["update", "npm"]]);
    const before = steps[0]?.oldState?.inputs ?? {};
    const after = steps[0]?.newState?.inputs ?? {};
    const shown = JSON.stringify(steps[0]);
    expect(Object.keys(after).length, shown).toBeGreaterThan(5);
    const differing = Object.keys(after).filter(
      (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
    );
    expect(
      differing.filter((k) => k !== "value"),
      shown,
    ).toEqual([]);
    expect(shown).not.toMatch(/scrypt\$/);
    emulator.controls.clearLog();
    await ok("up", "--yes");
    figures.valueUpdate = requests();
    expect(figures.valueUpdate).toEqual({
      "GET /public-key": 1,
      "PATCH /{secret_name}": 1,
      "GET /{secret_name}": 1,
    });
    expect(held("NPM_REGISTRY_SECRET")).toBe(SECOND);
    const clean = await run("preview", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
  });

  it("reports url and visibility changed outside Pulumi, naming the fields, and converges", async () => {
    await apiCall("PATCH", `${R}/NPM_REGISTRY_SECRET`, { url: "https://elsewhere.example.com" });
    await apiCall("PATCH", `${R}/MAVEN_REPOSITORY_SECRET`, { visibility: "private" });
    const drift = await run("preview", "--refresh", "--expect-no-changes", "--diff");
    expect(drift.code).not.toBe(0);
    expect(drift.output).toMatch(
      /url\s*:\s*"https:\/\/elsewhere\.example\.com"\s*=>\s*"https:\/\/npm\.example\.com\/registry"/,
    );
    expect(drift.output).toMatch(/visibility\s*:\s*"private"\s*=>\s*"all"/);
    const refreshOnly = await run("refresh", "--preview-only", "--expect-no-changes");
    expect(refreshOnly.code).not.toBe(0);
    await ok("up", "--refresh", "--yes");
    const registries = emulator.store.state.privateRegistries;
    expect(registries.find((r) => r.name === "NPM_REGISTRY_SECRET")?.url).toBe(
      "https://npm.example.com/registry",
    );
    expect(registries.find((r) => r.name === "MAVEN_REPOSITORY_SECRET")?.visibility).toBe("all");
    expect(held("NPM_REGISTRY_SECRET")).toBe(SECOND);
    const clean = await run("preview", "--refresh", "--expect-no-changes");
    expect(clean.code, clean.output).toBe(0);
  });

  it("drops a registry deleted outside Pulumi on refresh and recreates it, value included, on up", async () => {
    await apiCall("DELETE", `${R}/NPM_REGISTRY_SECRET`);
    await ok("refresh", "--yes");
    expect(program.resources().some((r) => r.id === "acme-eng/NPM_REGISTRY_SECRET")).toBe(false);
    emulator.controls.clearLog();
    await ok("up", "--yes");
    figures.recreate = requests();
    expect(held("NPM_REGISTRY_SECRET")).toBe(SECOND);
    expect(emulator.store.state.privateRegistries).toHaveLength(2);
  });

  it("refuses bad inputs at preview, naming the fields, with no request and without the value", async () => {
    await ok("config", "set", "bad", "true");
    emulator.controls.clearLog();
    const bad = await run("preview");
    expect(bad.code).not.toBe(0);
    expect(bad.output).toMatch(/value is not used with authType "oidc_azure"/);
    expect(bad.output).toMatch(/tenantId is required with authType "oidc_azure"/);
    expect(requests()).toEqual({});
    await ok("config", "rm", "bad");
  });

  it("destroy leaves no registry on the server", async () => {
    await ok("destroy", "--yes");
    expect(emulator.store.state.privateRegistries).toEqual([]);
  });

  it("never showed the values in any output, the client's request log included", () => {
    expect(transcript).toContain("hosting: POST /orgs/acme-eng/private-registries");
    expect(transcript).not.toContain(FIRST);
    expect(transcript).not.toContain(SECOND);
  });
});
