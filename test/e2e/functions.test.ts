/**
 * The functions through the real Pulumi CLI against the sandbox server: a program reading with
 * each of them (settings from stack config, the token a secret read without a warning, a secret
 * input making a secret output), and the dependency-policy example refusing a deployment while
 * acme-eng/api has an open critical alert, then deploying once it is dismissed.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { PulumiProgram, ROOT, requirePulumi } from "./pulumi";

const TOKEN = "svcp_siteadmin";
let emulator: RunningEmulator;

beforeAll(async () => {
  requirePulumi();
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator?.close();
});

async function control(method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${emulator.origin}/_emulator${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, await response.text()).toBeLessThan(300);
}

async function outputs(program: PulumiProgram): Promise<Record<string, unknown>> {
  return JSON.parse((await program.ok("stack", "output", "--json", "--show-secrets")).stdout);
}

describe("functions in a program", () => {
  it("read what the program does not manage, from the stack's config", async () => {
    await control("POST", "/reset");
    await control("PUT", "/jobs", { delayMs: 500 });
    const program = new PulumiProgram(
      "functions",
      readFileSync(join(ROOT, "test/e2e/fixtures/functions-program.js"), "utf8"),
    );
    await program.initStack(emulator.origin, TOKEN);
    const up = await program.ok("up", "--yes", "--skip-preview");
    expect(up.output).not.toContain(TOKEN);
    // pulumi.Config#get of a secret key warns "value is a secret"; the functions read it without.
    expect(up.output).not.toMatch(/value is a secret|plaintext/i);

    // The output of a secret input is stored encrypted.
    expect(program.stateFile()).not.toContain("acme-eng/api#1 critical");
    expect(await outputs(program)).toEqual({
      admins: ["admin", "olivia"],
      branches: ["develop", "main", "release/1.0"],
      legacy: { requested: "legacy", name: "develop", renamed: true },
      openAlerts: ["acme-eng/api#1 critical"],
      enterpriseAlerts: 4,
      contributors: expect.arrayContaining(["admin"]),
      emptyPunchCard: [],
      gpgKeys: 0,
    });
    // Nothing the functions read lands in state as a resource.
    expect(program.resources().filter((r) => r.type.includes("hosting"))).toEqual([]);
  });
});

/** The example as the CLI runs it: its TypeScript, transpiled as Pulumi's TypeScript support would. */
function dependencyPolicyProgram(): PulumiProgram {
  const dir = join(ROOT, "examples/dependency-policy");
  const js = (file: string) =>
    ts.transpileModule(readFileSync(join(dir, file), "utf8"), {
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
      },
    }).outputText;
  const program = new PulumiProgram("dependency-policy", js("index.ts"));
  writeFileSync(join(program.dir, "policy.js"), js("policy.ts"));
  return program;
}

describe("the dependency-policy example", () => {
  it("refuses a deployment while a configured repository has an open critical alert", async () => {
    await control("POST", "/reset");
    const hooks = () =>
      emulator.store.state.repoHooks.filter((h) => h.config.url.includes("deploy.example.com"));
    const program = dependencyPolicyProgram();
    await program.initStack(emulator.origin, TOKEN);
    await program.ok(
      "config",
      "set-all",
      "--path",
      "--plaintext",
      "repositories[0]=acme-eng/api",
      "--plaintext",
      "repositories[1]=acme-eng/web",
    );

    const refused = await program.run("up", "--yes");
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain("Deployment refused: 1 open critical dependency alert(s):");
    expect(refused.output).toMatch(
      /acme-eng\/api#1: lodash \(npm\) < 4\.17\.12, Prototype pollution in lodash; fixed in 4\.17\.12/,
    );
    // The check failed before any resource was declared: nothing changed, on the server or in state,
    // even when the preview that would have stopped it is skipped.
    expect(hooks()).toEqual([]);
    const skipped = await program.run("up", "--yes", "--skip-preview");
    expect(skipped.code).not.toBe(0);
    expect(skipped.output).toContain("acme-eng/api#1: lodash");
    expect(hooks()).toEqual([]);
    expect(program.resources().filter((r) => r.type.includes("hosting"))).toEqual([]);

    // Someone dismisses the alert (the update exists in API version 2026-03-10).
    const response = await fetch(`${emulator.url}/repos/acme-eng/api/depwatch/alerts/1`, {
      method: "PATCH",
      headers: {
        authorization: `Bearer ${TOKEN}`,
        "content-type": "application/json",
        "x-service-api-version": "2026-03-10",
      },
      body: JSON.stringify({
        state: "dismissed",
        dismissed_reason: "not_used",
        dismissed_comment: "Build tool only",
      }),
    });
    expect(response.status, await response.text()).toBe(200);

    await program.ok("up", "--yes");
    expect(
      hooks()
        .map((h) => h.repo)
        .sort(),
    ).toEqual(["acme-eng/api", "acme-eng/web"]);
  });
});
