/**
 * The native plugin through the real Pulumi CLI: the YAML example (examples/plugin-yaml), with the
 * plugin installed the README's way B (the packed package in the program's node_modules, its bin
 * folder named in Pulumi.yaml), against the sandbox server: a refused token failing once on the
 * provider, create (a webhook with a secret, a runner group, an invoke), secrets encrypted in
 * state, drift repaired field by field, destroy, and `pulumi import` writing the code.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { PulumiProgram, ROOT, requirePulumi } from "./pulumi";

const TOKEN = "svcp_siteadmin";
const SECRET = "plugin-e2e-s3cret";
let emulator: RunningEmulator;

beforeAll(async () => {
  requirePulumi();
  const yaml = spawnSync("sh", ["-c", "command -v pulumi-language-yaml"], { encoding: "utf8" });
  if (yaml.status !== 0) {
    throw new Error("pulumi-language-yaml is not on PATH: run the tests with `bash scripts/test.sh`");
  }
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator?.close();
});

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return text ? JSON.parse(text) : undefined;
}

/** The example, with the plugin found in the program's node_modules/.bin (README, way B). */
function yamlProgram(): PulumiProgram {
  const program = new PulumiProgram("plugin-yaml", "");
  const example = readFileSync(join(ROOT, "examples/plugin-yaml/Pulumi.yaml"), "utf8");
  writeFileSync(
    join(program.dir, "Pulumi.yaml"),
    `${example}plugins:\n  providers:\n    - name: hosting\n      path: ./node_modules/.bin\n`,
  );
  return program;
}

describe("the native plugin from YAML", () => {
  it("checks the provider once, creates, keeps secrets, repairs drift, destroys and imports", async () => {
    const program = yamlProgram();
    await program.initStack(emulator.origin, "svcp_wrong");
    await program.ok("config", "set", "--secret", "hookSecret", SECRET);

    // A refused token fails once, on the provider, before any resource is checked.
    const refused = await program.run("preview");
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(
      /pulumi:providers:hosting resource 'default' has a problem: cannot use the API/,
    );
    expect(refused.output).not.toMatch(/hosting:index:\w+ \w+\s+error/);
    expect(refused.output).not.toContain("svcp_wrong");

    await program.ok("config", "set", "--secret", "hosting:token", TOKEN);
    const up = await program.ok("up", "--yes", "--skip-preview");
    expect(up.output).not.toContain(SECRET);
    const state = program.stateFile();
    expect(state).not.toContain(SECRET);
    expect(state).not.toContain(TOKEN);
    const byType = new Map(program.resources().map((r) => [r.type, r]));
    const hook = byType.get("hosting:index:RepositoryWebhook");
    const group = byType.get("hosting:index:OrgRunnerGroup");
    expect(hook?.id).toMatch(/^acme-eng\/api\/\d+$/);
    expect(group?.id).toMatch(/^acme-eng\/\d+$/);
    expect(byType.get("pulumi:pulumi:Stack")?.outputs).toMatchObject({
      hookId: hook?.outputs?.hookId,
      runnerGroupId: group?.outputs?.runnerGroupId,
      branches: expect.arrayContaining([expect.objectContaining({ name: "main", protected: true })]),
    });
    const hookId = Number(hook?.outputs?.hookId);
    const served = (await api("GET", `/repos/acme-eng/api/hooks/${hookId}`)) as { config: { url: string } };
    expect(served.config.url).toBe("https://ci.example.com/yaml");

    // Drift, shown field by field and repaired by `up --refresh`.
    await api("PATCH", `/repos/acme-eng/api/hooks/${hookId}`, {
      config: { url: "https://elsewhere.example.com" },
    });
    const repaired = await program.ok("up", "--refresh", "--yes", "--skip-preview");
    expect(repaired.output).toMatch(/RepositoryWebhook hook updated .*\[diff: [^\]]*url/);
    const back = (await api("GET", `/repos/acme-eng/api/hooks/${hookId}`)) as { config: { url: string } };
    expect(back.config.url).toBe("https://ci.example.com/yaml");

    await program.ok("destroy", "--yes", "--skip-preview");
    expect(await api("GET", "/repos/acme-eng/api/hooks")).toEqual([]);

    // pulumi import reads an object made outside Pulumi and writes the YAML to declare it.
    const made = (await api("POST", "/repos/acme-eng/api/hooks", {
      name: "web",
      config: { url: "https://ci.example.com/outside", content_type: "json" },
      events: ["push", "issues"],
    })) as { id: number };
    const imported = await program.ok(
      "import",
      "hosting:index:RepositoryWebhook",
      "adopted",
      `acme-eng/api/${made.id}`,
      "--yes",
    );
    expect(imported.stdout).toContain("type: hosting:RepositoryWebhook");
    expect(imported.stdout).toContain("url: https://ci.example.com/outside");
    expect(imported.stdout).toContain("contentType: json");
  });
});
